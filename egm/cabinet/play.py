"""Play: choosing the denomination and a game, starting it, the player's decisions, and settling a
finished round.

The stake is taken (coin in) and the round recorded in one transaction before the machine enters the
game; the last step and the settlement (win, pools, scoreboard, recall) are one transaction too.

Denomination. The credit meter holds cents; the denomination only says how many credits they make.
The player chooses it between games among the cabinet's player denominations (ChooseDenomination,
kept in wager memory as "denomination"); a game is bet in it, and its wager record keeps it, so a game
a power cut interrupted finishes in the denomination it was bet in. Cents that do not make a whole
credit stay on the meter: they cash out but cannot be bet.
"""

from __future__ import annotations

from egm.events import ACCEPTED, CashOut, ChooseDenomination, PlayerDecision, Result, SelectGame, StartGame
from egm.games.base import DecisionRefused, Game
from egm.games.scoreboard import scoreboard_after
from egm.memory.store import Transaction
from egm.money import format_cents, format_denomination
from egm.payout.handpay import requires_hand_pay

from .core import CabinetPart
from .pool_meters import pool_meters_after
from .settings import levels_text


class PlayPart(CabinetPart):
    """Handles ChooseDenomination, SelectGame, StartGame and PlayerDecision."""

    @property
    def denomination_cents(self) -> int:
        """The denomination in force: the game in progress's, else the player's kept choice (while the
        cabinet still offers it), else the default."""
        memory = self.memory if not self._ram_error else None
        record = memory.get("game") if memory is not None else None
        if record is not None:
            return int(record["wager"]["denom_cents"])
        chosen = memory.get("denomination") if memory is not None else None
        return chosen if chosen in self.player_denominations() else self.default_denomination_cents

    def player_denominations(self) -> list[int]:
        """The denominations the player may choose: the configured ones and the default, those at least
        one installed game's pay table offers."""
        offered = {d for game in self.games.values() for d in game.wager_offer().denominations_cents}
        listed = {*self.config.player_denominations_cents, self.default_denomination_cents}
        return sorted(listed & offered)

    def _choose_denomination(self, event: ChooseDenomination) -> Result:
        if self.state != "attract":
            return self._not_now(event, "changing the denomination")
        choices = self.player_denominations()
        cents = event.denomination_cents
        if cents not in choices:
            return self._refuse(event, f"This cabinet is not played in {format_cents(cents)} credits; "
                                       f"choose {', '.join(format_denomination(c) for c in choices)}.")
        if cents == self.denomination_cents:
            return ACCEPTED
        before = self.denomination_cents

        def choose(tx: Transaction) -> None:
            tx.set("denomination", cents)
            tx.log("denomination_chosen", f"The player changed the denomination from "
                   f"{format_denomination(before)} to {format_denomination(cents)}.", old=before, new=cents)

        if not self._commit(choose):
            return Result(False, self._tilt_detail())
        return ACCEPTED

    def _select_game(self, event: SelectGame) -> Result:
        if self.state != "attract":
            return self._not_now(event, "choosing a game")
        if event.game_id not in self.games:
            return self._refuse(event, f"unknown game '{event.game_id}'; choose one of {list(self.games)}")
        self.selected_game = event.game_id
        return ACCEPTED

    def _start_game(self, event: StartGame) -> Result:
        if not self._allowed("start_game"):
            return self._not_now(event, "starting a game")
        if lockout := self._lockout():
            return self._refuse(event, f"starting a game is not allowed: {lockout}")
        game_id = event.game_id or self.selected_game
        game = self.games.get(game_id)
        if game is None:
            return self._refuse(event, f"unknown game '{game_id}'; choose one of {list(self.games)}")
        denom = self.denomination_cents
        offered = [d for d in game.wager_offer().denominations_cents if d in self.player_denominations()]
        if denom not in offered:
            choose = ", ".join(format_denomination(d) for d in offered)
            instead = f"; choose {choose}" if offered else \
                ", nor in any other this cabinet offers; call an attendant"
            return self._refuse(event, f"{game.title} is not played in {format_denomination(denom)} credits"
                                       f"{instead}.")
        levels = self.bet_levels(game_id)
        wager = event.wager or game.wager_for(game.opening_bet(levels, denom), denom)
        if wager.denom_cents != denom:
            return self._refuse(event, f"The bet is in {format_denomination(wager.denom_cents)} credits but "
                                       f"the denomination is {format_denomination(denom)}; bet again.")
        refusal = game.refuse_wager(wager)  # before any money moves: the pay table decides what is offered
        if refusal is not None:
            return self._refuse(event, refusal)
        if wager.bet_credits not in levels:  # and the operator which of its bets this cabinet offers
            return self._refuse(event, f"A bet of {wager.bet_credits:,} credits is not offered on this "
                                       f"machine; bet {levels_text(levels)} credits.")
        stake_cents = wager.stake_credits * denom
        if stake_cents > self.credits_cents:
            return self._refuse(
                event,
                f"A game at this bet costs {wager.stake_credits:,} credits ({format_cents(stake_cents)}), "
                f"which exceeds the {format_cents(self.credits_cents)} on the credit meter; "
                "insert money or lower the bet.",
            )
        if not self._check_memory("before the game"):
            return Result(False, self._tilt_detail())
        assert self.memory is not None
        number = self.memory.meters["games_played"] + 1
        held = self.memory.get("pools", {})  # a fresh memory holds none: the game starts each at its seed
        pools = {name: held[name] for name in game.pool_names if name in held}
        round_ = game.new_round(wager, self.rng_for_game(number), pools)
        paytable_id = self._paytable_id(game)
        record = {
            "game_id": game_id,
            "paytable_id": paytable_id,
            "number": number,
            "wager": wager.to_record(),
            "round": round_.to_record(),
        }

        def start(tx: Transaction) -> None:
            tx.meters.add("coin_in", stake_cents)
            tx.meters.add("side_bet_in", sum(wager.side_bets.values()) * denom)
            tx.meters.add("current_credits", -stake_cents)
            tx.meters.add("games_played", 1)
            tx.meters.add_game(game_id, paytable_id, "coin_in", stake_cents)
            tx.meters.add_game(game_id, paytable_id, "games_played", 1)
            tx.set("game", record)

        if not self._commit(start):
            return Result(False, self._tilt_detail())
        self.round = round_
        self.selected_game = game_id
        self.machine.trigger("start_game")
        self._follow_round()
        return ACCEPTED

    def _decide(self, event: PlayerDecision) -> Result:
        if self.round is None or not self.state.startswith("game."):
            return self._not_now(event, "a player decision")
        try:
            self.round.decide(event.decision)
        except DecisionRefused as exc:
            return self._refuse(event, str(exc))
        if self.round.finished:  # the last step and the settlement are one transaction
            self._finish_round()
            return ACCEPTED
        memory = self.memory
        assert memory is not None
        record = {**memory.get("game"), "round": self.round.to_record()}
        if not self._commit(lambda tx: tx.set("game", record)):
            return Result(False, self._tilt_detail())
        self._follow_round()
        return ACCEPTED

    def _follow_round(self) -> None:
        """Move the machine to the round's step; finish the round when it is complete."""
        assert self.round is not None
        target = f"game.{self.game_id}.{self.round.step}"
        while self.state != target:
            self.machine.trigger("advance")  # a MachineError here is a game that went backwards
        if self.round.finished:
            self._finish_round()

    def _finish_round(self) -> None:
        memory = self.memory
        assert memory is not None and self.round is not None
        record = memory.get("game")
        outcome = self.round.outcome()
        denom = record["wager"]["denom_cents"]
        win_cents = outcome.win_credits * denom
        stake_cents = record["wager"]["stake_credits"] * denom
        game_id, paytable_id = record["game_id"], record["paytable_id"]
        max_win = self.games[game_id].paytable.header.max_win_cents
        above_max = win_cents > max_win  # never credited: the attendant checks it
        at_hand_pay_limit = requires_hand_pay(win_cents, self.jurisdiction.hand_pay_limit_cents)
        limit = self.credit_limit_cents
        past_limit = bool(limit) and self.credits_cents + win_cents > limit
        limit_hand_pay = past_limit and self.config.credit_limit_win == "handpay"
        hand_paid = above_max or at_hand_pay_limit or limit_hand_pay
        scoreboard = dict(memory.get("scoreboard", {}))
        scoreboard[game_id] = scoreboard_after(scoreboard.get(game_id, []), outcome.result_code)
        result = {
            "game_id": game_id,
            "number": record["number"],
            "win_cents": win_cents,
            "stake_cents": stake_cents,
            "hand_paid": hand_paid,
            "result_code": outcome.result_code,
        }

        def finish(tx: Transaction) -> None:
            if hand_paid:
                if above_max:
                    why = f"it is above the pay table's maximum win of {format_cents(max_win)}"
                elif at_hand_pay_limit:
                    why = "it reaches the hand-pay limit"
                else:
                    why = "it would pass the credit limit"
                tx.set("handpay", {"kind": "jackpot", "amount_cents": win_cents, "game": record["number"]})
                tx.log("hand_pay", f"A win of {format_cents(win_cents)} locks up for a hand pay: {why}.",
                       game=game_id)
            elif win_cents:
                tx.meters.add("coin_out", win_cents)
                tx.meters.add("current_credits", win_cents)
                tx.meters.add_game(game_id, paytable_id, "coin_out", win_cents)
            tx.meters.add("side_bet_out", sum(outcome.side_bet_wins_credits.values()) * denom)
            tx.meters.add("games_won" if win_cents > stake_cents else "games_lost", 1)
            if outcome.pools_cents:
                tx.set("pools", {**memory.get("pools", {}), **outcome.pools_cents})
            movements = outcome.summary.get("pool_movements")
            if movements:
                tx.set("pool_meters", pool_meters_after(memory.get("pool_meters", {}), movements))
            tx.set("scoreboard", scoreboard)
            final = {**record, "round": self.round.to_record()}
            tx.add_recall({**final, "outcome": {**result, "summary": dict(outcome.summary)}})
            tx.set("game", None)

        if not self._commit(finish):
            return
        self.round = None
        self.last_outcome = result
        if self.state.startswith("game."):
            self.machine.trigger("jackpot_lockup" if hand_paid else "game_over")
        self._check_memory("after the game")
        self._settle()
        if past_limit and not hand_paid and self.state == "attract":
            self._cash_out(CashOut())  # the credit is past the limit: it leaves on a ticket

    def _paytable_id(self, game: Game) -> str:
        return str(getattr(game.paytable, "id", game.game_id))

    handlers = {
        ChooseDenomination: _choose_denomination,
        SelectGame: _select_game,
        StartGame: _start_game,
        PlayerDecision: _decide,
    }
