"""Dragon Poker's `egm screenshot` recipes: each picture reached through real keys and clicks on a
freshly booted emulator session (egm.video.session.Session)."""

from __future__ import annotations

from collections.abc import Callable

from egm.games.dragon_poker.scene import (
    DESIGNATE_CARD_W,
    DESIGNATE_STEP,
    DESIGNATE_X,
    DESIGNATE_Y,
    POOL_CARD_W,
    POOL_STEP,
    POOL_X,
    POOL_Y,
)
from egm.video.screenshot import credit
from egm.video.session import Session


def hand_centre(index: int) -> tuple[int, int]:
    """The middle of face-down hand A..D (0..3) on the designation table."""
    return DESIGNATE_X + DESIGNATE_STEP * 6 + DESIGNATE_CARD_W // 2, DESIGNATE_Y[index] + 64


def pool_card_centre(index: int) -> tuple[int, int]:
    """The middle of the player's card `index` (0..12) in the hand row of the setting table."""
    return POOL_X + index * POOL_STEP + POOL_CARD_W // 2, POOL_Y + 70


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
        view = s.video.frame.view
        if view is not None and view.pool_won:
            return
        if s.cabinet.credits_cents < 1000:
            credit(s)
        for key in ("space", "1", "2", "3", "return", "h"):
            s.key(key)
        s.wait(6.0)


RECIPES: dict[str, Callable[[Session], None]] = {
    "dragon-designate": lambda s: (designate(s), s.click(*hand_centre(0)), s.click(*hand_centre(2))),
    "dragon-set": lambda s: (set_step(s), *[s.click(*pool_card_centre(i)) for i in (0, 4, 8)]),
    "dragon-reveal": reveal,
    "dragon-settled": settled,
    "dragon-jackpot": jackpot,
}
