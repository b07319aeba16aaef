"""The contract between the platform and the pure evaluators.

The platform (Celery tasks in platform/jobs) knows nothing about physics, cards or
chess; a family evaluator knows nothing about the database. They meet here:

* the platform asks a family for the item keys of a benchmark configuration,
* runs ``evaluate`` once per item in a worker, handing it an ``EvalContext``
  (how to call a model, how to checkpoint and resume, whether the job was cancelled),
* stores the returned ``ItemOutcome`` and, when the run's last item lands, calls
  ``aggregate`` over all stored outcomes and stores the result as the run's metrics.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypedDict

# Which families exist is declared once, in evaluators/registry.py (FAMILIES).

BUILTIN_PREFIX = "builtin/"

# A chat message as the OpenAI API shapes it: {"role": ..., "content": str | list[part]}.
Message = dict[str, Any]


class EvaluationError(Exception):
    """An item could not be evaluated; the message is stored as the item's failure reason."""


class ConfigError(ValueError):
    """A benchmark configuration is unusable; the message names the offending field."""


class JobCancelled(Exception):
    """Raised inside an evaluator when the context reports the job was cancelled."""


@dataclass(frozen=True)
class ModelConfig:
    """A model entry as the evaluators see it. Holds the NAME of the key variable, never a key."""

    slug: str
    model: str  # a litellm model string, or builtin/<name> for engines, bots and baselines
    api_base: str | None = None
    api_key_env: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    vision: bool = False
    max_concurrency: int | None = None
    rpm: int | None = None
    tpm: int | None = None

    @property
    def is_builtin(self) -> bool:
        return self.model.startswith(BUILTIN_PREFIX)

    @property
    def builtin_name(self) -> str:
        if not self.is_builtin:
            raise ValueError(f"{self.model!r} is not a builtin/ model")
        return self.model[len(BUILTIN_PREFIX) :]


@dataclass(frozen=True)
class ItemKey:
    key: str
    sample_index: int = 0


@dataclass(frozen=True)
class Completion:
    """What one model call returned (possibly from the response cache)."""

    text: str
    request_hash: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float | None = None  # None when litellm knows no price for the model
    latency_s: float = 0.0
    cached: bool = False
    attempts: int = 1
    finish_reason: str | None = None


Purpose = Literal["model", "judge"]


class Generate(Protocol):
    def __call__(
        self,
        messages: Sequence[Message],
        *,
        model: ModelConfig,
        sample_index: int = 0,
        purpose: Purpose = "model",
        params: Mapping[str, Any] | None = None,
    ) -> Completion: ...


@dataclass
class EvalContext:
    """Everything an evaluator may ask of the platform while it evaluates one item.

    ``checkpoint`` persists a JSON-able dict immediately (outside any transaction) and
    renews the item's lease; after a crash the next attempt receives it as ``resume``,
    so a half-played game continues without repeating a turn.
    """

    generate: Generate
    checkpoint: Callable[[dict[str, Any]], None] = lambda state: None
    resume: dict[str, Any] | None = None
    is_cancelled: Callable[[], bool] = lambda: False
    resolve_model: Callable[[str], ModelConfig] | None = None
    judge: ModelConfig | None = None
    # the named details fields of this run's items that have finished so far, one dict per
    # item (for adaptive designs, such as the chess ladder choosing the next opponent)
    finished: Callable[[Sequence[str]], list[dict[str, Any]]] | None = None

    def check_cancelled(self) -> None:
        if self.is_cancelled():
            raise JobCancelled("job was cancelled")


@dataclass
class ItemOutcome:
    """One graded unit. ``score`` is the headline number the family aggregates."""

    score: float | None
    scores: dict[str, Any] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)
    transcript: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class StoredOutcome:
    """An item outcome as read back from the database for aggregation."""

    key: str
    sample_index: int
    state: Literal["done", "failed"]
    score: float | None
    scores: Mapping[str, Any]
    details: Mapping[str, Any]


class RunMetrics(TypedDict):
    """What every family's Run.metrics holds; each family extends it with a TypedDict of its own
    (evaluators/<family>/metrics.py, named in the registry), the contract between its aggregate
    and every reader."""

    score: float | None  # the headline, in the family's own unit
    score_se: float | None  # its standard error (None when it cannot be measured)
    n_items: int
    n_failed: int


class FamilyEvaluator(Protocol):
    family: str  # the registry slug

    def validate_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """Return a normalised config or raise ConfigError naming the bad field."""

    def items(self, config: Mapping[str, Any], *, samples: int) -> list[ItemKey]:
        """Every item of one run, in a stable order."""

    def spec(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """Benchmark version, prompt template hash, grader version: stored on every run."""

    def evaluate(
        self, *, config: Mapping[str, Any], model: ModelConfig, item: ItemKey, ctx: EvalContext
    ) -> ItemOutcome:
        """Evaluate one item. Raise EvaluationError for a failure worth recording."""

    def aggregate(
        self, *, config: Mapping[str, Any], outcomes: Sequence[StoredOutcome]
    ) -> dict[str, Any]:
        """Run-level metrics (JSON-able), each headline number with its uncertainty."""


def stable_hash(obj: Any) -> str:
    """sha256 of a canonical JSON form; used for prompt-template and request hashes."""
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()
