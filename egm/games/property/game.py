"""Property on the cabinet: the `Game` plug-in.

The stake (`stake_units` units of the bet) buys one short-form game: the customer (seat 0) against
the pay table's machine opponents. `new_round` draws the game's seed from the cabinet's DRBG; the
table's own DRBG stream, seeded by it, shuffles both decks and throws every die (table.py). The round
waits only on the customer's real decisions; machine turns, rent, taxes and cards move on by
themselves. The decisions, by step:

* "turn" (before a throw) and "jail" (a turn in Jail): `roll`; `build`, `sell_building`,
  `mortgage`, `unmortgage` (`{"space": n}`); `trade` (`{"with": seat, "give": [spaces],
  "get": [spaces], "cash": dollars the customer pays, negative to receive}`); in Jail also
  `pay_fine` and `use_card`.
* "buy" (an unowned title landed on): `buy` or `decline` (then an auction); `mortgage` and
  `sell_building` to raise the price.
* "auction": `bid` (`{"amount": dollars}`, 0 to pass; a scarce building the customer wins without
  having asked for it goes on its first legal site).

Anything else, or anything the rules forbid, is refused with a sentence and nothing moves. The record
is the seed, the opponents and every accepted decision; `restore` replays them, so a round comes back
at the same decision with the same dice and cards.

>>> from egm.config import PROJECT_ROOT
>>> from egm.rom.paytable import parse_paytable
>>> from types import SimpleNamespace
>>> path = PROJECT_ROOT / "paytables" / "property.toml"
>>> header, rules = parse_paytable(path, path.read_bytes())
>>> game = PropertyGame(SimpleNamespace(header=header, rules=rules))
>>> round_ = game.new_round(game.default_wager(1), Rng.from_seed(7), {})
>>> round_.step, round_.awaiting
('play', 'turn')
>>> while not round_.finished:
...     round_.decide(round_.reference_decision())
>>> game.restore(round_.to_record()).view() == round_.view()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from egm.games.base import Decision, DecisionRefused, Wager
from egm.games.board_game import BoardGame, BoardRound
from egm.games.margin import margin_reason, result_text
from egm.games.property.board import Board
from egm.games.property.paytable import PropertyRules
from egm.games.property.strategy import MACHINE_STRATEGIES, ReserveStrategy
from egm.games.property.table import Flow, Refused, Request, Table, Trade
from egm.games.record import open_record, seal
from egm.games.seats import not_your_seat, possessive
from egm.rng import Rng

CUSTOMER = 0
RECORD_FORMAT = 1
AWARD_WORDS = {"hotel": "A hotel built", "monopoly": "A whole colour group held"}  # the end screen's words
LOG_EVENTS = 12  # the latest events the view carries for the table's log
SPACE_ACTIONS = ("build", "sell_building", "mortgage", "unmortgage")
ALLOWED = {
    "turn": ("roll", *SPACE_ACTIONS, "trade"),
    "jail": ("roll", "pay_fine", "use_card", *SPACE_ACTIONS, "trade"),
    "buy": ("buy", "decline", "mortgage", "sell_building"),
    "auction": ("bid",),
}


def draw_game_seed(rng: Rng) -> int:
    """The game's 63-bit seed, drawn from the cabinet's DRBG."""
    return int.from_bytes(rng.read(8), "little") >> 1


class PropertyGame(BoardGame):
    game_id: ClassVar[str] = "property"
    title: ClassVar[str] = "Property"
    # The round is "play" until it is complete (BoardGame.steps); what the customer is asked now
    # ("turn", "jail", "buy", "auction") is `PropertyRound.awaiting`.
    machine_strategies = MACHINE_STRATEGIES
    rules: PropertyRules
    strategy: ReserveStrategy

    def __init__(self, paytable: Any) -> None:
        super().__init__(paytable)
        self.board = Board(self.rules)
        self.spaces = [self.board.space_json(i) for i in range(len(self.board.names))]  # for the scene

    def new_round(self, wager: Wager, rng: Rng, pools_cents: Mapping[str, int],
                  opponents: int | None = None, log: bool = True) -> PropertyRound:
        """Draw the game's seed (its only randomness from the cabinet) and play up to the customer's
        first decision. `opponents` defaults to the pay table's `opponents_default`; `log=False`
        (the lab) keeps no event log."""
        self.check_wager(wager)
        return PropertyRound(self, wager, draw_game_seed(rng), self.opponent_count(opponents), log)

    def restore(self, record: Mapping[str, Any]) -> PropertyRound:
        opened = open_record(record, self.game_id, RECORD_FORMAT)
        body = opened.body
        round_ = PropertyRound(self, opened.wager, body["seed"], body["opponents"])
        for decision in body["decisions"]:
            round_.decide(Decision.from_record(decision))
        return round_


class PropertyRound(BoardRound):
    def __init__(self, game: PropertyGame, wager: Wager, seed: int, opponents: int,
                 log: bool = True) -> None:
        self.game = game
        self.wager = wager
        self.seed = seed
        self.opponents = opponents
        self.decisions: list[dict[str, Any]] = []
        strategies = [None, *[game.strategy] * opponents]
        self.table = Table(game.board, game.rules, 1 + opponents, seed, strategies, log=log)
        self._flow: Flow = self.table.play()
        self.request: Request | None = None
        self._seen = 0  # events already shown when the customer last decided
        self.own: list[tuple[int, dict[str, Any]]] = []  # the customer's declines and bids, at their place
        self._advance(None)

    def _advance(self, answer: Any) -> None:
        """Run the table until it asks the customer again or the game ends."""
        try:
            self.request = self._flow.send(answer)
        except StopIteration:
            self.request = None

    @property
    def step(self) -> str:
        return "complete" if self.request is None else "play"

    @property
    def awaiting(self) -> str:
        """The decision the customer owes now: "turn", "jail", "buy", "auction" ("" once complete)."""
        return "" if self.request is None else self.request.kind

    def decide(self, decision: Decision) -> None:
        answer = self._check(decision)
        self.decisions.append(decision.to_record())
        self._seen = len(self.table.events or ())
        self._note(decision)
        if answer is not None:
            self._advance(answer)

    def _note(self, decision: Decision) -> None:
        """The customer's decline or bid, for the log (the engine's events are the money's; these say
        what the customer chose, in the order it was chosen)."""
        request = self.request
        if request is None or self.table.events is None or decision.kind not in ("decline", "bid"):
            return
        note: dict[str, Any] = {"seat": CUSTOMER, "kind": decision.kind, "space": request.space}
        if decision.kind == "bid":
            note.update(lot=request.lot, amount=decision.args["amount"])
        self.own.append((self._seen, note))

    def log(self) -> list[dict[str, Any]]:
        """The engine's events with the customer's own declines and bids in their places."""
        events, own = list(self.table.events or ()), iter(self.own)
        merged: list[dict[str, Any]] = []
        pending = next(own, None)
        for index, event in enumerate([*events, None]):
            while pending is not None and pending[0] == index:
                merged.append(pending[1])
                pending = next(own, None)
            if event is not None:
                merged.append(event)
        return merged

    def _space(self, decision: Decision) -> int:
        space = decision.args.get("space")
        if not isinstance(space, int) or isinstance(space, bool):
            raise DecisionRefused(f"'{decision.kind}' needs the whole-number index of a space (0-39).")
        return space

    def _check(self, decision: Decision) -> Any:
        """Check a decision and apply an any-time action; return the answer the table's flow is
        waiting for (None when the flow does not move on). Raises DecisionRefused, changing nothing."""
        if self.request is None:
            raise DecisionRefused("The game is over; no decision is taken now.")
        seat = decision.args.get("seat", CUSTOMER)
        seats = len(self.table.seats)
        if seat != CUSTOMER:
            raise DecisionRefused(not_your_seat(seat, seats))
        if self.request.seat != CUSTOMER:
            raise DecisionRefused(f"It is {possessive(self.request.seat, seats)} turn to decide; wait for "
                                  "your turn.")
        kind, step = decision.kind, self.request.kind
        if kind not in ALLOWED[step]:
            raise DecisionRefused(f"'{kind}' is not a decision now; while the game waits on '{step}' the "
                                  f"choices are {', '.join(ALLOWED[step])}.")
        table = self.table
        try:
            if kind in SPACE_ACTIONS:
                space = self._space(decision)
                if kind == "build":
                    table.check_build(CUSTOMER, space)
                    if table.building_scarce(CUSTOMER, space):
                        return ("build", space)  # the flow auctions the scarce building
                table.act(CUSTOMER, kind, space)
                return None
            if kind == "trade":
                self._trade(decision)
                return None
            if kind == "use_card":
                table.check_jail_card(CUSTOMER)
                return "card"
        except Refused as exc:
            raise DecisionRefused(str(exc)) from exc
        return self._flow_answer(decision)

    def _flow_answer(self, decision: Decision) -> Any:
        table, request, kind = self.table, self.request, decision.kind
        assert request is not None
        cash = table.seats[CUSTOMER].cash
        if kind == "roll":
            return "roll"
        if kind == "pay_fine":
            if cash < table.rules.jail_fine:
                raise DecisionRefused(f"The fine is ${table.rules.jail_fine} and you have ${cash}; "
                                      "roll instead.")
            return "fine"
        if kind == "buy":
            price = table.board.price[request.space]
            if cash < price:
                raise DecisionRefused(f"{table.board.names[request.space]} costs ${price} and you have "
                                      f"${cash}; mortgage or sell first, or decline.")
            return True
        if kind == "decline":
            return False
        amount = decision.args.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise DecisionRefused("A bid is a whole number of dollars, 0 to pass.")
        if amount > cash:
            raise DecisionRefused(f"You cannot bid ${amount} with ${cash} in cash.")
        return amount

    def _trade(self, decision: Decision) -> None:
        args = decision.args
        other, cash = args.get("with"), args.get("cash", 0)
        give, get = args.get("give", []), args.get("get", [])
        if args.get("buildings"):
            raise Refused("Buildings are never traded; they are sold back to the Bank only.")
        whole = all(isinstance(v, int) and not isinstance(v, bool) for v in [other, cash, *give, *get])
        if not (whole and isinstance(give, list) and isinstance(get, list)):
            raise Refused("A trade needs 'with' (a seat), 'give' and 'get' (lists of spaces) and 'cash' "
                          "(whole dollars).")
        trade = Trade(CUSTOMER, other, tuple(give), tuple(get), cash)
        self.table.check_trade(trade)
        strategy = self.table.strategies[other]
        accepted = strategy is not None and strategy.accept_trade(self.table, other, trade)
        if accepted:
            self.table.trade(trade)
        self.table.last_trade = {"with": other, "give": list(give), "get": list(get), "cash": cash,
                                 "accepted": accepted}

    def reference_decision(self) -> Decision:
        """What `property-reserve/1` decides on the customer's seat (autoplay and the lab use it)."""
        return self.strategy_decision(self.game.strategy)

    def strategy_decision(self, strategy: Any) -> Decision:
        request, table = self.request, self.table
        if request is None:
            raise RuntimeError("the game is over; there is no decision to take")
        if request.kind in ("turn", "jail"):
            action = strategy.next_action(table, CUSTOMER)
            if action is not None:
                return Decision(action[0], {"space": action[1]})
            if request.kind == "jail":
                choice = strategy.jail(table, CUSTOMER)
                return Decision({"card": "use_card", "fine": "pay_fine"}.get(choice, "roll"))
            return Decision("roll")
        if request.kind == "buy":
            return Decision("buy" if strategy.buy(table, CUSTOMER, request.space) else "decline")
        bid = min(max(0, strategy.bid(table, CUSTOMER, request)), table.seats[CUSTOMER].cash)
        return Decision("bid", {"amount": bid})

    # -- the result ----------------------------------------------------------------------------------

    def net_worths(self) -> list[int]:
        return [0 if seat.bankrupt else self.table.net_worth(s) for s, seat in enumerate(self.table.seats)]

    def standings(self) -> list[int]:
        return self.net_worths()

    def awards(self) -> list[str]:
        table = self.table
        awards = []
        if table.seats[CUSTOMER].built_hotel:
            awards.append("hotel")
        if any(all(table.owner[s] == CUSTOMER for s in group) for group in table.board.groups):
            awards.append("monopoly")
        return [name for name in awards if getattr(self.game.rules.awards, name)]

    def won_units(self, awards: list[str]) -> int:
        rules = self.game.rules
        return (rules.place_pays[self.place - 1] + rules.margin_units(self.margin)
                + sum(getattr(rules.awards, name) for name in awards))

    def outcome_code(self) -> str:
        return f"P{self.place}{self.margin:+d}"

    def pays(self, awards: list[str]) -> list[tuple[str, int]]:
        """The place, the margin (in board money, never real money) and the awards."""
        rules, seats = self.game.rules, len(self.table.seats)
        return [(f"Place {self.place} of {seats}", rules.place_pays[self.place - 1]),
                margin_reason(rules.margin_pays, self.margin, board_money),
                *((AWARD_WORDS[name], getattr(rules.awards, name)) for name in awards)]

    def summary(self, awards: list[str]) -> dict[str, Any]:
        return {"result": self.result, "place": self.place, "margin": self.margin,
                "net_worth": self.net_worths(), "awards": awards,
                "bankrupt": [seat.bankrupt for seat in self.table.seats]}

    def to_record(self) -> dict[str, Any]:
        return seal(self.game.game_id, RECORD_FORMAT, self.wager,
                    {"seed": self.seed, "opponents": self.opponents, "decisions": list(self.decisions)})

    def result_line(self) -> str:
        return result_text(self.margin, f"${abs(self.margin):,} BOARD MONEY")  # net worth: never real money

    def table_view(self) -> dict[str, Any]:
        """The table scene's own data (egm/games/property/scene.py reads it)."""
        table, request = self.table, self.request
        events = table.events or []
        recent = events[self._seen:]
        card = next((e for e in reversed(recent) if e["kind"] == "card" and "text" in e), None)
        latest = self.decisions[-1]["kind"] if self.decisions else ""
        waiting = None
        if request is not None:
            waiting = {"seat": request.seat, "kind": request.kind, "space": request.space, "lot": request.lot}
        legal = {kind: table.legal(CUSTOMER, kind) for kind in SPACE_ACTIONS} if request else {}
        return {
            "game": self.game.game_id,
            "step": self.step,
            "decision": self.awaiting,
            "spaces": self.game.spaces,
            "round": table.round,
            "rounds": self.game.rules.short_form.rounds,
            "waiting": waiting,
            "choices": list(ALLOWED[request.kind]) if request else [],
            "legal": legal,
            "seats": [{"cash": seat.cash, "position": seat.position, "in_jail": seat.in_jail,
                       "jail_cards": len(seat.jail_cards), "bankrupt": seat.bankrupt, "net_worth": worth}
                      for seat, worth in zip(table.seats, self.net_worths(), strict=True)],
            "owner": list(table.owner),
            "houses": list(table.houses),
            "mortgaged": list(table.mortgaged),
            "bank_houses": table.bank_houses,
            "bank_hotels": table.bank_hotels,
            # the card drawn and the trade answered stay until the customer's next decision
            "last_card": [card["deck"], card["text"]] if card else None,
            "last_trade": table.last_trade if latest == "trade" else None,
            "recent": recent,
            "cash_before": events[self._seen - 1]["cash_after"] if self._seen else None,
            "log": self.log()[-LOG_EVENTS:],
            "result": self.result if self.finished else None,
            "final": ({"place": self.place, "margin": self.margin, "awards": self.awards()}
                      if self.finished else None),
        }


def board_money(amount: int) -> str:
    """A net-worth margin in the game's board money, signed: "+$590", "-$325", "$0"."""
    return f"{'+' if amount > 0 else '-' if amount < 0 else ''}${abs(amount):,}"
