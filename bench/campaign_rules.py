"""Replies of the fake provider for bench/campaign.py (loaded by tests.fakes.openai_server with
``--rule bench.campaign_rules:reply``), configured from the environment:

    CAMPAIGN_LATENCY   mean seconds per reply (default 5)
    CAMPAIGN_SIGMA     sigma of the log-normal latency (default 0.25; 0 = constant)
    CAMPAIGN_RPM       requests per minute the provider accepts; beyond it a 429 with
                       Retry-After (default 0 = no limit)
    CAMPAIGN_SEED      seed of the latency draws

Latency is log-normal with mean CAMPAIGN_LATENCY: mu = ln(L) - sigma^2 / 2. Each reply is a
well-formed answer for the family that asked: a legal chess move, a legal Hanabi move in the
prompt setting's format, a boxed answer for a physics problem, so the platform does its real
per-item work (parsing, grading, engine scoring, game steps).
"""

from __future__ import annotations

import collections
import json
import math
import os
import random
import re
import threading
import time

import chess

from tests.fakes.openai_server import Reply

MEAN = float(os.environ.get("CAMPAIGN_LATENCY", "5"))
SIGMA = float(os.environ.get("CAMPAIGN_SIGMA", "0.25"))
RPM = int(os.environ.get("CAMPAIGN_RPM", "0"))
_MU = math.log(MEAN) - SIGMA**2 / 2 if MEAN > 0 else 0.0
_rng = random.Random(int(os.environ.get("CAMPAIGN_SEED", "2025")))
_accepted: collections.deque[float] = collections.deque()
_lock = threading.Lock()

FEN = re.compile(r"Position \(FEN\): (.+)")
LEGAL = re.compile(r"^(\d+)\. \((\w+)", re.MULTILINE)
TURN = re.compile(r"Turn (\d+)\.")


def _latency() -> float:
    if MEAN <= 0:
        return 0.0
    return MEAN if SIGMA <= 0 else _rng.lognormvariate(_MU, SIGMA)


def _over_limit() -> float | None:
    """Seconds until the window has room, when the provider's rpm is used up; else None (and
    the request is counted)."""
    if RPM <= 0:
        return None
    now = time.monotonic()
    with _lock:
        while _accepted and now - _accepted[0] >= 60.0:
            _accepted.popleft()
        if len(_accepted) >= RPM:
            return 60.0 - (now - _accepted[0])
        _accepted.append(now)
    return None


def _text(request: dict, index: int) -> str:
    content = request["messages"][index].get("content", "")
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
    return str(content)


def _chess(fen: str) -> str:
    board = chess.Board(fen.strip())
    move = min(board.legal_moves, key=lambda m: m.uci())
    return f"I consider the position carefully.\nFinal answer: {move.uci()}"


def _hanabi(system: str, prompt: str) -> str:
    kinds = {k: int(i) for i, k in reversed(LEGAL.findall(prompt))}
    idx = kinds.get("Reveal", kinds.get("Discard", kinds.get("Play", 0)))
    if "MOVE: <number>" in system:
        return f"A hint keeps options open.\nMOVE: {idx}"
    return json.dumps(
        {"deductions": {"P0": []}, "reason": "hint", "move_ratings": {str(idx): 6}, "action": idx}
    )


def reply(request: dict) -> Reply:
    wait = _over_limit()
    if wait is not None:
        return Reply(fault="rate_limit", retry_after=f"{max(wait, 0.05):.2f}")
    messages = request.get("messages") or []
    last_user = _text(request, len(messages) - 1) if messages else ""
    first_user = _text(request, 1) if len(messages) > 1 else last_user
    fen = FEN.search(first_user)
    if fen:
        text = _chess(fen.group(1))
    elif TURN.search(first_user) and LEGAL.search(first_user):
        text = _hanabi(_text(request, 0), first_user)
    else:
        # a different number each time, as real samples differ: the grader parses every reply
        text = (
            "Working through the physics step by step, the result is "
            f"\\boxed{{{_rng.randint(2, 999)}.{_rng.randint(0, 99)}}}."
        )
    return Reply(text=text, latency=_latency())
