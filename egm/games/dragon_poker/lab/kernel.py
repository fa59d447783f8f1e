"""The compiled Dragon Poker kernel: whole games, DRBG to settlement, in numba.

It mirrors the cabinet's engine (egm.games.dragon_poker) step for step, and tests/test_lab_kernel.py
proves the two give bit-identical games on the same seeds:

1. The DRBG's bytes are read in bulk from the same `Rng` stream (egm/rng.py: the stream does not
   depend on how it is read) and viewed as 32-bit little-endian words.
2. Shuffle: Fisher-Yates from the top of the 54-card deck in index order (the kernel moves the cards'
   mask bits, egm.lab.fast_eval.CARD_BITS, which is the same permutation); each `randbelow(n)` takes
   words until one is below the largest multiple of n under 2^32, then uses word % n.
3. Deal: hands A..D = deck[0:13], [13:26], [26:39], [39:52]; designation A = player, B = dealer,
   C = Dragon (the reference designation); the bonus cards do not touch the main game.
4. The house way (egm.games.dragon_poker.house_way) through its compiled twin
   egm.games.dragon_poker.lab.kernel_house_way, on egm.lab.fast_eval (bit-identical to egm.poker.best_hand,
   canonical cards included) for the player (the reference strategy), the dealer and the Dragon.
5. Rows, bonuses and the settlement of egm.games.dragon_poker.settlement, in points; the jackpot pool
   (points) is carried from game to game, starting at the pay table's seed.

The best-available strategy (`best_available=True`) sets the player's hand by a search instead of
step 4; see egm.games.dragon_poker.lab.STRATEGY_METHODS. Its sampling uses splitmix64 seeded per game from
a seed derived from the chunk seed, never the deal's stream.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from egm.games.dragon_poker.lab.kernel_house_way import house_way
from egm.games.dragon_poker.paytable import ROW_CATEGORIES, ROWS, DragonPokerRules
from egm.lab.fast_eval import CARD_BITS, best3_mask, best5_mask
from egm.lab.jit import njit
from egm.poker import Category
from egm.rng import Rng, derive_seed

DECK_SIZE = 54
HAND = 13
WORD_LIMIT = 2**32
# params: stake, split, two rows, three rows, jackpot seed, then bonus points by row and category.
P_STAKE, P_SPLIT, P_WIN2, P_WIN3, P_SEED, P_BONUS = range(6)
CATEGORIES = len(Category)
PLAYER, HOUSE, DRAGON, SPLIT = 0, 1, 2, 3
SAMPLES = 32  # opponent draws per candidate setting in the best-available search
CANDIDATES = 1 + 286  # the house way's setting, then one per front (C(13, 3) = 286)
READ_WORDS = 1 << 20  # words read from the DRBG per refill (4 MiB)
# LIMITS[n]: the largest multiple of n under 2^32 (randbelow(n) rejects words from it on), one division
# fewer per card in the shuffle
LIMITS = np.array([WORD_LIMIT // n * n if n else 0 for n in range(DECK_SIZE + 1)], np.int64)
SHUFFLE_WORDS = 64  # words a shuffle may take without a bounds check (it needs 53 and rejects rarely)


def params_of(rules: DragonPokerRules) -> np.ndarray:
    bonus = [rules.bonus_points.points(row, Category(c)) if Category(c) in ROW_CATEGORIES[row] else 0
             for row in ROWS for c in range(CATEGORIES)]
    return np.array([rules.stake_points, rules.split_points, rules.win_points.two_rows,
                     rules.win_points.three_rows, rules.jackpot_seed_points, *bonus], np.int64)


@njit(cache=True)
def _shuffle(words: np.ndarray, pos: int, deck: np.ndarray) -> int:
    """Fisher-Yates from the top with rejection sampling, on the cards' mask bits; the new word position,
    or -1 if the words may run out (the caller then retries the game with more words)."""
    for i in range(DECK_SIZE):
        deck[i] = CARD_BITS[i]
    if pos + SHUFFLE_WORDS > words.size:  # so the common draw needs no bounds check
        return -1
    for i in range(DECK_SIZE - 1, 0, -1):
        n = i + 1
        limit = LIMITS[n]
        word = np.int64(words[pos])
        pos += 1
        while word >= limit:  # rare: about n in 2^32 words
            if pos >= words.size:
                return -1
            word = np.int64(words[pos])
            pos += 1
        j = word % n
        deck[i], deck[j] = deck[j], deck[i]
    return pos


@njit(cache=True)
def _hand_mask(deck: np.ndarray, start: int) -> np.int64:
    mask = np.int64(0)
    for i in range(start, start + HAND):
        mask |= np.int64(1) << deck[i]
    return mask


@njit(cache=True)
def _bonus(params: np.ndarray, front: int, middle: int, back: int) -> int:
    return (params[P_BONUS + (front >> 20)] + params[P_BONUS + CATEGORIES + (middle >> 20)]
            + params[P_BONUS + 2 * CATEGORIES + (back >> 20)])


@njit(cache=True)
def _house_way(mask: np.int64) -> tuple[int, int, int]:
    """(front, middle, back) values of a 13-card hand set by the house way (the compiled twin)."""
    front, middle, back, _, _, _ = house_way(mask)
    return front, middle, back


@njit(cache=True)
def _row(player: int, dealer: int, dragon: int) -> int:
    if player > dealer:
        return PLAYER if player > dragon else DRAGON
    return HOUSE if dealer >= dragon else DRAGON


@njit(cache=True)
def _settle(pf: int, pm: int, pb: int, hf: int, hm: int, hb: int, df: int, dm: int, db: int,
            bonus_p: int, bonus_h: int, bonus_d: int, pool: int, params: np.ndarray
            ) -> tuple[int, int, int, int, int, int]:
    """(player points, winner, rows won, jackpot prize, pool after, paid into the pool)."""
    front, middle, back = _row(pf, hf, df), _row(pm, hm, dm), _row(pb, hb, db)
    winner, rows_won = SPLIT, 0
    if front == middle:
        winner, rows_won = front, 3 if back == front else 2
    elif back == front or back == middle:
        winner, rows_won = back, 2
    win_points = 0
    if rows_won == 2:
        win_points = params[P_WIN2]
    elif rows_won == 3:
        win_points = params[P_WIN3]
    split_payment = params[P_SPLIT] if winner == SPLIT else 0
    row_exchange = win_points if winner == PLAYER else (-win_points if winner == HOUSE else 0)
    dragon_points = bonus_d + (win_points if winner == DRAGON else 0)
    to_pool_p = max(0, dragon_points - bonus_p)
    to_pool_h = max(0, dragon_points - bonus_h)
    prize = 0
    pool_after = pool + to_pool_p + to_pool_h
    if winner == PLAYER or winner == HOUSE:
        prize = pool
        pool_after = params[P_SEED] + to_pool_p + to_pool_h
    points = row_exchange + bonus_p - bonus_h - split_payment - to_pool_p
    return points, winner, rows_won, prize, pool_after, to_pool_p + to_pool_h


@njit(cache=True)
def _splitmix(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True)
def _best_available(mask: np.int64, pool: int, params: np.ndarray, state: np.uint64) -> tuple[int, int, int]:
    """The player's setting (front, middle, back values) by the best-available search."""
    cards = np.empty(HAND, np.int64)  # the hand's card bits, in card index order
    n = 0
    for i in range(DECK_SIZE):
        if (mask >> CARD_BITS[i]) & 1:
            cards[n] = CARD_BITS[i]
            n += 1
    fronts = np.empty(CANDIDATES, np.int64)
    middles = np.empty(CANDIDATES, np.int64)
    backs = np.empty(CANDIDATES, np.int64)
    bonuses = np.empty(CANDIDATES, np.int64)
    hf, hm, hb = _house_way(mask)
    fronts[0], middles[0], backs[0] = hf, hm, hb  # the house way first: it wins ties
    bonuses[0] = _bonus(params, hf, hm, hb)
    count = 1
    for a in range(HAND):
        for b in range(a + 1, HAND):
            for c in range(b + 1, HAND):
                front_mask = (np.int64(1) << cards[a]) | (np.int64(1) << cards[b]) | (np.int64(1) << cards[c])
                rest = mask & ~front_mask
                back, chosen = best5_mask(rest)
                middle, _ = best5_mask(rest & ~chosen)
                front, _ = best3_mask(front_mask)
                if back >= middle and middle >= front:
                    fronts[count], middles[count], backs[count] = front, middle, back
                    bonuses[count] = _bonus(params, front, middle, back)
                    count += 1
    unseen = np.empty(DECK_SIZE - HAND, np.int64)  # the other cards' bits, in card index order
    n = 0
    for i in range(DECK_SIZE):
        if not (mask >> CARD_BITS[i]) & 1:
            unseen[n] = CARD_BITS[i]
            n += 1
    totals = np.zeros(count, np.int64)
    for _ in range(SAMPLES):
        for i in range(2 * HAND):  # a partial Fisher-Yates: the first 26 of the 41 unseen cards
            state, z = _splitmix(state)
            j = i + np.int64(z % np.uint64(unseen.size - i))
            unseen[i], unseen[j] = unseen[j], unseen[i]
        dealer = np.int64(0)
        dragon = np.int64(0)
        for i in range(HAND):
            dealer |= np.int64(1) << unseen[i]
            dragon |= np.int64(1) << unseen[HAND + i]
        df_, dm_, db_ = _house_way(dealer)
        gf, gm, gb = _house_way(dragon)
        bonus_h = _bonus(params, df_, dm_, db_)
        bonus_d = _bonus(params, gf, gm, gb)
        for k in range(count):
            points, winner, _, prize, _, _ = _settle(fronts[k], middles[k], backs[k], df_, dm_, db_,
                                                     gf, gm, gb, bonuses[k], bonus_h, bonus_d, pool, params)
            totals[k] += max(0, params[P_STAKE] + points) + (prize if winner == PLAYER else 0)
    best = 0
    for k in range(1, count):
        if totals[k] > totals[best]:
            best = k
    return fronts[best], middles[best], backs[best]


@njit(cache=True)
def _play(words: np.ndarray, start: int, games: int, pool: int, params: np.ndarray, best: bool,
          strategy_seed: np.uint64, points: np.ndarray, winner: np.ndarray, rows_won: np.ndarray,
          prize: np.ndarray, pool_after: np.ndarray, paid_in: np.ndarray, values: np.ndarray
          ) -> tuple[int, int, int]:
    """Play games start.. until `games` or the words run out: (games done, words used, pool)."""
    deck = np.empty(DECK_SIZE, np.int64)
    pos = 0
    g = start
    while g < games:
        after = _shuffle(words, pos, deck)
        if after < 0:
            break
        pos = after
        player = _hand_mask(deck, 0)
        dealer = _hand_mask(deck, HAND)
        dragon = _hand_mask(deck, 2 * HAND)
        if best:
            state = strategy_seed ^ (np.uint64(g) * np.uint64(0xD1B54A32D192ED03))
            pf, pm, pb = _best_available(player, pool, params, state)
        else:
            pf, pm, pb = _house_way(player)
        hf, hm, hb = _house_way(dealer)
        df, dm, db = _house_way(dragon)
        result = _settle(pf, pm, pb, hf, hm, hb, df, dm, db, _bonus(params, pf, pm, pb),
                         _bonus(params, hf, hm, hb), _bonus(params, df, dm, db), pool, params)
        points[g], winner[g], rows_won[g], prize[g], pool_after[g], paid_in[g] = result
        pool = result[4]
        values[g, 0], values[g, 1], values[g, 2] = pf, pm, pb
        values[g, 3], values[g, 4], values[g, 5] = hf, hm, hb
        values[g, 6], values[g, 7], values[g, 8] = df, dm, db
        g += 1
    return g, pos, pool


@dataclass(frozen=True)
class Records:
    """Per-game results of a chunk, in points. `winner`: 0 player, 1 dealer, 2 Dragon, 3 split.
    `values`: the evaluator values of the player's, dealer's and Dragon's front, middle, back."""

    player_points: np.ndarray
    winner: np.ndarray
    rows_won: np.ndarray
    jackpot_won: np.ndarray  # the prize taken by the winner (player or dealer), else 0
    pool_after: np.ndarray
    paid_in: np.ndarray
    values: np.ndarray

    @property
    def jackpot_to_player(self) -> np.ndarray:
        return np.where(self.winner == PLAYER, self.jackpot_won, 0)


def simulate(rules: DragonPokerRules, seed: int, games: int, best_available: bool = False) -> Records:
    """Play `games` games from `Rng.from_seed(seed)`, the pool starting at the pay table's seed."""
    params = params_of(rules)
    rng = Rng.from_seed(seed)
    strategy_seed = np.uint64(derive_seed(seed, "best-available"))
    # points, winner, rows won, prize, pool after, paid in (small codes in int8, values in int32: less
    # memory to touch per game)
    arrays = [np.empty(games, np.int8 if k in (1, 2) else np.int64) for k in range(6)]
    values = np.empty((games, 9), np.int32)
    pool = rules.jackpot_seed_points
    done = 0
    buffer = np.empty(READ_WORDS + 4 * DECK_SIZE, np.dtype("<u4"))
    carried = 0  # words read but not yet used, kept at the front of the buffer
    while done < games:
        fresh = min(READ_WORDS, (games - done) * (DECK_SIZE - 1) + SHUFFLE_WORDS)
        rng.readinto(buffer[carried:carried + fresh])  # uint32 words, little-endian
        words = buffer[:carried + fresh]
        done, used, pool = _play(words, done, games, pool, params, best_available, strategy_seed, *arrays,
                                 values)
        carried = words.size - used
        buffer[:carried] = words[used:].copy()
    return Records(*arrays, values)


def warm_up(rules: DragonPokerRules) -> None:
    """Compile (or load from numba's cache) the kernel once, outside any timing."""
    simulate(rules, seed=0, games=2, best_available=True)
