"""Games the central game server deals: `RemoteGame` and `RemoteRound` behind the `Game`/`Round`
interface, so the cabinet's shell and scenes draw a server round exactly as a local one.

The server owns the outcome (it draws every random number and keeps the replay); the cabinet keeps the
money (credit meter, coin in and out, hand pays, SAS meters). A `RemoteRound` is what the server last
said of the round: its id, step number and `RoundView`. A decision the player takes is *asked*
(`decide` stages it; the cabinet commits it to wager memory, then sends it) and the round moves only
when the server's answer is applied (`answered`). The reference decision is the server's own
("auto": one step of the reference strategy, the HOUSE WAY / AUTO PLAY button).

The menu is the server's catalogue (`offered_games`). A pay table is offered only when its SHA-256
is that of a pay table in this cabinet's signed ROM (the lab certified exactly those bytes for this
cabinet), or when the server's catalogue is signed by the catalogue key configured on the cabinet
(`catalogue_public_key`: the operator vouches for the server's tables). Anything else is refused,
with a sentence, because the cabinet would otherwise pay by a table nobody approved for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from egm.games.base import Decision, DecisionRefused, Game, Outcome, Round, RoundView, Wager, WagerOffer
from egm.meters import ROLLOVER
from egm.terminal_link.signing import verify_catalogue

AUTO = Decision("auto")
SETTLED = ("complete", "review")  # a finished round's status on the server: credited, or a hand pay


@dataclass(frozen=True)
class CatalogueHeader:
    """What the shell reads of a pay table's header, as the catalogue gives it."""

    denominations_cents: tuple[int, ...]
    bets_credits: tuple[int, ...]
    max_win_cents: int


@dataclass(frozen=True)
class CataloguePaytable:
    """A server pay table the cabinet's ROM does not hold (vouched for by the signed catalogue)."""

    id: str
    sha256: str
    header: CatalogueHeader
    version: str = "(game server)"


class RemoteRound(Round):
    """A round the server deals. round_id, step_no, view: as the server last answered.
    asked: the decision sent and not yet answered (None when none is). status, hand_pay_reason,
    result_code and side_bet_wins_credits: what the server's answer gave once the round is complete
    (status "complete", or "review": the server settled the win as a hand pay)."""

    def __init__(self, round_id: str, step_no: int, view: RoundView, asked: Decision | None = None,
                 result_code: str = "", side_bet_wins_credits: Mapping[str, int] | None = None,
                 status: str = "open", hand_pay_reason: str = "") -> None:
        self.round_id, self.step_no, self._view = round_id, step_no, view
        self.asked = asked
        self.result_code = result_code
        self.side_bet_wins_credits = dict(side_bet_wins_credits or {})
        self.status, self.hand_pay_reason = status, hand_pay_reason

    @property
    def step(self) -> str:
        return self._view.step

    def view(self) -> RoundView:
        return self._view

    def decide(self, decision: Decision) -> None:
        """Stage `decision` for the server (the cabinet commits it, then sends it)."""
        if self.asked is not None:
            raise DecisionRefused("WAITING FOR THE GAME SERVER: it has not answered the last decision yet.")
        if not self._view.decision_awaited:
            raise DecisionRefused("This round awaits no decision now.")
        self.asked = decision

    def answered(self, body: Mapping[str, Any]) -> None:
        """Apply the server's answer to a decision ({step_no, view, ...}); ValueError naming what is
        wrong when the answer is damaged (nothing changes then)."""
        step_no, view = read_answer(body, self._view.game_id, self.step_no)
        status, side_bets = body.get("status", "open"), body.get("side_bet_wins_credits") or {}
        if view.complete:
            if status not in SETTLED:
                raise ValueError(f"the game server's answer is damaged (a complete round with status "
                                 f"{status!r})")
            wins = list(side_bets.values()) if isinstance(side_bets, Mapping) else [None]
            if not all(isinstance(w, int) and w >= 0 for w in wins) or sum(wins) > (view.win_credits or 0):
                raise ValueError(f"the game server's answer is damaged (side-bet wins {side_bets!r} are not "
                                 "whole credits within the round's win)")
        self.step_no, self._view, self.status = step_no, view, str(status)
        self.hand_pay_reason = str(body.get("hand_pay_reason") or "")
        self.asked = None
        self.result_code = str(body.get("result_code", ""))
        self.side_bet_wins_credits = {str(k): int(v) for k, v in side_bets.items()}

    @classmethod
    def from_answer(cls, body: Mapping[str, Any], game_id: str) -> RemoteRound:
        """The round a start's answer ({round_id, step_no, view, ...}) deals; ValueError when damaged."""
        round_id = body.get("round_id")
        if not isinstance(round_id, str) or not round_id:
            raise ValueError(f"the game server's answer is damaged (round_id {round_id!r})")
        step_no, view = read_answer(body, game_id, 0)
        round_ = cls(round_id, step_no, view)
        round_.answered(body)
        return round_

    def reference_decision(self) -> Decision:
        return AUTO

    def hand_pay_why(self) -> str:
        """The server's settlement of the finished round: "" when it credited the win, else why the win
        is a hand pay. The server's decision rules, so that both sides meter the win alike."""
        if self.status != "review":
            return ""
        return self.hand_pay_reason or "the game server settled it for a hand pay"

    def outcome(self) -> Outcome:
        view = self._view
        if not view.complete or view.win_credits is None:
            raise ValueError("the round is not complete on the game server yet")
        return Outcome(win_credits=view.win_credits, pools_cents=dict(view.pools_cents),
                       result_code=self.result_code, summary={"round_id": self.round_id,
                                                              "result_text": view.result_text},
                       side_bet_wins_credits=self.side_bet_wins_credits)

    def to_record(self) -> dict[str, Any]:
        return {"round_id": self.round_id, "step_no": self.step_no, "view": self._view.to_json(),
                "asked": self.asked.to_record() if self.asked else None, "result_code": self.result_code,
                "side_bet_wins_credits": dict(self.side_bet_wins_credits), "status": self.status,
                "hand_pay_reason": self.hand_pay_reason}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> RemoteRound:
        asked = record.get("asked")
        return cls(str(record["round_id"]), int(record["step_no"]), RoundView.from_json(record["view"]),
                   Decision.from_record(asked) if asked else None, str(record.get("result_code", "")),
                   record.get("side_bet_wins_credits"), str(record.get("status", "open")),
                   str(record.get("hand_pay_reason", "")))


def read_answer(body: Mapping[str, Any], game_id: str, step_no: int) -> tuple[int, RoundView]:
    """The step number and view of a server's answer for a `game_id` round last at `step_no`."""
    view = RoundView.from_json(body["view"]) if isinstance(body.get("view"), Mapping) else None
    new_step = body.get("step_no")
    if view is None or not isinstance(new_step, int) or new_step < step_no:
        raise ValueError(f"the game server's answer is damaged (step_no {new_step!r}, view missing or not "
                         "a round view)")
    if view.game_id != game_id:
        raise ValueError(f"the game server answered with a {view.game_id} round for a {game_id} round")
    return new_step, view


class RemoteGame(Game):
    """A game of the server's catalogue. entry: its catalogue entry (as GET /api/v1/games lists it).
    local: the same game built on this cabinet from the same pay table out of its ROM, when it holds
    it (its default wager and pay-table header are then the cabinet's own), else None."""


    def __init__(self, entry: Mapping[str, Any], local: Game | None) -> None:
        self.entry = dict(entry)
        self.local = local
        self.game_id = str(entry["id"])  # type: ignore[misc]  # per instance: the server's games
        self.title = str(entry["title"])  # type: ignore[misc]
        self.steps = tuple(entry["steps"])  # type: ignore[misc]
        self.pool_names = local.pool_names if local is not None else ()  # type: ignore[misc]
        offer = self.wager_offer()
        super().__init__(local.paytable if local is not None else CataloguePaytable(
            str(entry["paytable_id"]), str(entry["paytable_sha256"]),
            CatalogueHeader(offer.denominations_cents, offer.bets_credits, ROLLOVER - 1)))

    def wager_offer(self) -> WagerOffer:
        entry = self.entry
        return WagerOffer(tuple(entry["denominations_cents"]), tuple(entry["bets_credits"]),
                          int(entry["stake_bets"]), dict(entry.get("side_bets") or {}))

    def bets_offered(self) -> tuple[int, ...]:
        return tuple(sorted(self.entry["bets_credits"]))

    def default_wager(self, denom_cents: int) -> Wager:
        if self.local is not None:
            return self.local.default_wager(denom_cents)
        bet = min(self.entry["bets_credits"])
        return Wager(bet, self.wager_offer().stake_credits(bet, {}), denom_cents)

    def new_round(self, wager: Wager, rng: Any, pools_cents: Mapping[str, int]) -> Round:
        raise TypeError(f"{self.title} is dealt by the game server: the cabinet starts it through its link "
                        "(egm.cabinet.remote_play), never with its own RNG")

    def restore(self, record: Mapping[str, Any]) -> RemoteRound:
        return RemoteRound.from_record(record)


def catalogue_vouched(catalogue: Mapping[str, Any], key: Ed25519PublicKey | None) -> bool:
    """True when the catalogue carries a valid signature by `key` over its games."""
    signature, games = catalogue.get("signature"), catalogue.get("games")
    if key is None or not isinstance(signature, str) or not isinstance(games, list):
        return False
    return verify_catalogue(key, games, signature)


ENTRY_KEYS = ("id", "title", "paytable_id", "paytable_sha256", "denominations_cents", "bets_credits",
              "stake_bets", "steps")


def offered_games(
    catalogue: Mapping[str, Any], rom_paytables: Mapping[str, Game | None], vouched: bool,
) -> tuple[dict[str, RemoteGame], dict[str, str]]:
    """The games the cabinet offers from a catalogue, and the sentence for each one it refuses.

    rom_paytables: SHA-256 -> the local game built on that ROM pay table (None when the ROM holds the
    table but this cabinet has no code for its game). vouched: the catalogue's signature verified.
    """
    games: dict[str, RemoteGame] = {}
    refused: dict[str, str] = {}
    for entry in catalogue.get("games") or []:
        missing = [k for k in ENTRY_KEYS if not isinstance(entry, Mapping) or k not in entry]
        if missing:
            refused[str(entry.get("id", "?") if isinstance(entry, Mapping) else "?")] = (
                f"The game server's catalogue entry lacks {', '.join(missing)}; it is not offered.")
            continue
        digest = str(entry["paytable_sha256"])
        if digest in rom_paytables or vouched:
            local = rom_paytables.get(digest)
            games[str(entry["id"])] = RemoteGame(entry, local if local is not None and
                                                 local.game_id == entry["id"] else None)
        else:
            refused[str(entry["id"])] = (
                f"{entry['title']} is not offered: the server's pay table {entry['paytable_id']} (SHA-256 "
                f"{digest[:16]}...) is not in this cabinet's ROM and no signed catalogue vouches for it.")
    return games, refused
