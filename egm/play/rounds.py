"""The round engine: what a round does to the money, shared by the cabinet and the game server.

Three steps, each a pure function of its inputs (no state machine, no I/O, no pygame):

* `check_wager`: is this wager offered here (the denomination, the pay table, the enabled bet levels)?
  A refusal is a sentence for the player, raised before any money moves.
* `start`: deal the round (the game draws all its randomness now) and say what the start commits:
  the game record, the stake and the meter changes.
* `settle`: a finished round's win, whether it is paid by hand and why, the meter changes, the pools,
  the pool meters, the scoreboard, the recall entry and the result.

The caller owns the transaction: the cabinet applies a step's figures through WagerMemory in one
transaction (the commit rule), the server in one database transaction. `MeterDeltas.apply` moves a
set of meters (egm.meters.Meters) by them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from egm.games.base import Game, Round, Wager
from egm.games.scoreboard import scoreboard_after
from egm.meters import Meters
from egm.money import format_cents, format_denomination, levels_text
from egm.payout.handpay import requires_hand_pay
from egm.rng import Rng

from .pool_meters import pool_meters_after


class WagerRefused(Exception):
    """A wager that is not offered here; its message is the sentence for the player. No money moved."""


@dataclass(frozen=True)
class MeterDeltas:
    """What one transaction adds to the meters, in cents (counts for games_played/won/lost).

    machine: the cabinet's meters by name (egm.meters.METER_NAMES), in the order they are applied;
      current_credits may be negative (the stake leaving the credit meter).
    game: the per-game and per-pay-table meters (coin_in, coin_out, games_played) of game_id and
      paytable_id.
    """

    game_id: str
    paytable_id: str
    machine: Mapping[str, int]
    game: Mapping[str, int]

    def apply(self, meters: Meters) -> None:
        for name, amount in self.machine.items():
            meters.add(name, amount)
        for name, amount in self.game.items():
            meters.add_game(self.game_id, self.paytable_id, name, amount)


@dataclass(frozen=True)
class Started:
    """A round dealt and what its start commits.

    round: the live round, at its first step.
    record: the game record as the cabinet keeps it in wager memory ("game"): game_id, paytable_id,
      number, wager (Wager.to_record) and round (Round.to_record).
    stake_cents: everything the start takes (side bets included).
    meter_deltas: coin_in, side_bet_in, current_credits (-stake), games_played and the game's coin_in
      and games_played.
    """

    round: Round
    record: dict[str, Any]
    stake_cents: int
    meter_deltas: MeterDeltas


@dataclass(frozen=True)
class Settlement:
    """What settling a finished round commits.

    win_cents, stake_cents: the round's win (everything paid back) and its stake.
    hand_paid: the win is not credited but locks up for an attendant; why: the reason, a clause that
      completes "A win of $X locks up for a hand pay: ..." ("" when not hand paid).
    past_credit_limit: the credit meter with this win would pass the credit limit (the cabinet then
      cashes out, or hand-pays when so configured).
    meter_deltas: coin_out, current_credits (+win) and the game's coin_out when credited; side_bet_out;
      games_won or games_lost.
    pools_after: every pool held with this round's new values, or None when the round moved none.
    pool_meters_after: the pool meters with this round's movements, or None when it reported none.
    scoreboard_after: every game's scoreboard with this round's result first.
    recall_entry: the final game record with its "outcome" (the result and the game's summary).
    result: game_id, number, win_cents, stake_cents, hand_paid, result_code (the last game shown).
    side_bet_wins_credits: what each side bet won (the game server's terminal replies carry it).
    """

    win_cents: int
    stake_cents: int
    hand_paid: bool
    why: str
    past_credit_limit: bool
    meter_deltas: MeterDeltas
    pools_after: dict[str, int] | None
    pool_meters_after: dict[str, Any] | None
    scoreboard_after: dict[str, list[str]]
    recall_entry: dict[str, Any]
    result: dict[str, Any]
    side_bet_wins_credits: dict[str, int]


def paytable_id(game: Game) -> str:
    """The id the per-pay-table meters and the records use for the game's pay table."""
    return str(getattr(game.paytable, "id", game.game_id))


def requested_wager(game: Game, denom_cents: int, bet_credits: int, side_bets: Mapping[str, int]) -> Wager:
    """The wager a remote player asks for (the stake as the pay table counts it), or WagerRefused."""
    stake = game.wager_offer().stake_credits(bet_credits, side_bets)
    try:
        return Wager(bet_credits, stake, denom_cents, dict(side_bets))
    except ValueError as exc:
        raise WagerRefused(f"{str(exc).capitalize()}.") from exc


def check_wager(
    game: Game,
    wager: Wager | None,
    *,
    denom_cents: int,
    denominations_cents: Collection[int],
    bet_levels: Sequence[int],
) -> Wager:
    """The wager to play, or WagerRefused with the sentence for the player.

    denom_cents: the denomination in force. denominations_cents: those this machine (or server) lets
    the player choose; the game must offer denom_cents among them. bet_levels: the bets the operator
    enabled, some of the pay table's. `wager` None is the game's opening bet at denom_cents.
    """
    offered = [d for d in game.wager_offer().denominations_cents if d in denominations_cents]
    if denom_cents not in offered:
        choose = ", ".join(format_denomination(d) for d in offered)
        instead = f"; choose {choose}" if offered else \
            ", nor in any other this cabinet offers; call an attendant"
        raise WagerRefused(f"{game.title} is not played in {format_denomination(denom_cents)} credits"
                           f"{instead}.")
    wager = wager or game.wager_for(game.opening_bet(bet_levels, denom_cents), denom_cents)
    if wager.denom_cents != denom_cents:
        raise WagerRefused(f"The bet is in {format_denomination(wager.denom_cents)} credits but the "
                           f"denomination is {format_denomination(denom_cents)}; bet again.")
    refusal = game.refuse_wager(wager)  # the pay table decides what is offered
    if refusal is not None:
        raise WagerRefused(refusal)
    if wager.bet_credits not in bet_levels:  # and the operator which of its bets this machine offers
        raise WagerRefused(f"A bet of {wager.bet_credits:,} credits is not offered on this machine; "
                           f"bet {levels_text(bet_levels)} credits.")
    return wager


def start(game: Game, wager: Wager, rng: Rng, *, number: int, pools_held: Mapping[str, int]) -> Started:
    """Deal game number `number` for a checked wager. `pools_held`: the pools as kept (a pool not held
    yet starts at the game's seed)."""
    pools = {name: pools_held[name] for name in game.pool_names if name in pools_held}
    round_ = game.new_round(wager, rng, pools)
    table = paytable_id(game)
    stake_cents = wager.stake_credits * wager.denom_cents
    record = {
        "game_id": game.game_id,
        "paytable_id": table,
        "number": number,
        "wager": wager.to_record(),
        "round": round_.to_record(),
    }
    return Started(round_, record, stake_cents, stake_deltas(game.game_id, table, wager))


def stake_deltas(game_id: str, paytable: str, wager: Wager) -> MeterDeltas:
    """What taking a wager's stake does to the meters (a round dealt here, or by a game server)."""
    stake_cents = wager.stake_credits * wager.denom_cents
    return MeterDeltas(
        game_id,
        paytable,
        machine={
            "coin_in": stake_cents,
            "side_bet_in": sum(wager.side_bets.values()) * wager.denom_cents,
            "current_credits": -stake_cents,
            "games_played": 1,
        },
        game={"coin_in": stake_cents, "games_played": 1},
    )


def settle(
    game: Game,
    round_: Round,
    record: Mapping[str, Any],
    *,
    credits_cents: int,
    hand_pay_limit_cents: int,
    credit_limit_cents: int = 0,
    credit_limit_win: str = "ticket",
    pools_held: Mapping[str, int],
    pool_meters: Mapping[str, Any],
    scoreboard: Mapping[str, Sequence[str]],
    hand_pay_why: str | None = None,
) -> Settlement:
    """Settle a finished round started as `record` (Started.record, or the cabinet's kept copy).

    credits_cents: the credit meter (or balance) before the win. hand_pay_limit_cents: the
    jurisdiction's limit. credit_limit_cents: the credit limit (0: none); credit_limit_win "handpay"
    hand-pays a win that would pass it. pools_held, pool_meters, scoreboard: as kept before this round.
    hand_pay_why: the hand-pay decision already taken by the game server that dealt the round ("": the
    win is credited; a sentence: it is a hand pay), which rules instead of these limits so that the
    cabinet and the server meter the win alike (a win past the credit limit is then credited and leaves
    by the cash-out, as with credit_limit_win "ticket").
    """
    outcome = round_.outcome()
    denom = record["wager"]["denom_cents"]
    win_cents = outcome.win_credits * denom
    stake_cents = record["wager"]["stake_credits"] * denom
    game_id, table = record["game_id"], record["paytable_id"]
    max_win = game.paytable.header.max_win_cents
    past_limit = bool(credit_limit_cents) and credits_cents + win_cents > credit_limit_cents
    if hand_pay_why is not None:  # the game server settled the round: its decision rules
        why = hand_pay_why
    elif win_cents > max_win:  # never credited: the attendant checks it
        why = f"it is above the pay table's maximum win of {format_cents(max_win)}"
    elif requires_hand_pay(win_cents, hand_pay_limit_cents):
        why = "it reaches the hand-pay limit"
    elif past_limit and credit_limit_win == "handpay":
        why = "it would pass the credit limit"
    else:
        why = ""
    hand_paid = bool(why)
    credited = win_cents if win_cents and not hand_paid else 0
    machine = {"coin_out": credited, "current_credits": credited} if credited else {}
    deltas = MeterDeltas(
        game_id,
        table,
        machine={
            **machine,
            "side_bet_out": sum(outcome.side_bet_wins_credits.values()) * denom,
            "games_won" if win_cents > stake_cents else "games_lost": 1,
        },
        game={"coin_out": credited} if credited else {},
    )
    board = {name: list(codes) for name, codes in scoreboard.items()}
    board[game_id] = scoreboard_after(board.get(game_id, []), outcome.result_code)
    movements = outcome.summary.get("pool_movements")
    result = {
        "game_id": game_id,
        "number": record["number"],
        "win_cents": win_cents,
        "stake_cents": stake_cents,
        "hand_paid": hand_paid,
        "result_code": outcome.result_code,
    }
    final = {**record, "round": round_.to_record()}
    return Settlement(
        win_cents=win_cents,
        stake_cents=stake_cents,
        hand_paid=hand_paid,
        why=why,
        past_credit_limit=past_limit,
        meter_deltas=deltas,
        pools_after={**pools_held, **outcome.pools_cents} if outcome.pools_cents else None,
        pool_meters_after=pool_meters_after(pool_meters, movements) if movements else None,
        scoreboard_after=board,
        recall_entry={**final, "outcome": {**result, "summary": dict(outcome.summary)}},
        result=result,
        side_bet_wins_credits=dict(outcome.side_bet_wins_credits),
    )
