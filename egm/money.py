"""Money as a player or an operator reads it: integer cents written as dollars.

>>> format_cents(123456), format_cents(-5), format_cents(0)
('$1,234.56', '-$0.05', '$0.00')
>>> [format_denomination(c) for c in (1, 25, 100, 250)]
['1¢', '25¢', '$1', '$2.50']
"""

from __future__ import annotations

from collections.abc import Sequence


def format_cents(cents: int) -> str:
    """Cents as dollars, e.g. 123456 -> '$1,234.56'; negative amounts keep their sign."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"


def format_denomination(cents: int) -> str:
    """A credit's value as a cabinet's denomination button writes it: cents below a dollar, else
    dollars (whole dollars without cents)."""
    if cents < 100:
        return f"{cents}¢"
    return f"${cents // 100:,}" if cents % 100 == 0 else format_cents(cents)


def listed(words: Sequence[str]) -> str:
    """Words as a sentence lists them.

    >>> listed(["generic", "nevada", "tight"]), listed(["generic"])
    ('generic, nevada and tight', 'generic')
    """
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def levels_text(levels: Sequence[int]) -> str:
    """Bet levels (credits) as the service page, the log and a refusal write them.

    >>> levels_text((1, 2, 10))
    '1, 2 and 10'
    """
    return listed([f"{b:,}" for b in levels])
