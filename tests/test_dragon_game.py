"""Dragon Poker on the cabinet: deal, designation, setting and its refusals, the house way, record and
restore, the view, the wager and its money, the pair bonus, and pay-table validation."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections import Counter
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest

from egm.cards import DECK, Card, parse_cards
from egm.games import game_class
from egm.games.base import Decision, DecisionRefused, Wager
from egm.games.base import play_reference as play_to_the_end
from egm.games.dragon_poker import game as game_module
from egm.games.dragon_poker.deal import Deal, deal
from egm.games.dragon_poker.game import DEFAULT_PAYTABLE, DragonPoker, DragonPokerRound, display_order
from egm.games.dragon_poker.house_way import HOUSE_WAY_VERSION, set_house_way
from egm.games.dragon_poker.pair_bonus import pair_bonus_counts, pair_bonus_rtp
from egm.games.dragon_poker.paytable import PAIR_BONUS_HANDS
from egm.rng import Rng
from egm.rom import PaytableError, load_paytable
from egm.rom.paytable import parse_paytable
from tests.rom_support import sign_tree

FOUL_HAND = "As Ah Ad Kc Kd Qs Qh 9c 8d 7h 5s 4c 2d"
DESIGNATE = Decision("designate", {"player": "A", "dealer": "B", "dragon": "C"})


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> DragonPoker:
    """The default pay table through the pay-table ROM, against a freshly signed manifest."""
    from egm.config import PROJECT_ROOT

    tree = sign_tree(PROJECT_ROOT, tmp_path_factory.mktemp("rom"))
    paytable = load_paytable(DEFAULT_PAYTABLE, manifest_path=tree.manifest_path,
                             trusted_keys=tree.trusted_keys)
    return DragonPoker(paytable)


def deck_with(hand_a: str, bonus: str = "") -> Deal:
    """A deal whose hand A and bonus cards are given; every other card follows in index order."""
    first, last = parse_cards(hand_a), parse_cards(bonus)
    rest = [c for c in DECK if c not in first and c not in last]
    return Deal(tuple(first + rest + last))


def round_from(game: DragonPoker, dealt: Deal, side_bet: int = 0, pool: int = 0) -> DragonPokerRound:
    wager = game.wager(1, 25, pair_bonus_credits=side_bet)
    return DragonPokerRound(game.rules, wager, dealt, pool, [])


def play_reference(round_: DragonPokerRound) -> DragonPokerRound:
    play_to_the_end(round_)
    return round_


# --- deal ----------------------------------------------------------------------------------------
def test_the_deal_is_one_shuffle_of_the_deck_in_index_order() -> None:
    shuffled = list(DECK)
    Rng.from_seed(42).shuffle(shuffled)
    dealt = deal(Rng.from_seed(42))
    assert list(dealt.deck) == shuffled
    assert dealt.hands["A"] == tuple(shuffled[0:13]) and dealt.hands["D"] == tuple(shuffled[39:52])
    assert dealt.bonus_cards == tuple(shuffled[52:54])


def test_the_registry_finds_the_game() -> None:
    assert game_class("dragon-poker") is DragonPoker
    assert DragonPoker.steps[-1] == "complete" and DragonPoker.pool_names == ("dragon_jackpot",)


# --- decisions and refusals -----------------------------------------------------------------------
@pytest.mark.parametrize("args,reason", [
    ({"player": "A", "dealer": "B"}, "exactly the player, dealer and dragon"),
    ({"player": "A", "dealer": "A", "dragon": "C"}, "three different hands"),
    ({"player": "A", "dealer": "B", "dragon": "E"}, "labels A, B, C, D"),
])
def test_bad_designations_are_refused(game: DragonPoker, args: dict, reason: str) -> None:
    round_ = round_from(game, deck_with(FOUL_HAND))
    with pytest.raises(DecisionRefused, match=reason):
        round_.decide(Decision("designate", args))
    assert round_.step == "designate" and round_.decisions == []


def test_decisions_in_the_wrong_step_are_refused(game: DragonPoker) -> None:
    round_ = round_from(game, deck_with(FOUL_HAND))
    with pytest.raises(DecisionRefused, match="refused at step 'designate'"):
        round_.decide(Decision("house_way"))
    round_.decide(DESIGNATE)
    with pytest.raises(DecisionRefused, match="refused at step 'set'"):
        round_.decide(DESIGNATE)
    round_.decide(Decision("house_way"))
    with pytest.raises(DecisionRefused, match="this game is complete"):
        round_.decide(Decision("house_way"))
    with pytest.raises(DecisionRefused, match="complete"):
        round_.reference_decision()


@pytest.mark.parametrize("front,middle,reason", [
    (["As", "Ah", "Ad"], ["Kc", "Kd", "Qs", "Qh", "9c"], "Foul: the back .* must beat or equal the middle"),
    (["Kc", "Kd", "2d"], ["9c", "8d", "7h", "5s", "4c"],
     "Foul: the middle \\(Nine High\\) must beat or equal the front \\(Pair of Kings\\)"),
    (["9c", "8d", "9c"], ["Kc", "Kd", "Qs", "Qh", "5s"], "Card 9c is used twice"),
    (["9c", "8d", "7h"], ["Kc", "Kd", "Qs", "Qh", "Jc"], "Card Jc is not in the player hand"),
    (["9c", "8d", "JK"], ["Kc", "Kd", "Qs", "Qh", "5s"], "Card JK is not in the player hand"),
    (["9c", "8d"], ["Kc", "Kd", "Qs", "Qh", "5s"], "The front takes exactly 3 cards"),
    (["9c", "8d", "7h"], "Kc Kd Qs Qh 5s", "The middle takes exactly 5 cards"),
    (["9c", "8d", "7x"], ["Kc", "Kd", "Qs", "Qh", "5s"], "'7x' is not a card"),
    (["9c", "8d", "7h"], None, "A 'set' takes the 'front' \\(3 cards\\) and the 'middle'"),
])
def test_bad_settings_are_refused_with_the_rule(game: DragonPoker, front: list, middle: object,
                                                  reason: str) -> None:
    round_ = round_from(game, deck_with(FOUL_HAND))
    round_.decide(DESIGNATE)
    before = round_.to_record()
    args = {"front": front, "middle": middle} if middle is not None else {"front": front}
    with pytest.raises(DecisionRefused, match=reason):
        round_.decide(Decision("set", args))
    with pytest.raises(DecisionRefused, match="'house_way' takes no arguments"):
        round_.decide(Decision("house_way", {"front": front}))
    assert round_.to_record() == before and round_.step == "set"


def test_a_card_of_another_hand_is_refused(game: DragonPoker) -> None:
    round_ = round_from(game, deck_with(FOUL_HAND))
    round_.decide(Decision("designate", {"player": "B", "dealer": "A", "dragon": "C"}))
    player = [str(c) for c in round_.dealt.hands["B"]]
    with pytest.raises(DecisionRefused, match="Card As is not in the player hand"):
        round_.decide(Decision("set", {"front": ["As", *player[:2]], "middle": player[2:7]}))


def test_a_good_setting_and_jokers_by_name(game: DragonPoker) -> None:
    round_ = round_from(game, deck_with("JK JK As Ah Ad Kc Kd Qs Qh 9c 8d 7h 2d"))
    round_.decide(DESIGNATE)
    with pytest.raises(DecisionRefused, match="Card JK is used twice"):
        round_.decide(Decision("set", {"front": ["JK", "JK", "9c"],
                                       "middle": ["JK", "Kd", "Qs", "Qh", "2d"]}))
    round_.decide(Decision("set", {"front": ["9c", "8d", "7h"], "middle": ["JK", "Kc", "Kd", "Qs", "Qh"]}))
    setting = round_.result.settings["P"]
    assert [str(c) for c in setting.back] == ["JK", "As", "Ah", "Ad", "2d"]  # four aces
    assert {c.index for c in setting.middle + setting.back if c.is_joker} == {52, 53}
    assert round_.result.bonuses["P"]["back"] == game.rules.bonus_points.back["four_of_a_kind"]
    assert round_.view().table["hand_descriptions"]["P"]["middle"] == "Full House, Kings over Queens"


# --- the house way ------------------------------------------------------------------------------
def test_the_house_way_never_fouls_and_is_deterministic() -> None:
    rng = Rng.from_seed(2024)
    for _ in range(1500):
        dealt = deal(rng)
        for hand in dealt.hands.values():
            setting = set_house_way(hand)
            assert setting.foul() is None
            assert sorted(setting.front + setting.middle + setting.back) == sorted(hand)
            assert set_house_way(tuple(reversed(hand))) == setting  # the dealt order does not matter


def test_the_house_way_breaks_a_full_house_for_stronger_rows() -> None:
    # house-way/1 (greedy) set Jack High | Nine-High Straight | Full House, Deuces over Kings.
    setting = set_house_way(parse_cards("Kh Kc Jc 9s 8c 7d 7c 6d 5s 3h 2s 2d 2c"))
    assert setting.to_dict() == {"front": ["Kh", "Kc", "7d"], "middle": ["Jc", "3h", "2s", "2d", "2c"],
                                 "back": ["9s", "8c", "7c", "6d", "5s"]}  # kings, three deuces, a straight
    # house-way/1 set Six High | Pair of Jacks | Full House, Kings over Queens.
    setting = set_house_way(parse_cards("Ac Ks Kd Kc Qh Qc Js Jc 8d 7d 6c 4c 3s"))
    assert setting.to_dict() == {"front": ["Qh", "Qc", "Js"], "middle": ["Ks", "Kd", "8d", "7d", "3s"],
                                 "back": ["Ac", "Kc", "Jc", "6c", "4c"]}  # queens, kings, a flush
    assert HOUSE_WAY_VERSION == "house-way/2"


# --- record, restore and the view ----------------------------------------------------------------
@pytest.mark.parametrize("stop_after", [0, 1, 2])
def test_record_restore_at_every_step_gives_the_same_game(game: DragonPoker, stop_after: int) -> None:
    pools = {"dragon_jackpot": 500}
    straight = play_reference(game.new_round(game.default_wager(25), Rng.from_seed(7), pools))
    round_ = game.new_round(game.default_wager(25), Rng.from_seed(7), {"dragon_jackpot": 500})
    for _ in range(stop_after):
        round_.decide(round_.reference_decision())
    restored = game.restore(json.loads(json.dumps(round_.to_record())))
    assert restored.step == round_.step and restored.view() == round_.view()
    play_reference(restored)
    assert restored.outcome() == straight.outcome()
    assert restored.to_record() == straight.to_record()


def test_a_damaged_record_is_refused(game: DragonPoker) -> None:
    record = game.new_round(game.default_wager(25), Rng.from_seed(7), {}).to_record()
    record["decisions"] = [{"kind": "house_way", "args": {}}]
    with pytest.raises(ValueError, match="damaged"):
        game.restore(record)
    with pytest.raises(ValueError, match="not a dragon-poker record"):
        game.restore({**record, "game_id": "poker-grid"})


def test_the_view_hides_face_down_hands_until_their_reveal(game: DragonPoker) -> None:
    round_ = game.new_round(game.default_wager(25), Rng.from_seed(3), {}, scoreboard=["P2"] * 10)
    assert all(h["cards"] is None for h in round_.view().table["hands"].values())
    round_.decide(DESIGNATE)
    view = round_.view().table
    shown = [str(c) for c in sorted(round_.dealt.hands["A"], key=display_order)]  # sorted to be set
    assert view["hands"]["A"] == {"role": "player", "face_up": True, "cards": shown}
    assert [view["hands"][x]["cards"] for x in "BCD"] == [None, None, None]
    assert view["decisions_allowed"] == ["set", "house_way"]
    round_.decide(Decision("house_way"))
    view = round_.view().table
    assert all(h["face_up"] for h in view["hands"].values()) and view["hands"]["D"]["role"] == "discard"
    assert view["reveal_order"][:2] == ["player_set", "dealer_revealed"]
    assert view["scoreboard"] == [round_.outcome().result_code] + ["P2"] * 9  # newest first
    assert view["jackpot_cents"] == round_.outcome().pools_cents["dragon_jackpot"]


# --- wager and money -----------------------------------------------------------------------------
def test_default_wager_and_refused_wagers(game: DragonPoker) -> None:
    wager = game.default_wager(5)
    assert (wager.bet_credits, wager.stake_credits, wager.denom_cents) == (1, 10, 5)
    rng = Rng.from_seed(1)
    for bad, reason in [
        (Wager(bet_credits=3, stake_credits=30, denom_cents=5), "a bet of 3 credits is not offered"),
        (Wager(bet_credits=1, stake_credits=10, denom_cents=7), "7-cent credits are not offered"),
        (Wager(bet_credits=2, stake_credits=21, denom_cents=5), "the stake must be 10 x the bet of 2"),
        (Wager(bet_credits=1, stake_credits=11, denom_cents=5, side_bets={"tie": 1}), "side bet 'tie'"),
        (Wager(bet_credits=1, stake_credits=21, denom_cents=5, side_bets={"pair_bonus": 11}), "0 to 10"),
    ]:
        with pytest.raises(ValueError, match=reason):
            game.new_round(bad, rng, {})


def test_the_return_is_the_stake_plus_net_points_plus_jackpot_and_pair_bonus(game: DragonPoker) -> None:
    """Many seeds at 2 credits a point: every outcome pays exactly what the ledger says."""
    rules, pool = game.rules, 0
    codes: Counter[str] = Counter()
    for seed in range(60):
        wager = game.wager(2, 5, pair_bonus_credits=3)
        round_ = play_reference(game.new_round(wager, Rng.from_seed(seed), {"dragon_jackpot": pool}))
        outcome, ledger = round_.outcome(), round_.result.ledger
        jackpot = pool // 5 if ledger.jackpot_won_by == "P" else 0
        pair = outcome.summary["pair_bonus"]["win_credits"]
        assert outcome.win_credits == max(0, rules.stake_points + ledger.player_points) * 2 + jackpot + pair
        paid_in = (ledger.player_to_jackpot + ledger.house_to_jackpot) * 2 * 5
        new_pool = paid_in if ledger.jackpot_won_by else pool + paid_in
        assert outcome.pools_cents == {"dragon_jackpot": new_pool}
        assert ledger.jackpot_before == pool // 10  # the pool in points of this bet
        pool = new_pool
        codes[outcome.result_code] += 1
    assert set(codes) <= {"P2", "P3", "H2", "H3", "D2", "D3", "S"} and len(codes) >= 5


def test_a_jackpot_remainder_below_one_credit_stays_in_the_pool(game: DragonPoker) -> None:
    seed = next(s for s in range(200) if play_reference(
        game.new_round(game.default_wager(25), Rng.from_seed(s), {})).result.ledger.jackpot_won_by == "P")
    pools = {"dragon_jackpot": 1010}
    round_ = play_reference(game.new_round(game.default_wager(25), Rng.from_seed(seed), pools))
    ledger = round_.result.ledger
    assert round_.payout.jackpot_credits == 40  # 1000 cents of 1010, in 25-cent credits
    assert round_.outcome().pools_cents["dragon_jackpot"] == 10 + (ledger.player_to_jackpot +
                                                                    ledger.house_to_jackpot) * 25


def test_the_pair_bonus_pays_on_the_cabinet(game: DragonPoker) -> None:
    round_ = play_reference(round_from(game, deck_with(FOUL_HAND, bonus="6s 6d"), side_bet=5))
    assert round_.outcome().summary["pair_bonus"] == {"bet_credits": 5, "hand": "natural_pair",
                                                      "win_credits": 5 * (7 + 1)}
    assert round_.payout.pair_bonus_credits == 40


# --- the pair bonus's exact RTP ------------------------------------------------------------------
def test_pair_bonus_rtp_is_exact_over_all_1431_two_card_hands(game: DragonPoker) -> None:
    pays = game.rules.pair_bonus.pays_to_one
    pairs = list(combinations(DECK, 2))
    assert len(pairs) == 1431 == sum(pair_bonus_counts().values())

    def returned(a: Card, b: Card) -> int:  # an independent count, straight from the rules' words
        if a.is_joker and b.is_joker:
            return pays["two_jokers"] + 1
        if a.is_joker or b.is_joker:
            return pays["joker_pair"] + 1
        if a.rank == b.rank:
            return pays["natural_aces" if a.rank == 12 else "natural_pair"] + 1
        return 0

    assert pair_bonus_rtp(game.rules) == Fraction(sum(returned(a, b) for a, b in pairs), 1431)
    assert pair_bonus_rtp(game.rules) == Fraction(1353, 1431)  # 94.549%, as docs/dragon-poker.md says
    assert [pair_bonus_counts()[name] for name in PAIR_BONUS_HANDS] == [1, 6, 72, 104]


# --- pay-table validation -------------------------------------------------------------------------
@pytest.mark.parametrize("remove,reason", [
    ("five_of_a_kind = 5\n\n# Side bet", "bonus_points.back has no points for five_of_a_kind"),
    ("three_of_a_kind = 2\n", "bonus_points.front has no points for three_of_a_kind"),
    ("joker_pair = 4\n", "pair_bonus.pays_to_one has no points for joker_pair"),
    ("stake_points = 10\n", "missing key 'game.stake_points'"),
])
def test_a_paytable_that_cannot_settle_fails_validation(remove: str, reason: str) -> None:
    text = DEFAULT_PAYTABLE.read_text(encoding="utf-8")
    assert remove in text
    broken = text.replace(remove, remove.split("\n", 1)[1] if remove.count("\n") > 1 else "", 1)
    with pytest.raises(PaytableError, match=reason):
        parse_paytable(Path("dragon-poker.toml"), broken.encode())


def test_the_shipped_paytable_names_the_house_way(game: DragonPoker) -> None:
    assert game.paytable.header.strategy == HOUSE_WAY_VERSION
    assert game.paytable.header.game == "dragon-poker"


@pytest.mark.parametrize("strategy", ["house-way/1", None])
def test_a_paytable_for_another_house_way_is_refused(game: DragonPoker, strategy: str | None) -> None:
    header = game.paytable.header.model_copy(update={"strategy": strategy})
    with pytest.raises(ValueError, match="Dragon Poker sets hands by 'house-way/2'"):
        DragonPoker(dataclasses.replace(game.paytable, header=header))


def test_replay_loads_through_the_rom(game: DragonPoker, monkeypatch: pytest.MonkeyPatch,
                                      tmp_path: Path) -> None:
    """The module-level loader goes through egm.rom.load_paytable (never reads the TOML itself)."""
    from egm.config import PROJECT_ROOT

    tree = sign_tree(PROJECT_ROOT, tmp_path)
    monkeypatch.setattr(game_module, "load_paytable", functools.partial(
        load_paytable, manifest_path=tree.manifest_path, trusted_keys=tree.trusted_keys))
    assert game_module.load_default_paytable().rules == game.rules
