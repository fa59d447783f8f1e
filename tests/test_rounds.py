"""The round engine (egm.play.rounds), on its own: a wager checked, a round started and settled, and
the meters it moves. The cabinet's tests prove it applies these figures as before; here the figures
themselves: whatever the deal, the bet, the limits, start + settle keep the accounting identity."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from egm.config import PROJECT_ROOT
from egm.games import game_class
from egm.games.base import Game, play_reference
from egm.meters import Meters
from egm.play import rounds
from egm.rng import Rng
from egm.rom import load_paytable
from tests.rom_support import sign_tree

GAME = "dragon-poker"  # a pool (the Dragon jackpot), a side bet (the pair bonus) and a scoreboard


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    tree = sign_tree(PROJECT_ROOT, tmp_path_factory.mktemp("rom"))
    paytable = load_paytable(PROJECT_ROOT / "paytables" / f"{GAME}.toml", root=tree.root,
                             trusted_keys=tree.trusted_keys, manifest_path=tree.manifest_path)
    return game_class(GAME)(paytable)


def funded(cents: int) -> Meters:
    meters = Meters()
    meters.add("bills_in", cents)
    meters.add("current_credits", cents)
    return meters


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**32),
    bet=st.sampled_from([1, 2, 5, 10]),
    denom=st.sampled_from([1, 5, 25, 100]),
    pair_bonus=st.integers(0, 10),
    spare_cents=st.integers(0, 100_000),
    hand_pay_limit_cents=st.sampled_from([1, 500, 120_000]),
    credit_limit_cents=st.sampled_from([0, 100, 1_000_000]),
    credit_limit_win=st.sampled_from(["handpay", "ticket"]),
)
@example(seed=0, bet=10, denom=100, pair_bonus=10, spare_cents=0, hand_pay_limit_cents=1,
         credit_limit_cents=0, credit_limit_win="ticket")
def test_start_and_settle_keep_the_accounting_identity(
    game: Game, seed: int, bet: int, denom: int, pair_bonus: int, spare_cents: int,
    hand_pay_limit_cents: int, credit_limit_cents: int, credit_limit_win: str,
) -> None:
    wager = rounds.check_wager(game, rounds.requested_wager(game, denom, bet, {"pair_bonus": pair_bonus}),
                               denom_cents=denom, denominations_cents=[1, 5, 25, 100],
                               bet_levels=[1, 2, 5, 10])
    stake = wager.stake_credits * denom
    meters = funded(stake + spare_cents)
    before = meters.copy()
    started = rounds.start(game, wager, Rng.from_seed(seed), number=7, pools_held={"other_game_pool": 3})
    started.meter_deltas.apply(meters)
    assert started.stake_cents == stake
    assert meters.breach_since(before) == "" and meters.balance_error() == 0
    assert meters["current_credits"] == spare_cents and meters["coin_in"] == stake
    assert meters["side_bet_in"] == pair_bonus * denom <= stake
    assert started.record == {"game_id": GAME, "paytable_id": game.paytable.id, "number": 7,
                              "wager": wager.to_record(), "round": started.round.to_record()}

    outcome = play_reference(started.round)
    at_start = meters.copy()
    settled = rounds.settle(
        game, started.round, started.record, credits_cents=meters["current_credits"],
        hand_pay_limit_cents=hand_pay_limit_cents, credit_limit_cents=credit_limit_cents,
        credit_limit_win=credit_limit_win, pools_held={"other_game_pool": 3}, pool_meters={},
        scoreboard={"other-game": ["X"]},
    )
    settled.meter_deltas.apply(meters)
    assert meters.breach_since(at_start) == "" and meters.balance_error() == 0
    win = outcome.win_credits * denom
    assert (settled.win_cents, settled.stake_cents) == (win, stake)
    assert settled.hand_paid == bool(settled.why) == (
        win > game.paytable.header.max_win_cents or win >= hand_pay_limit_cents
        or (settled.past_credit_limit and credit_limit_win == "handpay"))
    credited = 0 if settled.hand_paid else win
    assert meters["current_credits"] == spare_cents + credited and meters["coin_out"] == credited
    assert meters.per_game[GAME] == {"coin_in": stake, "coin_out": credited, "games_played": 1}
    assert meters["side_bet_out"] == sum(outcome.side_bet_wins_credits.values()) * denom
    assert (meters["games_won"], meters["games_lost"]) == ((1, 0) if win > stake else (0, 1))
    assert settled.past_credit_limit == (credit_limit_cents > 0 and spare_cents + win > credit_limit_cents)
    assert settled.pools_after == {"other_game_pool": 3, **outcome.pools_cents}
    assert settled.scoreboard_after == {"other-game": ["X"], GAME: [outcome.result_code]}
    assert settled.result == {"game_id": GAME, "number": 7, "win_cents": win, "stake_cents": stake,
                              "hand_paid": settled.hand_paid, "result_code": outcome.result_code}
    assert settled.recall_entry == {**started.record, "round": started.round.to_record(),
                                    "outcome": {**settled.result, "summary": dict(outcome.summary)}}
    moved = outcome.summary["pool_movements"]["dragon_jackpot"]
    assert settled.pool_meters_after["dragon_jackpot"]["paid_in_cents"] == moved["paid_in_cents"]


def test_a_wager_the_pay_table_does_not_offer_is_refused_with_its_sentence(game: Game) -> None:
    with pytest.raises(rounds.WagerRefused, match="the side bet 'pair_bonus' takes 0 to 10 credits, not 11"):
        rounds.check_wager(game, rounds.requested_wager(game, 5, 1, {"pair_bonus": 11}), denom_cents=5,
                           denominations_cents=[5], bet_levels=[1])
    with pytest.raises(rounds.WagerRefused, match=r"^Bet and denomination must be positive whole numbers\.$"):
        rounds.requested_wager(game, 5, 0, {})
    with pytest.raises(rounds.WagerRefused, match=r"^A bet of 2 credits is not offered on this machine; "
                                                  r"bet 1 and 5 credits\.$"):
        rounds.check_wager(game, game.wager_for(2, 5), denom_cents=5, denominations_cents=[5],
                           bet_levels=[1, 5])
    with pytest.raises(rounds.WagerRefused, match=r"Dragon Poker is not played in 2¢ credits; choose 1¢, 5¢"):
        rounds.check_wager(game, None, denom_cents=2, denominations_cents=[1, 2, 5], bet_levels=[1])
    with pytest.raises(rounds.WagerRefused, match=r"The bet is in 25¢ credits but the denomination is 5¢"):
        rounds.check_wager(game, game.wager_for(1, 25), denom_cents=5, denominations_cents=[5, 25],
                           bet_levels=[1])


def test_no_wager_is_the_opening_bet_at_the_denomination(game: Game) -> None:
    assert rounds.check_wager(game, None, denom_cents=25, denominations_cents=[25], bet_levels=[2, 5]) == \
        game.wager_for(2, 25)

