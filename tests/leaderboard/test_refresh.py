"""leaderboard_refresh_run: the read model follows the latest aggregated run."""

import math

import pytest

from leaderboard.models import FamilyScore, LeaderboardEntry
from leaderboard.services import leaderboard_refresh_all, leaderboard_refresh_run
from tests.leaderboard import factories as f

pytestmark = pytest.mark.django_db


def test_it_copies_headline_interval_and_slim_summary():
    m = f.model("m1")
    b = f.benchmark("hipho/ipho-2025", "hipho")
    run = f.run(m, b, f.hipho_metrics(24.0, 1.5))
    entry = LeaderboardEntry.objects.get(model=m, benchmark=b)
    assert (entry.score, entry.score_se, entry.run_id) == (24.0, 1.5, run.pk)
    assert (entry.score_lo, entry.score_hi) == (21.0, 27.0)  # the stored bootstrap interval
    assert entry.norm == pytest.approx(80.0) and entry.norm_se == pytest.approx(5.0)
    assert entry.group == "ipho-2025" and entry.label == "IPHO-2025"
    assert "problems" not in entry.summary and entry.summary["n_problems"] == 3
    assert entry.summary["medal"] == "gold"


def test_it_keeps_the_latest_aggregated_run_and_ignores_unaggregated_ones():
    m, b = f.model("m1"), f.benchmark("chess/best", "chess")
    f.run(m, b, f.chess_metrics(40.0))
    newer = f.run(m, b, f.chess_metrics(55.0))
    f.run(m, b, None)  # still running: no metrics yet
    assert LeaderboardEntry.objects.get(model=m, benchmark=b).run_id == newer.pk
    # refreshing for the older run does not bring it back
    leaderboard_refresh_run(newer.pk - 1)
    assert LeaderboardEntry.objects.get(model=m, benchmark=b).score == 55.0


def test_it_explodes_a_hipho_suite_into_one_entry_per_exam():
    m, suite = f.model("m1"), f.benchmark("hipho/suite", "hipho")
    exams = {
        "ipho-2025": f.hipho_metrics(20.0),
        "apho-2025": f.hipho_metrics(12.0, exam_id="apho-2025"),
    }
    for exam in exams.values():
        exam.pop("score_ci95")
    f.run(m, suite, {"score": 32.0, "score_se": 2.0, "n_items": 6, "n_failed": 0, "exams": exams})
    entries = {e.part: e for e in LeaderboardEntry.objects.filter(model=m)}
    assert set(entries) == {"ipho-2025", "apho-2025"}
    assert entries["apho-2025"].score == 12.0 and entries["apho-2025"].group == "apho-2025"
    # no stored interval: 95% normal interval from the SE
    assert entries["ipho-2025"].score_lo == pytest.approx(20.0 - 1.96 * 1.0, abs=1e-3)


def test_it_puts_hanabi_and_chess_on_a_percent_scale_and_leaves_elo_out():
    m = f.model("m1")
    f.run(m, f.benchmark("hanabi/a", "hanabi"), f.hanabi_metrics(12.5, 0.5))
    f.run(m, f.benchmark("chess/p", "chess"), f.chess_metrics(40.0, 5.0, task="puzzles"))
    f.run(m, f.benchmark("chess/g", "chess"), f.chess_metrics(1200.0, 80.0, task="games"))
    han = LeaderboardEntry.objects.get(family="hanabi")
    assert han.norm == pytest.approx(50.0) and han.norm_se == pytest.approx(2.0)
    puzzles = LeaderboardEntry.objects.get(group="puzzles")
    assert puzzles.norm == pytest.approx(40.0)
    games = LeaderboardEntry.objects.get(group="games")
    assert games.norm is None and (games.score_lo, games.score_hi) == (1050.0, 1350.0)
    chess = FamilyScore.objects.get(model=m, family="chess")
    assert chess.n_entries == 1 and chess.score == pytest.approx(40.0)


def test_the_family_score_is_the_mean_with_the_se_of_a_mean():
    m = f.model("m1")
    f.run(m, f.benchmark("hipho/a", "hipho"), f.hipho_metrics(15.0, 3.0, exam_id="a"))  # 50 ± 10
    f.run(m, f.benchmark("hipho/b", "hipho"), f.hipho_metrics(27.0, 1.5, exam_id="b"))  # 90 ± 5
    s = FamilyScore.objects.get(model=m, family="hipho")
    assert s.score == pytest.approx(70.0)
    assert s.score_se == pytest.approx(math.sqrt(10.0**2 + 5.0**2) / 2)
    assert s.n_entries == 2


def test_refresh_all_rebuilds_from_runs():
    m = f.model("m1")
    f.run(m, f.benchmark("hanabi/a", "hanabi"), f.hanabi_metrics(10.0), refresh=False)
    assert not LeaderboardEntry.objects.exists()
    assert leaderboard_refresh_all() == 1
    assert LeaderboardEntry.objects.get().score == 10.0


def test_a_run_that_loses_its_aggregate_disappears_from_the_board():
    m, b = f.model("m1"), f.benchmark("hanabi/a", "hanabi")
    run = f.run(m, b, f.hanabi_metrics(10.0))
    run.aggregated_at = None
    run.save(update_fields=["aggregated_at"])
    leaderboard_refresh_run(run.pk)
    assert not LeaderboardEntry.objects.exists()
    assert not FamilyScore.objects.exists()
