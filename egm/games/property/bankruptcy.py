"""A seat short of cash: what it sells and mortgages to pay a debt, in the seed's order, and the
bankruptcy that ends the short form when that is not enough."""

from __future__ import annotations

from egm.games.property.board import HOTEL
from egm.games.property.players import BANK, GameOver


class ShortOfCash:
    """Mixed into `Table` (egm.games.property.table), whose state and money moves it uses."""

    def raise_cash(self, seat: int, amount: int) -> None:
        """The order in which a seat short of cash raises it (every seat, the customer's included):
        1. mortgage titles outside a whole colour group held, the lowest mortgage value first;
        2. sell buildings, evenly, from the group with the cheapest houses first (a hotel the Bank
           cannot break into houses goes back whole);
        3. mortgage the remaining unimproved titles, the lowest mortgage value first.
        It stops as soon as the cash covers `amount`."""
        player = self.seats[seat]
        board = self.board

        def mortgageable(in_groups: bool) -> list[int]:
            spaces = [s for s in board.titles if self.owner[s] == seat and not self.mortgaged[s]
                      and not self.houses[s] and self.owns_group(seat, s) == in_groups]
            return sorted(spaces, key=lambda s: (board.mortgage[s], s))

        for space in mortgageable(False):
            if player.cash >= amount:
                return
            self.mortgage(seat, space)
        built = sorted((s for s in board.titles if self.owner[s] == seat and self.houses[s]),
                       key=lambda s: (board.house_cost[s], board.group_of[s], s))
        while player.cash < amount and built:
            group = board.groups[board.group_of[built[0]]]
            site = max(group, key=lambda s: (self.houses[s], -s))
            if self.houses[site] == HOTEL and self.bank_houses < 4:
                self._sell_hotel_whole(seat, site)
            else:
                self.sell_building(seat, site)
            built = [s for s in built if self.houses[s]]
        for space in mortgageable(True):
            if player.cash >= amount:
                return
            self.mortgage(seat, space)

    def _bankrupt(self, seat: int, creditor: int) -> None:
        """Everything of value goes to the creditor (to the Bank for a Bank debt: its titles return
        free of mortgage); the buildings went to the Bank at half price in `raise_cash`, whose last
        step sells them all before a seat can be bankrupt. The short form ends here."""
        player = self.seats[seat]  # raise_cash has already sold every building to the Bank at half
        titles = [s for s in self.board.titles if self.owner[s] == seat]
        player.bankrupt = True
        self._transfer(seat, creditor, player.cash, "bankrupt", seat, titles=titles)
        for space in titles:
            self.owner[space] = creditor
            if creditor == BANK:
                self.mortgaged[space] = False  # back to the Bank free of its mortgage
        for deck in player.jail_cards:
            card = next(i for i, c in enumerate(self.board.decks[deck]) if c.action == "get_out_of_jail")
            self.decks[deck].append(card)
        player.jail_cards.clear()
        if creditor != BANK:
            for space in titles:
                if self.mortgaged[space]:
                    self._charge(creditor, BANK, self.interest(space), "mortgage", space=space, interest=True)
        raise GameOver
