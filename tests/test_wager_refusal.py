"""A wager the pay table does not offer is refused by the cabinet before a round starts: a sentence,
no exception, no money moved, the state unchanged. Bet levels, denominations, side bets and the stake
come from each game's pay table (`Game.refuse_wager`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from egm.config import PROJECT_ROOT, load_cabinet_config
from egm.events import PlayerDecision, StartGame
from egm.games import descriptors, game_class
from egm.games.base import Game, Wager
from egm.games.dragon_poker.game import DragonPoker, load_default_paytable
from egm.games.poker_grid.game import PokerGrid
from egm.rng import Rng
from egm.rom import load_paytable
from egm.video.screenshot import credit
from egm.video.session import Session
from tests.cabinet_support import make_cabinet, spine_config


def real_games() -> dict[str, Game]:
    grid = load_paytable(PROJECT_ROOT / "paytables" / "poker-grid.toml")
    return {"dragon-poker": DragonPoker(load_default_paytable()), "poker-grid": PokerGrid(grid)}


@pytest.fixture
def cabinet(tmp_path: Path) -> Any:
    cab = make_cabinet(tmp_path / "nvram", games=real_games(), config=spine_config())
    cab.boot()
    cab.devices.bill_acceptor.insert_bill(10000)
    cab.poll_devices()
    assert cab.credits_cents == 10000
    return cab


def unchanged(cab: Any, meters: dict[str, Any]) -> None:
    assert cab.memory.meters.to_record() == meters
    assert cab.state == "attract" and cab.round is None and cab.memory.get("game") is None


def bet(bet_credits: int, stake_credits: int, **side_bets: int) -> Wager:
    return Wager(bet_credits=bet_credits, stake_credits=stake_credits, denom_cents=1, side_bets=side_bets)


REFUSED = [
    # the issue's: Poker Grid took any wager (Wager(100, 100) paid 7.8x; a bet of 3 played)
    ("poker-grid", bet(100, 100), "a bet of 100 credits is not offered"),
    ("poker-grid", bet(3, 30), "a bet of 3 credits is not offered"),
    ("poker-grid", bet(2, 2), "the stake must be 10 x the bet of 2"),
    ("poker-grid", bet(1, 11, pair_bonus=1), "the side bet 'pair_bonus' is not offered"),
    # the issue's: Dragon Poker's bet level 3 raised ValueError out of the cabinet
    ("dragon-poker", bet(3, 30), "a bet of 3 credits is not offered"),
    ("dragon-poker", bet(2, 21), "the stake must be 10 x the bet of 2"),
    ("dragon-poker", bet(1, 11, tie=1), "the side bet 'tie' is not offered"),
    ("dragon-poker", bet(1, 21, pair_bonus=11), "the side bet 'pair_bonus' takes 0 to 10 credits"),
]


@pytest.mark.parametrize(("game_id", "wager", "reason"), REFUSED)
def test_a_wager_the_pay_table_does_not_offer_is_refused_and_moves_no_money(
    cabinet: Any, game_id: str, wager: Wager, reason: str
) -> None:
    meters = cabinet.memory.meters.to_record()
    result = cabinet.handle(StartGame(game_id, wager))
    assert not result.accepted and reason in result.reason
    unchanged(cabinet, meters)
    logged = cabinet.event_log(limit=1)[0]
    assert logged["kind"] == "refused" and logged["message"] == result.reason


@pytest.mark.parametrize("game_id", ["dragon-poker", "poker-grid"])
def test_a_denomination_the_pay_table_does_not_offer_is_refused(tmp_path: Path, game_id: str) -> None:
    cab = make_cabinet(tmp_path, games=real_games(), config=spine_config(denomination_cents=10))
    cab.boot()
    cab.devices.bill_acceptor.insert_bill(10000)
    cab.poll_devices()
    meters = cab.memory.meters.to_record()
    result = cab.handle(StartGame(game_id))
    assert not result.accepted
    title = cab.games[game_id].title  # the cabinet offers only 10-cent credits, which no pay table lists
    assert result.reason == (f"{title} is not played in 10¢ credits, nor in any other this cabinet offers; "
                             "call an attendant.")
    unchanged(cab, meters)


@pytest.mark.parametrize("game_id", ["dragon-poker", "poker-grid"])
def test_every_offered_bet_plays(cabinet: Any, game_id: str) -> None:
    game = cabinet.games[game_id]
    offer = game.wager_offer()
    assert offer.bets_credits == (1, 2, 5, 10) and offer.stake_bets == 10
    coin_in = 0
    for level in offer.bets_credits:
        wager = Wager(bet_credits=level, stake_credits=10 * level, denom_cents=1)
        assert game.refuse_wager(wager) is None
        assert cabinet.handle(StartGame(game_id, wager)).accepted
        coin_in += 10 * level
        assert cabinet.memory.meters["coin_in"] == coin_in
        while cabinet.round is not None:
            assert cabinet.handle(PlayerDecision(cabinet.round.reference_decision())).accepted
        assert cabinet.state == "attract"


def test_dragon_poker_offers_its_pair_bonus_up_to_its_limit(cabinet: Any) -> None:
    wager = cabinet.games["dragon-poker"].wager(5, 1, pair_bonus_credits=10)
    assert cabinet.handle(StartGame("dragon-poker", wager)).accepted
    assert cabinet.memory.meters["coin_in"] == 60


@pytest.mark.parametrize(("game_id", "wager", "reason"), REFUSED)
def test_a_game_never_deals_an_unoffered_wager_outside_the_cabinet_either(
    game_id: str, wager: Wager, reason: str
) -> None:
    with pytest.raises(ValueError, match=reason):
        real_games()[game_id].new_round(wager, Rng.from_seed(1), {})


@pytest.mark.parametrize("game_id", list(descriptors()))
def test_every_game_refuses_to_deal_a_bet_its_pay_table_does_not_offer(game_id: str) -> None:
    """Every installed game, not only the two above: a round is never dealt for an unoffered bet."""
    game = game_class(game_id)(load_paytable(PROJECT_ROOT / "paytables" / f"{game_id}.toml"))
    unoffered = max(game.wager_offer().bets_credits) + 1
    with pytest.raises(ValueError, match=f"a bet of {unoffered} credits is not offered"):
        game.new_round(bet(unoffered, unoffered), Rng.from_seed(1), {})


def test_the_shell_offers_exactly_the_pay_tables_bets(signed_tree: Any, tmp_path: Path) -> None:
    """The issue's steps (credit $100, BET twice, DEAL) no longer reach a bet of 3: BET steps through the
    pay table's bets 1, 2, 5, 10 (10 can be chosen now), and DEAL plays the bet shown."""
    config = load_cabinet_config(signed_tree.config_path)
    s = Session(config, tmp_path / "nvram", seed=3, game_ids=["dragon-poker"])
    try:
        credit(s)
        shown = []
        for _ in range(4):
            s.key("b")
            shown.append(s.video.wager("dragon-poker").bet_credits)
        assert shown == [2, 5, 10, 1]
        s.key("b")
        s.key("b")  # bet 5
        s.key("space")  # DEAL
        assert s.state == "game.dragon-poker.designate" and s.cabinet.round.wager.bet_credits == 5
        assert s.cabinet.memory.meters["coin_in"] == 50
    finally:
        s.close()


def test_a_wager_the_pay_table_refuses_is_a_sentence_on_screen(signed_tree: Any, tmp_path: Path) -> None:
    """A cabinet set to 2-cent credits, which the pay table does not offer: DEAL is refused on screen
    with the pay table's sentence, no money moves and nothing raises."""
    config = load_cabinet_config(signed_tree.config_path).model_copy(update={"denomination_cents": 2})
    s = Session(config, tmp_path / "nvram", seed=3, game_ids=["dragon-poker"])
    try:
        credit(s)
        meters = s.cabinet.memory.meters.to_record()
        s.key("space")  # DEAL
        s.render()
        assert s.state == "attract" and s.cabinet.memory.meters.to_record() == meters
        refusal = "Dragon Poker is not played in 2¢ credits; choose 1¢, 5¢, 25¢, $1."
        assert any(t.text == refusal for t in s.video.toasts)  # DENOM chooses one it is played in
    finally:
        s.close()
