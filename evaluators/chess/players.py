"""Who picks the move: a language model (through ctx.generate, with rethinks) or a builtin.

A model gets up to ``rethinks`` more tries after an unparseable or illegal answer, each time
shown the error. The returned ``Decision`` records legality at the first try and at the end,
parse failures apart from illegal answers, and the claims its reasoning made.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import chess

from evaluators.base import EvalContext, Message, ModelConfig, stable_hash
from evaluators.chess.claims import Claim, extract_claims
from evaluators.chess.faithfulness import Faithfulness
from evaluators.chess.faithfulness import judge as judge_faithfulness
from evaluators.chess.prompts import AnswerError, bounded, rethink_message, split_reply
from games.chess.analysis import Analyzer

T = TypeVar("T")
MAX_RETHINKS = 3
MAX_CLAIMS_STORED = 60
FULL_STRENGTH = "stockfish"
ELO_LEVELS = (
    1350,
    1800,
    1900,
    2000,
    2100,
    2200,
    2600,
)  # 1900-2100 bridge the gaps measured between 1800 and 2200
BUILTINS: dict[str, str] = {
    "random": "Random legal move",
    **{f"stockfish-elo-{e}": f"Stockfish at Elo {e}" for e in ELO_LEVELS},
    FULL_STRENGTH: "Stockfish (full strength)",
}


class UnknownPlayerError(ValueError):
    pass


@dataclass
class Decision(Generic[T]):
    answer: T | None  # None: no usable answer after every rethink
    attempts: int = 0
    parse_failures: int = 0
    illegal_attempts: int = 0
    first_ok: bool = False
    errors: list[dict[str, Any]] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    builtin: bool = False
    faithfulness: Faithfulness | None = None  # of the accepted reply, for single-move answers

    @property
    def ok(self) -> bool:
        return self.answer is not None

    def record(self) -> dict[str, Any]:
        false = sum(1 for c in self.claims if not c.true)
        return {
            "attempts": self.attempts,
            "legal_first_try": self.first_ok,
            "legal_final": self.ok,
            "parse_failures": self.parse_failures,
            "illegal_attempts": self.illegal_attempts,
            "errors": self.errors,
            "claims_total": len(self.claims),
            "claims_false": false,
            "claims": [c.to_dict() for c in self.claims[:MAX_CLAIMS_STORED]],
            "reasoning_move": self.faithfulness.reasoning_move if self.faithfulness else None,
            "faithfulness": self.faithfulness.verdict if self.faithfulness else None,
        }


def ask_model(
    ctx: EvalContext,
    model: ModelConfig,
    messages: Sequence[Message],
    parse: Callable[[str], T],
    *,
    board: chess.Board,
    sample_index: int,
    rethinks: int,
    transcript: list[dict[str, Any]],
    label: str = "",
) -> Decision[T]:
    """Ask until the answer parses and is legal, at most 1 + ``rethinks`` times."""
    msgs = list(messages)
    transcript.append({"role": "prompt", "text": msgs[-1]["content"], "label": label})
    decision: Decision[T] = Decision(None)
    for attempt in range(1 + rethinks):
        ctx.check_cancelled()
        completion = ctx.generate(msgs, model=model, sample_index=sample_index)
        text = completion.text or ""
        decision.attempts += 1
        transcript.append(
            {
                "role": "reply",
                "text": bounded(text),
                "label": label,
                "attempt": attempt + 1,
                "cached": completion.cached,
            }
        )
        for claim in extract_claims(split_reply(text).reasoning, board):
            if claim not in decision.claims:  # a rethink repeating a claim does not count twice
                decision.claims.append(claim)
        try:
            answer = parse(text)
        except AnswerError as exc:
            if exc.kind == "unparseable":
                decision.parse_failures += 1
            else:
                decision.illegal_attempts += 1
            decision.errors.append(
                {
                    "attempt": attempt + 1,
                    "kind": exc.kind,
                    "answer": exc.answer,
                    "message": str(exc),
                }
            )
            transcript.append({"role": "parsed", "text": f"{exc.kind}: {exc}", "label": label})
            msgs = msgs + [
                {"role": "assistant", "content": bounded(text)},
                rethink_message(exc.answer, str(exc)),
            ]
            if attempt < rethinks:
                transcript.append({"role": "prompt", "text": msgs[-1]["content"], "label": label})
            continue
        decision.answer = answer
        decision.first_ok = attempt == 0
        played = (
            answer.uci()
            if isinstance(answer, chess.Move)
            else answer
            if isinstance(answer, str)
            else None
        )
        if (
            played is not None
        ):  # the move the accepted reply's reasoning argued for, against the one played
            decision.faithfulness = judge_faithfulness(split_reply(text).reasoning, board, played)
        transcript.append({"role": "parsed", "text": _show(answer), "label": label})
        break
    return decision


def _show(answer: Any) -> str:
    if isinstance(answer, chess.Move):
        return answer.uci()
    if isinstance(answer, (set, frozenset)):
        return ", ".join(sorted(answer)) or "(none)"
    return str(answer)


def builtin_decision(answer: T) -> Decision[T]:
    return Decision(answer, attempts=1, first_ok=True, builtin=True)


def builtin_rng(name: str, *parts: Any) -> random.Random:
    """A per-(player, item, sample, ply) random stream: re-runs repeat exactly."""
    return random.Random(stable_hash([name, *parts]))


def builtin_elo(name: str) -> int | None:
    if name.startswith("stockfish-elo-"):
        return int(name.removeprefix("stockfish-elo-"))
    return None


def check_builtin(name: str) -> None:
    if name not in BUILTINS:
        raise UnknownPlayerError(
            f"unknown chess builtin {name!r}; expected one of {sorted(BUILTINS)}"
        )


def builtin_move(
    name: str, board: chess.Board, analyzer: Analyzer, rng: random.Random
) -> chess.Move:
    check_builtin(name)
    if name == "random":
        return rng.choice(sorted(board.legal_moves, key=chess.Move.uci))
    if name == FULL_STRENGTH:
        best = analyzer.best(board).best_move  # the engine's choice at the analysis limit, cached
        assert best is not None
        return chess.Move.from_uci(best)
    return analyzer.engine.play(board, elo=builtin_elo(name), limit=analyzer.limit)


def builtin_choice(
    name: str,
    board: chess.Board,
    candidates: Sequence[str],
    analyzer: Analyzer,
    rng: random.Random,
    *,
    worst: bool,
) -> str:
    """A multiple-choice pick: random picks at random; Stockfish ranks the candidates by engine
    value (restricted searches), weakened levels pick like random one time in three."""
    check_builtin(name)
    if name == "random" or (builtin_elo(name) is not None and rng.random() < 1 / 3):
        return rng.choice(list(candidates))
    values = {c: analyzer.move_value(board, chess.Move.from_uci(c)).clamped_cp for c in candidates}
    pick = min if worst else max
    return pick(candidates, key=lambda c: (values[c], c))


def builtin_piece_moves(
    name: str, board: chess.Board, square: chess.Square, rng: random.Random
) -> set[str]:
    """Legal moves of one piece: Stockfish knows them exactly; random keeps each true move with
    probability 1/2 and adds one random wrong destination."""
    check_builtin(name)
    truth = {m.uci() for m in board.legal_moves if m.from_square == square}
    if name != "random":
        return truth
    guess = {m for m in sorted(truth) if rng.random() < 0.5}
    wrong = [
        chess.square_name(square) + chess.square_name(s)
        for s in chess.SQUARES
        if s != square and chess.square_name(square) + chess.square_name(s) not in truth
    ]
    if wrong:
        guess.add(rng.choice(wrong))
    return guess
