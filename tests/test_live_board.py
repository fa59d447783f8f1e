"""The live table's board from its append-only hand log (egm.live.board): the patent's Figs. 5, 7
and 9, corrections and voids, and the code derived by the cabinet's rule."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import egm.live.board
from egm.live.board import Entry, board, current_hands, result_code

# The row winners of the patent's worked hands (tests/test_dragon_settlement.py): Fig. 3's hand is
# row 476-1 of Fig. 5, Fig. 6's is row 476-2 of Fig. 7, Fig. 8's is row 476-3 of Fig. 9.
FIG3, FIG6, FIG8 = ("P", "D", "D"), ("H", "P", "D"), ("P", "P", "D")


def test_doctests() -> None:
    assert doctest.testmod(egm.live.board).failed == 0


def log_of(*hands: tuple[str, str, str]) -> list[Entry]:
    return [Entry(i + 1, i + 1, "entry", *winners) for i, winners in enumerate(hands)]


@pytest.mark.parametrize(("hands", "codes"), [
    ((FIG3,), ["D2"]),                   # Fig. 5: row 476-1
    ((FIG3, FIG6), ["D2", "S"]),         # Fig. 7: row 476-2 added
    ((FIG3, FIG6, FIG8), ["D2", "S", "P2"]),  # Fig. 9: row 476-3 added
], ids=["fig5", "fig7", "fig9"])
def test_the_patent_figures(hands: tuple, codes: list[str]) -> None:
    shown = board(current_hands(log_of(*hands)))
    assert [row["code"] for row in shown["rows"]] == codes
    assert [(row["front"], row["middle"], row["back"]) for row in shown["rows"]] == list(hands)


def test_the_board_keeps_the_ten_newest_rows_newest_last() -> None:
    hands = [("P", "P", "H")] * 11 + [("H", "H", "H")]
    rows = board(current_hands(log_of(*hands)))["rows"]
    assert len(rows) == 10 and rows[-1]["code"] == "H3" and rows[0]["hand_id"] == 3


def test_a_correction_replaces_the_hand_in_place_and_is_marked() -> None:
    log = [*log_of(FIG3, FIG6, FIG8), Entry(4, 2, "correction", "H", "H", "D")]
    rows = board(current_hands(log))["rows"]
    assert [(r["hand_id"], r["code"], r["corrected"]) for r in rows] == [
        (1, "D2", False), (2, "H2", True), (3, "P2", False)]


def test_a_voided_hand_leaves_every_road() -> None:
    log = [*log_of(FIG3, FIG6, FIG8), Entry(4, 1, "void")]
    shown = board(current_hands(log))
    assert [r["hand_id"] for r in shown["rows"]] == [2, 3]
    assert {c["hand_id"] for c in shown["bead_plate"]} == {2, 3}
    assert shown["totals"] == {"P": 1, "H": 0, "D": 0, "S": 1}


def test_a_winner_that_is_not_p_h_or_d_is_refused() -> None:
    with pytest.raises(ValueError, match=r"P \(player\), H \(house\) or D \(Dragon\)"):
        result_code("P", "X", "D")


@pytest.mark.parametrize("rows", [(f, m, b) for f in "PHD" for m in "PHD" for b in "PHD"])
def test_the_code_follows_the_patent_rule(rows: tuple[str, str, str]) -> None:
    """[0028]: P2 means the player won two of the set hands, H3 the house all three; one each is a
    split (the player pays the house one unit)."""
    most = max("PHD", key=rows.count)
    expected = f"{most}{rows.count(most)}" if rows.count(most) >= 2 else "S"
    assert result_code(*rows) == expected


operations = st.lists(st.tuples(st.sampled_from(["entry", "correction", "void"]), st.integers(0, 30),
                                st.sampled_from("PHD"), st.sampled_from("PHD"), st.sampled_from("PHD")),
                      max_size=60)


@given(operations)
@example([("entry", 0, "P", "D", "D"), ("void", 0, "P", "P", "P"), ("correction", 0, "H", "H", "H")])
def test_the_board_is_every_hands_newest_version_without_the_voided(ops: list) -> None:
    """A model of the keypad's rules: a correction or void applies only to a hand entered and not
    voided (the server refuses the others); the board keeps entry order."""
    log, model, order = [], {}, []
    for seq, (kind, pick, front, middle, back) in enumerate(ops, start=1):
        if kind == "entry":
            log.append(Entry(seq, seq, "entry", front, middle, back))
            model[seq] = ((front, middle, back), False)
            order.append(seq)
            continue
        live = [hand for hand in order if hand in model]
        if not live:
            continue
        hand = live[pick % len(live)]
        if kind == "void":
            log.append(Entry(seq, hand, "void"))
            del model[hand]
        else:
            log.append(Entry(seq, hand, "correction", front, middle, back))
            model[hand] = ((front, middle, back), True)
    shown = board(current_hands(log))
    expected = [hand for hand in order if hand in model]
    assert [row["hand_id"] for row in shown["rows"]] == expected[-10:]
    for row in shown["rows"]:
        winners, corrected = model[row["hand_id"]]
        assert (row["front"], row["middle"], row["back"]) == winners and row["corrected"] == corrected
        assert row["code"] == result_code(*winners)
    assert sum(shown["totals"].values()) == len(expected)
