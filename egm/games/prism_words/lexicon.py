"""The lexicon: a signed word list (a ROM asset) held as a minimal DAWG in flat numpy arrays.

The pay table names the word list file and its SHA-256; `load_lexicon` refuses a file whose bytes
hash differently (`AssetError`, a ROM error: the cabinet does not play with it). The list is built
into a minimal deterministic acyclic word graph (Daciuk's incremental algorithm over the sorted
words), then flattened:

* `mask[n]`     (uint32) bit L set when node n has an edge on letter L (0 = A .. 25 = Z);
* `first[n]`    (int32)  index of node n's first edge; its edges follow in letter order;
* `target[e]`   (int32)  the node edge e leads to;
* `terminal[n]` (uint8)  1 when the path to node n spells a word.

The child of n on letter L is `target[first[n] + popcount(mask[n] & ((1 << L) - 1))]`, one lookup
with no search, which the compiled move generator uses directly. The built arrays are cached
(`.npz` in this package's `__pycache__`, which is not firmware) under the file's SHA-256, so a
changed list never meets a stale graph.

>>> lexicon = Lexicon.from_words(["cat", "cats", "dog", "dogs"])
>>> lexicon.contains("cats"), lexicon.contains("ca"), lexicon.contains("do"), lexicon.node_count
(True, False, False, 7)
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from egm.rom.paytable import PaytableError

ALPHABET = "abcdefghijklmnopqrstuvwxyz"
CACHE_DIR = Path(__file__).resolve().parent / "__pycache__"


class AssetError(PaytableError):
    """A pay-table ROM asset (lexicon, block set) that is missing or whose SHA-256 differs from its pay
    table's: the pay table is refused with it, a ROM error like any pay-table fault."""


def read_asset(path: Path, sha256: str) -> bytes:
    """The asset's bytes, only if they hash to the pay table's `sha256`."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise AssetError(f"{path}: cannot read the ROM asset ({exc.strerror}); restore the file") from exc
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha256:
        raise AssetError(f"{path}: refused, its SHA-256 {digest} differs from the pay table's {sha256}; "
                         "restore the approved file")
    return data


class _Node:
    __slots__ = ("edges", "terminal", "number")

    def __init__(self) -> None:
        self.edges: dict[int, _Node] = {}
        self.terminal = False
        self.number = -1

    def signature(self) -> tuple[bool, tuple[tuple[int, int], ...]]:
        return self.terminal, tuple((letter, child.number) for letter, child in self.edges.items())


def _build_nodes(words: list[str]) -> tuple[_Node, list[_Node]]:
    """Daciuk's incremental construction over sorted words: the root and the registered nodes
    (numbered in registration order, children before parents)."""
    register: dict[tuple[bool, tuple[tuple[int, int], ...]], _Node] = {}
    nodes: list[_Node] = []
    root = _Node()
    unchecked: list[tuple[_Node, int, _Node]] = []

    def minimise(down_to: int) -> None:
        while len(unchecked) > down_to:
            parent, letter, child = unchecked.pop()
            key = child.signature()
            same = register.get(key)
            if same is not None:
                parent.edges[letter] = same
            else:
                child.number = len(nodes)
                nodes.append(child)
                register[key] = child

    previous = ""
    for word in words:
        common = 0
        for a, b in zip(word, previous, strict=False):
            if a != b:
                break
            common += 1
        minimise(common)
        node = unchecked[-1][2] if unchecked else root
        for char in word[common:]:
            child = _Node()
            letter = ord(char) - 97
            node.edges[letter] = child
            unchecked.append((node, letter, child))
            node = child
        node.terminal = True
        previous = word
    minimise(0)
    root.number = len(nodes)
    nodes.append(root)
    return root, nodes


@dataclass(frozen=True)
class Lexicon:
    """A word list as flat DAWG arrays (see the module doc). `root` is the root node's index."""

    mask: np.ndarray
    first: np.ndarray
    target: np.ndarray
    terminal: np.ndarray
    root: int
    sha256: str = ""

    @classmethod
    def from_words(cls, words: Iterable[str], sha256: str = "") -> Lexicon:
        cleaned = sorted({word.strip().lower() for word in words} - {""})
        for word in cleaned:
            if not word.isascii() or not word.isalpha():
                raise ValueError(f"'{word}' is not a word of the letters a-z; the lexicon takes no other")
        root, nodes = _build_nodes(cleaned)
        count = len(nodes)
        mask = np.zeros(count, np.uint32)
        first = np.zeros(count, np.int32)
        terminal = np.zeros(count, np.uint8)
        targets: list[int] = []
        for node in nodes:
            first[node.number] = len(targets)
            terminal[node.number] = node.terminal
            for letter in sorted(node.edges):
                mask[node.number] |= np.uint32(1 << letter)
                targets.append(node.edges[letter].number)
        return cls(mask, first, np.array(targets, np.int32), terminal, root.number, sha256)

    @property
    def node_count(self) -> int:
        return len(self.mask)

    @property
    def nbytes(self) -> int:
        return self.mask.nbytes + self.first.nbytes + self.target.nbytes + self.terminal.nbytes

    def child(self, node: int, letter: int) -> int:
        """The node after `letter` (0..25) from `node`, or -1 when no word continues so."""
        mask = int(self.mask[node])
        bit = 1 << letter
        if not mask & bit:
            return -1
        return int(self.target[int(self.first[node]) + (mask & (bit - 1)).bit_count()])

    def contains(self, word: str) -> bool:
        """Whether `word` (any case, letters A-Z only) is in the list."""
        node = self.root
        for char in word.lower():
            letter = ord(char) - 97
            if not 0 <= letter < 26:
                return False
            node = self.child(node, letter)
            if node < 0:
                return False
        return bool(self.terminal[node])

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial.npz")
        np.savez(partial, mask=self.mask, first=self.first, target=self.target, terminal=self.terminal,
                 root=np.array([self.root]))
        partial.replace(path)

    @classmethod
    def load(cls, path: Path, sha256: str) -> Lexicon:
        with np.load(path) as arrays:
            return cls(arrays["mask"], arrays["first"], arrays["target"], arrays["terminal"],
                       int(arrays["root"][0]), sha256)


def words_of(data: bytes) -> list[str]:
    """The words of a word-list file's bytes (gzip-compressed or plain, one word per line)."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode("ascii").split()


def load_lexicon(path: Path, sha256: str, cache_dir: Path | None = CACHE_DIR) -> Lexicon:
    """The signed word list at `path` as a DAWG: refused (AssetError) unless its bytes hash to `sha256`;
    built once and cached under that hash (no cache when `cache_dir` is None or not writable)."""
    data = read_asset(path, sha256)
    cached = None if cache_dir is None else cache_dir / f"lexicon-{sha256[:32]}.npz"
    if cached is not None and cached.exists():
        try:
            return Lexicon.load(cached, sha256)
        except (OSError, ValueError, KeyError):
            pass  # a damaged cache is rebuilt below
    lexicon = Lexicon.from_words(words_of(data), sha256)
    if cached is not None:
        try:
            lexicon.save(cached)
        except OSError:
            pass  # a read-only installation simply builds the graph at each start
    return lexicon
