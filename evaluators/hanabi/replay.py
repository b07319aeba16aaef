"""Frames of a stored Hanabi game for the replay viewer.

A game is fully described by (seed, players, moves) (games.hanabi.HanabiGame.replay), so the
viewer rebuilds every state from the item's details rather than storing 80 snapshots. The
per-move records of details["moves"] are evaluators.hanabi TurnRecord dicts (turn, seat, agent,
move, move_index, fallback, rule, raw_replies, errors, reason, regret) or plain HLE strings.
"""

from __future__ import annotations

from typing import Any

MOVE_KEYS = ("move", "action", "hle", "applied")
MAX_ATTEMPTS = 10  # reply attempts shown per turn (re-asks)


class ReplayError(ValueError):
    """The stored details do not describe a replayable game."""


def _move_text(record: Any) -> str:
    if isinstance(record, str):
        return record
    if isinstance(record, dict):
        for key in MOVE_KEYS:
            if isinstance(record.get(key), str):
                return record[key]
    raise ReplayError(f"move record has none of {MOVE_KEYS}: {str(record)[:120]!r}")


def _text(value: Any, limit: int = 20000) -> str:
    if value is None:
        return ""
    text = value if isinstance(value, str) else str(value)
    return text if len(text) <= limit else text[:limit] + " … [truncated]"


def game_frames(details: dict[str, Any]) -> dict[str, Any]:
    """{"players", "seat_models", "frames": [...]} where frame i is the state before move i
    (and the last frame the final state). Everything is plain data; the page escapes it."""
    from games.hanabi.cards import COLOURS, card_name
    from games.hanabi.state import HanabiGame

    moves = details.get("moves")
    if not isinstance(moves, list):
        raise ReplayError("details has no list of moves")
    try:
        seed = int(details["seed"])
        players = int(details.get("players") or details["num_players"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"details lacks seed/players: {exc}") from exc
    seat_models = [str(m) for m in details.get("seat_models") or []]
    game = HanabiGame(seed, players)
    frames: list[dict[str, Any]] = []

    def snapshot() -> dict[str, Any]:
        return {
            "turn": game.turn,
            "current": game.current_player if not game.is_terminal() else None,
            "hands": [
                {
                    "seat": seat,
                    "model": seat_models[seat] if seat < len(seat_models) else "",
                    "cards": [card_name(c) for c in game.hands[seat]],
                    "knows": [k.hinted_text() for k in game.knowledge[seat]],
                }
                for seat in range(players)
            ],
            "fireworks": {COLOURS[i]: n for i, n in enumerate(game.fireworks)},
            "info_tokens": game.info_tokens,
            "lives": game.lives,
            "deck": game.deck_size,
            "discards": [card_name(c) for c in game.discards],
            # the HLE score (0 once the last life is lost) is the headline; the fireworks
            # total (cards kept on a bomb-out) is shown next to it
            "score": game.hle_score,
            "fireworks_total": game.fireworks_score,
        }

    for index, record in enumerate(moves):
        text = _move_text(record)
        frame = snapshot()
        try:
            applied = game.apply(text)
        except ValueError as exc:
            raise ReplayError(f"move {index} {text!r} does not replay: {exc}") from exc
        info = record if isinstance(record, dict) else {}
        raw_replies = info.get("raw_replies")
        replies: list[Any] = []
        if isinstance(raw_replies, list):
            replies = raw_replies
        elif info.get("reply") or info.get("raw"):
            replies = [info.get("reply") or info.get("raw")]
        errors: list[Any] = info["errors"] if isinstance(info.get("errors"), list) else []
        parsed = info.get("parsed") or info.get("parsed_move")
        if not parsed and info.get("move_index") is not None:
            parsed = f"legal move #{info['move_index']}: {text}"
        stored_regret = info.get("regret")
        regret, regret_se = stored_regret, None
        if isinstance(stored_regret, dict):
            regret, regret_se = stored_regret.get("regret"), stored_regret.get("regret_se")
        frame["move"] = {
            "text": text,
            "describe": applied.describe(),
            "seat": applied.player,
            "agent": _text(info.get("agent"), 200),
            "rule": _text(info.get("rule"), 200),
            "reason": _text(info.get("reason")),
            "replies": [_text(r) for r in replies[:MAX_ATTEMPTS]],
            "errors": [_text(e, 2000) for e in errors[:MAX_ATTEMPTS]],
            "parsed": _text(parsed),
            "fallback": bool(info.get("fallback")),
            "fallback_reason": _text(
                info.get("fallback_rule")
                or info.get("fallback_reason")
                or ("; ".join(map(str, errors)) if info.get("fallback") else "")
            ),
            "regret": regret if isinstance(regret, (int, float)) else None,
            "regret_se": regret_se if isinstance(regret_se, (int, float)) else None,
        }
        frames.append(frame)
    final = snapshot()
    final["move"] = None
    final["end"] = game.end_reason()
    frames.append(final)
    return {"players": players, "seat_models": seat_models, "seed": seed, "frames": frames}
