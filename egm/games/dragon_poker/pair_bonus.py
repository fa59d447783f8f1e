"""The pair bonus: an optional side bet on the 2 bonus cards, placed before the hands are revealed.

The two cards left after the four 13-card hands are dealt form a two-card hand, named by the first
of these that fits (the pay table prices each "to 1"; the stake is returned with a win):

* `two_jokers` - both jokers (1 of the 1,431 two-card hands);
* `natural_aces` - two aces (6);
* `natural_pair` - two cards of the same rank, not aces (72);
* `joker_pair` - one joker and any other card, which the wild joker pairs (104).

Anything else loses the bet. The RTP is exact: all C(54, 2) = 1,431 two-card hands are equally likely.

>>> from egm.cards import parse_cards
>>> [pair_bonus_hand(parse_cards(two)) for two in ("6s 6d", "JK Qc", "Jc Qc", "JK JK", "Ah As")]
['natural_pair', 'joker_pair', None, 'two_jokers', 'natural_aces']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

from egm.cards import DECK, RANKS, Card
from egm.games.dragon_poker.paytable import PAIR_BONUS_HANDS, DragonPokerRules

ACE = RANKS.index("A")


def pair_bonus_hand(cards: Sequence[Card]) -> str | None:
    """The pay-table name of two bonus cards, or None when they do not pay."""
    if len(cards) != 2:
        raise ValueError("the pair bonus is decided on exactly 2 bonus cards")
    first, second = cards
    jokers = first.is_joker + second.is_joker
    if jokers == 2:
        return "two_jokers"
    if jokers == 1:
        return "joker_pair"
    if first.rank != second.rank:
        return None
    return "natural_aces" if first.rank == ACE else "natural_pair"


def pair_bonus_win(cards: Sequence[Card], bet_credits: int, rules: DragonPokerRules) -> int:
    """Credits returned for a pair-bonus bet: bet x (pays + 1) on a paying hand, else 0.

    >>> from egm.cards import parse_cards
    >>> from egm.games.dragon_poker.paytable import PairBonus
    >>> table = PairBonus(max_bet_credits=10, default_bet_credits=0, pays_to_one={
    ...     "two_jokers": 100, "natural_aces": 25, "natural_pair": 7, "joker_pair": 4})
    >>> rules = DragonPokerRules.model_construct(pair_bonus=table)
    >>> pair_bonus_win(parse_cards("6s 6d"), 5, rules), pair_bonus_win(parse_cards("2h 3h"), 5, rules)
    (40, 0)
    """
    hand = pair_bonus_hand(cards)
    if hand is None or bet_credits == 0:
        return 0
    return bet_credits * (rules.pair_bonus.pays_to_one[hand] + 1)


def pair_bonus_counts() -> Counter[str | None]:
    """How many of the 1,431 two-card hands are each pair-bonus hand (None: no pay).

    >>> counts = pair_bonus_counts()
    >>> sum(counts.values()), [counts[name] for name in PAIR_BONUS_HANDS], counts[None]
    (1431, [1, 6, 72, 104], 1248)
    """
    return Counter(pair_bonus_hand(pair) for pair in combinations(DECK, 2))


def pair_bonus_rtp(rules: DragonPokerRules) -> Fraction:
    """The exact return to player of the pair bonus: total return over all 1,431 hands / 1,431.

    >>> from egm.games.dragon_poker.paytable import PairBonus
    >>> table = PairBonus(max_bet_credits=10, default_bet_credits=0, pays_to_one={
    ...     "two_jokers": 100, "natural_aces": 25, "natural_pair": 7, "joker_pair": 4})
    >>> rtp = pair_bonus_rtp(DragonPokerRules.model_construct(pair_bonus=table))
    >>> rtp, f"{float(rtp):.5%}"
    (Fraction(451, 477), '94.54927%')
    """
    counts = pair_bonus_counts()
    total = sum(counts.values())
    returned = sum(counts[name] * (rules.pair_bonus.pays_to_one[name] + 1) for name in PAIR_BONUS_HANDS)
    return Fraction(returned, total)
