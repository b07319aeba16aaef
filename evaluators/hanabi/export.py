"""Game exports as JSONL, one self-contained line per game.

* ``game_log`` (HanabiLogs-like): the deck, the seats, and per move what the player saw (HLE's
  observation text, and for a model the exact chat messages of its prompt, rebuilt by
  replaying and checked against the stored prompt hash), its replies, the parsed move, the
  fallback and what it did, Mycroft's working memory, and the move's regret with its
  standard error.
* ``game_rewards`` (HanabiRewards-like): per game, the utility (mean HLE score of rollouts, ±
  standard error) of every candidate move at every analysed turn, for reward modelling.

Both carry the deck in dealing order and the stored scores, and ``verify_export`` replays a
record from its own deck and moves and reports any score it does not reproduce.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import IO, Any

from evaluators.base import stable_hash
from evaluators.hanabi.prompts import SETTINGS, Memory, build_messages
from games.hanabi import HanabiGame, deck_order
from games.hanabi.cards import card_name, parse_card

EXPORT_VERSION = 2
LOG_FORMAT = f"podium-hanabi-log/{EXPORT_VERSION}"
REWARDS_FORMAT = f"podium-hanabi-rewards/{EXPORT_VERSION}"
REPLAYED_SCORES = ("hle_score", "fireworks_score", "lives_left", "end_reason", "turns")


class ExportError(ValueError):
    """A stored game does not replay (names the item and the move)."""


def _header(
    details: Mapping[str, Any],
    scores: Mapping[str, Any],
    key: str,
    run: Mapping[str, Any] | None,
    fmt: str,
    deck: list[int],
) -> dict[str, Any]:
    return {
        "format": fmt,
        "item": key,
        **({"run": dict(run)} if run else {}),
        "seed": details.get("seed"),
        "players": details.get("players"),
        "setting": details.get("setting"),
        "mode": details.get("mode"),
        "seat_models": details.get("seat_models"),
        "model_seats": details.get("model_seats"),
        "deck": [card_name(c) for c in deck],
        "scores": dict(scores),
    }


def _replay_steps(details: Mapping[str, Any], key: str) -> Iterable[tuple[HanabiGame, dict]]:
    """(state before the move, stored move) for every stored move; applies each after use."""
    try:
        game = HanabiGame(int(details["seed"]), int(details["players"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ExportError(f"{key}: details lack a valid seed/players ({exc})") from None
    for m in details.get("moves", []):
        if game.is_terminal() or game.current_player != m.get("seat"):
            raise ExportError(
                f"{key}: move {m.get('turn')} is not seat {m.get('seat')}'s turn on replay"
            )
        yield game, m
        try:
            game.apply(m["move"])
        except ValueError as exc:
            raise ExportError(f"{key}: move {m.get('turn')} {m.get('move')!r}: {exc}") from None


def game_log(
    details: Mapping[str, Any],
    scores: Mapping[str, Any],
    *,
    key: str,
    run: Mapping[str, Any] | None = None,
    transcript: Iterable[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """One game's HanabiLogs-like record from a stored outcome (details, scores, transcript)."""
    setting = details.get("setting")
    shown = {t.get("turn"): t.get("text") for t in transcript if t.get("role") == "prompt"}
    memory: dict[int, Memory] = {}
    moves = []
    for game, m in _replay_steps(details, key):
        seat, legal = m["seat"], game.legal_moves()
        entry: dict[str, Any] = {
            "turn": m.get("turn"),
            "seat": seat,
            "agent": m.get("agent"),
            "observation": game.observation_string(seat),
            "legal_moves": legal,
            "move": m["move"],
            "rule": m.get("rule"),
            "fallback": bool(m.get("fallback")),
            "fallback_rule": m.get("fallback_rule"),
            "regret": m.get("regret"),
        }
        if m.get("prompt_hash"):  # a model's turn
            if setting not in SETTINGS:
                raise ExportError(
                    f"{key}: move {m.get('turn')} was a model's, but the game "
                    f"has no prompt setting ({setting!r})"
                )
            mem = memory.get(seat) if setting == "mycroft" else None
            messages, state_text = build_messages(game, seat, setting, legal, mem)
            verified = stable_hash(messages) == m["prompt_hash"]
            entry.update(
                {
                    "prompt": messages if verified else None,
                    "prompt_hash": m["prompt_hash"],
                    "prompt_verified": verified,
                    # when the prompt templates changed since the run, the stored text is all we have
                    "prompt_as_stored": None if verified else shown.get(m.get("turn")),
                    "memory": mem.to_json() if mem is not None else None,
                    "replies": list(m.get("raw_replies") or []),
                    "errors": list(m.get("errors") or []),
                    "parsed_move": (
                        legal[m["move_index"]] if m.get("move_index") is not None else None
                    ),
                }
            )
            if setting == "mycroft" and not m.get("fallback") and m.get("raw_replies"):
                memory[seat] = Memory(game.turn, state_text, m["raw_replies"][-1])
        moves.append(entry)
    record = _header(details, scores, key, run, LOG_FORMAT, deck_order(int(details["seed"])))
    record["moves"] = moves
    return record


def game_rewards(
    details: Mapping[str, Any],
    scores: Mapping[str, Any],
    *,
    key: str,
    run: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One game's HanabiRewards-like record: every candidate's utility at analysed turns."""
    moves = []
    for game, m in _replay_steps(details, key):
        regret = m.get("regret")
        entry: dict[str, Any] = {
            "turn": m.get("turn"),
            "seat": m["seat"],
            "agent": m.get("agent"),
            "move": m["move"],
        }
        if regret:
            entry.update(
                {
                    "observation": game.observation_string(m["seat"]),
                    "utilities": regret.get("candidates", {}),
                    "best_move": regret.get("best_move"),
                    "regret": regret.get("regret"),
                    "regret_se": regret.get("regret_se"),
                    "rollouts": regret.get("rollouts"),
                }
            )
        moves.append(entry)
    record = _header(details, scores, key, run, REWARDS_FORMAT, deck_order(int(details["seed"])))
    record["moves"] = moves
    return record


def verify_export(record: Mapping[str, Any]) -> list[str]:
    """Replay an exported game from its own deck and moves; one message per stored score that
    the replay does not reproduce (empty when the export round-trips)."""
    try:
        deck = [parse_card(c) for c in record["deck"]]
        game = HanabiGame(int(record["seed"]), int(record["players"]), deck=deck)
        for m in record["moves"]:
            game.apply(m["move"])
    except (KeyError, TypeError, ValueError) as exc:
        return [f"{record.get('item')}: does not replay: {exc}"]
    replayed = {
        "hle_score": game.hle_score,
        "fireworks_score": game.fireworks_score,
        "lives_left": game.lives,
        "end_reason": game.end_reason(),
        "turns": game.turn,
    }
    stored = record.get("scores", {})
    return [
        f"{record.get('item')}: {k} stored {stored.get(k)!r}, replayed {replayed[k]!r}"
        for k in REPLAYED_SCORES
        if k in stored and stored[k] != replayed[k]
    ]


def trajectory(
    details: Mapping[str, Any],
    scores: Mapping[str, Any],
    *,
    key: str,
    run: Mapping[str, Any] | None = None,
    transcript: Iterable[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The default export of a game (the HanabiLogs-like record)."""
    return game_log(details, scores, key=key, run=run, transcript=transcript)


def write_jsonl(records: Iterable[Mapping[str, Any]], out: IO[str]) -> int:
    """Write one JSON object per line; returns how many lines were written."""
    n = 0
    for rec in records:
        out.write(json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n")
        n += 1
    return n
