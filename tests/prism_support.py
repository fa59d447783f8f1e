"""Shared set-up for the Prism Words tests: the shipped block set and lexicon (hash-checked), and
rulebooks and tables built from them."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache
from types import SimpleNamespace

from egm.config import PROJECT_ROOT
from egm.games.prism_words.blocks import Block, check_block_set, parse_blocks
from egm.games.prism_words.lexicon import Lexicon, load_lexicon
from egm.games.prism_words.paytable import EXAMPLE, PrismWordsRules
from egm.games.prism_words.strategy import MACHINE_STRATEGY
from egm.games.prism_words.table import Rulebook, Table

ASSETS = PROJECT_ROOT / "paytables" / "assets"
BLOCKS_FILE = ASSETS / "prism-words-blocks.txt"
LEXICON_FILE = ASSETS / "enable2k.txt.gz"


def sha256_of(path: object) -> str:
    return hashlib.sha256(PROJECT_ROOT.joinpath(str(path)).read_bytes()).hexdigest()


@cache
def shipped_blocks() -> tuple[Block, ...]:
    blocks = parse_blocks(BLOCKS_FILE.read_text(encoding="utf-8"))
    check_block_set(blocks)
    return blocks


@cache
def shipped_lexicon() -> Lexicon:
    return load_lexicon(LEXICON_FILE, sha256_of(LEXICON_FILE))


def block_index(text: str, taken: set[int] | None = None) -> int:
    """The first block printed as `text` (e.g. 'H4.O1') not yet in `taken` (which it joins)."""
    taken = set() if taken is None else taken
    for index, block in enumerate(shipped_blocks()):
        if block.text() == text and index not in taken:
            taken.add(index)
            return index
    raise LookupError(f"no free block {text}")


def book(scoring: str = "rules", rows: int = 15, cols: int = 15, turns_per_seat: int = 0,
         lexicon: Lexicon | None = None) -> Rulebook:
    return Rulebook(shipped_blocks(), lexicon or shipped_lexicon(), rows, cols, (rows // 2, cols // 2),
                    scoring=scoring, turns_per_seat=turns_per_seat)


def table_with_racks(racks: Sequence[Sequence[str]], scoring: str = "rules", starter: int = 0,
                     **options: int) -> Table:
    """A table whose seats hold exactly these blocks (by printed text), dealt from a bag that lists
    them first in dealing order (the starter first) and then every other block in index order."""
    taken: set[int] = set()
    seats = len(racks)
    order = [(starter + step) % seats for step in range(seats)]
    top = [block_index(text, taken) for seat in order for text in racks[seat]]
    bag = top + [index for index in range(len(shipped_blocks())) if index not in taken]
    return Table(book(scoring, **options), seats, starter, bag, bag_seed=1)


def example_paytable(**game: object) -> SimpleNamespace:
    """A pay table as the ROM hands it to the game: `paytable.EXAMPLE` with the shipped assets'
    real hashes (and any `game` keys replaced), at the shipped pay tables' folder."""
    rules = PrismWordsRules.model_validate({
        **EXAMPLE,
        "blocks_sha256": sha256_of(BLOCKS_FILE),
        "lexicon_sha256": sha256_of(LEXICON_FILE),
        **game,
    })
    header = SimpleNamespace(strategy=MACHINE_STRATEGY, default_bet_credits=1, denominations_cents=[1],
                             bets_credits=[1, 2, 5])
    return SimpleNamespace(id="prism-words-test", version="1.0.0", header=header, rules=rules,
                           path=PROJECT_ROOT / "paytables" / "prism-words.toml")
