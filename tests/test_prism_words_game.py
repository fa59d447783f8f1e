"""Prism Words on the cabinet interface: rounds, refusals as sentences, recovery at every move,
the pays, and the ROM check of its assets."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from egm.games.base import Decision, DecisionRefused
from egm.games.prism_words.blocks import block_text
from egm.games.prism_words.game import PrismWords, PrismWordsRound
from egm.games.prism_words.lexicon import AssetError
from egm.rng import Rng
from tests.prism_support import LEXICON_FILE, example_paytable


@pytest.fixture(scope="module")
def game() -> PrismWords:
    return PrismWords(example_paytable())


def play_out(round_: PrismWordsRound) -> None:
    while not round_.finished:
        round_.decide(round_.reference_decision())


def test_a_round_is_a_pure_function_of_its_seed(game: PrismWords) -> None:
    one = game.new_round(game.default_wager(1), Rng.from_seed(5), {})
    two = game.new_round(game.default_wager(1), Rng.from_seed(5), {})
    assert one.to_record() == two.to_record()
    play_out(one)
    play_out(two)
    assert one.to_record() == two.to_record() and one.outcome() == two.outcome()


def test_the_starter_has_the_highest_draw(game: PrismWords) -> None:
    for seed in range(10):
        round_ = game.new_round(game.default_wager(1), Rng.from_seed(seed), {})
        last = round_.first_draws[-1]
        sums = {seat: game.book.blocks[block].numeral_sum for seat, block in last}
        assert round_.table.starter == max(sums, key=lambda seat: sums[seat])
        # a machine starter has already played when the customer is first asked
        assert round_.table.turn == 0 and len(round_.table.moves) == (1 if round_.table.starter else 0)


def test_recovery_at_every_move(game: PrismWords) -> None:
    """The record after each accepted decision rebuilds the same round (JSON round trip)."""
    round_ = game.new_round(game.default_wager(1), Rng.from_seed(21), {})
    steps = 0
    while not round_.finished:
        round_.decide(round_.reference_decision())
        record = json.loads(json.dumps(round_.to_record()))
        restored = game.restore(record)
        assert restored.view() == round_.view() and restored.to_record() == record
        steps += 1
    assert steps >= 5
    assert game.restore(round_.to_record()).outcome() == round_.outcome()


def test_the_outcome_pays_margin_and_awards(game: PrismWords) -> None:
    rules = game.rules
    for seed in range(3):
        round_ = game.new_round(game.default_wager(1), Rng.from_seed(seed), {})
        play_out(round_)
        outcome = round_.outcome()
        scores = round_.table.scores
        margin = scores[0] - scores[1]
        awards = outcome.summary["awards"]
        patterns = sum(any(w.pattern_bonus for w in m.play.words) for m in round_.table.moves
                       if m.seat == 0 and m.play)
        depleted = sum(bool(m.play.rack_bonus) for m in round_.table.moves if m.seat == 0 and m.play)
        assert awards.count("pattern_bonus") == patterns and awards.count("depleted_rack") == depleted
        expected = rules.result_units(margin) + patterns * rules.awards.pattern_bonus
        expected += depleted * rules.awards.depleted_rack
        assert outcome.win_credits == expected
        assert outcome.result_code == {1: "W", 0: "T", -1: "L"}[(margin > 0) - (margin < 0)] + f"{margin:+d}"


def refused(round_: PrismWordsRound, decision: Decision) -> str:
    before = round_.to_record()
    with pytest.raises(DecisionRefused) as info:
        round_.decide(decision)
    assert round_.to_record() == before
    return str(info.value)


def place(row: int, col: int, block: int, face: str = "left", letter: str | None = None) -> dict:
    item: dict = {"row": row, "col": col, "block": block, "face": face}
    if letter is not None:
        item["letter"] = letter
    return item


def play(placements: list[dict]) -> Decision:
    return Decision("play", {"placements": placements})


def customer_first(game: PrismWords) -> PrismWordsRound:
    for seed in range(50):
        round_ = game.new_round(game.default_wager(1), Rng.from_seed(seed), {})
        if round_.table.starter == 0:
            return round_
    raise AssertionError("no seed gives the customer the first play")


def test_bad_input_is_refused_with_a_sentence(game: PrismWords) -> None:
    round_ = customer_first(game)
    rack = round_.table.racks[0]
    blocks = game.book.blocks
    assert refused(round_, Decision("play", {"placements": []})).startswith("A play needs 'placements'")
    plain = [b for b in rack if not blocks[b].has_star]
    word = "".join("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[blocks[b].left] for b in plain[:4])
    assert not game.book.lexicon.contains(word)
    message = refused(round_, play([place(7, 7 + i, b) for i, b in enumerate(plain[:4])]))
    assert message == f"{word} is not in the lexicon; every word formed must be a listed word."
    assert "centre pocket" in refused(round_, Decision("play", {"placements": [place(0, i, b) for i, b in
                                                                                enumerate(rack[:4])]}))
    assert "at least 4" in refused(round_, Decision("play", {"placements": [place(7, 7 + i, b) for i, b in
                                                                             enumerate(rack[:2])]}))
    assert "not in one line" in refused(round_, Decision("play", {"placements": [place(7, 7, rack[0]),
                                                                                 place(8, 8, rack[1])]}))
    assert "gap" in refused(round_, play([place(7, 7, rack[0]), place(7, 9, rack[1])]))
    stranger = next(b for b in range(96) if b not in rack and not blocks[b].has_star)
    assert f"The {block_text(blocks[stranger])} is not in your rack" in refused(round_, play([
        place(7, 7 + i, b) for i, b in enumerate([stranger, *rack[:3]])]))
    star = next(b for b in range(96) if blocks[b].has_star)
    side = "right" if blocks[star].right == 26 else "left"
    assert "declare the letter" in refused(round_, play([place(7, 7, star, side)]))
    assert "its 'left' or 'right' face, not 'back'" in refused(round_, play([place(7, 7, rack[0], "back")]))
    assert "MACHINE plays its own turns" in refused(round_, Decision("pass", {"seat": 1}))
    assert "not 'swap'" in refused(round_, Decision("swap"))


def test_a_play_not_connected_and_after_the_end(game: PrismWords) -> None:
    round_ = game.new_round(game.default_wager(1), Rng.from_seed(3), {})
    round_.decide(round_.reference_decision())
    rack = round_.table.racks[0]
    far = [place(0, i, b) for i, b in enumerate(rack[:2])]
    message = refused(round_, Decision("play", {"placements": far}))
    assert "not connected" in message or "not in the lexicon" in message
    play_out(round_)
    assert refused(round_, Decision("pass")) == "The game is over; no move is taken after the end."


def test_exchange_and_pass_are_decisions(game: PrismWords) -> None:
    round_ = customer_first(game)
    held = list(round_.table.racks[0])
    round_.decide(Decision("exchange"))
    assert round_.table.moves[0].kind == "exchange" and round_.table.racks[0] != held
    assert round_.table.turn == 0  # the machine has played; the customer's turn again
    round_.decide(Decision("pass"))
    assert round_.table.moves[2].kind == "pass"
    assert game.restore(round_.to_record()).to_record() == round_.to_record()


def test_a_tampered_lexicon_is_a_rom_error(tmp_path: Path) -> None:
    (tmp_path / "assets").mkdir()
    for name in ("enable2k.txt.gz", "prism-words-blocks.txt"):
        (tmp_path / "assets" / name).write_bytes((LEXICON_FILE.parent / name).read_bytes())
    with (tmp_path / "assets" / "enable2k.txt.gz").open("ab") as f:
        f.write(b"\0")
    paytable = example_paytable()
    paytable.path = tmp_path / "prism-words.toml"
    with pytest.raises(AssetError, match="differs from the pay table's"):
        PrismWords(paytable)


def test_the_view_shows_both_faces_and_the_words(game: PrismWords) -> None:
    round_ = customer_first(game)
    round_.decide(round_.reference_decision())
    view = round_.view().table
    assert view["step"] == "play" and view["centre"] == [7, 7] and len(view["rack"]) == 6
    # the rules a browser table needs to show a play's points before it is sent
    assert view["doubling"] is True and view["rack_size"] == 6 and view["first_word_min"] == 4
    assert all({"left", "right", "block", "star"} <= set(item) for item in view["rack"])
    assert view["last_moves"][0]["seat"] == 0 and view["last_moves"][0]["words"]
    assert len(view["grid"]) >= 4 and view["bag"] == 96 - 12 - len(view["grid"])


def test_three_machine_opponents() -> None:
    game = PrismWords(example_paytable(opponents_max=3))
    round_ = game.new_round(game.default_wager(1), Rng.from_seed(4), {}, opponents=3)
    assert round_.table.seats == 4 and all(len(rack) == 6 for rack in round_.table.racks)
    play_out(round_)
    scores = round_.table.scores
    assert round_.margin == scores[0] - max(scores[1:])
    assert {move.seat for move in round_.table.moves} == {0, 1, 2, 3}
    with pytest.raises(ValueError, match="1 to 3 opponents, not 4"):
        game.new_round(game.default_wager(1), Rng.from_seed(4), {}, opponents=4)


def test_the_lab_chunk_is_repeatable_and_counts_awards() -> None:
    from egm.games.prism_words.lab import PrismWordsLab

    lab, paytable = PrismWordsLab(), example_paytable()
    one = lab.run_chunk(paytable, "prism-greedy/1", 17, 3)
    two = lab.run_chunk(paytable, "prism-greedy/1", 17, 3)
    assert one.to_dict() == two.to_dict() and one.games == 3 and one.stake == 3 * 10
    assert sum(one.results.values()) == 3 and set(one.awards) <= {"pattern_bonus", "depleted_rack"}
    low = lab.run_chunk(paytable, "random", 17, 2)
    assert low.total_return <= one.total_return  # random play loses by hundreds of points


def test_a_pay_table_naming_another_lexicon_is_a_rom_tilt(tmp_path: Path) -> None:
    """A signed tree whose pay table names a lexicon hash the shipped file does not have: the cabinet
    leaves the game out and boots into the ROM tilt, naming the file."""
    import shutil

    from egm.cabinet import build_cabinet
    from egm.config import PROJECT_ROOT, load_cabinet_config
    from tests.rom_support import sign_tree

    root = tmp_path / "tree"
    (root / "egm").mkdir(parents=True)
    (root / "egm" / "__init__.py").write_text("")
    shutil.copytree(PROJECT_ROOT / "paytables" / "assets", root / "paytables" / "assets")
    text = (PROJECT_ROOT / "paytables" / "prism-words.toml").read_text()
    shipped = hashlib.sha256(LEXICON_FILE.read_bytes()).hexdigest()
    assert shipped in text
    (root / "paytables" / "prism-words.toml").write_text(text.replace(shipped, "0" * 64))
    tree = sign_tree(root, tmp_path / "out")
    cabinet = build_cabinet(load_cabinet_config(tree.config_path), tmp_path / "nvram",
                            game_ids=["prism-words"], seed=1, root=root)
    cabinet.boot()
    snapshot = cabinet.snapshot()
    assert snapshot["tilt"] == "rom_error" and "prism-words" not in snapshot["games"]
    detail = snapshot["tilt_detail"]
    assert "enable2k.txt.gz" in detail and "differs from the pay table's" in detail
    cabinet.memory.close()


def test_the_rules_and_pay_pages_come_from_the_pay_table() -> None:
    from egm.games.prism_words.rules import info_pages

    paytable = example_paytable()
    rules, pays = info_pages(paytable)
    tiers = sorted(paytable.rules.result_pays, key=lambda tier: tier.min_margin, reverse=True)
    assert pays.lines[0] == f"Margin {tiers[0].min_margin:+d} or more: {tiers[0].pays} x bet"
    assert pays.lines[len(tiers) - 1] == f"Any lower margin: {tiers[-1].pays} x bet"
    assert any("15 x 15" in line for line in rules.lines)
    stake = paytable.rules.stake_units
    assert pays.lines[-1] == f"The stake is {stake} x bet. Pay table version {paytable.version}."


def test_a_power_cut_mid_game_resumes_at_the_same_move(signed_tree, tmp_path: Path) -> None:
    """The real cabinet: two of the customer's moves, a power cut (only wager memory survives), and the
    same round at the same move after power-up; then it plays out and meters once."""
    from egm.cabinet import build_cabinet
    from egm.config import load_cabinet_config
    from egm.events import PlayerDecision, StartGame

    config = load_cabinet_config(signed_tree.config_path)

    def power_up() -> object:
        cabinet = build_cabinet(config, tmp_path / "nvram", game_ids=["prism-words"], seed=8)
        cabinet.boot()
        return cabinet

    cabinet = power_up()
    cabinet.devices.bill_acceptor.insert_bill(500)
    cabinet.poll_devices()
    assert cabinet.handle(StartGame()).accepted
    for _ in range(2):
        assert cabinet.handle(PlayerDecision(cabinet.round.reference_decision())).accepted
    record = cabinet.round.to_record()
    cabinet.memory.close()
    again = power_up()
    assert again.state == "game.prism-words.play" and again.round.to_record() == record
    while again.state.startswith("game."):
        assert again.handle(PlayerDecision(again.round.reference_decision())).accepted
    assert again.memory.meters["games_played"] == 1 and again.memory.meters["coin_in"] == 100
    again.memory.close()
