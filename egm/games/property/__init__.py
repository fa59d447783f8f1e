"""Property (seed 003): Darrow's real-estate trading board game, in a short form on the cabinet.

Modules: `paytable` (the `[game]` table: the board and title cards, the two card decks, the short
form and the pays; all of it ROM), `board` (the board and decks as the engine uses them), `table`
(the rules engine: money, rent, building, mortgages, jail, cards, auctions, trades, bankruptcy),
`strategy` (the machine strategies), `game` (the cabinet plug-in), `replay` (the replay contract),
`scene` (the table on the cabinet's display) and `lab` (certification and the exact movement chain;
not firmware). Rules as implemented: docs/property.md.
"""
