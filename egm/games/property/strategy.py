"""The machine strategies. Each is deterministic given the game (the random lower bound draws from
its own stream), versioned by name, and sees only what every player at the table sees: cash, title
cards, buildings, mortgages, positions and the cards already drawn; never the order of a deck or a
future throw.

`property-reserve/1` (the machine opponents and the reference for the customer's seat):
* **Buy** an unowned title when the cash left after paying is at least the reserve ($200), or, with
  the cash for it, when the title completes a colour group of the seat's own or blocks the only
  other holder of its group.
* **Auction** (sealed bid): the title's value to the seat, 3/2 of the price when it completes the
  seat's group, 5/4 when it blocks, the price otherwise, but never more than the cash above the
  reserve ($50 above for completing or blocking). A scarce building: twice its cost, within the
  same cash limit.
* **Jail**: while at least 8 titles are still with the Bank, get out at once (a Get out of Jail Free
  card first, else the fine if the cash stays above the reserve); later, stay and roll for doubles
  (a cheap shelter from rent).
* **Before each throw**: lift mortgages (titles of a whole group first, then the cheapest) while the
  cash stays at least $400 after; then build while the cash stays at least the reserve after, one
  building at a time where the rent gains most, a site reaching its third house first (the biggest
  step of every card).
* **Short of cash**: the table's rule for every seat (`Table.raise_cash`).
* **Trades** (only the customer proposes them): value each side's holdings as net worth plus, for
  each whole colour group held, the group's price again; accept when the trade raises the machine's
  value, and by at least as much as the customer's.

`property-investor/1` (the lab's best available): the same with no reserve (it buys every title it
can pay for and builds whenever it can), bidding half the price for a title that neither completes
nor blocks a group. It is the best point of a grid search against the reference opponents: reserve
$0, $100, $200, $350 or $500; buy by the reserve or always; plain bids at 1/2, 1 or 3/2 of the price
(600 games each; docs/property.md).

`random` (the lab's lower bound): every decision uniformly among the legal ones, from its own stream.
"""

from __future__ import annotations

from dataclasses import dataclass

from egm.games.property.board import HOTEL
from egm.games.property.table import BANK, Request, Table, Trade
from egm.rng import Rng

MACHINE_STRATEGY = "property-reserve/1"
INVESTOR_STRATEGY = "property-investor/1"
RANDOM_STRATEGY = "random"
EARLY_GAME_TITLES = 8  # titles still with the Bank while jail is worth leaving at once
UNMORTGAGE_RESERVE = 400


@dataclass(frozen=True)
class ReserveStrategy:
    """The documented machine strategy, with its reserve and bidding limits as parameters."""

    name: str = MACHINE_STRATEGY
    reserve: int = 200
    buy_everything: bool = False
    bid_plain: tuple[int, int] = (1, 1)  # the bid on a title that neither completes nor blocks

    def _stake_in_group(self, table: Table, seat: int, space: int) -> str:
        """"complete" if buying `space` gives `seat` its whole group, "block" if one other seat holds
        all the rest of it, else ""."""
        group = table.board.group_of[space]
        if group < 0:
            return ""
        others = [table.owner[s] for s in table.board.groups[group] if s != space]
        if all(owner == seat for owner in others):
            return "complete"
        if others and others[0] not in (BANK, seat) and all(owner == others[0] for owner in others):
            return "block"
        return ""

    def buy(self, table: Table, seat: int, space: int) -> bool:
        cash, price = table.seats[seat].cash, table.board.price[space]
        if cash < price:
            return False
        if self.buy_everything or cash - price >= self.reserve:
            return True
        return self._stake_in_group(table, seat, space) != ""

    def bid(self, table: Table, seat: int, request: Request) -> int:
        cash = table.seats[seat].cash
        if request.lot != "property":
            return min(2 * table.board.house_cost[request.space], cash - self.reserve)
        price = table.board.price[request.space]
        stake = self._stake_in_group(table, seat, request.space)
        if stake:
            value = price * 3 // 2 if stake == "complete" else price * 5 // 4
            return max(0, min(value, cash - 50))
        num, den = self.bid_plain
        return max(0, min(price * num // den, cash - self.reserve))

    def jail(self, table: Table, seat: int) -> str:
        player = table.seats[seat]
        unowned = sum(1 for s in table.board.titles if table.owner[s] == BANK)
        if unowned < EARLY_GAME_TITLES:
            return "roll"
        if player.jail_cards:
            return "card"
        return "fine" if player.cash - table.rules.jail_fine >= self.reserve else "roll"

    def next_action(self, table: Table, seat: int) -> tuple[str, int] | None:
        cash = table.seats[seat].cash
        lifts = [s for s in table.legal(seat, "unmortgage")
                 if cash - table.lift_cost(s) >= UNMORTGAGE_RESERVE]
        if lifts:
            return "unmortgage", min(lifts, key=lambda s: (not table.owns_group(seat, s),
                                                           table.lift_cost(s), s))
        builds = [s for s in table.legal(seat, "build") if cash - table.board.house_cost[s] >= self.reserve]
        if builds:
            return "build", max(builds, key=lambda s: build_gain(table, s))
        return None

    def place_building(self, table: Table, seat: int, lot: str) -> int:
        sites = [s for s in table.legal(seat, "build") if table.building_lot(s) == lot]
        return max(sites, key=lambda s: build_gain(table, s))

    def accept_trade(self, table: Table, seat: int, trade: Trade) -> bool:
        owners = list(table.owner)
        mine_before = valuation(table, seat, owners, table.seats[seat].cash)
        theirs_before = valuation(table, trade.seat, owners, table.seats[trade.seat].cash)
        for space in trade.give:
            owners[space] = trade.other
        for space in trade.get:
            owners[space] = trade.seat
        mine = valuation(table, seat, owners, table.seats[seat].cash + trade.cash) - mine_before
        theirs_cash = table.seats[trade.seat].cash - trade.cash
        theirs = valuation(table, trade.seat, owners, theirs_cash) - theirs_before
        return mine > 0 and mine >= theirs


def build_gain(table: Table, space: int) -> tuple[bool, int, int]:
    """How good one more building on `space` is: reaching the third house first, then the rise in
    rent, then the lower space (a fixed tie-break)."""
    houses = table.houses[space]
    rents = table.board.rents[space]
    now = rents[houses] if houses else rents[0] * 2  # the whole group is held, so bare rent is doubled
    return houses + 1 == 3, rents[min(houses + 1, HOTEL)] - now, -space


def valuation(table: Table, seat: int, owners: list[int], cash: int) -> int:
    """A seat's worth for trading: cash, titles at price (mortgaged: price less the cost to lift),
    buildings at cost, and each whole colour group held counted again at its price."""
    board = table.board
    worth = cash
    for space in board.titles:
        if owners[space] == seat:
            worth += board.price[space] + table.building_cost(space)
            if table.mortgaged[space]:
                worth -= table.lift_cost(space)
    for group in board.groups:
        if all(owners[s] == seat for s in group):
            worth += sum(board.price[s] for s in group)
    return worth


class RandomStrategy:
    """Uniformly random legal decisions from its own stream (the lab's lower bound)."""

    name = RANDOM_STRATEGY

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def buy(self, table: Table, seat: int, space: int) -> bool:
        return table.seats[seat].cash >= table.board.price[space] and self.rng.randbelow(2) == 1

    def bid(self, table: Table, seat: int, request: Request) -> int:
        cash = table.seats[seat].cash
        return self.rng.randbelow(cash + 1) if cash > 0 else 0

    def jail(self, table: Table, seat: int) -> str:
        player = table.seats[seat]
        options = ["roll"]
        if player.jail_cards:
            options.append("card")
        if player.cash >= table.rules.jail_fine:
            options.append("fine")
        return options[self.rng.randbelow(len(options))]

    def next_action(self, table: Table, seat: int) -> tuple[str, int] | None:
        actions = [(kind, s) for kind in ("build", "unmortgage") for s in table.legal(seat, kind)]
        if not actions or self.rng.randbelow(2) == 0:  # stop with probability 1/2 at each step
            return None
        return actions[self.rng.randbelow(len(actions))]

    def place_building(self, table: Table, seat: int, lot: str) -> int:
        sites = [s for s in table.legal(seat, "build") if table.building_lot(s) == lot]
        return sites[self.rng.randbelow(len(sites))]

    def accept_trade(self, table: Table, seat: int, trade: Trade) -> bool:
        return self.rng.randbelow(2) == 1


MACHINE_STRATEGIES = {
    MACHINE_STRATEGY: ReserveStrategy(),
    INVESTOR_STRATEGY: ReserveStrategy(name=INVESTOR_STRATEGY, reserve=0, buy_everything=True,
                                       bid_plain=(1, 2)),
}
