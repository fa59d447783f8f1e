"""The rules engine: one game of Property from its seed, with every payment named.

`Table.play()` is a generator that runs the short form (rounds of turns, or the first bankruptcy). It
asks each seat for its decisions through `Request`s: a seat with a machine strategy is answered at
once by it; a seat without one (the customer's) is asked by yielding the request, and the answer is
sent back in. Actions a seat may take at any time on its own turn (build, sell a building, mortgage,
lift a mortgage: `holdings.py`; propose a trade: `trades.py`) are methods checked by `check_*` first: a
refused action raises `Refused` with a sentence and changes nothing. A seat short of cash raises it, or
goes bankrupt, as `bankruptcy.py` says; the parties and what they decide are in `players.py`.

Money is whole dollars. `bank` is the Bank's balance relative to the start, so `bank + sum(cash)` is
constant (`money_total`); every change of it is one `_transfer` with a named kind, logged as an event
with every seat's cash after it when the table keeps a log.

Randomness: the table owns `Rng.from_seed(seed)` (the cabinet's DRBG, seeded by a seed drawn in
`new_round`). At set-up it shuffles Chance, then Community Chest (Fisher-Yates), deals any
quick-start title cards, then every die of the game is drawn from it in order of throw, and an
auction's tie between equal top bids is settled by `randbelow(tied)`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from egm.games.property.bankruptcy import ShortOfCash
from egm.games.property.board import HOTEL, Board
from egm.games.property.holdings import Holdings
from egm.games.property.paytable import BOARD_SIZE, CardSpec, PropertyRules
from egm.games.property.players import BANK, Flow, GameOver, Refused, Request, Seat, Strategy, Trade
from egm.games.property.trades import Trading
from egm.rng import Rng

__all__ = ["BANK", "Flow", "GameOver", "Refused", "Request", "Seat", "Strategy", "Table", "Trade"]


class Table(Holdings, Trading, ShortOfCash):
    def __init__(self, board: Board, rules: PropertyRules, seats: int, seed: int,
                 strategies: Sequence[Strategy | None], log: bool = True) -> None:
        if len(strategies) != seats:
            raise ValueError("give one strategy (or None for an outside player) per seat")
        self.board = board
        self.rules = rules
        self.seed = seed
        self.strategies = list(strategies)
        self.seats = [Seat(rules.starting_cash) for _ in range(seats)]
        self.money_total = rules.starting_cash * seats
        self.bank = 0
        self.owner = [BANK] * BOARD_SIZE
        self.houses = [0] * BOARD_SIZE
        self.mortgaged = [False] * BOARD_SIZE
        self.bank_houses = rules.bank_houses
        self.bank_hotels = rules.bank_hotels
        self.rng = Rng.from_seed(seed)
        self.decks: dict[str, deque[int]] = {}
        for name in ("chance", "community_chest"):
            order = list(range(len(board.decks[name])))
            self.rng.shuffle(order)
            self.decks[name] = deque(order)
        self.events: list[dict[str, Any]] | None = [] if log else None
        self.order: list[int] = []
        self.turns_played = [0] * seats
        self.round = 0
        self.last_card: tuple[str, str] | None = None  # (deck, text) of the latest card drawn
        self.last_trade: dict[str, Any] | None = None  # the latest trade proposed, and its answer
        self.finished = False
        self._quick_start()

    # -- money -------------------------------------------------------------------------------------

    def _event(self, kind: str, seat: int, **fields: Any) -> None:
        if self.events is not None:
            self.events.append({"seat": seat, "kind": kind, **fields,
                                "cash_after": [s.cash for s in self.seats]})

    def _transfer(self, payer: int, payee: int, amount: int, kind: str, seat: int, **fields: Any) -> None:
        """Move `amount` from payer to payee (a seat or BANK); the payer's cash must cover it."""
        if payer == BANK:
            self.bank -= amount
        else:
            self.seats[payer].cash -= amount
        if payee == BANK:
            self.bank += amount
        else:
            self.seats[payee].cash += amount
        if self.events is not None:
            self._event(kind, seat, payer=_party(payer), payee=_party(payee), amount=amount, **fields)

    def _charge(self, debtor: int, creditor: int, amount: int, kind: str, **fields: Any) -> None:
        """A debt: raised by selling and mortgaging if the cash is short, else bankruptcy."""
        if amount <= 0:
            return
        if self.seats[debtor].cash < amount:
            self.raise_cash(debtor, amount)
        if self.seats[debtor].cash < amount:
            self._bankrupt(debtor, creditor)
        self._transfer(debtor, creditor, amount, kind, debtor, **fields)

    # -- worth ---------------------------------------------------------------------------------------

    def building_cost(self, space: int) -> int:
        return self.houses[space] * self.board.house_cost[space]  # a hotel (5) costs five houses

    def net_worth(self, seat: int) -> int:
        """Cash, plus each title at its price (mortgaged: at half), plus buildings at cost."""
        price, owner, mortgaged = self.board.price, self.owner, self.mortgaged
        worth = self.seats[seat].cash
        for space in self.board.titles:
            if owner[space] == seat:
                worth += (price[space] // 2 if mortgaged[space] else price[space]) + self.building_cost(space)
        return worth

    def total_worth(self, seat: int) -> int:
        """The Income Tax base as the seed defines it: cash, plus the mortgage value of every title
        (mortgaged or not), plus buildings at cost."""
        worth = self.seats[seat].cash
        for space in self.board.titles:
            if self.owner[space] == seat:
                worth += self.board.mortgage[space] + self.building_cost(space)
        return worth

    def owns_group(self, seat: int, space: int) -> bool:
        group = self.board.group_of[space]
        return group >= 0 and all(self.owner[s] == seat for s in self.board.groups[group])

    def rent(self, space: int, throw: int) -> int:
        """The rent an owner may ask on `space` (0 if mortgaged or unowned); `throw` is the dice total
        (for a utility)."""
        owner = self.owner[space]
        if owner == BANK or self.mortgaged[space]:
            return 0
        board = self.board
        kind = board.kinds[space]
        if kind == "property":
            houses = self.houses[space]
            if houses:
                return board.rents[space][houses]
            return board.rents[space][0] * (2 if self.owns_group(owner, space) else 1)
        same = board.railroads if kind == "railroad" else board.utilities
        count = sum(1 for s in same if self.owner[s] == owner)
        rent = board.rents[space][count - 1]
        return rent if kind == "railroad" else rent * throw

    # -- the flow ------------------------------------------------------------------------------------

    def play(self) -> Flow:
        """The whole short form; yields the outside seat's requests."""
        try:
            self.order = self._starting_order()
            for number in range(1, self.rules.short_form.rounds + 1):
                self.round = number
                for seat in self.order:
                    if not self.seats[seat].bankrupt:
                        yield from self._turn(seat)
                        self.turns_played[seat] += 1
        except GameOver:
            pass
        self.finished = True

    def _starting_order(self) -> list[int]:
        """The seed's rule: each throws the dice; the highest plays first (ties throw again), then
        play goes round in seat order."""
        contenders = list(range(len(self.seats)))
        while len(contenders) > 1:
            totals = {}
            for seat in contenders:
                a, b = self._die(), self._die()
                self._event("roll", seat, dice=[a, b], purpose="order")
                totals[seat] = a + b
            best = max(totals.values())
            contenders = [seat for seat in contenders if totals[seat] == best]
        first = contenders[0]
        return [(first + k) % len(self.seats) for k in range(len(self.seats))]

    def _die(self) -> int:
        return self.rng.randbelow(6) + 1

    def _ask(self, request: Request) -> Flow:
        strategy = self.strategies[request.seat]
        if strategy is None:
            answer = yield request
            return answer
        seat = request.seat
        if request.kind == "turn":
            yield from self._machine_actions(seat, strategy)
            return "roll"
        if request.kind == "jail":
            yield from self._machine_actions(seat, strategy)
            return strategy.jail(self, seat)
        if request.kind == "buy":
            return strategy.buy(self, seat, request.space)
        return min(max(0, strategy.bid(self, seat, request)), self.seats[seat].cash)

    def _machine_actions(self, seat: int, strategy: Strategy) -> Flow:
        """A machine seat's building and mortgage dealings before it throws."""
        for _ in range(4 * BOARD_SIZE):  # every action changes the position; this bounds a loop
            action = strategy.next_action(self, seat)
            if action is None:
                return
            kind, space = action
            if kind == "build" and self.building_scarce(seat, space):
                yield from self.building_auction(seat, space)
            else:
                self.act(seat, kind, space)

    def _turn(self, seat: int) -> Flow:
        player = self.seats[seat]
        while player.in_jail:
            choice = yield from self._ask(Request(seat, "jail"))
            if choice == "card":
                self.use_jail_card(seat)
            elif choice == "fine":
                self._charge(seat, BANK, self.rules.jail_fine, "jail", fine=True)
                self._leave_jail(seat)
            elif choice == "roll":
                yield from self._jail_throw(seat)
                return
            else:  # a scarce building the outside seat asked for: ("build", space)
                yield from self.building_auction(seat, choice[1])
        doubles = 0
        while True:
            answer = yield from self._ask(Request(seat, "turn"))
            if answer != "roll":  # a scarce building the outside seat asked for: ("build", space)
                yield from self.building_auction(seat, answer[1])
                continue
            a, b = self._die(), self._die()
            self._event("roll", seat, dice=[a, b])
            if a == b:
                doubles += 1
                if doubles == 3:
                    self._send_to_jail(seat, "three doubles")
                    return
            yield from self._move(seat, a + b, a + b)
            if a != b or player.in_jail or player.bankrupt:
                return

    def _jail_throw(self, seat: int) -> Flow:
        player = self.seats[seat]
        a, b = self._die(), self._die()
        self._event("roll", seat, dice=[a, b], in_jail=True)
        player.jail_turns += 1
        if a != b:
            if player.jail_turns < 3:
                return
            self._charge(seat, BANK, self.rules.jail_fine, "jail", fine=True)  # must leave on the third
        self._leave_jail(seat)
        yield from self._move(seat, a + b, a + b)

    def _leave_jail(self, seat: int) -> None:
        player = self.seats[seat]
        player.in_jail = False
        player.jail_turns = 0

    def _send_to_jail(self, seat: int, reason: str) -> None:
        player = self.seats[seat]
        came_from = player.position
        player.position = self.board.jail
        player.in_jail = True
        player.jail_turns = 0
        self._event("jail", seat, **{"from": came_from, "to": self.board.jail, "reason": reason})

    def _advance(self, seat: int, steps: int) -> int:
        """Forward `steps` spaces, with the salary on passing or reaching Go; the space reached."""
        player = self.seats[seat]
        start = player.position
        end = start + steps
        player.position = end % BOARD_SIZE
        self._event("move", seat, **{"from": start, "to": player.position})
        if end >= BOARD_SIZE:
            self._transfer(BANK, seat, self.rules.salary, "salary", seat)
        return player.position

    def _move(self, seat: int, steps: int, throw: int, multiplier: int = 1) -> Flow:
        """Forward `steps` spaces, then land."""
        self._advance(seat, steps)
        yield from self._land(seat, throw, multiplier)

    def _land(self, seat: int, throw: int, multiplier: int = 1) -> Flow:
        space = self.seats[seat].position
        kind = self.board.kinds[space]
        if self.board.is_title[space]:
            owner = self.owner[space]
            if owner == BANK:
                yield from self._offer(seat, space)
            elif owner != seat:
                rent = self.rent(space, throw) * multiplier
                if rent:
                    self._charge(seat, owner, rent, "rent", space=space)
        elif kind == "chance" or kind == "community_chest":
            yield from self._draw(seat, kind)
        elif kind == "go_to_jail":
            self._send_to_jail(seat, "Go to Jail")
        elif kind == "income_tax":
            tax = self.total_worth(seat) * self.rules.income_tax_percent // 100
            self._charge(seat, BANK, tax, "tax", space=space)
        elif kind == "luxury_tax":
            self._charge(seat, BANK, self.rules.luxury_tax, "tax", space=space)

    def _offer(self, seat: int, space: int) -> Flow:
        bought = yield from self._ask(Request(seat, "buy", space))
        if bought:
            self._transfer(seat, BANK, self.board.price[space], "buy", seat, space=space,
                           price=self.board.price[space])
            self.owner[space] = seat
        else:
            yield from self._auction(Request(seat, "auction", space, "property"))

    def _bidders(self, request: Request) -> list[int]:
        if request.lot == "property":
            return [s for s, player in enumerate(self.seats) if not player.bankrupt]
        return [s for s in range(len(self.seats)) if self.can_take_building(s, request.lot)]

    def _auction(self, request: Request) -> Flow:
        """Sealed bids, one from each eligible seat in seat order; the highest wins at its bid (a tie
        is settled by the DRBG). A property with no bid stays with the Bank; a building's bids open at
        its cost."""
        bids = {}
        floor = 1 if request.lot == "property" else self.board.house_cost[request.space]
        for bidder in self._bidders(request):
            bid = yield from self._ask(Request(bidder, "auction", request.space, request.lot))
            if bid >= floor:
                bids[bidder] = bid
        if not bids:
            self._event("auction", request.seat, space=request.space, lot=request.lot, price=0, winner=None)
            return None
        best = max(bids.values())
        tied = [bidder for bidder, bid in bids.items() if bid == best]
        winner = tied[self.rng.randbelow(len(tied))] if len(tied) > 1 else tied[0]
        self._transfer(winner, BANK, best, "auction", winner, space=request.space, lot=request.lot,
                       price=best, winner=winner)
        if request.lot == "property":
            self.owner[request.space] = winner
        return winner

    def _draw(self, seat: int, deck_name: str) -> Flow:
        deck = self.decks[deck_name]
        index = deck.popleft()
        card: CardSpec = self.board.decks[deck_name][index]
        self.last_card = (deck_name, card.text)
        if card.action == "get_out_of_jail":
            self.seats[seat].jail_cards.append(deck_name)  # kept out of the deck until used
        else:
            deck.append(index)  # returned to the bottom
        self._event("card", seat, deck=deck_name, card=card.id, text=card.text)
        player = self.seats[seat]
        action = card.action
        if action == "advance":
            yield from self._move(seat, (card.space - player.position) % BOARD_SIZE or BOARD_SIZE, 0)
        elif action == "advance_nearest":
            target = self.board.nearest[card.kind][player.position]
            steps = (target - player.position) % BOARD_SIZE
            if card.kind == "railroad":
                yield from self._move(seat, steps, 0, card.multiplier)
            else:
                yield from self._advance_to_utility(seat, steps, card.multiplier)
        elif action == "back":
            start = player.position
            player.position = (start - card.spaces) % BOARD_SIZE
            self._event("move", seat, **{"from": start, "to": player.position})
            yield from self._land(seat, 0)
        elif action == "jail":
            self._send_to_jail(seat, "card")
        elif action == "collect":
            self._transfer(BANK, seat, card.amount, "card", seat, card=card.id)
        elif action == "pay":
            self._charge(seat, BANK, card.amount, "card", card=card.id)
        elif action == "pay_each":
            for other in self._others(seat):
                self._charge(seat, other, card.amount, "card", card=card.id)
        elif action == "collect_each":
            for other in self._others(seat):
                self._charge(other, seat, card.amount, "card", card=card.id)
        elif action == "repairs":
            houses = sum(self.houses[s] for s in self.board.titles if self.owner[s] == seat and
                         self.houses[s] < HOTEL)
            hotels = sum(1 for s in self.board.titles if self.owner[s] == seat and self.houses[s] == HOTEL)
            self._charge(seat, BANK, houses * card.per_house + hotels * card.per_hotel, "card", card=card.id)

    def _advance_to_utility(self, seat: int, steps: int, multiplier: int) -> Flow:
        """The nearest-utility card: an owner is paid `multiplier` x a fresh throw of the dice."""
        space = self._advance(seat, steps)
        owner = self.owner[space]
        if owner == BANK:
            yield from self._offer(seat, space)
        elif owner != seat and not self.mortgaged[space]:
            a, b = self._die(), self._die()
            self._event("roll", seat, dice=[a, b], purpose="utility card")
            self._charge(seat, owner, multiplier * (a + b), "rent", space=space)

    def _others(self, seat: int) -> list[int]:
        return [s for s in self.order if s != seat and not self.seats[s].bankrupt]

    # -- a Get out of Jail Free card -----------------------------------------------------------------

    def check_jail_card(self, seat: int) -> None:
        player = self.seats[seat]
        if not player.in_jail or not player.jail_cards:
            raise Refused("You hold no Get out of Jail Free card to use here.")

    def use_jail_card(self, seat: int) -> None:
        self.check_jail_card(seat)
        player = self.seats[seat]
        deck = player.jail_cards.pop(0)
        card = next(i for i, c in enumerate(self.board.decks[deck]) if c.action == "get_out_of_jail")
        self.decks[deck].append(card)  # back to the bottom of its deck
        self._leave_jail(seat)
        self._event("jail", seat, card="get_out_of_jail", deck=deck, released=True)

    # -- set-up --------------------------------------------------------------------------------------

    def _quick_start(self) -> None:
        """The pay table's quick-start deal: title cards dealt at random, free, round the seats."""
        deal = self.rules.short_form.quick_start_deeds
        if not deal:
            return
        titles = list(self.board.titles)
        self.rng.shuffle(titles)
        for k in range(deal * len(self.seats)):
            space = titles[k]
            self.owner[space] = k % len(self.seats)
            self._event("buy", k % len(self.seats), space=space, price=0, amount=0, payer=None, payee=None,
                        quick_start=True)


def _party(party: int) -> int | str:
    return "bank" if party == BANK else party
