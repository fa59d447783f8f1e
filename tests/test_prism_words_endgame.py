"""The lab's best-available strategy, prism-endgame/1: its endgame on a constructed position whose
right answer is known, its inference of the opponent's rack, and whole games that are legal and
repeatable given the seed."""

from __future__ import annotations

from egm.games.prism_words.endgame import ENDGAME_STRATEGY, Rollouts, ranked_plays, unseen_blocks
from egm.games.prism_words.game import PrismWords
from egm.games.prism_words.lab import PrismWordsLab
from egm.games.prism_words.strategy import apply_choice, machine_move
from egm.games.prism_words.table import PLAY, Table
from egm.rng import Rng
from tests.prism_support import block_index, example_paytable, table_with_racks


def play_out(table: Table) -> None:
    """Both seats on the machine strategy to the end."""
    while not table.finished:
        apply_choice(table, table.turn, machine_move(table))


def test_going_out_beats_the_bigger_play_when_the_opponent_goes_out_next() -> None:
    """HOSTED is on the grid; the bag is empty. Seat 0 holds G4.E1 and V4.E1, seat 1 T1.N1 and I1.T1.
    The reference takes the bigger play, GHOSTED (28 points, keeping V4.E1: -5 at the end); seat 1
    then plays out (IN / HI / ON, 9) and gains the 5: seat 0 ends 54 ahead. Going out at once with
    VEG (9 points: V above the E of HOSTED, G below) gains seat 1's 4 and costs it 4: 62 ahead.
    The endgame search finds that."""
    table = table_with_racks([["H4.O1", "O1.S1", "S1.E1", "E1.T1", "A1.D2", "T1.E1"],
                              ["N1.H4", "R1.S1", "L1.O1", "I1.T1", "U1.N1", "W4.E1"]])
    apply_choice(table, 0, machine_move(table))  # the reference's first word
    assert table.grid.rows_text()[7] == "..HOSTED......." and table.scores == [45, 0]
    taken = {block for block in table.grid.block if block >= 0}
    mine = [block_index(text, taken) for text in ("G4.E1", "V4.E1")]
    theirs = [block_index(text, taken) for text in ("T1.N1", "I1.T1")]
    table.racks, table.bag, table.turn = [mine, theirs], [], 0

    reference = machine_move(table)
    assert [(p.row, p.col, p.block) for p in reference.placements] == [(7, 1, mine[0])]  # GHOSTED
    assert ranked_plays(table, 1) == [reference]  # the reference's play is the first candidate

    rollouts = Rollouts(example_paytable().rules)
    best = rollouts.endgame(table)
    assert best.kind == PLAY and {p.block for p in best.placements} == set(mine)  # it goes out
    assert sorted((p.row, p.col) for p in best.placements) == [(6, 6), (8, 6)]  # VEG down through E

    outcomes = []
    for choice in (reference, best):
        line = table.copy()
        apply_choice(line, 0, choice)
        play_out(line)
        outcomes.append((line.played_out, line.end_adjustments, line.margin(0)))
    assert outcomes == [(1, [-5, 5], 54), (0, [4, -4], 62)]
    assert rollouts.line_value(table, 0, best)[1] == 62  # the search's own figure for its line
    assert table.racks == [mine, theirs] and table.moves[-1].seat == 0  # the search left the game alone


def test_with_the_bag_empty_the_unseen_blocks_are_the_opponents_rack() -> None:
    game = PrismWords(example_paytable())
    round_ = game.new_round(game.default_wager(1), Rng.from_seed(8), {})
    table = round_.table
    while table.bag:
        apply_choice(table, table.turn, machine_move(table))
    assert not table.finished
    for seat in (0, 1):
        assert unseen_blocks(table, seat) == sorted(table.racks[1 - seat])


def test_the_best_available_strategy_is_legal_and_repeatable() -> None:
    """Whole games with the customer on prism-endgame/1 through the round's own refusals (an illegal
    play would raise DecisionRefused): the same seed gives the same moves; the customer's choices
    differ from the reference's somewhere near the end."""
    paytable = example_paytable()
    game = PrismWords(paytable)
    lab = PrismWordsLab()

    def games(seed: int) -> tuple[list[dict], int]:
        strategy = lab.customer_strategy(paytable, ENDGAME_STRATEGY, seed)
        assert strategy is not None
        records, differ = [], 0
        for deal in range(3):
            round_ = game.new_round(game.default_wager(1), Rng.from_seed(deal), {})
            while not round_.finished:
                choice = strategy(round_.table)
                differ += choice != machine_move(round_.table)
                round_.decide(round_.decision_for(choice))
            records.append(round_.to_record())
        return records, differ

    first, differ = games(4)
    assert games(4) == (first, differ)
    assert differ > 0
    # the certification's run of it: the same chunk seed, the same tally
    one, two = (lab.run_chunk(paytable, ENDGAME_STRATEGY, 9, 2) for _ in range(2))
    assert one.to_dict() == two.to_dict() and one.games == 2
    replayed = [game.restore(record).table.to_record() for record in first]
    assert replayed == [{key: record[key] for key in replayed[0]} for record in first]
