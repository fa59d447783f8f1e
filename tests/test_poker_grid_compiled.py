"""The compiled hot paths are the rules: the compiled scoring equals the rules applied by hand (every
window of the placed card, `hand_name` for each, the contribute rule) on positions from real games, and
the lab's compiled whole game equals the cabinet's `Game` move for move and score for score (2,000
games here, 50,000 under --soak), heads-up and against 2 and 3 opponents, at both strategies."""

from __future__ import annotations

import random

import numpy as np
import pytest

from egm.games.grid import LINES
from egm.games.poker_grid import compiled
from egm.games.poker_grid.board import EMPTY, MAX_HAND, WILD, Layout
from egm.games.poker_grid.game import shuffled_deck
from egm.games.poker_grid.scoring import hand_name, points_for, score
from egm.games.poker_grid.strategy import LOOKAHEAD_STRATEGY, MACHINE_STRATEGY
from egm.games.poker_grid.table import Table
from egm.rng import Rng
from tools.record_poker_grid_games import play, recording_game


def _arm(position: list[int], squares: range) -> list[int]:
    """The rules' arm: cards, a wild space only right next to the square, at most 4."""
    arm: list[int] = []
    for square in squares:
        held = position[square]
        if held == EMPTY or (held == WILD and arm) or len(arm) == MAX_HAND - 1:
            break
        arm.append(square)
    return arm


def points_by_the_rules(layout: Layout, position: list[int], square: int, card: int) -> int:
    best = 0
    for line in LINES:
        back, forward = (_arm(position, squares) for squares in layout.line(square, line))
        for taken_back in range(len(back) + 1):
            for taken_forward in range(len(forward) + 1):
                if not 1 <= taken_back + taken_forward < MAX_HAND:
                    continue
                others = [position[s] for s in (*back[:taken_back], *forward[:taken_forward])]
                points = points_for(hand_name([card, *others]))
                if points > points_for(hand_name(others)):
                    best = max(best, points)
    return best


def test_compiled_scoring_is_the_rules_on_positions_from_random_games() -> None:
    layout = recording_game(1).layout
    choose = random.Random(19)
    checked = 0
    for _ in range(40):
        deck = list(range(54))
        choose.shuffle(deck)
        table = Table(layout, 5, 2, deck)
        while not table.finished:
            hand = table.hands[table.turn]
            for square in choose.sample(table.legal_squares(), min(3, len(table.legal_squares()))):
                for card in hand:
                    got = score(layout, table.position, square, card)
                    assert got.points == points_by_the_rules(layout, table.position, square, card)
                    checked += 1
            table.place(table.turn, choose.choice(hand), choose.choice(table.legal_squares()))
    assert checked > 20_000


def compiled_game(strategy: str, opponents: int, seed: int) -> dict[str, object]:
    """The lab's compiled game on the recording's deal, in the recording's form."""
    layout = recording_game(opponents).layout
    moves = np.empty((54, 4), np.int64)
    deck = np.array(shuffled_deck(Rng.from_seed(seed)), np.int64)
    starters, wilds = (np.array(s, np.int64) for s in (layout.starter_squares, layout.wild_squares))
    scores = compiled.play_game(deck, 1 + opponents, 5, layout.rows, layout.cols, starters, wilds,
                                strategy == LOOKAHEAD_STRATEGY, moves)
    return {"strategy": strategy, "opponents": opponents, "seed": seed,
            "moves": moves[:52, :3].tolist(), "points": moves[:52, 3].tolist(), "scores": scores.tolist()}


PLAN = ((MACHINE_STRATEGY, 1, 1_200), (LOOKAHEAD_STRATEGY, 1, 400), (MACHINE_STRATEGY, 2, 200),
        (MACHINE_STRATEGY, 3, 200))


def differential(scale: int) -> None:
    for strategy, opponents, games in PLAN:
        game = recording_game(opponents)
        for seed in range(10_000, 10_000 + games * scale):
            assert compiled_game(strategy, opponents, seed) == play(game, strategy, opponents, seed), seed


def test_the_labs_compiled_game_is_the_cabinets_game_on_2000_games() -> None:
    differential(1)


@pytest.mark.soak
def test_the_labs_compiled_game_is_the_cabinets_game_on_50000_games() -> None:
    differential(25)
