"""The wager the player chooses on the button panel between games (BET ONE, MAX BET, SIDE BET,
DENOM): kept per game by the display and checked by the cabinet when the game starts. A mixin of the
video controller (egm.video.controller), which owns the cabinet, the snapshot and the notices."""

from __future__ import annotations

from typing import Any

from egm.events import ChooseDenomination
from egm.games.base import RoundView, Wager
from egm.money import credits_text, format_denomination
from egm.video import snap
from egm.video.bet_choice import BetChoice
from egm.video.theme import money


class PanelWager:
    """The panel's bet, side bet and denomination buttons, and the stake they make."""

    cabinet: Any
    snapshot: dict[str, Any]
    bets: dict[str, BetChoice]

    def bet_choice(self, game_id: str) -> BetChoice:
        return self.bets.setdefault(game_id, BetChoice())

    def _keep_bet(self, view: RoundView) -> None:
        """The wager of a finished game stays chosen for the next one (and is shown after a restart)."""
        game = self.cabinet.games.get(view.game_id)
        if game is None:
            return
        choice = self.bet_choice(view.game_id)
        choice.bet_credits = view.bet_credits
        side = choice.side_bet_name(game)
        if side is not None:
            choice.side_bets[side] = view.stake_credits - game.wager_offer().stake_bets * view.bet_credits

    def _bet_button(self, button: str) -> None:
        """BET ONE, MAX BET (which also deals, as on any cabinet) or SIDE BET, between games."""
        gid = self.game_shown()
        game = self.cabinet.games.get(gid)
        if game is None:
            self.toast("Choose a game first: touch its tile.")
            return
        choice, denom = self.bet_choice(gid), snap.denom_cents(self.snapshot)
        if button == "side_bet":
            name = choice.side_bet_name(game)
            if name is None:
                self.toast(f"{game.title} has no side bet.")
                return
            amount = choice.next_side_bet(game)
            title = name.replace("_", " ").upper()
            self.toast(f"{title} {credits_text(amount)} ({money(amount * denom)}): a game stakes "
                       f"{credits_text(self.stake_credits())}", error=False)
            return
        levels = self.cabinet.bet_levels(gid)
        bet = choice.max_bet(levels) if button == "max_bet" else choice.bet_one(game, denom, levels)
        stake = self.stake_credits()
        self.toast(f"Bet {credits_text(bet)}: a game stakes {credits_text(stake)} ({money(stake * denom)})",
                   error=False)
        if button == "max_bet" and snap.credits(self.snapshot) >= self.stake_credits():
            self.press("deal")

    def denominations(self) -> list[int]:
        """The denominations the player may choose for the game shown (the cabinet's player
        denominations its pay table offers; on the game menu, before a game is chosen, all of them)."""
        choices = snap.denominations(self.snapshot)
        game = self.cabinet.games.get(self.game_shown())
        if game is None:
            return choices
        return [d for d in choices if d in game.wager_offer().denominations_cents]

    def _denomination_button(self) -> None:
        """DENOM, between games: the next denomination the game shown offers (the cabinet keeps it). A
        finished table leaves for the game menu: its amounts were in the former denomination."""
        choices, denom = self.denominations(), snap.denom_cents(self.snapshot)
        later = [d for d in choices if d > denom]
        chosen = later[0] if later else choices[0]
        if self.send(ChooseDenomination(chosen)).accepted:
            self.ui_action("menu")
            credit, cents = snap.credits(self.snapshot), snap.credits_cents(self.snapshot)
            self.toast(f"{format_denomination(chosen)} a credit: {credit:,} credits ({money(cents)})",
                       error=False)

    def side_bet_credits(self) -> int:
        """The side bet on the game shown: the round's own during a game, else the one chosen."""
        gid = self.game_shown()
        game = self.cabinet.games.get(gid)
        wager = self.wager(gid)
        if game is None or wager is None:
            return 0
        view = snap.view(self.snapshot)
        if snap.state(self.snapshot).startswith("game.") and view is not None:
            return view.stake_credits - game.wager_offer().stake_bets * view.bet_credits
        return sum(wager.side_bets.values())

    def wager(self, game_id: str) -> Wager | None:
        """The wager chosen on the panel (the cabinet checks it against the pay table)."""
        game = self.cabinet.games.get(game_id)
        if game is None:
            return None
        levels = self.cabinet.bet_levels(game_id)
        return self.bet_choice(game_id).wager(game, snap.denom_cents(self.snapshot), levels)

    def stake_credits(self) -> int:
        view = snap.view(self.snapshot)
        if snap.state(self.snapshot).startswith("game.") and view is not None:
            return view.stake_credits
        wager = self.wager(self.game_shown())
        return wager.stake_credits if wager else 0
