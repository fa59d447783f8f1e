"""Property's board and title cards: the seed's printed tables, corrected only where its own text or
internal consistency says so (docs/property.md lists each correction), are what the pay table holds."""

from __future__ import annotations

import pytest

from egm.games.property.board import SEED_FIRST_SPACE, Board
from egm.games.property.paytable import PropertyRules, example_rules

# The seed's Figs. 6 and 7 as its text prints them: name as printed -> (rents: unimproved, 1-4 houses,
# hotel; mortgage value; house cost).
SEED_PRINTED = {
    "ATLANTIC AVE.": ((22, 110, 330, 600, 975, 1150), 130, 150),
    "MARLIN GARDENS": ((22, 120, 360, 650, 1025, 1200), 140, 150),
    "VENICE AVE.": ((22, 110, 330, 600, 975, 1150), 130, 150),
    "N. CAROLINA AVE.": ((26, 130, 390, 900, 1100, 1275), 150, 200),
    "PACIFIC AVE.": ((26, 130, 390, 900, 1100, 1275), 150, 200),
    "PENNSYLVANIA AVE.": ((28, 150, 450, 1000, 1200, 1400), 160, 200),
    "MEDITERRANEAN AVE.": ((2, 10, 30, 90, 160, 250), 30, 50),
    "ST. CHARLES PLACE": ((10, 50, 150, 450, 625, 750), 70, 100),
    "STATS AVE.": ((10, 50, 150, 450, 625, 750), 70, 100),
    "VIRGINIA AVE.": ((12, 60, 180, 500, 700, 900), 80, 100),
    "BALTIMORE AVE.": ((4, 20, 60, 160, 320, 450), 30, 50),
    "INDIANA AVE.": ((18, 90, 250, 700, 875, 1050), 110, 150),
    "KENTUCKY AVE.": ((18, 90, 250, 700, 875, 1050), 110, 150),
    "ILLINOIS AVE.": ((20, 100, 300, 700, 925, 1100), 120, 150),
    "NEW YORK AVE.": ((18, 80, 220, 600, 800, 1000), 100, 100),
    "TENNESSEE AVE.": ((14, 70, 200, 550, 750, 950), 90, 100),
    "ST JAMES PLACE": ((14, 70, 200, 550, 750, 950), 90, 100),
    "VERMONT AVE.": ((6, 30, 90, 270, 400, 550), 50, 50),
    "BOARDWALK.": ((50, 200, 600, 1400, 1700, 2000), 200, 200),
    "PARK PLACE": ((35, 175, 500, 1100, 1300, 1500), 175, 200),
    "ORIENTAL AVE.": ((6, 30, 90, 270, 400, 550), 50, 50),
    "CONNECTICUT AVE.": ((8, 40, 100, 300, 450, 600), 60, 50),
}

# The printed name -> the name on the board (OCR slips named by the issue: Marlin, Venice, Stats,
# Baltimore; the rest only lose their abbreviations).
NAMES = {
    "ATLANTIC AVE.": "Atlantic Avenue", "MARLIN GARDENS": "Marvin Gardens", "VENICE AVE.": "Ventnor Avenue",
    "N. CAROLINA AVE.": "North Carolina Avenue", "PACIFIC AVE.": "Pacific Avenue",
    "PENNSYLVANIA AVE.": "Pennsylvania Avenue", "MEDITERRANEAN AVE.": "Mediterranean Avenue",
    "ST. CHARLES PLACE": "St. Charles Place", "STATS AVE.": "States Avenue",
    "VIRGINIA AVE.": "Virginia Avenue", "BALTIMORE AVE.": "Baltic Avenue", "INDIANA AVE.": "Indiana Avenue",
    "KENTUCKY AVE.": "Kentucky Avenue", "ILLINOIS AVE.": "Illinois Avenue",
    "NEW YORK AVE.": "New York Avenue", "TENNESSEE AVE.": "Tennessee Avenue",
    "ST JAMES PLACE": "St. James Place", "VERMONT AVE.": "Vermont Avenue", "BOARDWALK.": "Boardwalk",
    "PARK PLACE": "Park Place", "ORIENTAL AVE.": "Oriental Avenue", "CONNECTICUT AVE.": "Connecticut Avenue",
}

# Every figure corrected (board name, rent line 0-5, printed, corrected), as docs/property.md lists.
CORRECTIONS = [
    ("Baltic Avenue", 3, 160, 180),
    ("New York Avenue", 0, 18, 16),
    ("Illinois Avenue", 3, 700, 750),
    ("Atlantic Avenue", 3, 600, 800),
    ("Ventnor Avenue", 3, 600, 800),
    ("Marvin Gardens", 0, 22, 24),
    ("Marvin Gardens", 3, 650, 850),
]

# The seed's numbering of the real-estate spaces (5 = Go) and its colour groups.
SEED_GROUPS = {
    "purple": (6, 8), "light_blue": (11, 13, 14), "pink": (16, 18, 19), "brown": (21, 23, 24),
    "red": (26, 28, 29), "yellow": (31, 32, 34), "green": (36, 37, 39), "dark_blue": (42, 44),
}


@pytest.fixture(scope="module")
def board() -> Board:
    return Board(PropertyRules.model_validate(example_rules()))


def test_the_pay_table_holds_the_seed_table_with_exactly_the_documented_corrections(board: Board) -> None:
    expected = {NAMES[printed]: [list(rents), mortgage, cost] for printed, (rents, mortgage, cost)
                in SEED_PRINTED.items()}
    for name, line, printed, corrected in CORRECTIONS:
        assert expected[name][0][line] == printed
        expected[name][0][line] = corrected
    held = {board.names[s]: [list(board.rents[s]), board.mortgage[s], board.house_cost[s]]
            for s in board.titles if board.kinds[s] == "property"}
    assert held == expected


def test_the_seed_text_settles_atlantic_three_houses_at_800(board: Board) -> None:
    atlantic = board.names.index("Atlantic Avenue")
    assert board.rents[atlantic] == (22, 110, 330, 800, 975, 1150)
    assert board.price[atlantic] == 260  # twice the $130 mortgage value, as the text says


def test_spaces_sit_where_the_seed_numbers_them(board: Board) -> None:
    for group, seed_spaces in SEED_GROUPS.items():
        spaces = tuple(n - SEED_FIRST_SPACE for n in seed_spaces)
        assert board.groups[board.group_names.index(group)] == spaces
    seed_kinds = {5: "go", 15: "jail", 25: "free_parking", 35: "go_to_jail", 9: "income_tax",
                  43: "luxury_tax", 10: "railroad", 20: "railroad", 30: "railroad", 40: "railroad",
                  17: "utility", 33: "utility",
                  7: "community_chest", 22: "community_chest", 38: "community_chest",
                  12: "chance", 27: "chance", 41: "chance"}
    for number, kind in seed_kinds.items():
        assert board.kinds[number - SEED_FIRST_SPACE] == kind
    assert board.names[6 - SEED_FIRST_SPACE] == "Mediterranean Avenue"  # the text's space 6
    assert board.names[10 - SEED_FIRST_SPACE] == "Reading Railroad"  # the text's space 10
    assert [board.names[n - SEED_FIRST_SPACE] for n in (26, 28, 29)] == [
        "Kentucky Avenue", "Indiana Avenue", "Illinois Avenue"]
    assert [board.names[n - SEED_FIRST_SPACE] for n in (36, 37, 39)] == [
        "Pacific Avenue", "North Carolina Avenue", "Pennsylvania Avenue"]


def test_the_corrected_table_is_internally_consistent(board: Board) -> None:
    properties = [s for s in board.titles if board.kinds[s] == "property"]
    for space in properties:
        assert board.price[space] == 2 * board.mortgage[space]
        assert list(board.rents[space]) == sorted(set(board.rents[space]))
    # The dearest card of each group is strictly above the others on every line.
    for group in board.groups:
        dearest = max(group, key=lambda s: (board.mortgage[s], s))
        for other in group:
            if board.mortgage[other] < board.mortgage[dearest]:
                assert all(a > b for a, b in zip(board.rents[dearest], board.rents[other], strict=True))
    # One house is five times the bare rent on every card but Pennsylvania Avenue and Boardwalk,
    # whose printed figures nothing else in the seed contradicts.
    exceptions = {board.names.index("Pennsylvania Avenue"), board.names.index("Boardwalk")}
    assert [board.names[s] for s in properties if (board.rents[s][1] == 5 * board.rents[s][0])
            == (s in exceptions)] == []


def test_railroads_utilities_and_taxes_follow_the_seed(board: Board) -> None:
    rules = PropertyRules.model_validate(example_rules())
    for space in board.railroads:
        assert board.rents[space] == (25, 50, 100, 200) and board.mortgage[space] == 100
    assert rules.luxury_tax == 75 and rules.income_tax_percent == 10
    assert rules.starting_cash == 1500 and rules.bank_houses == 32 and rules.bank_hotels == 12
    assert len(rules.chance) == len(rules.community_chest) == 16
    assert sum(space.price for space in rules.board) == 5690


def test_a_pay_table_with_a_figure_missing_or_falling_is_refused() -> None:
    from pydantic import ValidationError

    data = example_rules()
    data["board"][1] = {**data["board"][1], "rents": [2, 10, 30, 20, 160, 250]}
    with pytest.raises(ValidationError, match="rise with each step"):
        PropertyRules.model_validate(data)
    data = example_rules()
    data["chance"][0] = {**data["chance"][0], "amount": 5}
    with pytest.raises(ValidationError, match="takes exactly"):
        PropertyRules.model_validate(data)
    data = example_rules()
    data["machine_trades"] = True
    with pytest.raises(ValidationError, match="not implemented"):
        PropertyRules.model_validate(data)


def test_a_pay_table_without_margin_pays_is_refused() -> None:
    from pydantic import ValidationError

    data = {**example_rules(), "margin_pays": []}  # the result would pay nothing, whatever the margin
    with pytest.raises(ValidationError, match="margin_pays"):
        PropertyRules.model_validate(data)
