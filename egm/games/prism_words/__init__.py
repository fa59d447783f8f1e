"""Prism Words (seed 002): a crossword game played with two-faced prismatic blocks.

Modules: `blocks` (the 96 blocks, a ROM asset), `lexicon` (the signed word list as a DAWG in flat
arrays), `paytable` (the `[game]` table of the pay table), `board` (the grid and the rules of a
play: legality, words, the four scoring phases), `table` (the state of one game: bag, racks, turns,
end), `movegen` (the compiled anchor/cross-check move generator), `strategy` (the machine opponent
and the lab's strategies), `game` (the cabinet plug-in), `replay` (one full game as the rescoring
contract's JSON) and `lab` (the certification adapter). The rules as implemented are in
docs/prism-words.md.
"""
