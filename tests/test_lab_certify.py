"""`egm certify`: the JSON contract, worker-count independence, Dask, the report, bad input, Ctrl-C."""

from __future__ import annotations

import json
import math
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from egm.cli import main
from egm.games.dragon_poker.game import DEFAULT_PAYTABLE
from egm.games.dragon_poker.lab import HOUSE_WAY
from egm.lab import runner
from egm.lab.certify import Request, certify
from egm.lab.runner import plan_chunks, run
from egm.rom import load_paytable
from egm.rom.signing import sign_file
from tests.rom_support import DEV_PRIVATE_KEY

CONTRACT_KEYS = {"paytable_id", "paytable_sha256", "games", "seed", "rtp", "ci95", "hit_frequency", "sigma",
                 "volatility_index", "max_win_seen", "theoretical_max_win", "exact", "games_per_second",
                 "needed_games_for_0_1pt"}


@pytest.fixture
def signed_copy(tmp_path: Path) -> Path:
    """The shipped pay table copied out of the tree with a detached development-key signature."""
    path = tmp_path / "dragon-poker.toml"
    shutil.copyfile(DEFAULT_PAYTABLE, path)
    sign_file(path, DEV_PRIVATE_KEY)
    return path


def certify_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["certify", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_contract(signed_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = certify_json(capsys, str(signed_copy), "--games", "20000", "--seed", "1", "--best-games", "200")
    assert CONTRACT_KEYS <= data.keys()
    assert data["games"] == 20_000 and data["seed"] == 1 and data["paytable_id"] == "dragon-poker-std"
    assert len(data["paytable_sha256"]) == 64
    low, high = data["ci95"]
    assert low < data["rtp"] < high
    assert 0.5 < data["rtp"] < 1.5 and 0 < data["hit_frequency"] <= 1 and data["sigma"] > 0
    assert data["volatility_index"] == pytest.approx(1.6448536269514722 * data["sigma"])
    assert data["exact"]["pair_bonus_rtp"] == pytest.approx(float(Fraction(1353, 1431)))
    assert 0 < data["exact"]["jackpot_player_share"] < 1
    assert data["jackpot"]["player_share_check"]["agrees_at_99"]
    assert data["theoretical_max_win"] == (10 + 3 + 2 + 5 + 5) * 1  # stake + sweep + best bonuses
    assert data["best_available"]["games"] == 200
    for one in (data, data["best_available"]):  # the lab's figure of merit, for each run
        needed = one["needed_games_for_0_1pt"]
        assert needed == math.ceil((1.959963984540054 * one["sigma"] / 0.001) ** 2)
        assert one["seconds_for_0_1pt"] == pytest.approx(needed / one["games_per_second"])
    returns = sum(value * count for value, count in data["return_distribution"])
    assert Fraction(returns, 20_000 * data["stake_credits"]) == Fraction(data["rtp_fraction"])
    assert {v["jurisdiction"] for v in data["jurisdictions"]} == {"Generic GLI", "Nevada"}


def test_same_result_whatever_the_workers(signed_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(signed_copy), "--games", "250000", "--seed", "7", "--best-games", "0"]
    one = certify_json(capsys, *args, "--workers", "1")
    two = certify_json(capsys, *args, "--workers", "2")
    assert one["chunks"]["planned"] == 3
    for key in ("rtp", "rtp_fraction", "ci95", "sigma", "max_win_seen", "return_distribution", "awards"):
        assert one[key] == two[key]


def test_dask_local_cluster_matches_the_process_pool(signed_copy: Path) -> None:
    distributed = pytest.importorskip("distributed")
    paytable = load_paytable(signed_copy)
    chunks = plan_chunks(3, 120_000, 50_000)
    pool = run("dragon-poker", paytable, HOUSE_WAY, chunks, workers=2)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        dask = run("dragon-poker", paytable, HOUSE_WAY, chunks, scheduler=cluster.scheduler_address)
    assert dask.tally.to_dict() == pool.tally.to_dict()
    assert dask.tally.trace == pool.tally.trace
    assert not dask.partial and dask.chunks_done == 3


def test_report_is_a_self_contained_par_sheet(signed_copy: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "par.html"
    data = certify_json(capsys, str(signed_copy), "--games", "5000", "--seed", "2", "--best-games", "100",
                        "--report", str(report), "--jurisdiction", "nevada")
    page = report.read_text(encoding="utf-8")
    assert data["paytable_sha256"] in page and "data:image/png;base64," in page
    assert page.count("<img") == 2 and "Nevada" in page and "--seed 2" in page
    assert "pair_bonus_rtp" in page and "Best available strategy: best-available/1" in page
    assert page.count("<td>games for +-0.1 points</td>") == 2  # the reference run and the best-available run
    assert f"{data['needed_games_for_0_1pt']:,}" in page
    assert "http://" not in page and "https://" not in page


@pytest.mark.parametrize("argv, message", [
    (["--games", "0"], "not positive"),
    (["--games", "-3"], "not positive"),
    (["--games", "ten"], "not a whole number"),
])
def test_bad_game_counts_are_refused(signed_copy: Path, capsys: pytest.CaptureFixture[str],
                                     argv: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["certify", str(signed_copy), *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    # one line, as docs/lab.md promises (argparse printed a usage block of 6 lines before it)
    assert err.count("\n") == 1 and err.startswith("egm certify: argument --games: ")


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["certify", *argv, "--games", "100", "--seed", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    return captured.err


def test_missing_unsigned_tampered_and_invalid_paytables_are_refused(
        tmp_path: Path, signed_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "cannot read" in refused(capsys, str(tmp_path / "nothing.toml"))
    unsigned = tmp_path / "unsigned.toml"
    shutil.copyfile(DEFAULT_PAYTABLE, unsigned)
    assert "unsigned" in refused(capsys, str(unsigned))
    signed_copy.write_text(signed_copy.read_text().replace("stake_points = 10", "stake_points = 11"))
    assert "not a valid signature" in refused(capsys, str(signed_copy))
    invalid = tmp_path / "invalid.toml"
    invalid.write_text(DEFAULT_PAYTABLE.read_text().replace("split_points = 1", "split_points = 0"))
    sign_file(invalid, DEV_PRIVATE_KEY)
    assert "split_points" in refused(capsys, str(invalid))


def test_unreachable_scheduler_and_unknown_jurisdiction(signed_copy: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert "cannot reach the Dask scheduler" in refused(capsys, str(signed_copy), "--scheduler",
                                                        "tcp://127.0.0.1:9")
    assert "unknown jurisdiction" in refused(capsys, str(signed_copy), "--jurisdiction", "atlantis")


def test_ctrl_c_reports_the_chunks_done_marked_partial(signed_copy: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    real = runner.run_chunk

    def interrupted_at_chunk_two(game_id, paytable, strategy, chunk, progress=None):  # type: ignore[no-untyped-def]
        if chunk.index == 2:
            raise KeyboardInterrupt
        return real(game_id, paytable, strategy, chunk, progress)

    monkeypatch.setattr(runner, "run_chunk", interrupted_at_chunk_two)
    result = certify(Request(paytable_path=signed_copy, games=500_000, seed=4, workers=1, best_games=1000))
    assert result.partial and result.bounds == []
    data = result.to_json()
    assert data["partial"] and data["games"] == 200_000 and data["games_requested"] == 500_000
    assert data["chunks"] == {"done": 2, "planned": 5, "games_each": 100_000}


def test_the_run_sizes_default_to_the_games_own_the_bounding_run_capped_by_the_run(
        signed_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from egm.games.dragon_poker.lab import DragonPokerLab

    assert DragonPokerLab.games_default == 1_000_000 and DragonPokerLab.best_games_default == 100_000
    monkeypatch.setattr(DragonPokerLab, "games_default", 3_000)  # keep the test short
    result = certify(Request(paytable_path=signed_copy, games=None, seed=4, workers=1))
    assert (result.request.games, result.request.best_games) == (3_000, 3_000)
    (best,) = result.bounds
    assert best.role == "best_available" and best.result.tally.games == 3_000
    assert result.reference.tally.games == 3_000


def test_par_sheet_itemises_the_rtp_and_judges_every_wager(signed_copy: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The contribution table sums to the RTP, split into base game and jackpot with the pair bonus's
    exact table beside it; the hand-pay checks cover every denomination and bet with no option."""
    report = tmp_path / "par.html"
    data = certify_json(capsys, str(signed_copy), "--games", "20000", "--seed", "3", "--best-games", "0",
                        "--report", str(report))
    rows = data["contributions"]
    assert sum(row["contribution"] for row in rows) == pytest.approx(data["rtp"], abs=1e-12)
    assert sum(row["games"] for row in rows if row["outcome"].startswith("base game")) == 20_000
    jackpot = next(row for row in rows if row["outcome"].startswith("jackpot"))
    assert jackpot["games"] == data["awards"]["jackpot"]["hits"] and jackpot["contribution"] > 0
    for row in rows:
        assert 0 <= row["ci95"][0] <= row["probability"] <= row["ci95"][1] <= 1
    pair = data["side_bets"]["pair bonus"]
    assert sum(o["contribution"] for o in pair) == pytest.approx(1353 / 1431)
    assert sum(o["probability"] for o in pair) == pytest.approx(1.0)
    for verdict in data["jurisdictions"]:
        cases = verdict["hand_pay"]
        assert {(c["denom_cents"], c["bet_credits"]) for c in cases} == {
            (d, b) for d in (1, 5, 25, 100) for b in (1, 2, 5, 10)}
        top = next(c for c in cases if (c["denom_cents"], c["bet_credits"]) == (100, 10))
        assert top["max_win_cents"] == 25 * 10 * 100
    page = report.read_text(encoding="utf-8")
    for text in ("Contributions to the RTP", "subtotal: base game", "subtotal: jackpot",
                 "Side bet: pair bonus (exact", "6 of the 1,431 two-card hands", "hit frequency",
                 "jackpot restarting at its seed per chunk", "Hand pays: every denomination and bet"):
        assert text in page, text
    assert " 1 cents" not in page and "1 in 1<" not in page


def test_one_denomination_when_asked(signed_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = certify_json(capsys, str(signed_copy), "--games", "2000", "--seed", "3", "--best-games", "0",
                        "--denom-cents", "25")
    assert data["denom_cents"] == 25
    assert {(c["denom_cents"], c["bet_credits"]) for c in data["jurisdictions"][0]["hand_pay"]} == {
        (25, 1), (25, 2), (25, 5), (25, 10)}


def test_the_run_says_what_it_prepares_before_the_bar(signed_copy: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["certify", str(signed_copy), "--games", "2000", "--seed", "3", "--best-games", "0"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("egm certify: loading the lab, then checking the pay table")
    assert err[1].startswith("egm certify: preparing dragon-poker: compiling or loading")


def test_a_default_that_follows_sigma_runs_until_the_half_width_is_reached(
        signed_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose default follows its sigma (Poker Tiles) runs its default first, then as many more
    games as the measured sigma needs for its half-width; the total, given as --games, reproduces it."""
    from egm.games.dragon_poker.lab import DragonPokerLab

    monkeypatch.setattr(DragonPokerLab, "games_follow_sigma", True)
    monkeypatch.setattr(DragonPokerLab, "games_default", 2_000)  # the first run: sigma about 0.45
    monkeypatch.setattr(DragonPokerLab, "games_default_half_width", 1.0)  # needs about 7,700 games
    monkeypatch.setattr(DragonPokerLab, "chunk_games", lambda self, strategy: 1_000)
    result = certify(Request(paytable_path=signed_copy, games=None, seed=4, workers=1, best_games=0))
    low, high = result.reference_summary.ci95
    assert (high - low) / 2 <= 0.01
    games = result.request.games
    assert games > 2_000 and games % 1_000 == 0 and result.reference.tally.games == games
    again = certify(Request(paytable_path=signed_copy, games=games, seed=4, workers=1, best_games=0))
    assert again.reference.tally == result.reference.tally
