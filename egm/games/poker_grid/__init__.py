"""Poker Grid (seed 001): cards placed next to each other on a 7 x 8 board to score poker hands.

Modules: `paytable` (the `[game]` table of the pay table), `board` (geometry, legal squares),
`scoring` (the hand a placement makes), `strategy` (the machine opponent and the lab's strategies),
`table` (the state of one game: hands, draw pile, board, scores), `game` (the cabinet plug-in) and
`cli` (`egm poker-grid replay`). The rules as implemented are in docs/poker-grid.md.
"""
