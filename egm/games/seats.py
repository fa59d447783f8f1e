"""The seats of the board games (Poker Grid, Poker Tiles, Prism Words, Property) as a player reads
them: the customer (seat 0) is YOU, the machine opponents MACHINE (MACHINE 1, MACHINE 2... when there
are several). One naming for every screen and every sentence, so no seat number reaches a player.
"""

from __future__ import annotations


def seat_name(seat: int, seats: int) -> str:
    """The one name of a seat.

    >>> [seat_name(s, 2) for s in range(2)], [seat_name(s, 3) for s in range(3)]
    (['YOU', 'MACHINE'], ['YOU', 'MACHINE 1', 'MACHINE 2'])
    """
    if seat == 0:
        return "YOU"
    return "MACHINE" if seats <= 2 else f"MACHINE {seat}"


def possessive(seat: int, seats: int) -> str:
    """Whose, in a sentence.

    >>> possessive(0, 2), possessive(1, 2), possessive(2, 3)
    ('your', "the machine's", "machine 2's")
    """
    if seat == 0:
        return "your"
    return "the machine's" if seats <= 2 else f"{seat_name(seat, seats).lower()}'s"


def not_your_seat(seat: object, seats: int) -> str:
    """The refusal of a decision made for a seat other than the customer's.

    >>> not_your_seat(1, 2)
    'You decide for YOU only; MACHINE plays its own turns.'
    >>> not_your_seat(2, 3)
    'You decide for YOU only; MACHINE 2 plays its own turns.'
    >>> not_your_seat(7, 2)
    'You decide for YOU only; this game has no such seat.'
    """
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 < seat < seats:
        return f"You decide for YOU only; {seat_name(seat, seats)} plays its own turns."
    return "You decide for YOU only; this game has no such seat."
