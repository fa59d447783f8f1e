"""Trades between seats: title cards and cash change hands at once, checked first (buildings are never
traded; whoever receives a mortgaged title pays the Bank its interest)."""

from __future__ import annotations

from egm.games.property.paytable import BOARD_SIZE
from egm.games.property.players import BANK, Refused, Trade
from egm.games.seats import possessive, seat_name


class Trading:
    """Mixed into `Table` (egm.games.property.table), whose state and money moves it uses."""

    def check_trade(self, trade: Trade) -> None:
        seat, other = trade.seat, trade.other
        if other == seat or not 0 <= other < len(self.seats) or self.seats[other].bankrupt:
            raise Refused("A trade is made with another player still in the game.")
        if not trade.give and not trade.get:
            raise Refused("A trade needs at least one title card changing hands.")
        for giver, spaces in ((seat, trade.give), (other, trade.get)):
            if len(set(spaces)) != len(spaces):
                raise Refused("A title card is listed twice in the trade.")
            for space in spaces:
                if not (isinstance(space, int) and 0 <= space < BOARD_SIZE and self.board.is_title[space]):
                    raise Refused(f"Space {space} is not a title card; only properties, railroads and "
                                  "utilities are traded.")
                if self.owner[space] != giver:
                    whose = possessive(giver, len(self.seats))
                    raise Refused(f"{self.board.names[space]} is not {whose} title to trade.")
                group = self.board.group_of[space]
                if group >= 0 and any(self.houses[s] for s in self.board.groups[group]):
                    raise Refused(f"{self.board.names[space]}'s group has buildings; buildings are never "
                                  "traded, sell them to the Bank first.")
        for payer, receives, cash in ((seat, trade.get, trade.cash), (other, trade.give, -trade.cash)):
            due = max(cash, 0) + sum(self.interest(s) for s in receives if self.mortgaged[s])
            if self.seats[payer].cash < due:
                who = "You" if payer == 0 else seat_name(payer, len(self.seats))
                raise Refused(f"{who} would owe board ${due:,} (cash and interest on mortgaged titles) "
                              f"and {'have' if payer == 0 else 'has'} board ${self.seats[payer].cash:,}.")

    def trade(self, trade: Trade) -> None:
        """Carry out a checked trade: cash, titles, then the interest on mortgaged titles received."""
        self.check_trade(trade)
        seat, other = trade.seat, trade.other
        payer, payee = (seat, other) if trade.cash >= 0 else (other, seat)
        self._transfer(payer, payee, abs(trade.cash), "trade", seat, give=list(trade.give),
                       get=list(trade.get), **{"with": other})
        for space in trade.give:
            self.owner[space] = other
        for space in trade.get:
            self.owner[space] = seat
        for receiver, spaces in ((other, trade.give), (seat, trade.get)):
            for space in spaces:
                if self.mortgaged[space]:
                    self._transfer(receiver, BANK, self.interest(space), "mortgage", receiver, space=space,
                                   interest=True)
