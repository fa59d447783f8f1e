"""How the lab words counts and rates in its text and PAR sheet ("1 hit", "1 in 2.5", "1 cent").

>>> counted(1, "hit"), counted(12_345, "game"), cents(1), cents(25)
('1 hit', '12,345 games', '1 cent', '25 cents')
>>> odds(1, 1_000), odds(2, 5), odds(7, 7), odds(0, 10)
('1 in 1,000', '1 in 2.5', 'every game', 'never')
>>> per_second(0.8), per_second(1.0), per_second(1_234_567.8)
('0.80 games/s', '1.0 games/s', '1,234,568 games/s')
"""

from __future__ import annotations


def counted(n: int, noun: str) -> str:
    """n and the noun, plural unless n is 1."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def cents(n: int) -> str:
    return counted(n, "cent")


def odds(hits: int, games: int) -> str:
    """How often something happened, as "1 in N" (N to 3 significant digits when small)."""
    if not hits:
        return "never"
    if hits == games:
        return "every game"
    ratio = games / hits
    return f"1 in {ratio:,.0f}" if ratio >= 100 else f"1 in {ratio:.3g}"


def per_second(rate: float) -> str:
    """A simulation speed, with the digits that mean something."""
    digits = ",.0f" if rate >= 100 else ".1f" if rate >= 1 else ".2f"
    return f"{rate:{digits}} games/s"
