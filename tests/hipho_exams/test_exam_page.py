"""The exam page: short problem headers, each figure once with a meaningful caption, "one sample"
instead of a zero-width interval, and the grader sanity check never a medallist."""

import pytest
from django.urls import reverse

from catalog.models import Benchmark
from hipho_exams.figures import exam_figures, problem_labels
from leaderboard.pages import interval_text
from tests.leaderboard import factories as f
from tests.requirements import require

pytestmark = pytest.mark.django_db


def test_problem_headers_leave_out_the_exam_name():
    labels = problem_labels(["IPhO_2025_1_A_1", "IPhO_2025_1_B_2", "IPhO_2025_3_C_10"])
    assert labels == {
        "IPhO_2025_1_A_1": "1.A.1",
        "IPhO_2025_1_B_2": "1.B.2",
        "IPhO_2025_3_C_10": "3.C.10",
    }
    assert problem_labels(["T1", "T2"]) == {"T1": "T1", "T2": "T2"}


def test_a_one_sample_interval_says_so():
    assert interval_text(8.5, 8.5, None) == "one sample"
    assert interval_text(8.5, 8.5, 0.0) == "[8.50, 8.50]"  # measured: every sample agreed
    assert interval_text(7.0, 9.0, 0.5) == "[7.00, 9.00]"


def test_each_figure_shows_once_captioned_by_its_problems(settings):
    from pathlib import Path

    data = Path(settings.BASE_DIR).parent / "shared" / "data" / "hipho"
    require(data.is_dir(), f"shared HiPhO data at {data}")
    bench = Benchmark.objects.create(
        slug="hipho/ipho-2025",
        name="IPhO 2025",
        family="hipho",
        config={"source": "dir", "path": str(data), "exam": "ipho-2025"},
    )
    figures = exam_figures("ipho-2025", [bench.pk])
    assert figures and len({(x["p"], x["f"]) for x in figures}) == len(figures)
    assert not any(".png" in x["caption"] or "IPhO_2025" in x["caption"] for x in figures)
    shared = [x for x in figures if "," in x["caption"]]
    assert shared, "IPhO 2025 reuses figures across problems"


def test_the_sanity_check_wins_no_medal(client):
    exam = f.benchmark("hipho/ipho-2025", "hipho")
    ref = f.model("reference", litellm_model="builtin/reference")
    f.run(ref, exam, {**f.hipho_metrics(29.0, medal="gold"), "sanity_check": True})
    f.run(f.model("alpha"), exam, f.hipho_metrics(21.0, medal="gold"))
    html = client.get(reverse("leaderboard:hipho")).content.decode()
    body = html.split('data-table="hipho-medals"')[1].split("</table>")[0]
    sanity_row = body.split('class="sanity"')[1].split("</tr>")[0]
    assert "grader sanity check" in sanity_row and "badge gold" not in sanity_row
    assert body.count('<span class="badge gold">') == 1  # alpha's
