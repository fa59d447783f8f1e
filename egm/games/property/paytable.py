"""The `[game]` table of a Property pay table: the board, the title cards, the card decks, the short
form and the pays. All of it decides outcomes, so all of it is pay-table ROM (signed with the table).

Money on the board is whole dollars of play money; money on the cabinet is units of the bet: the stake
is `stake_units` units (B x stake_units credits). The customer's win is

    place_pays[place - 1] + the margin tier + awards   (units, each a whole number)

where `place` is 1 + the number of opponents with a strictly higher net worth, the margin is the
customer's net worth minus the best opponent's (dollars; the tier with the highest `min_margin` it
reaches pays, none below every tier), and the awards pay once per game each: `hotel` when the
customer has built a hotel, `monopoly` when the customer ends the game holding a whole colour group.

>>> rules = PropertyRules.model_validate(example_rules())
>>> rules.board[39].name, rules.board[39].price, rules.board[0].kind
('Boardwalk', 400, 'go')
>>> rules.margin_units(-10_000), rules.margin_units(0), rules.margin_units(500)
(0, 3, 4)
"""

from __future__ import annotations

import tomllib
from typing import Any, Literal

from pydantic import Field, model_validator

from egm.config import PROJECT_ROOT, Strict
from egm.games.board_game import StakeInUnits
from egm.games.bounds import MAX_POINTS, MAX_TIERS, MAX_UNITS, Points, Units
from egm.games.margin import MarginTier, check_tiers, tier_units

BOARD_SIZE = 40
DECK_SIZE = 16
SpaceKind = Literal[
    "go", "property", "railroad", "utility", "chance", "community_chest", "income_tax", "luxury_tax",
    "jail", "free_parking", "go_to_jail",
]
CardAction = Literal[
    "advance", "advance_nearest", "back", "jail", "get_out_of_jail", "collect", "pay", "pay_each",
    "collect_each", "repairs",
]
TITLE_KINDS = ("property", "railroad", "utility")


class SpaceSpec(Strict):
    """One space of the board. Title spaces carry their card: `mortgage` (the price is twice it),
    `rents` (a property: unimproved, 1-4 houses, hotel; a railroad: 1-4 railroads owned; a utility:
    the multiple of the throw with 1 or 2 utilities owned) and, for a property, `group` and
    `house_cost` (a hotel costs the same plus the four houses)."""

    name: str = Field(min_length=1)
    kind: SpaceKind
    group: str | None = None
    mortgage: int | None = Field(default=None, ge=1, le=MAX_POINTS)
    rents: list[Points] | None = None
    house_cost: int | None = Field(default=None, ge=1, le=MAX_POINTS)

    @model_validator(mode="after")
    def _check(self) -> SpaceSpec:
        wanted = {"property": 6, "railroad": 4, "utility": 2}.get(self.kind)
        if wanted is None:
            if any(v is not None for v in (self.group, self.mortgage, self.rents, self.house_cost)):
                raise ValueError(f"{self.name}: a {self.kind} space has no title card; remove its figures")
            return self
        if self.mortgage is None or self.rents is None or len(self.rents) != wanted:
            raise ValueError(f"{self.name}: a {self.kind} needs a mortgage value and {wanted} rents")
        if any(r <= 0 for r in self.rents) or self.rents != sorted(self.rents):
            raise ValueError(f"{self.name}: rents must be positive and rise with each step; check the card")
        is_property = self.kind == "property"
        if is_property != (self.group is not None) or is_property != (self.house_cost is not None):
            raise ValueError(f"{self.name}: a property (and only a property) has a group and a house cost")
        return self

    @property
    def price(self) -> int:
        """The purchase price: twice the mortgage value (the seed's rule); 0 for a non-title space."""
        return 2 * self.mortgage if self.mortgage else 0


class CardSpec(Strict):
    """A Chance or Community Chest card: its text and what it does.

    advance: to `space` (salary if Go is passed or reached); advance_nearest: to the next space of
    `kind` ("railroad" or "utility"), an owner being paid `multiplier` x the rent (a railroad) or x a
    fresh throw (a utility); back: `spaces` back (no salary); jail; get_out_of_jail (kept until used);
    collect / pay: `amount` from / to the Bank; pay_each / collect_each: `amount` to / from every other
    seat; repairs: `per_house` for each house and `per_hotel` for each hotel, to the Bank.
    """

    id: str = Field(min_length=1)
    text: str = Field(min_length=1)
    action: CardAction
    space: int | None = Field(default=None, ge=0, lt=BOARD_SIZE)
    kind: Literal["railroad", "utility"] | None = None
    multiplier: int | None = Field(default=None, ge=1, le=100)
    spaces: int | None = Field(default=None, ge=1, lt=BOARD_SIZE)
    amount: int | None = Field(default=None, ge=1, le=MAX_POINTS)
    per_house: int | None = Field(default=None, ge=0, le=MAX_POINTS)
    per_hotel: int | None = Field(default=None, ge=0, le=MAX_POINTS)

    @model_validator(mode="after")
    def _check(self) -> CardSpec:
        needs = {
            "advance": ("space",), "advance_nearest": ("kind", "multiplier"), "back": ("spaces",),
            "jail": (), "get_out_of_jail": (), "collect": ("amount",), "pay": ("amount",),
            "pay_each": ("amount",), "collect_each": ("amount",), "repairs": ("per_house", "per_hotel"),
        }[self.action]
        optional = ("space", "kind", "multiplier", "spaces", "amount", "per_house", "per_hotel")
        given = {name for name in optional if getattr(self, name) is not None}
        if given != set(needs):
            raise ValueError(f"card {self.id}: a '{self.action}' card takes exactly {list(needs) or 'no'} "
                             f"figures, not {sorted(given)}")
        return self


class Awards(Strict):
    """Units paid once per game: `hotel` if the customer built a hotel, `monopoly` if the customer ends
    the game holding a whole colour group."""

    hotel: Units = 0
    monopoly: Units = 0


class ShortForm(Strict):
    """The cabinet's short form: `rounds` turns per seat, or the first bankruptcy, whichever comes
    first; `quick_start_deeds` title cards dealt to each seat at random before the first throw."""

    rounds: int = Field(ge=1, le=200)
    quick_start_deeds: int = Field(default=0, ge=0, le=7)


class PropertyRules(StakeInUnits, Strict):
    board: list[SpaceSpec] = Field(min_length=BOARD_SIZE, max_length=BOARD_SIZE)
    chance: list[CardSpec] = Field(min_length=DECK_SIZE, max_length=DECK_SIZE)
    community_chest: list[CardSpec] = Field(min_length=DECK_SIZE, max_length=DECK_SIZE)
    starting_cash: int = Field(ge=1, le=MAX_POINTS)
    salary: Points
    jail_fine: Points
    luxury_tax: Points
    income_tax_percent: int = Field(ge=0, le=100)
    mortgage_interest_percent: int = Field(ge=0, le=100)
    bank_houses: int = Field(ge=0, le=1000)
    bank_hotels: int = Field(ge=0, le=1000)
    machine_trades: bool = False
    short_form: ShortForm
    opponents_default: int = Field(default=1, ge=1, le=3)
    opponents_max: int = Field(default=1, ge=1, le=3)
    stake_units: int = Field(ge=1, le=MAX_UNITS)
    place_pays: list[Units] = Field(min_length=2, max_length=4)
    margin_pays: list[MarginTier] = Field(min_length=1, max_length=MAX_TIERS)  # margins: net worth, dollars
    awards: Awards = Awards()

    @model_validator(mode="after")
    def _check(self) -> PropertyRules:
        kinds = [space.kind for space in self.board]
        for kind, count in (("go", 1), ("jail", 1), ("go_to_jail", 1), ("free_parking", 1)):
            if kinds.count(kind) != count:
                raise ValueError(f"the board must have exactly {count} '{kind}' space")
        if kinds[0] != "go":
            raise ValueError("space 0 must be Go (the seed's space 5, where play starts)")
        groups: dict[str, int] = {}
        for space in self.board:
            if space.group is not None:
                groups[space.group] = groups.get(space.group, 0) + 1
        if any(count < 2 for count in groups.values()):
            raise ValueError("every colour group needs at least two properties")
        for deck in (self.chance, self.community_chest):
            ids = [card.id for card in deck]
            if len(set(ids)) != len(ids):
                raise ValueError("a card id is listed twice in one deck; give each card its own id")
        if self.machine_trades:
            raise ValueError("machine_trades: trading between machine opponents is not implemented in this "
                             "firmware; set it to false (the customer's trades with the machine are)")
        if self.opponents_default > self.opponents_max:
            raise ValueError("opponents_default exceeds opponents_max; lower it or raise the maximum")
        if len(self.place_pays) != 1 + self.opponents_max:
            raise ValueError(f"place_pays needs one pay per place: {1 + self.opponents_max} entries")
        if self.place_pays != sorted(self.place_pays, reverse=True) or any(p < 0 for p in self.place_pays):
            raise ValueError("place_pays must not rise from first place down, and none may be negative")
        check_tiers(self.margin_pays, "margin_pays")
        titles = sum(1 for space in self.board if space.kind in TITLE_KINDS)
        if self.short_form.quick_start_deeds * (1 + self.opponents_max) > titles:
            raise ValueError("the quick-start deal needs more title cards than the board has")
        return self

    def margin_units(self, margin: int) -> int:
        """Units the margin tier pays (margin = customer net worth - best opponent's, dollars)."""
        return tier_units(self.margin_pays, margin)


def example_rules() -> dict[str, Any]:
    """The shipped pay table's `[game]` table (for doctests and tests that need valid rules)."""
    with (PROJECT_ROOT / "paytables" / "property.toml").open("rb") as handle:
        return tomllib.load(handle)["game"]

