"""Broken benchmark files: HiPhO exam files and Lichess puzzle CSVs. Registering the benchmark
(admin form) or submitting a job on it gives an error naming the file, the record and the field,
and no row is written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client

from catalog.models import Benchmark, ModelEntry
from catalog.services import benchmark_validate_config
from jobs import services
from jobs.models import ItemResult, Job, Run
from tests.faults.conftest import HIPHO_DIR, SHARED_DATA
from tests.requirements import require

pytestmark = pytest.mark.django_db

EXAM = "EuPhO_2024.json"


def _counts() -> tuple[int, ...]:
    return (
        Benchmark.objects.count(),
        Job.objects.count(),
        Run.objects.count(),
        ItemResult.objects.count(),
    )


def _exam_dir(tmp_path: Path, mutate) -> Path:
    require((HIPHO_DIR / EXAM).is_file(), f"HiPhO data at {HIPHO_DIR}")
    folder = tmp_path / "exam"
    folder.mkdir()
    records = json.loads((HIPHO_DIR / EXAM).read_text())
    # the exam's own figures, copied into the temporary folder (a symlinked figure folder is
    # refused: a link could carry any file of the host into a prompt)
    (folder / "image_question").mkdir()
    for record in records[1:]:
        for figure in record.get("image_question") or []:
            shutil.copyfile(HIPHO_DIR / figure, folder / figure)
    out = mutate(records)
    if isinstance(out, bytes):
        (folder / EXAM).write_bytes(out)
    else:
        (folder / EXAM).write_text(json.dumps(records))
    return folder


def _drop(records, field):
    del records[1][field]


EXAM_CASES = {
    # case: (mutation, words the error must contain)
    "bad JSON": (lambda r: json.dumps(r).encode()[:5000], [EXAM, "JSON"]),
    "missing field": (lambda r: _drop(r, "question"), [EXAM, "record 1", "question"]),
    "points/answer mismatch": (
        lambda r: r[1].update(points=[4.0]),
        [EXAM, "record 1", "points", "answer"],
    ),
    "missing figure": (
        lambda r: r[1].update(image_question=["image_question/no_such_figure.png"]),
        [EXAM, "record 1", "no_such_figure.png", "does not exist"],
    ),
    "50 MB file": (lambda r: b"[" + b" " * (50 * 1024 * 1024) + b"]", [EXAM, "MB"]),
}


@pytest.fixture
def reference(db) -> ModelEntry:
    return ModelEntry.objects.create(
        slug="builtin-reference", display_name="Reference", litellm_model="builtin/reference"
    )


@pytest.mark.parametrize("case", list(EXAM_CASES))
def test_a_broken_exam_file_stops_the_job_naming_file_record_and_field(case, tmp_path, reference):
    mutate, words = EXAM_CASES[case]
    folder = _exam_dir(tmp_path, mutate)
    bench = Benchmark.objects.create(
        slug=f"bad/{case}",
        name=case,
        family="hipho",
        config={"source": "dir", "path": str(folder), "exam": "eupho-2024"},
    )
    before = _counts()
    with pytest.raises(ValidationError) as info:
        services.job_submit(models=[reference], benchmarks=[bench], samples=1)
    message = " ".join(info.value.messages)
    for word in words:
        assert word in message, f"{case}: {word!r} missing from {message!r}"
    assert _counts() == before


def test_a_broken_exam_file_is_refused_when_the_benchmark_is_saved(tmp_path):
    folder = _exam_dir(tmp_path, EXAM_CASES["missing field"][0])
    with pytest.raises(ValidationError, match="question"):
        benchmark_validate_config(
            family="hipho", config={"source": "dir", "path": str(folder), "exam": "eupho-2024"}
        )


HEADER = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags"
GOOD = "00008,r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24,f2g3 e6e7 b2b1 b3c1 b1c1 h6c1,1913,75,94,6230,crushing,https://lichess.org/x,"

PUZZLE_CASES = {
    "bad FEN": (
        (HEADER + "\n" + GOOD.replace("r6k/pp2r2p", "r6k/pp2r2pZZ") + "\n").encode(),
        ["puzzles.csv", ":2", "00008", "FEN"],
    ),
    "illegal solution move": (
        (HEADER + "\n" + GOOD.replace("e6e7 b2b1", "e6e7 a1a8") + "\n").encode(),
        ["puzzles.csv", ":2", "00008", "Moves", "move 3", "a1a8", "illegal"],
    ),
    "missing columns": (
        (b"PuzzleId,FEN,Rating\n00008,8/8/8/8/8/8/8/K6k w - - 0 1,1500\n"),
        ["puzzles.csv", ":1", "missing column", "Moves"],
    ),
    "wrong encoding": (
        (HEADER + "\n" + GOOD.replace("crushing", "écrasant") + "\n").encode("latin-1"),
        ["puzzles.csv", ":2", "UTF-8"],
    ),
}


@pytest.mark.parametrize("case", list(PUZZLE_CASES))
def test_a_broken_puzzle_csv_is_refused_by_the_admin_form(case, tmp_path, db):
    content, words = PUZZLE_CASES[case]
    (tmp_path / "puzzles.csv").write_bytes(content)
    staff = Client()
    staff.force_login(get_user_model().objects.create_superuser("root", "r@example.test", "pw"))
    before = _counts()
    config = {"task": "puzzles", "puzzles": {"csv": str(tmp_path / "puzzles.csv")}}
    response = staff.post(
        "/admin/catalog/benchmark/add/",
        {
            "slug": "chess/bad",
            "name": "bad",
            "family": "chess",
            "version": "1",
            "config": json.dumps(config),
            "description": "",
            "default_samples": "1",
            "active": "on",
        },
    )
    assert response.status_code == 200  # the form again, with its error
    errors = " ".join(str(e) for e in response.context["adminform"].form.errors.get("config", []))
    for word in words:
        assert word in errors, f"{case}: {word!r} missing from {errors!r}"
    assert _counts() == before


def test_the_good_puzzle_row_of_the_corpus_is_good(tmp_path):
    (tmp_path / "puzzles.csv").write_text(HEADER + "\n" + GOOD + "\n")
    config = benchmark_validate_config(
        family="chess",
        config={"task": "puzzles", "puzzles": {"csv": str(tmp_path / "puzzles.csv")}},
    )
    assert config["task"] == "puzzles"


def test_the_shared_lichess_sample_loads(db):
    csv_path = SHARED_DATA / "lichess" / "lichess_puzzles_sample_2k.csv"
    require(csv_path.is_file(), f"Lichess sample at {csv_path}")
    benchmark_validate_config(
        family="chess", config={"task": "puzzles", "puzzles": {"csv": str(csv_path)}}
    )
