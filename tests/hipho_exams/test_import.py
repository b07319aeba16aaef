"""import_hipho: one benchmark per exam plus the suite, all or nothing."""

from __future__ import annotations

import io
import json
import shutil

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from catalog.models import Benchmark, ModelEntry
from hipho_exams.services import hipho_import
from rubrics.errors import ExamFormatError
from tests.requirements import require
from tests.rubrics.paths import DEMO_DIR, hipho_dir

pytestmark = pytest.mark.django_db


def test_it_imports_every_official_exam_and_the_suite():
    require(hipho_dir().is_dir(), f"shared HiPhO data at {hipho_dir()}")
    out = io.StringIO()
    call_command("import_hipho", "--path", str(hipho_dir()), stdout=out)
    slugs = set(Benchmark.objects.filter(family="hipho").values_list("slug", flat=True))
    assert len(slugs) == 15 and "hipho/suite" in slugs and "hipho/ipho-2025" in slugs
    assert "imported 15 HiPhO benchmarks" in out.getvalue()
    ipho = Benchmark.objects.get(slug="hipho/ipho-2025")
    assert ipho.config == {
        "source": "dir",
        "path": str(hipho_dir().resolve()),
        "exam": "ipho-2025",
        "temperature": 0.6,
        "answer_judge": True,
        "step_level": True,
        "grader_profile": "strict",
    }
    assert ipho.default_samples == 8 and len(ipho.version) == 12
    assert "gold 19.7, silver 12.1, bronze 7.2" in ipho.description
    assert "no official medal cut-offs" in Benchmark.objects.get(slug="hipho/cpho-2025").description
    # importing again updates in place
    call_command("import_hipho", "--path", str(hipho_dir()), stdout=io.StringIO())
    assert Benchmark.objects.filter(family="hipho").count() == 15


def test_it_sets_the_judge_when_asked():
    judge = ModelEntry.objects.create(
        slug="judge", display_name="Judge", litellm_model="openai/judge"
    )
    call_command(
        "import_hipho",
        "--path",
        str(DEMO_DIR),
        "--judge",
        "judge",
        "--samples",
        "2",
        stdout=io.StringIO(),
    )
    bench = Benchmark.objects.get(slug="hipho/podiumdemo-2025")
    assert bench.judge == judge and bench.default_samples == 2
    with pytest.raises(CommandError, match="no model with slug 'nobody'"):
        call_command("import_hipho", "--path", str(DEMO_DIR), "--judge", "nobody")


def _folder_with(tmp_path, mutate):
    folder = tmp_path / "exams"
    shutil.copytree(DEMO_DIR, folder, ignore=shutil.ignore_patterns("*.py", "*.md"))
    bad = json.loads((folder / "PodiumDemo_2025.json").read_text())
    bad[0]["information"] = "second exam"
    mutate(bad)
    (folder / "Broken_2024.json").write_text(json.dumps(bad))
    return folder


@pytest.mark.parametrize(
    "mutate,message",
    [
        (
            lambda d: d[2].pop("question"),
            r"Broken_2024\.json: record 2 \(problem 'PodiumDemo_2025_2'\): field 'question'",
        ),
        (
            lambda d: d[1]["points"].append(1.0),
            r"record 1 \(problem 'PodiumDemo_2025_1'\): field 'points' has 3 entries but 'answer' has 2",
        ),
        (
            lambda d: d[3]["image_question"].append("image_question/missing.png"),
            r"figure 'image_question/missing\.png' does not exist",
        ),
    ],
)
def test_a_malformed_file_leaves_the_database_unchanged(tmp_path, mutate, message):
    good = hipho_import(path=DEMO_DIR)
    before = list(Benchmark.objects.order_by("slug").values())
    folder = _folder_with(tmp_path, mutate)
    with pytest.raises(ExamFormatError, match=message):
        hipho_import(path=folder)
    assert list(Benchmark.objects.order_by("slug").values()) == before
    assert [b.slug for b in good] == ["hipho/podiumdemo-2025", "hipho/suite"]


def test_bad_json_is_reported_by_the_command_and_nothing_is_written(tmp_path):
    folder = tmp_path / "exams"
    shutil.copytree(DEMO_DIR, folder, ignore=shutil.ignore_patterns("*.py", "*.md"))
    (folder / "Broken_2024.json").write_text('[{"information": "x"}, {"id": ')
    with pytest.raises(
        CommandError, match=r"nothing imported: Broken_2024\.json: invalid JSON at line 1"
    ):
        call_command("import_hipho", "--path", str(folder))
    assert not Benchmark.objects.filter(family="hipho").exists()


def test_the_hugging_face_source_reports_an_unreachable_dataset(tmp_path):
    # no network here: an empty cache in offline mode is the honest failure to check
    with pytest.raises(CommandError, match=r"nothing imported: cannot fetch SciYu/HiPhO"):
        call_command("import_hipho", "--hf", "--offline", "--cache-dir", str(tmp_path / "hf"))
    assert not Benchmark.objects.filter(family="hipho").exists()
