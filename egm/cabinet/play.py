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
from egm.games.base import DecisionRefused
from egm.host.remote_game import RemoteGame, RemoteRound
from egm.memory.store import Transaction
from egm.money import format_cents, format_denomination
from egm.play import rounds

from .core import CabinetPart


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
            return self._refuse(event, f"There is no game '{event.game_id}'; choose one of "
                                       f"{', '.join(self.games)}.")
        self.selected_game = event.game_id
        return ACCEPTED

    def _start_game(self, event: StartGame) -> Result:
        if not self._allowed("start_game"):
            return self._not_now(event, "starting a game")
        if lockout := self._lockout():
            return self._refuse(event, f"Starting a game is not allowed: {lockout}.")
        game_id = event.game_id or self.selected_game
        game = self.games.get(game_id)
        if game is None:
            return self._refuse(event, f"There is no game '{game_id}'; choose one of "
                                       f"{', '.join(self.games)}.")
        denom = self.denomination_cents
        try:
            wager = rounds.check_wager(game, event.wager, denom_cents=denom,
                                       denominations_cents=self.player_denominations(),
                                       bet_levels=self.bet_levels(game_id))
        except rounds.WagerRefused as exc:  # before any money moves
            return self._refuse(event, str(exc))
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
        if isinstance(game, RemoteGame):  # the game server deals it; the stake moves when it answers
            return self._start_remote(event, game, wager, number)
        # a fresh memory holds no pools: the game starts each at its seed
        started = rounds.start(game, wager, self.rng_for_game(number), number=number,
                               pools_held=self.memory.get("pools", {}))

        def start(tx: Transaction) -> None:
            started.meter_deltas.apply(tx.meters)
            tx.set("game", started.record)

        if not self._commit(start):
            return Result(False, self._tilt_detail())
        self.round = started.round
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
        self._send_asked()  # a remote round's decision, committed: now to the game server
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
        settled = rounds.settle(
            self.games[record["game_id"]], self.round, record,
            credits_cents=self.credits_cents,
            hand_pay_limit_cents=self.jurisdiction.hand_pay_limit_cents,
            credit_limit_cents=self.credit_limit_cents,
            credit_limit_win=self.config.credit_limit_win,
            pools_held=memory.get("pools", {}),
            pool_meters=memory.get("pool_meters", {}),
            scoreboard=memory.get("scoreboard", {}),
            hand_pay_why=self.round.hand_pay_why() if isinstance(self.round, RemoteRound) else None,
        )

        def finish(tx: Transaction) -> None:
            if settled.hand_paid:
                tx.set("handpay", {"kind": "jackpot", "amount_cents": settled.win_cents,
                                   "game": record["number"]})
                tx.log("hand_pay", f"A win of {format_cents(settled.win_cents)} locks up for a hand pay: "
                       f"{settled.why}.", game=record["game_id"])
            settled.meter_deltas.apply(tx.meters)
            if settled.pools_after is not None:
                tx.set("pools", settled.pools_after)
            if settled.pool_meters_after is not None:
                tx.set("pool_meters", settled.pool_meters_after)
            tx.set("scoreboard", settled.scoreboard_after)
            tx.add_recall(settled.recall_entry)
            tx.set("game", None)

        if not self._commit(finish):
            return
        self.round = None
        self.last_outcome = settled.result
        if self.state.startswith("game."):
            self.machine.trigger("jackpot_lockup" if settled.hand_paid else "game_over")
        self._check_memory("after the game")
        self._settle()
        if settled.past_credit_limit and not settled.hand_paid and self.state == "attract":
            self._cash_out(CashOut())  # the credit is past the limit: it leaves on a ticket

    handlers = {
        ChooseDenomination: _choose_denomination,
        SelectGame: _select_game,
        StartGame: _start_game,
        PlayerDecision: _decide,
    }
