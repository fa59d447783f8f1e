"""Poker Tiles (seed 000): 108 card tiles (two decks and four jokers) laid Scrabble-style on a board to
make poker hands, with a starting zone and card squares that double a hand's score.

Modules: `paytable` (the `[game]` table of the pay table), `hands` (which lines are proper hands),
`engine` (the compiled line scorer and move generator), `board` (the layout as the engine's arrays),
`table` (the state of one game: racks, pool, board, turns, end), `strategy` (the machine opponent and
the lab's strategies), `game` (the cabinet plug-in), `replay` (the replay contract) and `lab`. The
rules as implemented are in docs/poker-tiles.md.
"""
