"""Scores reported by the HiPhO authors: imported as a 'reported' kind of result (source and
version), shown on the medal table as styled rows apart from runs made here (a toggle hides
them; ranked together only when asked), with medals at the official cut-offs; a model evaluated
here and linked to a reported one gets a per-exam comparison."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from hipho_exams.models import ReportedModel, ReportedScore
from hipho_exams.reported import reported_medal
from tests.leaderboard import factories as f
from tests.requirements import require
from tests.rubrics.paths import shared_data

pytestmark = pytest.mark.django_db
CSV = shared_data() / "published" / "hipho_reported_scores.csv"


def _import(*extra):
    require(CSV.is_file(), f"reported scores at {CSV}")
    out = io.StringIO()
    call_command("import_reported", "--path", str(CSV), *extra, stdout=out)
    return out.getvalue()


def test_the_reported_scores_import_with_source_and_version():
    assert "imported 585 reported scores" in _import()
    assert ReportedModel.objects.count() == 45 and ReportedScore.objects.count() == 585
    gemini = ReportedModel.objects.get(name="Gemini-2.5-Pro")
    assert gemini.version == "2025-09-16" and "HiPhO" in gemini.source
    assert gemini.category == "closed-source MLLM"
    assert gemini.scores.get(exam_id="ipho-2025").score == 22.7
    assert {s.exam_id for s in ReportedScore.objects.all()} >= {
        "fma-2025",
        "panmechanics-2024",
        "apho-2025",
    }
    _import()  # importing again replaces, never duplicates
    assert ReportedScore.objects.count() == 585


def test_reported_medals_use_the_official_cutoffs_on_the_published_score():
    assert reported_medal("ipho-2025", 22.7) == "gold"  # gold cut-off 19.7
    assert reported_medal("ipho-2025", 19.66) == "gold"  # published as 19.7
    assert reported_medal("ipho-2025", 12.0) == "bronze"  # silver 12.1, bronze 7.2
    assert reported_medal("ipho-2025", 5.0) == "none"


def test_a_bad_file_is_refused_by_line_and_field_and_nothing_changes(tmp_path):
    _import()
    bad = tmp_path / "reported.csv"
    bad.write_text(
        "model,category,exam,year,score\nA,x,IPhO,2025,22.7\nB,x,IPhO,2025,lots\n", encoding="utf-8"
    )
    with pytest.raises(CommandError, match=r"reported.csv line 3: field 'score' must be a number"):
        call_command("import_reported", "--path", str(bad))
    bad.write_text("model,category,exam,year,score\nA,x,ZPhO,2025,1\n", encoding="utf-8")
    with pytest.raises(CommandError, match=r"line 2: field 'exam': unknown exam 'ZPhO' 2025"):
        call_command("import_reported", "--path", str(bad))
    assert ReportedScore.objects.count() == 585


def _section(html: str, table_id: str) -> str:
    m = re.search(rf'id="table-{table_id}".*?</table>', html, re.S)
    return m.group(0) if m else ""


def test_the_medal_table_shows_reported_rows_apart_with_a_toggle(client):
    _import()
    f.run(
        f.model("ours", display_name="Our model"),
        f.benchmark("hipho/ipho-2025", "hipho"),
        f.hipho_metrics(20.0, exam_id="ipho-2025", medal="gold"),
    )
    html = client.get(reverse("leaderboard:hipho")).content.decode()
    main, reported = _section(html, "hipho-medals"), _section(html, "hipho-reported")
    assert "Our model" in main and "Gemini-2.5-Pro" not in main  # never ranked with ours
    assert "Gemini-2.5-Pro" in reported and 'class="reported' in reported
    assert "hide them" in html and "not ranked with runs made here" in html
    hidden = client.get(reverse("leaderboard:hipho"), {"reported": "0"}).content.decode()
    assert "Gemini-2.5-Pro" not in hidden and "show them" in hidden
    together = client.get(reverse("leaderboard:hipho"), {"reported": "together"}).content.decode()
    merged = _section(together, "hipho-medals")
    assert (
        "Gemini-2.5-Pro" in merged
        and "Our model" in merged
        and "ranked with runs made here (as asked)" in together
    )


def test_a_linked_model_is_compared_exam_by_exam(client):
    _import()
    ours = f.model("gemini-here", display_name="Gemini 2.5 Pro (here)")
    f.run(
        ours,
        f.benchmark("hipho/ipho-2025", "hipho"),
        f.hipho_metrics(20.0, 1.0, exam_id="ipho-2025"),
    )
    f.run(
        ours,
        f.benchmark("hipho/eupho-2025", "hipho"),
        f.hipho_metrics(13.0, 1.5, exam_id="eupho-2025"),
    )
    out = io.StringIO()
    call_command(
        "import_reported", "--path", str(CSV), "--link", "Gemini-2.5-Pro=gemini-here", stdout=out
    )
    rm = ReportedModel.objects.get(name="Gemini-2.5-Pro")
    assert rm.linked_model == ours
    reported_eupho = rm.scores.get(exam_id="eupho-2025").score
    html = client.get(reverse("leaderboard:hipho_reported", args=[rm.pk])).content.decode()
    table = _section(html, "hipho-reported-comparison")
    assert "20.0 ± 1.0" in table and "22.7" in table and "2.7" in table  # reported − ours
    rows = {
        label: row
        for row in table.split("</tr>")
        for label in ("IPhO 2025", "EuPhO 2025")
        if f">{label}<" in row
    }
    assert ">no<" in rows["IPhO 2025"]  # 22.7 outside [18, 22]
    inside = 10.0 <= reported_eupho <= 16.0
    assert (">yes<" if inside else ">no<") in rows["EuPhO 2025"]
    assert "not evaluated here" in table  # the other exams
    # importing again keeps the link
    call_command("import_reported", "--path", str(CSV), stdout=io.StringIO())
    assert ReportedModel.objects.get(name="Gemini-2.5-Pro").linked_model == ours


def test_a_first_visitor_sees_a_real_medal_table_before_any_run(client):
    _import()
    html = client.get(reverse("leaderboard:hipho")).content.decode()
    reported = _section(html, "hipho-reported")
    assert "Gemini-2.5-Pro" in reported and "IPhO 2025" in reported
    assert "Gold cut-off" in _section(html, "hipho-medals")  # the official cut-offs head the table
    assert "badge gold" in reported
