"""What a seat does with its titles on its own turn, at any time before it throws: houses and hotels
(built evenly, from the Bank's limited stock; a scarce one auctioned), selling them back at half, and
mortgages. Each action is checked by its `check_*` first: a refused one raises `Refused` with a
sentence and changes nothing."""

from __future__ import annotations

from typing import Any

from egm.games.property.board import HOTEL
from egm.games.property.paytable import BOARD_SIZE
from egm.games.property.players import BANK, Flow, Refused, Request


class Holdings:
    """Mixed into `Table` (egm.games.property.table), whose state and money moves it uses."""

    def _own_title(self, seat: int, space: int) -> None:
        if not (isinstance(space, int) and 0 <= space < BOARD_SIZE and self.board.is_title[space]):
            raise Refused(f"Space {space} is not a title on the board; give a property, railroad or utility.")
        if self.owner[space] != seat:
            raise Refused(f"{self.board.names[space]} is not yours.")

    def check_build(self, seat: int, space: int) -> None:
        self._own_title(seat, space)
        board = self.board
        name = board.names[space]
        if board.kinds[space] != "property":
            raise Refused(f"{name} is not a colour-group property; only they take houses.")
        if not self.owns_group(seat, space):
            raise Refused(f"You cannot build on {name} without owning the whole "
                          f"{board.group_names[board.group_of[space]]} group.")
        group = board.groups[board.group_of[space]]
        if any(self.mortgaged[s] for s in group):
            raise Refused(f"You cannot build on the {board.group_names[board.group_of[space]]} group "
                          "while any of it is mortgaged; lift the mortgage first.")
        houses = self.houses[space]
        if houses == HOTEL:
            raise Refused(f"{name} already has a hotel.")
        if houses > min(self.houses[s] for s in group):
            raise Refused(f"Build evenly: {name} has more houses than another property of its group.")
        if houses == 4 and self.bank_hotels == 0:
            raise Refused("The Bank has no hotel left; wait until one is sold back.")
        if houses < 4 and self.bank_houses == 0:
            raise Refused("The Bank has no house left; wait until one is sold back.")
        if self.seats[seat].cash < board.house_cost[space]:
            raise Refused(f"A building on {name} costs ${board.house_cost[space]} and you have "
                          f"${self.seats[seat].cash}.")

    def build(self, seat: int, space: int, price: int | None = None) -> None:
        """One house (or, on four houses, a hotel) on `space`, paid at cost or at an auction price."""
        self.check_build(seat, space)
        cost = self.board.house_cost[space] if price is None else price
        hotel = self.houses[space] == 4
        self._transfer(seat, BANK, cost, "build", seat, space=space, building="hotel" if hotel else "house",
                       price=cost)
        if hotel:
            self.bank_hotels -= 1
            self.bank_houses += 4
            self.houses[space] = HOTEL
            self.seats[seat].built_hotel = True
        else:
            self.bank_houses -= 1
            self.houses[space] += 1

    def building_lot(self, space: int) -> str:
        return "hotel" if self.houses[space] == 4 else "house"

    def can_take_building(self, seat: int, lot: str) -> bool:
        """Whether `seat` could legally put a building of kind `lot` somewhere now."""
        if self.seats[seat].bankrupt:
            return False
        for space in self.board.titles:
            if self.owner[space] == seat and self.board.kinds[space] == "property":
                try:
                    self.check_build(seat, space)
                except Refused:
                    continue
                if self.building_lot(space) == lot:
                    return True
        return False

    def building_scarce(self, seat: int, space: int) -> bool:
        """The seed's scarce buildings: the Bank holds fewer of them than the seats able to build one
        now (the asking seat included), so the building goes to auction."""
        lot = self.building_lot(space)
        stock = self.bank_hotels if lot == "hotel" else self.bank_houses
        wanting = sum(1 for s in range(len(self.seats)) if self.can_take_building(s, lot))
        return 0 < stock < wanting

    def building_auction(self, seat: int, space: int) -> Flow:
        """Auction one scarce building; the winner puts it up at once at its bid (the asking seat on
        the space it asked for, another winner where its strategy, or the first legal space, says)."""
        self.check_build(seat, space)
        lot = self.building_lot(space)
        request = Request(seat, "auction", space, lot)
        bids = {}
        for bidder in self._bidders(request):
            bid = yield from self._ask(Request(bidder, "auction", space, lot))
            if bid >= self.board.house_cost[space] and bid <= self.seats[bidder].cash:
                bids[bidder] = bid
        if not bids:
            self._event("auction", seat, space=space, lot=lot, price=0, winner=None)
            return
        best = max(bids.values())
        tied = [bidder for bidder, bid in bids.items() if bid == best]
        winner = tied[self.rng.randbelow(len(tied))] if len(tied) > 1 else tied[0]
        site = space if winner == seat else self._building_site(winner, lot)
        self._event("auction", winner, space=site, lot=lot, price=best, winner=winner)
        self.build(winner, site, best)

    def _building_site(self, seat: int, lot: str) -> int:
        strategy = self.strategies[seat]
        if strategy is not None:
            return strategy.place_building(self, seat, lot)
        return next(s for s in self.legal(seat, "build") if self.building_lot(s) == lot)

    def check_sell_building(self, seat: int, space: int) -> None:
        self._own_title(seat, space)
        name = self.board.names[space]
        houses = self.houses[space]
        if houses == 0:
            raise Refused(f"{name} has no building to sell.")
        group = self.board.groups[self.board.group_of[space]]
        if houses < max(self.houses[s] for s in group):
            raise Refused(f"Sell evenly: another property of {name}'s group has more buildings.")
        if houses == HOTEL and self.bank_houses < 4:
            raise Refused("The Bank has not four houses to put back for the hotel; the hotel can only "
                          "go back with its whole value when you are short of cash.")

    def sell_building(self, seat: int, space: int) -> None:
        """Sell one building back to the Bank at half its cost (a hotel leaves four houses)."""
        self.check_sell_building(seat, space)
        half = self.board.house_cost[space] // 2
        if self.houses[space] == HOTEL:
            self.houses[space] = 4
            self.bank_hotels += 1
            self.bank_houses -= 4
            building = "hotel"
        else:
            self.houses[space] -= 1
            self.bank_houses += 1
            building = "house"
        self._transfer(BANK, seat, half, "sell_building", seat, space=space, building=building)

    def _sell_hotel_whole(self, seat: int, space: int) -> None:
        """A hotel the Bank cannot break into houses goes back whole: half of its five houses' cost."""
        self.houses[space] = 0
        self.bank_hotels += 1
        self._transfer(BANK, seat, 5 * self.board.house_cost[space] // 2, "sell_building", seat, space=space,
                       building="hotel and its four houses")

    def check_mortgage(self, seat: int, space: int) -> None:
        self._own_title(seat, space)
        name = self.board.names[space]
        if self.mortgaged[space]:
            raise Refused(f"{name} is already mortgaged.")
        if self.houses[space]:
            raise Refused(f"{name} has buildings; sell them to the Bank before mortgaging it.")

    def mortgage(self, seat: int, space: int) -> None:
        self.check_mortgage(seat, space)
        self.mortgaged[space] = True
        self._transfer(BANK, seat, self.board.mortgage[space], "mortgage", seat, space=space)

    def interest(self, space: int) -> int:
        """The mortgage's interest, rounded up to the dollar."""
        return -(-self.board.mortgage[space] * self.rules.mortgage_interest_percent // 100)

    def lift_cost(self, space: int) -> int:
        """Lifting a mortgage: the mortgage value plus the interest."""
        return self.board.mortgage[space] + self.interest(space)

    def check_unmortgage(self, seat: int, space: int) -> None:
        self._own_title(seat, space)
        name = self.board.names[space]
        if not self.mortgaged[space]:
            raise Refused(f"{name} is not mortgaged.")
        if self.seats[seat].cash < self.lift_cost(space):
            raise Refused(f"Lifting the mortgage on {name} costs ${self.lift_cost(space)} and you have "
                          f"${self.seats[seat].cash}.")

    def unmortgage(self, seat: int, space: int) -> None:
        self.check_unmortgage(seat, space)
        self.mortgaged[space] = False
        self._transfer(seat, BANK, self.lift_cost(space), "unmortgage", seat, space=space)

    def act(self, seat: int, kind: str, space: int) -> None:
        """One of the any-time actions by name: build, sell_building, mortgage, unmortgage."""
        {"build": self.build, "sell_building": self.sell_building, "mortgage": self.mortgage,
         "unmortgage": self.unmortgage}[kind](seat, space)

    def legal(self, seat: int, kind: str) -> list[int]:
        """The titles on which `seat` may take the any-time action `kind` now."""
        owner, houses, mortgaged = self.owner, self.houses, self.mortgaged
        held = [s for s in self.board.titles if owner[s] == seat]
        if kind == "build":  # cheap filters first: the full check raises on most titles
            held = [s for s in held if houses[s] < HOTEL and self.owns_group(seat, s)]
            check = self.check_build
        elif kind == "unmortgage":
            held = [s for s in held if mortgaged[s]]
            check = self.check_unmortgage
        elif kind == "mortgage":
            held = [s for s in held if not mortgaged[s] and not houses[s]]
            check = self.check_mortgage
        else:
            held = [s for s in held if houses[s]]
            check = self.check_sell_building
        return [s for s in held if self._allowed(check, seat, s)]

    @staticmethod
    def _allowed(check: Any, seat: int, space: int) -> bool:
        try:
            check(seat, space)
        except Refused:
            return False
        return True
