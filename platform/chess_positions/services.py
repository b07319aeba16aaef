"""Writes for chess: registering Lichess puzzle files and generated position sets as benchmarks.

Every file is validated completely (each row, FEN and move) before anything is written, and the
benchmark rows are written in one transaction: a bad file leaves the database as it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.db import transaction

from catalog.models import Benchmark
from catalog.services import benchmark_validate_config
from evaluators.chess.config import usable_positions
from evaluators.paths import REPO_ROOT
from games.chess.analysis import Analyzer
from games.chess.engine import Engine, SearchLimit
from games.chess.positions import generate_position_set, save_position_set
from games.chess.puzzles import load_puzzles

SLUG_PREFIX = "chess/"
POSITION_TASKS = {
    "best_move": "best move",
    "mc_best": "best of 5",
    "mc_worst": "worst of 5",
    "legal_moves": "legal moves of a piece",
}


def _config_path(path: Path) -> str:
    """Paths inside the repository are stored relative to it, so the config works on any host."""
    path = path.resolve()
    try:
        return str(path.relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def puzzles_import(
    *,
    csv_path: str | Path,
    slug: str | None = None,
    name: str | None = None,
    limit: int | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
) -> Benchmark:
    """Register a Lichess puzzle CSV as a `puzzles` benchmark. Raises PuzzleFormatError (naming
    file, line, puzzle and field) before any write."""
    path = Path(csv_path).resolve()
    # every selected row is validated (FEN, each move) before anything is written
    chosen = len(load_puzzles(path, limit=limit, min_rating=min_rating, max_rating=max_rating))
    config: dict[str, Any] = {
        "task": "puzzles",
        "puzzles": {
            "csv": str(path),
            "limit": limit,
            "min_rating": min_rating,
            "max_rating": max_rating,
        },
    }
    config = benchmark_validate_config(family="chess", config=config)
    slug = slug or f"{SLUG_PREFIX}puzzles-{path.stem}".lower().replace("_", "-")
    with transaction.atomic():
        bench, _ = Benchmark.objects.update_or_create(
            slug=slug,
            defaults={
                "name": name or f"Chess: Lichess puzzles ({path.name})",
                "family": "chess",
                "version": "1",
                "config": config,
                "default_samples": 1,
                "description": f"{chosen} Lichess puzzles from {path.name}; every solver move must be right "
                "(any mate counts); accuracy by rating band.",
            },
        )
    return bench


def positions_generate(
    *,
    out: str | Path,
    n: int,
    seed: int = 0,
    name: str = "generated",
    nodes: int | None = None,
    register: bool = True,
    tasks: tuple[str, ...] = tuple(POSITION_TASKS),
) -> list[Benchmark]:
    """Generate a position set from Stockfish self-play, write it (atomically), and register one
    benchmark per task on it."""
    limit = SearchLimit(nodes=nodes) if nodes else SearchLimit()
    with Engine(limit=limit) as engine:
        ps = generate_position_set(Analyzer(engine), n=n, seed=seed, name=name)
    out = Path(out)
    save_position_set(ps, out)
    if not register:
        return []
    rel = _config_path(out)
    configs = {
        t: benchmark_validate_config(
            family="chess", config={"task": t, "positions": rel, "engine": {"nodes": limit.nodes}}
        )
        for t in tasks
        if usable_positions(ps, t)
    }  # a small set may have no 5-way question
    benches = []
    with transaction.atomic():
        for task, config in configs.items():
            bench, _ = Benchmark.objects.update_or_create(
                slug=f"{SLUG_PREFIX}{task.replace('_', '-')}-{name}",
                defaults={
                    "name": f"Chess: {POSITION_TASKS[task]} ({name})",
                    "family": "chess",
                    "version": "1",
                    "config": config,
                    "default_samples": 1,
                    "description": f"{len(ps.positions)} positions from Stockfish self-play (seed {seed}).",
                },
            )
            benches.append(bench)
    return benches
