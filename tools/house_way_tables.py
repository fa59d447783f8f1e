"""Generate the house way's row tables (FRONT_WINS, MIDDLE_WINS, BACK_WINS in
egm/games/dragon_poker/house_way.py) by simulating the house way against itself.

    python tools/house_way_tables.py [--hands N] [--rounds K] [--seed S] [--write]

Round 1 plays with all-zero tables (every setting scores the same, so the house way plays its first
candidate, the greedy setting). Each round deals N random 13-card hands from the 54-card deck
(splitmix64 from seed S, a partial Fisher-Yates), sets each by the house way with the previous
round's tables (the compiled twin, egm.games.dragon_poker.lab.kernel_house_way.house_way_with), and
counts each row's values by table key: (category, top rank, second rank) for the front, (category, top
rank) for the middle and the back. A key's entry is 1000 x (P(a row of that position has a lower key) + P(same
key) / 2), rounded half up: the chance that a row with that key beats an opponent's row, ties
counted half. The next round uses the new tables. With --write the last round's tables replace the
block between "# BEGIN TABLES" and "# END TABLES" of house_way.py (the lab's numba cache is keyed by
its sources, so the kernels compile again with the new tables); otherwise they are printed.
The shipped tables: --hands 2000000 --rounds 4 --seed 2 (the defaults).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np
from numba import njit

from egm.games.dragon_poker.house_way import WIN_SCALE
from egm.games.dragon_poker.lab.kernel_house_way import house_way_with
from egm.lab.fast_eval import CARD_BITS
from egm.poker import Category

ROOT = Path(__file__).resolve().parents[1]
HOUSE_WAY_FILE = ROOT / "egm" / "games" / "dragon_poker" / "house_way.py"
FRONT_CATEGORIES = (Category.HIGH_CARD, Category.PAIR, Category.THREE_OF_A_KIND)


@njit
def _count_rows(hands: int, seed: int, front_wins: np.ndarray, middle_wins: np.ndarray,
                back_wins: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    fronts = np.zeros(front_wins.size, np.int64)
    middles = np.zeros(middle_wins.size, np.int64)
    backs = np.zeros(back_wins.size, np.int64)
    deck = np.arange(54)
    state = np.uint64(seed)
    for _ in range(hands):
        mask = np.int64(0)
        for i in range(13):
            state = state + np.uint64(0x9E3779B97F4A7C15)
            z = state
            z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            z = z ^ (z >> np.uint64(31))
            j = i + np.int64(z % np.uint64(54 - i))
            deck[i], deck[j] = deck[j], deck[i]
            mask |= np.int64(1) << CARD_BITS[deck[i]]
        front, middle, back, _, _, _ = house_way_with(mask, front_wins, middle_wins, back_wins)
        fronts[front >> 12] += 1
        middles[middle >> 16] += 1
        backs[back >> 16] += 1
    return fronts, middles, backs


def _wins(counts: np.ndarray) -> np.ndarray:
    """Per key: WIN_SCALE x (P(lower key) + P(same key) / 2), rounded half up, in integers."""
    below = np.concatenate(([0], np.cumsum(counts)[:-1]))
    total = int(counts.sum())
    return (2 * WIN_SCALE * (2 * below + counts) + 2 * total) // (4 * total)


def generate(hands: int, rounds: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    tables = (np.zeros(16 << 8, np.int64), np.zeros(16 << 4, np.int64), np.zeros(16 << 4, np.int64))
    for _ in range(rounds):
        tables = tuple(_wins(counts) for counts in _count_rows(hands, seed, *tables))
    return tables


def render(front: np.ndarray, middle: np.ndarray, back: np.ndarray) -> str:
    lines = ["FRONT_WINS: dict[Category, tuple[tuple[int, ...], ...]] = {"]
    for category in FRONT_CATEGORIES:
        lines.append(f"    Category.{category.name}: (  # [top rank - 1][second rank + 1 or 0]")
        for top in range(1, 14):
            row = ", ".join(str(int(front[category << 8 | top << 4 | second])) for second in range(14))
            lines.append(f"        ({row}),")
        lines.append("    ),")
    lines.append("}")
    for name, table in (("MIDDLE_WINS", middle), ("BACK_WINS", back)):
        lines.append(f"{name}: dict[Category, tuple[int, ...]] = {{  # [top rank - 1], deuce .. ace")
        for category in Category:
            row = ", ".join(str(int(table[category << 4 | top])) for top in range(1, 14))
            lines.append(f"    Category.{category.name}: ({row}),")
        lines.append("}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2_000_000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--write", action="store_true", help="rewrite the tables in house_way.py")
    args = parser.parse_args()
    text = render(*generate(args.hands, args.rounds, args.seed))
    if not args.write:
        print(text)
        return
    source = HOUSE_WAY_FILE.read_text()
    block = re.compile(r"(# BEGIN TABLES[^\n]*\n).*?(# END TABLES)", re.S)
    HOUSE_WAY_FILE.write_text(block.sub(lambda m: m.group(1) + text + "\n" + m.group(2), source))


if __name__ == "__main__":
    main()
