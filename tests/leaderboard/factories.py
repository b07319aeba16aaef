"""Rows for page and API tests, created directly with the ORM in the shape of each family's typed
Run.metrics (evaluators/<family>/metrics.py, the contract its aggregate writes), then pushed
through leaderboard_refresh_run like the engine does."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from django.utils import timezone

from catalog.models import Benchmark, ModelEntry
from evaluators.chess.metrics import ChessMetrics
from evaluators.hanabi.metrics import HanabiMetrics
from evaluators.hipho.metrics import HiphoMetrics
from jobs.models import ItemResult, Job, Run
from leaderboard.services import leaderboard_refresh_run

_seq = itertools.count(1)
XSS = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">'


def model(slug: str | None = None, **fields: Any) -> ModelEntry:
    n = next(_seq)
    slug = slug or f"model-{n}"
    defaults = {
        "display_name": slug.replace("-", " ").title(),
        "litellm_model": f"openai/{slug}",
        "organisation": "Acme",
        "open_weights": False,
        "parameter_count_b": None,
    }
    defaults.update(fields)
    return ModelEntry.objects.create(slug=slug, **defaults)


def benchmark(slug: str, family: str, **fields: Any) -> Benchmark:
    defaults = {"name": slug.split("/")[-1].upper(), "config": {}, "default_samples": 1}
    defaults.update(fields)
    return Benchmark.objects.create(slug=slug, family=family, **defaults)


def job(**fields: Any) -> Job:
    return Job.objects.create(name=fields.pop("name", "test job"), **fields)


def run(
    model_entry: ModelEntry,
    bench: Benchmark,
    metrics: Mapping[str, Any] | None,
    *,
    job_obj: Job | None = None,
    refresh: bool = True,
    **fields: Any,
) -> Run:
    """A finished, aggregated run (metrics None: still running, not aggregated)."""
    metrics = dict(metrics or {})
    done = metrics.get("n_items", 0)
    fields.setdefault("total_items", done)
    fields.setdefault("done_items", done)
    r = Run.objects.create(
        job=job_obj or job(status=Job.Status.DONE),
        model=model_entry,
        benchmark=bench,
        status=Run.Status.DONE if metrics else Run.Status.RUNNING,
        spec={
            "benchmark_version": bench.version,
            "prompt_hash": "abc123",
            "grader_version": "1",
            "code_version": "test",
            "config": bench.config,
        },
        spec_hash="f" * 64,
        metrics=metrics,
        score=metrics.get("score"),
        score_se=metrics.get("score_se"),
        aggregated_at=timezone.now() if metrics else None,
        finished_at=timezone.now() if metrics else None,
        **fields,
    )
    if refresh and metrics:
        leaderboard_refresh_run(r.pk)
    return r


def item(run_obj: Run, key: str = "item-1", **fields: Any) -> ItemResult:
    defaults = {"state": ItemResult.State.DONE, "score": 1.0, "transcript": [], "details": {}}
    defaults.update(fields)
    return ItemResult.objects.create(run=run_obj, item_key=key, **defaults)


def hipho_metrics(
    score: float,
    se: float = 1.0,
    *,
    exam_id: str = "ipho-2025",
    medal: str = "gold",
    full: float = 30.0,
    probs: dict | None = None,
) -> HiphoMetrics:
    return {
        "score": score,
        "score_se": se,
        "n_items": 3,
        "n_failed": 0,
        "exam_id": exam_id,
        "exam_name": exam_id.upper(),
        "full_marks": full,
        "human_full": full,
        "score_ci95": [score - 2 * se, score + 2 * se],
        "medal": medal,
        "medal_probs": probs or {"gold": 0.6, "silver": 0.3, "bronze": 0.1, "none": 0.0},
        "cutoffs": {"gold": 20.0, "silver": 15.0, "bronze": 10.0, "top_human": 28.5},
        "share_of_top_human": score / 28.5,
        "answer_level_only": False,
        "problems": {
            "T1": {
                "full": 10.0,
                "A": 6.0,
                "S": 8.0,
                "P": 8.0,
                "best_scheme": 1,
                "samples": 1,
                "failed": 0,
            },
            "T2": {
                "full": 10.0,
                "A": 5.0,
                "S": None,
                "P": 5.0,
                "best_scheme": None,
                "samples": 1,
                "failed": 0,
            },
            "T3": {
                "full": 10.0,
                "A": 4.0,
                "S": 7.5,
                "P": 7.5,
                "best_scheme": 0,
                "samples": 1,
                "failed": 0,
            },
        },
        "sanity_check": False,
    }


def hanabi_metrics(
    score: float,
    se: float = 0.5,
    *,
    players: int = 2,
    setting: str | None = "watson",
    mode: str = "self",
    partners: list[str] | None = None,
) -> HanabiMetrics:
    return {
        "score": score,
        "score_se": se,
        "n_items": 10,
        "n_failed": 0,
        "players": players,
        "setting": setting,
        "mode": mode,
        "partners": partners or [],
        "mean_hle_score": score,
        "hle_score_se": se,
        "mean_fireworks_score": score + 1,
        "fireworks_score_se": se,
        "perfect_rate": 0.1,
        "bomb_rate": 0.2,
        "mean_turns": 60.0,
        "invalid_replies": 2,
        "fallbacks": 1,
        "mean_regret": None,
        "games": 10,
    }


def chess_metrics(score: float, se: float = 2.0, *, task: str = "best_move") -> ChessMetrics:
    m: ChessMetrics = {
        "score": score,
        "score_se": se,
        "n_items": 20,
        "n_failed": 0,
        "task": task,
        "accuracy": 71.5,
        "acpl": 48,
        "move_classes": {
            "best": 5,
            "excellent": 4,
            "good": 4,
            "inaccuracy": 3,
            "mistake": 2,
            "blunder": 2,
        },
        "legal_first_try": 0.9,
        "legal_final": 0.95,
        "parse_failures": 1,
        "hallucination_rate": 0.05,
        "percentile_rank_mean": 62.0,
    }
    if task == "puzzles":
        m["puzzle_accuracy_by_band"] = {
            "<1000": {"n": 5, "solved": 4, "rate": 0.8},
            "1000-1500": {"n": 5, "solved": 2, "rate": 0.4},
            ">=2000": {"n": 2, "solved": 0, "rate": 0.0},
        }
    if task == "games":
        m.update(
            {
                "elo": score,
                "elo_ci95": [score - 150, score + 150],
                "wins": 3,
                "draws": 2,
                "losses": 5,
            }
        )
    return m


def hanabi_game_details(
    seed: int = 7, players: int = 2, turns: int = 6, *, reply: str = "I play card 0"
) -> dict:
    """A real replayable game: moves chosen by games.hanabi's legal-move list (first legal)."""
    from games.hanabi.state import HanabiGame

    game = HanabiGame(seed, players)
    moves = []
    for t in range(turns):
        legal = game.legal_moves()
        move = legal[-1] if t % 2 else legal[0]
        # the shape of evaluators.hanabi TurnRecord.to_json()
        moves.append(
            {
                "turn": t,
                "seat": game.current_player,
                "agent": "m-a" if t % 2 == 0 else "m-b",
                "move": move,
                "move_index": 0,
                "fallback": t == 3,
                "rule": None,
                "prompt_hash": "p",
                "raw_replies": [f"{reply} (turn {t})"],
                "errors": ["unparseable reply"] if t == 3 else [],
                "reason": None,
                "input_tokens": 10,
                "output_tokens": 5,
            }
        )
        game.apply(move)
    return {
        "seed": seed,
        "players": players,
        "seat_models": ["m-a", "m-b"][:players] + ["bot"] * (players - 2),
        "moves": moves,
    }


def populated_site() -> dict[str, Any]:
    """A small site: 3 models on all three families, one job with items of every kind."""
    a = model(
        "alpha", display_name="Alpha", organisation="Acme", open_weights=True, parameter_count_b=8
    )
    b = model(
        "beta",
        display_name="Beta",
        organisation="Bell",
        open_weights=False,
        parameter_count_b=70,
        modality="vision",
    )
    c = model(
        "gamma", display_name="Gamma", organisation="Acme", open_weights=True, parameter_count_b=400
    )
    ipho = benchmark("hipho/ipho-2025", "hipho", name="IPhO 2025")
    eupho = benchmark("hipho/eupho-2024", "hipho", name="EuPhO 2024")
    han = benchmark("hanabi/2p-watson", "hanabi", name="Hanabi 2p Watson")
    cross = benchmark("hanabi/cross-2p", "hanabi", name="Hanabi cross-play")
    best = benchmark("chess/best-move", "chess", name="Best move")
    puzzles = benchmark("chess/puzzles", "chess", name="Puzzles")
    games = benchmark("chess/games", "chess", name="Games")
    j = job(name="demo", status=Job.Status.DONE, total_items=6, done_items=6)
    runs: dict[str, Run] = {}
    for m, s, medal in ((a, 25.0, "gold"), (b, 16.0, "silver"), (c, 8.0, "none")):
        runs[f"{m.slug}-ipho"] = run(m, ipho, hipho_metrics(s, medal=medal), job_obj=j)
        runs[f"{m.slug}-eupho"] = run(
            m, eupho, hipho_metrics(s / 2, exam_id="eupho-2024", medal="bronze"), job_obj=j
        )
        runs[f"{m.slug}-hanabi"] = run(m, han, hanabi_metrics(s / 2), job_obj=j)
        runs[f"{m.slug}-best"] = run(m, best, chess_metrics(s * 3), job_obj=j)
        runs[f"{m.slug}-puzzles"] = run(m, puzzles, chess_metrics(s * 2, task="puzzles"), job_obj=j)
        runs[f"{m.slug}-games"] = run(
            m, games, chess_metrics(1000 + 20 * s, 60.0, task="games"), job_obj=j
        )
    runs["alpha-cross"] = run(
        a, cross, hanabi_metrics(11.0, mode="cross", partners=["beta"]), job_obj=j
    )
    items = {
        "hipho": item(
            runs["alpha-ipho"],
            "T1",
            transcript=[
                {"role": "prompt", "text": "Solve T1."},
                {"role": "reply", "text": XSS},
                {"role": "parsed", "text": "E = mc^2"},
                {"role": "grading", "text": "rule: numeric match", "rule": "sympy"},
            ],
        ),
        "hanabi": item(
            runs["alpha-hanabi"],
            "seed-7",
            details=hanabi_game_details(reply=XSS),
            transcript=[{"role": "reply", "text": XSS}],
        ),
        "chess": item(
            runs["alpha-best"],
            "pos-1",
            details={
                "fen": "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                "model_move": "f1c4",
                "best_move": "d2d4",
                "reasoning": XSS,
                "classification": "good",
                "cp_loss": 12,
            },
        ),
    }
    return {
        "models": [a, b, c],
        "runs": runs,
        "items": items,
        "job": j,
        "benchmarks": [ipho, eupho, han, cross, best, puzzles, games],
    }
