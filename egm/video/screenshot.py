"""`egm screenshot --scene NAME --out FILE.png [--seed S]`: a scene rendered headless (SDL dummy).

Each scene is reached the way a player, an attendant or a technician would reach it: the recipe
below sends real pygame events (keys, clicks) to a freshly booted cabinet with its own wager memory
in a temporary directory, on an injected clock. The picture is the logical 1920x1080 frame.
"""

from __future__ import annotations

from collections.abc import Callable

from egm.video.scenes.dragon_poker import DESIGNATE_CARD_W, POOL_CARD_W, POOL_STEP, POOL_X, POOL_Y
from egm.video.scenes.poker_grid import SCREENSHOT_RECIPES as POKER_GRID_RECIPES
from egm.video.session import Session

HUNDRED_DOLLAR_KEY = "f7"  # the sixth bill denomination in config/cabinet.toml ($100)


def hand_centre(index: int) -> tuple[int, int]:
    """The middle of face-down hand A..D (0..3) on the designation table."""
    from egm.video.scenes.dragon_poker import DESIGNATE_STEP, DESIGNATE_X, DESIGNATE_Y

    return DESIGNATE_X + DESIGNATE_STEP * 6 + DESIGNATE_CARD_W // 2, DESIGNATE_Y[index] + 64


def pool_card_centre(index: int) -> tuple[int, int]:
    """The middle of the player's card `index` (0..12) in the hand row of the setting table."""
    return POOL_X + index * POOL_STEP + POOL_CARD_W // 2, POOL_Y + 70


def credit(s: Session) -> None:
    s.key(HUNDRED_DOLLAR_KEY)


def designate(s: Session) -> None:
    credit(s)
    s.key("space")  # DEAL


def set_step(s: Session) -> None:
    designate(s)
    for label in ("1", "2", "3"):  # player A, dealer B, Dragon C
        s.key(label)
    s.key("return")


def reveal(s: Session) -> None:
    set_step(s)
    s.key("h")  # HOUSE WAY sets the player's hand and the round is settled
    s.wait(2.0)


def settled(s: Session) -> None:
    reveal(s)
    s.wait(6.0)


def jackpot(s: Session) -> None:
    """Hands played the house way until the player takes the Dragon jackpot (at most 40)."""
    settled(s)
    for _ in range(40):
        view = s.video.frame.game
        if view.get("money", {}).get("jackpot_credits"):
            return
        if s.cabinet.credits_cents < 1000:
            credit(s)
        for key in ("space", "1", "2", "3", "return", "h"):
            s.key(key)
        s.wait(6.0)


def operator(s: Session) -> None:
    settled(s)
    s.key("f10")  # operator key on


def operator_recall(s: Session) -> None:
    operator(s)
    s.click(40 + 306 + 145, 75)  # the GAME RECALL tab


def hand_pay(s: Session) -> None:
    for _ in range(13):
        credit(s)
    s.key("c")


def ticket(s: Session) -> None:
    credit(s)
    s.key("c")


RECIPES: dict[str, Callable[[Session], None]] = {
    "attract": lambda s: None,
    "game-select": credit,
    "dragon-designate": lambda s: (designate(s), s.click(*hand_centre(0)), s.click(*hand_centre(2))),
    "dragon-set": lambda s: (set_step(s), *[s.click(*pool_card_centre(i)) for i in (0, 4, 8)]),
    "dragon-reveal": reveal,
    "dragon-settled": settled,
    "dragon-jackpot": jackpot,
    "ticket": ticket,
    "hand-pay": hand_pay,
    "operator": operator,
    "operator-recall": operator_recall,
    "tilt": lambda s: s.key("f8"),  # open the main door
    "help": lambda s: s.key("f1"),
    "devices": lambda s: s.key("tab"),
    **POKER_GRID_RECIPES,
}
