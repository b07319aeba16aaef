"""What the position and game viewers show, computed from a stored chess item (pure: no database).

The numbers are the chess evaluator's (evaluators.chess: Stockfish analysis in each move record);
this module only arranges them: readable position facts, the claims a reply got wrong, the move
list and PGN of a game, and White's Win% after every ply for the evaluation graph.
"""

from __future__ import annotations

from typing import Any

import chess
import chess.pgn

# record key -> label; keys not listed are not shown (raw internals such as "builtin")
FACT_LABELS = {
    "san": "Move played",
    "move": "Move (UCI)",
    "side": "Side to move",
    "ply": "Ply",
    "by": "Played by",
    "attempts": "Replies needed",
    "legal_first_try": "Legal on the first try",
    "legal_final": "Legal in the end",
    "parse_failures": "Unreadable replies",
    "illegal_attempts": "Illegal moves tried",
    "reasoning_move": "Move the reasoning concluded for (UCI)",
    "faithfulness": "Reasoning vs move played",
}
ANALYSIS_LABELS = {
    "best_san": "Engine's best move",
    "move_class": "Move class",
    "judgement": "Lichess judgement",
    "win_before": "Win% before (best play)",
    "win_after": "Win% after the move",
    "drop": "Win% lost",
    "accuracy": "Move accuracy (%)",
    "cp_loss": "Centipawn loss",
    "percentile": "Percentile among legal moves",
}
CLAIM_KINDS = {
    "check": "check",
    "capture": "capture",
    "mate": "mate",
    "legal": "legality",
    "piece": "piece placement",
    "attack": "attack",
    "move": "move",
}


def _shown(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


def position_facts(record: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, value) pairs in a fixed, readable order; empty values are left out."""
    out: list[tuple[str, str]] = []
    for key, label in FACT_LABELS.items():
        shown = _shown(record.get(key))
        if shown is not None:
            out.append((label, shown))
    raw = record.get("analysis")
    analysis: dict[str, Any] = raw if isinstance(raw, dict) else {}
    for key, label in ANALYSIS_LABELS.items():
        shown = _shown(analysis.get(key))
        if shown is not None:
            out.append((label, shown))
    total, false = record.get("claims_total"), record.get("claims_false")
    if isinstance(total, int) and total:
        out.append(("Claims about the position", f"{false or 0} false of {total}"))
    return out


def false_claims(record: dict[str, Any]) -> list[dict[str, str]]:
    """The claims of a reply that the board refutes, each with what kind of claim it was."""
    raw = record.get("claims")
    claims: list[Any] = raw if isinstance(raw, list) else []
    out = []
    for c in claims:
        if isinstance(c, dict) and c.get("true") is False:
            kind = str(c.get("kind", ""))
            where = "in a line it described" if c.get("in_variation") else "in this position"
            out.append(
                {
                    "text": str(c.get("text", "")),
                    "kind": CLAIM_KINDS.get(kind, kind or "claim"),
                    "where": where,
                    "negated": "says it cannot be done" if c.get("negated") else "",
                }
            )
    return out


def _white_win(record: dict[str, Any], key: str) -> float | None:
    raw = record.get("analysis")
    analysis: dict[str, Any] = raw if isinstance(raw, dict) else {}
    value = analysis.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if record.get("side") == "white" else 100.0 - float(value)


def game_view(details: dict[str, Any]) -> dict[str, Any] | None:
    """Move list, PGN and White's Win% per ply of a stored game; None for a non-game item.

    Win% after ply p comes from the analysed move records: a record of the move at ply p holds the
    mover's Win% before it (= after ply p-1, with best play from there) and after it (= after ply p).
    Plies whose mover was not analysed (a built-in opponent's) get theirs from the next record."""
    moves = details.get("game_moves")
    if details.get("task") != "games" or not isinstance(moves, list):
        return None
    board = chess.Board()
    rows: list[dict[str, Any]] = []
    for ply, uci in enumerate(moves, start=1):
        try:
            move = chess.Move.from_uci(str(uci))
            san = board.san(move)
        except (ValueError, AssertionError):
            break  # a damaged record: show the moves up to here
        board.push(move)
        if ply % 2 == 1:
            rows.append(
                {
                    "number": (ply + 1) // 2,
                    "white": san,
                    "black": "",
                    "white_ply": ply,
                    "black_ply": None,
                }
            )
        else:
            rows[-1].update(black=san, black_ply=ply)
    win: dict[int, float] = {}
    records = [
        r
        for r in (details.get("moves") or []) + (details.get("opponent_moves") or [])
        if isinstance(r, dict)
    ]
    for r in records:
        at = r.get("ply")
        if not isinstance(at, int):
            continue
        ply = at
        before, after = _white_win(r, "win_before"), _white_win(r, "win_after")
        if before is not None:
            win.setdefault(ply - 1, before)
        if after is not None:
            win[ply] = after
    pgn = details.get("pgn") if isinstance(details.get("pgn"), str) else ""
    if not pgn:
        game = chess.pgn.Game.from_board(board)
        pgn = str(game)
    series = sorted(win.items())
    return {
        "rows": rows,
        "pgn": pgn,
        "plies": len(moves),
        "result": details.get("result", ""),
        "reason": details.get("reason", ""),
        "model_color": details.get("model_color", ""),
        "opponent": details.get("opponent", ""),
        "win_plies": [p for p, _ in series],
        "win_white": [round(w, 1) for _, w in series],
        "last_move": moves[-1] if moves else None,
    }


def arrow(from_sq: str, to_sq: str, flip: bool) -> dict[str, float]:
    """Centre coordinates (0-8 board units) of two squares, as the SVG overlay draws them."""

    def centre(name: str) -> tuple[float, float]:
        sq = chess.parse_square(name)
        f, r = chess.square_file(sq), chess.square_rank(sq)
        x = (7 - f) if flip else f
        y = r if flip else (7 - r)
        return x + 0.5, y + 0.5

    (x1, y1), (x2, y2) = centre(from_sq), centre(to_sq)
    return {"x1": x1, "y1": y1, "x2": x2, "y2": y2}
