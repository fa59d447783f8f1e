"""The patent's four worked examples (Figs. 3, 6, 8 and 10), settled with the default pay table.

Units are $10, so one point is $10. The jackpot carries over from one example to the next, as in the
patent: $0 -> $80 (Fig. 3) -> $80 (Fig. 6) -> won, new jackpot $60 (Fig. 8) -> $180 (Fig. 10).

The patent names only some cards (Fig. 3: the player's front three aces, the Dragon's four eights,
bonus cards 6s 6d; Figs. 6, 8 and 10: the bonus cards). The rest of each hand is chosen here to
produce exactly the row results and bonus hands the patent describes. Fig. 3's text also says the
dealer's back beat the Dragon's back, but then the Dragon could not have won two rows as Fig. 3e and
the payments say it did; the Dragon's back (four eights) wins the back here, which gives the patent's
payments exactly.
"""

from __future__ import annotations

import doctest
import itertools
from pathlib import Path

import pytest

from egm.cards import parse_cards
from egm.config import PROJECT_ROOT
from egm.games.base import Wager
from egm.games.dragon_poker import settlement
from egm.games.dragon_poker.hand import HandResult, play_hand
from egm.games.dragon_poker.pair_bonus import pair_bonus_hand
from egm.games.dragon_poker.payout import cabinet_payout
from egm.games.dragon_poker.paytable import DragonPokerRules
from egm.games.dragon_poker.setting import SetHand
from egm.games.dragon_poker.settlement import Side, hand_result_code, settle
from egm.rom.paytable import parse_paytable

PAYTABLE = PROJECT_ROOT / "paytables" / "dragon-poker.toml"
P, H, D = Side.PLAYER, Side.HOUSE, Side.DRAGON


@pytest.fixture(scope="module")
def rules() -> DragonPokerRules:
    """The default pay table's rules, schema-checked (no signature needed for settlement)."""
    _, rules = parse_paytable(Path(PAYTABLE), PAYTABLE.read_bytes())
    assert isinstance(rules, DragonPokerRules)
    return rules


def set_hand(front: str, middle: str, back: str) -> SetHand:
    setting = SetHand(tuple(parse_cards(front)), tuple(parse_cards(middle)), tuple(parse_cards(back)))
    assert setting.foul() is None
    return setting


# Each figure: (player, dealer, Dragon) set hands, the bonus cards.
FIG3 = (
    set_hand("Ac Ad Ah", "9c Tc Jd Qd Kh", "2h 4h 7h 9h Jh"),
    set_hand("Qc Qh 3c", "3d 4d 5c 6c 7c", "Kc Kd Ks 2c 2d"),
    set_hand("Jc Js 2s", "3s 4s 7s 9s Ts", "8c 8d 8h 8s 5h"),
    "6s 6d",
)
FIG6 = (
    set_hand("4c 7d 9c", "Tc Jd Qc Kd As", "2d 5d 8d 9d Qd"),
    set_hand("Kc Kh 5c", "6c 6h 7c 7h 8c", "2s 5s 8s Ts Ks"),
    set_hand("Qh Qs 4s", "Ac Ad 4h 5h 7s", "Jc Jh Js 3c 3d"),
    "2h 3h",
)
FIG8 = (
    set_hand("Ah Kh 2c", "Qd Qh 5c 5d 9d", "9h Ts Jd Qs Kd"),
    set_hand("Kc 7h 3c", "Jh Js 4c 6d 2d", "7c 7s 7d Ad 3d"),
    set_hand("Td 9s 4d", "Th Tc 3h 3s 6h", "8c 8d 8h 8s 2h"),
    "Jc Qc",
)
FIG10 = (
    set_hand("4c 6d Jd", "5h 6c 7c 8d 9d", "3c 8c Qc Kc Ac"),
    set_hand("Tc Td 2d", "Jc Jh 4d 4s 3h", "Ad Ah As Kd Qd"),
    set_hand("5s 5d 7d", "2h 4h 6h 9h Th", "8s 9s Ts Js Qs"),
    "2c 3d",
)


@pytest.mark.parametrize("figure", [FIG3, FIG6, FIG8, FIG10], ids=["fig3", "fig6", "fig8", "fig10"])
def test_figure_cards_are_one_deck(figure: tuple) -> None:
    cards = [c for setting in figure[:3] for row in ("front", "middle", "back") for c in setting.row(row)]
    cards += parse_cards(figure[3])
    assert len(cards) == len(set(cards)) == 41


def play(figure: tuple, rules: DragonPokerRules, jackpot_before: int) -> HandResult:
    return play_hand(*figure[:3], rules, jackpot_before)


def test_fig3_dragon_wins_and_the_jackpot_reaches_80(rules: DragonPokerRules) -> None:
    hand = play(FIG3, rules, jackpot_before=0)
    assert [hand.rows[row].player_vs_dealer for row in ("front", "middle", "back")] == [P, P, H]
    assert [hand.rows[row].winner for row in ("front", "middle", "back")] == [P, D, D]
    assert hand.bonuses[P] == {"front": 2, "middle": 0, "back": 0}  # three aces in front
    assert hand.bonuses[D] == {"front": 0, "middle": 0, "back": 3}  # four eights
    ledger = hand.ledger
    assert (ledger.winner, ledger.result_code, ledger.dragon_points) == ("D", "D2", 5)
    assert ledger.house_to_jackpot == 5  # the dealer pays the Dragon five units
    assert ledger.player_to_jackpot == 3  # five less the player's two
    assert ledger.bonus_exchange == 2  # the dealer pays the player two
    assert (ledger.jackpot_before, ledger.jackpot_after) == (0, 8)  # $80
    assert (ledger.player_net, ledger.house_net) == (-1, -7)
    assert pair_bonus_hand(parse_cards(FIG3[3])) == "natural_pair"  # 6s 6d: the pair bonus wins


def test_fig6_split_the_player_pays_the_house_10(rules: DragonPokerRules) -> None:
    hand = play(FIG6, rules, jackpot_before=8)
    assert [hand.rows[row].player_vs_dealer for row in ("front", "middle", "back")] == [H, P, H]
    assert [hand.rows[row].winner for row in ("front", "middle", "back")] == [H, P, D]
    ledger = hand.ledger
    assert (ledger.winner, ledger.result_code) == ("split", "S")
    assert hand.bonus_points == {P: 0, H: 0, D: 0}
    assert (ledger.player_net, ledger.house_net) == (-1, 1)  # the player pays the house $10
    assert (ledger.jackpot_before, ledger.jackpot_after) == (8, 8)  # unchanged at $80
    assert pair_bonus_hand(parse_cards(FIG6[3])) is None


def test_fig8_player_wins_the_jackpot_and_a_new_one_starts_at_60(rules: DragonPokerRules) -> None:
    hand = play(FIG8, rules, jackpot_before=8)
    assert [hand.rows[row].player_vs_dealer for row in ("front", "middle", "back")] == [P, P, P]
    assert [hand.rows[row].winner for row in ("front", "middle", "back")] == [P, P, D]
    assert hand.bonus_points == {P: 0, H: 0, D: 3}  # the Dragon's four of a kind
    ledger = hand.ledger
    assert (ledger.winner, ledger.result_code, ledger.win_points) == ("P", "P2", 2)  # $20 from the house
    assert (ledger.jackpot_won_by, ledger.jackpot_won) == ("P", 8)  # the $80 jackpot
    assert (ledger.player_to_jackpot, ledger.house_to_jackpot) == (3, 3)  # $30 each for the quads
    assert ledger.player_net == 7  # +$70
    assert ledger.house_net == -5  # the house pays $20 + $30
    assert ledger.jackpot_after == 6  # new jackpot $60


def test_fig10_each_side_pays_60_and_the_jackpot_reaches_180(rules: DragonPokerRules) -> None:
    hand = play(FIG10, rules, jackpot_before=6)
    assert [hand.rows[row].player_vs_dealer for row in ("front", "middle", "back")] == [H, P, P]
    assert [hand.rows[row].winner for row in ("front", "middle", "back")] == [H, D, D]
    assert hand.bonus_points == {P: 0, H: 0, D: 4}  # the Dragon's straight flush
    ledger = hand.ledger
    assert (ledger.result_code, ledger.dragon_points) == ("D2", 6)
    assert (ledger.player_net, ledger.house_net) == (-6, -6)  # each pays $60
    assert ledger.jackpot_after == 18  # $180


def test_the_four_examples_from_row_winners_alone(rules: DragonPokerRules) -> None:
    """The same ledgers from the pure settle() API the lab's kernel mirrors."""
    fig3 = settle((P, D, D), {P: 2, H: 0, D: 3}, rules, 0)
    fig6 = settle((H, P, D), {P: 0, H: 0, D: 0}, rules, fig3.jackpot_after)
    fig8 = settle((P, P, D), {P: 0, H: 0, D: 3}, rules, fig6.jackpot_after)
    fig10 = settle((H, D, D), {P: 0, H: 0, D: 4}, rules, fig8.jackpot_after)
    assert [(x.player_net, x.house_net, x.jackpot_after) for x in (fig3, fig6, fig8, fig10)] == [
        (-1, -7, 8), (-1, 1, 8), (7, -5, 6), (-6, -6, 18)]


def test_fig8_on_the_cabinet_in_dollars(rules: DragonPokerRules) -> None:
    """$10 a point: 1 credit per point at a $10 denomination; the $80 pool is won as 8 credits."""
    ledger = play(FIG8, rules, jackpot_before=8).ledger
    wager = Wager(bet_credits=1, stake_credits=rules.stake_points, denom_cents=1000)
    payout = cabinet_payout(ledger, wager, rules, pool_before_cents=8000, pair_bonus_credits=0)
    assert payout.jackpot_credits == 8
    assert payout.win_credits - wager.stake_credits == 7  # the player nets $70
    assert payout.pool_after_cents == 6000  # new jackpot $60


@pytest.mark.parametrize("rows,bonus", [
    ((P, P, P), {P: 5, H: 0, D: 4}), ((H, H, D), {P: 0, H: 7, D: 9}), ((D, D, D), {P: 2, H: 12, D: 3}),
    ((P, H, D), {P: 3, H: 3, D: 3}), ((D, P, H), {P: 0, H: 0, D: 0}),
])
def test_every_point_is_accounted_for(rules: DragonPokerRules, rows: tuple, bonus: dict) -> None:
    ledger = settle(rows, bonus, rules, jackpot_before=11)
    assert ledger.player_net + ledger.house_net + ledger.jackpot_after - ledger.jackpot_before == 0
    assert ledger.player_to_jackpot == max(0, ledger.dragon_points - bonus[P])
    assert ledger.house_to_jackpot == max(0, ledger.dragon_points - bonus[H])


def test_three_rows_pay_three_and_a_house_sweep_takes_the_jackpot(rules: DragonPokerRules) -> None:
    ledger = settle((H, H, H), {P: 0, H: 0, D: 0}, rules, jackpot_before=9)
    assert (ledger.result_code, ledger.win_points, ledger.jackpot_won_by) == ("H3", 3, "H")
    assert (ledger.player_net, ledger.house_net, ledger.jackpot_after) == (-3, 12, 0)


def test_the_live_tables_code_is_the_cabinets_for_every_hand(rules: DragonPokerRules) -> None:
    """hand_result_code (the live table's keypad) gives the scoreboard code the cabinet's settlement
    records, for all 27 ways three rows can fall: 2+ rows win, one row each is a split "S"."""
    codes = {}
    for rows in itertools.product(Side, repeat=3):
        ledger = settle(rows, dict.fromkeys(Side, 0), rules, jackpot_before=0)
        codes[rows] = hand_result_code(*rows)
        assert codes[rows] == ledger.result_code
    assert sorted(set(codes.values())) == ["D2", "D3", "H2", "H3", "P2", "P3", "S"]
    assert codes[P, H, D] == codes[D, P, H] == "S" and codes[H, D, H] == "H2" and codes[P, P, P] == "P3"


@pytest.mark.parametrize("rows", [("P", "H", "X"), ("p", "h", "d"), ("", "P", "P")])
def test_a_row_winner_that_is_not_p_h_or_d_is_refused(rows: tuple[str, str, str]) -> None:
    with pytest.raises(ValueError, match="each row's winner is P, H or D"):
        hand_result_code(*rows)


def test_settlement_doctests() -> None:
    result = doctest.testmod(settlement)
    assert result.failed == 0 and result.attempted > 0
