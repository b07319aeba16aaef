"""import_puzzles and generate_positions: good files register benchmarks; bad ones name the
row and field and leave the database as it was."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from catalog.models import Benchmark
from games.chess.positions import load_position_set
from tests.games.chess.conftest import PUZZLE_SAMPLE, _stockfish_found
from tests.requirements import require

pytestmark = pytest.mark.django_db

HEADER = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags"
GOOD = (
    "t0001,6k1/2p2ppp/8/8/8/8/5PPP/R5K1 b - - 0 1,c7c6 a1a8,600,80,90,100,mate mateIn1,https://x/1,"
)


def test_the_shared_sample_registers_a_benchmark():
    require(PUZZLE_SAMPLE.is_file(), f"Lichess puzzle sample at {PUZZLE_SAMPLE}")
    out = io.StringIO()
    call_command(
        "import_puzzles",
        "--csv",
        str(PUZZLE_SAMPLE),
        "--limit",
        "100",
        "--slug",
        "chess/p100",
        stdout=out,
    )
    bench = Benchmark.objects.get(slug="chess/p100")
    assert bench.family == "chess" and bench.config["task"] == "puzzles"
    assert bench.config["puzzles"]["limit"] == 100 and "100 Lichess puzzles" in bench.description
    assert "registered chess/p100" in out.getvalue()


def test_a_bad_row_names_line_and_field_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "\n".join([HEADER, GOOD, GOOD.replace("t0001", "t0002").replace("c7c6 a1a8", "c7c6 a1b8")])
        + "\n"
    )
    before = Benchmark.objects.count()
    with pytest.raises(
        CommandError, match=r"bad.csv:3 \(puzzle t0002\): field Moves, move 2 'a1b8' is illegal"
    ):
        call_command("import_puzzles", "--csv", str(bad))
    assert Benchmark.objects.count() == before


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(CommandError, match="nope.csv: puzzle file not found"):
        call_command("import_puzzles", "--csv", str(tmp_path / "nope.csv"))


def test_generate_positions_writes_a_set_and_registers_its_tasks(tmp_path):
    require(_stockfish_found(), "Stockfish binary")
    out = tmp_path / "set.json"
    call_command(
        "generate_positions",
        "--n",
        "2",
        "--seed",
        "7",
        "--name",
        "tiny",
        "--nodes",
        "3000",
        "--out",
        str(out),
        stdout=io.StringIO(),
    )
    ps = load_position_set(out)
    assert len(ps.positions) == 2 and ps.generator["seed"] == 7
    slugs = set(Benchmark.objects.filter(slug__endswith="-tiny").values_list("slug", flat=True))
    assert "chess/best-move-tiny" in slugs and "chess/legal-moves-tiny" in slugs
