"""`egm screenshot --scene NAME --out FILE.png [--seed S]`: a scene rendered headless (SDL dummy).

Each scene is reached the way a player, an attendant or a technician would reach it: a recipe sends
real pygame events (keys, clicks) to a freshly booted cabinet with its own wager memory in a
temporary directory, on an injected clock. The picture is the logical 1920x1080 frame.

The cabinet's own scenes are below; each installed game adds its table's recipes through its
descriptor (`GameDescriptor.screenshots`), and every installed game has one generic recipe,
`<game id>-played`: one game played by its auto-play decisions, its result on the table.
"""

from __future__ import annotations

from collections.abc import Callable

from egm.events import PlayerDecision, SelectGame
from egm.games import descriptors
from egm.video import snap
from egm.video.layout import grid
from egm.video.scenes.game_select import TILES_RECT
from egm.video.scenes.operator import TAB_STEP, TAB_W, TABS
from egm.video.session import Session

HUNDRED_DOLLAR_KEY = "f7"  # the sixth bill denomination in config/cabinet.toml ($100)
Recipe = Callable[[Session], None]


def credit(s: Session) -> None:
    s.key(HUNDRED_DOLLAR_KEY)


def start_from_menu(s: Session, game_id: str) -> None:
    """Credit the cabinet, then touch PLAY on the game's tile of the game menu (its table opens)."""
    credit(s)
    games = snap.games(s.cabinet.snapshot())
    tile = grid(TILES_RECT, len(games), 1, gap=60)[games.index(game_id)]
    s.click(tile.centerx, tile.bottom - 95)  # the tile's PLAY button


def auto_play_to_end(s: Session, game_id: str) -> None:
    """Start the game from the menu and press AUTO PLAY (the reference decision) until the game is
    over: the result on its table."""
    start_from_menu(s, game_id)
    while s.state == f"game.{game_id}.play":
        s.key("h")
        s.settle()  # the machine's move plays out before the next press


def play_one(s: Session, game_id: str | None = None) -> None:
    """Credit, start `game_id` (default: the first installed) with DEAL, and play it to the end by its
    reference decisions, sent through the display as its buttons would; then let the reveal finish."""
    credit(s)
    if game_id is not None:
        s.video.send(SelectGame(game_id))
    s.key("space")  # DEAL
    while s.cabinet.round is not None and s.state.startswith("game."):
        s.video.send(PlayerDecision(s.cabinet.round.reference_decision()))
        s.wait(0.1)
    s.wait(8.0)
    s.settle()  # a board game's last machine turn may still be playing out


def operator(s: Session) -> None:
    play_one(s)
    s.key("f10")  # operator key on


def operator_tab(tab: str) -> Recipe:
    """The operator menu after one game, on one of its pages (`OperatorScene` TABS)."""

    def recipe(s: Session) -> None:
        for _ in range(6):  # a few games, until a pool has taken money in (the pool meters show it)
            play_one(s)
            meters = s.cabinet.snapshot().get("pool_meters") or {}
            if any(sum(row.get("paid_in_cents", {}).values()) for row in meters.values()):
                break
        s.key("f10")  # operator key on
        s.click(*tab_centre(tab))

    return recipe


def settings_page(s: Session) -> None:
    """The SETTINGS page with one bet level turned off by the operator (its toggle grey)."""
    operator_tab("settings")(s)
    toggle = next(b for b in s.video.scene.buttons(s.video.frame)
                  if b.action.startswith("bets:") and b.label == "10")
    s.click(*toggle.rect.center)


def tab_centre(tab: str) -> tuple[int, int]:
    """The middle of an operator-menu tab."""
    return 40 + TABS.index(tab) * TAB_STEP + TAB_W // 2, 75


def help_page(page: int) -> Recipe:
    """HELP on the game menu, turned to `page` (0: the keys; then the game's rules and pays)."""

    def recipe(s: Session) -> None:
        credit(s)
        s.key("f1")
        for _ in range(page):
            s.click(960, 540)

    return recipe


def side_bet(s: Session) -> None:
    """The game menu with the pair-bonus side bet chosen (2 credits) on the STAKE meter."""
    credit(s)
    s.key("s")
    s.key("s")


def denomination(s: Session) -> None:
    """The game menu after DENOM was pressed twice: 25-cent credits, the same money on the meter."""
    credit(s)
    s.key("d")
    s.key("d")


def hand_pay(s: Session) -> None:
    for _ in range(13):
        credit(s)
    s.key("c")


def ticket(s: Session) -> None:
    credit(s)
    s.key("c")


CABINET_RECIPES: dict[str, Recipe] = {
    "attract": lambda s: None,
    "game-select": credit,
    "ticket": ticket,
    "hand-pay": hand_pay,
    "operator": operator,
    "operator-recall": operator_tab("recall"),
    "service-events": operator_tab("events"),
    "service-devices": operator_tab("devices"),
    "service-settings": settings_page,
    "service-pools": operator_tab("pools"),
    "service-rom": operator_tab("rom"),
    "tilt": lambda s: s.key("f8"),  # open the main door
    "help": lambda s: s.key("f1"),
    "help-rules": help_page(1),
    "help-paytable": help_page(2),
    "side-bet": side_bet,
    "denomination": denomination,
    "devices": lambda s: s.key("tab"),
}


def recipes() -> dict[str, Recipe]:
    """Every screenshot recipe: the cabinet's, then each installed game's."""
    found: dict[str, Recipe] = dict(CABINET_RECIPES)
    for game_id, game in descriptors().items():
        found[f"{game_id}-played"] = lambda s, g=game_id: play_one(s, g)
        if game.screenshots is not None:
            found.update(game.screenshots.load())
    return found
