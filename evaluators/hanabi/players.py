"""One turn of one seat: a bot's decision, or a model asked (and re-asked) for a move.

Every turn yields a ``TurnRecord`` (JSON-able) that the game stores in its checkpoint and
its details, so a resumed game knows every earlier turn without asking again.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from evaluators.base import Completion, EvalContext, Message, ModelConfig, stable_hash
from evaluators.hanabi.parsing import UnparseableReplyError, parse_reply
from evaluators.hanabi.prompts import Memory, Setting, build_messages
from games.hanabi import HanabiGame
from games.hanabi.bots import make_bot
from games.hanabi.bots.rules import TELL_ANYONE_ABOUT_USEFUL_CARD
from games.hanabi.bots.view import BotView

REPLY_LIMIT = 100_000  # characters of a raw reply kept in stored records
PROMPT_LIMIT = 20_000  # characters of a prompt kept in the transcript


@dataclass
class TurnRecord:
    turn: int
    seat: int
    agent: str  # model slug
    move: str
    move_index: int | None  # index into the legal moves (None for bots)
    fallback: bool = False
    fallback_rule: str | None = None  # what the fallback actually did (policy: move kind)
    rule: str | None = None  # bots: the rule that fired
    prompt_hash: str | None = None
    raw_replies: list[str] = field(default_factory=list)  # every attempt, bounded
    errors: list[str] = field(default_factory=list)  # why each rejected reply was rejected
    reason: str | None = None  # the model's stated reason, when it gave one
    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float = 0.0
    cost_unknown: int = 0
    latency_s: float = 0.0
    calls: int = 0

    @property
    def invalid_replies(self) -> int:
        return len(self.errors)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TurnRecord:
        return cls(**data)


def fallback_move(
    game: HanabiGame, legal: list[str], policy: str, rng: random.Random
) -> tuple[str, str]:
    """The move applied when a model gave no usable answer, and what it was.

    Always one of ``legal``, and never a blind play unless nothing else is legal (a play
    of an unknown card can cost a life; a discard or a hint never does):

    * ``discard_oldest``: discard the oldest card; when discarding is illegal (eight hint
      tokens), a hint: the one IGGI would give about a playable card
      (``TellAnyoneAboutUsefulCard``), else the first legal hint;
    * ``first_legal``: the first legal discard or hint in OpenSpiel's order;
    * ``random_legal``: a uniformly random legal discard or hint;

    and, only when no discard or hint is legal, the oldest card is played.
    """
    discards = [m for m in legal if m.startswith("(Discard")]
    hints = [m for m in legal if m.startswith("(Reveal")]
    if policy == "discard_oldest":
        if "(Discard 0)" in legal:
            return "(Discard 0)", "discard the oldest card"
        if hints:
            useful = TELL_ANYONE_ABOUT_USEFUL_CARD(BotView(game, rng))
            if useful is not None:
                return useful, "hint about a playable card (discarding is not legal)"
            return hints[0], "first legal hint (discarding is not legal)"
    elif policy == "random_legal" and (discards or hints):
        return rng.choice(discards + hints), "random legal discard or hint"
    elif policy == "first_legal" and (discards or hints):
        first = next(m for m in legal if m in discards or m in hints)
        return first, "first legal discard or hint"
    if discards or hints:  # discard_oldest with no hint either: any discard will do
        return (discards + hints)[0], "first legal discard or hint"
    plays = [m for m in legal if m.startswith("(Play")]
    return (plays or legal)[0], "play the oldest card (no discard or hint is legal)"


def bot_turn(game: HanabiGame, seat: int, agent: ModelConfig, seed: int) -> TurnRecord:
    # a fresh RNG per turn keeps a resumed game identical to an uninterrupted one
    bot = make_bot(agent.builtin_name, seed=seed, seat=seat, stream=f"turn-{game.turn}")
    decision = bot.decide(game)
    return TurnRecord(game.turn, seat, agent.slug, decision.move, None, rule=decision.rule)


def llm_turn(
    game: HanabiGame,
    seat: int,
    agent: ModelConfig,
    *,
    setting: Setting,
    memory: Memory | None,
    ctx: EvalContext,
    sample_index: int,
    fallback: str,
    max_reasks: int,
    transcript: list[dict[str, Any]],
    max_reply_tokens: int | None = None,
) -> tuple[TurnRecord, Memory | None]:
    """Ask ``agent`` for a move; re-ask with the error shown; fall back after ``max_reasks``."""
    legal = game.legal_moves()
    messages, state_text = build_messages(game, seat, setting, legal, memory)
    record = TurnRecord(game.turn, seat, agent.slug, "", None, prompt_hash=stable_hash(messages))
    transcript.append(
        {
            "role": "prompt",
            "turn": game.turn,
            "seat": seat,
            "agent": agent.slug,
            "prompt_hash": record.prompt_hash,
            "text": messages[-1]["content"][:PROMPT_LIMIT],
        }
    )
    params = {"max_tokens": max_reply_tokens} if max_reply_tokens else None
    conversation: list[Message] = list(messages)
    for attempt in range(max_reasks + 1):
        ctx.check_cancelled()
        completion: Completion = ctx.generate(
            conversation, model=agent, sample_index=sample_index, purpose="model", params=params
        )
        _count(record, completion)
        text = completion.text or ""
        record.raw_replies.append(text[:REPLY_LIMIT])
        transcript.append(
            {
                "role": "reply",
                "turn": game.turn,
                "seat": seat,
                "attempt": attempt,
                "text": text[:REPLY_LIMIT],
                "cached": completion.cached,
            }
        )
        try:
            parsed = parse_reply(text, len(legal), expect_json=setting != "watson")
        except UnparseableReplyError as exc:
            record.errors.append(str(exc))
            transcript.append({"role": "error", "turn": game.turn, "seat": seat, "text": str(exc)})
            conversation = [
                *conversation,
                {"role": "assistant", "content": text[:REPLY_LIMIT]},
                {"role": "user", "content": _reask(str(exc), len(legal))},
            ]
            continue
        record.move_index = parsed.index
        record.move = legal[parsed.index]
        if parsed.data is not None and isinstance(parsed.data.get("reason"), str):
            record.reason = parsed.data["reason"][:2000]
        transcript.append(
            {
                "role": "parsed",
                "turn": game.turn,
                "seat": seat,
                "text": f"{parsed.index}. {record.move}",
                "move": record.move,
            }
        )
        new_memory = (
            Memory(game.turn, state_text, text[:REPLY_LIMIT]) if setting == "mycroft" else None
        )
        return record, new_memory
    rng = random.Random(f"podium-hanabi-fallback/{game.seed}/{game.turn}")
    record.move, taken = fallback_move(game, legal, fallback, rng)
    record.fallback = True
    record.fallback_rule = f"{fallback}: {taken}"
    transcript.append(
        {
            "role": "parsed",
            "turn": game.turn,
            "seat": seat,
            "fallback": True,
            "text": f"fallback ({record.fallback_rule}): {record.move}",
            "move": record.move,
        }
    )
    # a failed turn leaves the memory as it was: there is no usable reply to remember
    return record, memory


def _reask(error: str, n_legal: int) -> str:
    from evaluators.hanabi.prompts import REASK

    return REASK.format(error=error, last=n_legal - 1)


def _count(record: TurnRecord, completion: Completion) -> None:
    record.calls += 1
    record.input_tokens += completion.input_tokens
    record.output_tokens += completion.output_tokens
    record.reasoning_tokens += completion.reasoning_tokens
    if completion.cost_usd is None:
        record.cost_unknown += 1
    else:
        record.cost_usd += completion.cost_usd
    record.latency_s += completion.latency_s
