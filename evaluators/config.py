"""The configuration the pure packages read: where the shared data lives, which Stockfish to run,
where the chess analysis cache is. The platform sets it from Django settings at start
(catalog's AppConfig.ready calls ``configure``); outside Django (a bench script, a pure test)
the defaults come from the same environment variables, read here and nowhere else in
evaluators/. Evaluators call ``current()``; they never read os.environ themselves."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class EvaluatorConfig:
    shared_data: Path  # the root that "shared:<path>" names in benchmark configs
    stockfish: str | None = None  # the engine binary; None: games.chess.engine finds one
    chess_cache_url: str | None = None  # Redis for the shared analysis cache; None: in-process
    cache_prefix: str = "podium"


def from_environment() -> EvaluatorConfig:
    return EvaluatorConfig(
        shared_data=Path(
            os.environ.get("PODIUM_SHARED_DATA") or (REPO_ROOT / ".." / "shared" / "data")
        ),
        stockfish=os.environ.get("PODIUM_STOCKFISH") or None,
        chess_cache_url=os.environ.get("PODIUM_CHESS_CACHE_URL")
        or os.environ.get("REDIS_URL")
        or None,
        cache_prefix=os.environ.get("PODIUM_CACHE_PREFIX", "podium"),
    )


_configured: EvaluatorConfig | None = None


def current() -> EvaluatorConfig:
    return _configured if _configured is not None else from_environment()


def configure(config: EvaluatorConfig | None = None, **changes) -> EvaluatorConfig:
    """Set the configuration (or change fields of the current one); None resets to defaults."""
    global _configured
    base = config if config is not None else current()
    _configured = replace(base, **changes) if changes else config
    return current()
