"""Nim, the test-only family's game: heaps of objects; a move takes one or more objects from one
heap; whoever takes the last object wins (normal play). Bouton's theorem (1901): the player to
move loses against best play exactly when the XOR of the heap sizes (the nim-sum) is 0, and
otherwise wins by moving to a position of nim-sum 0."""

from __future__ import annotations

import random
import re
from functools import reduce

Heaps = tuple[int, ...]
Move = tuple[int, int]  # (heap index, objects taken)

_MOVE_RE = re.compile(r"take\s+(\d+)\s+from\s+heap\s+(\d+)", re.IGNORECASE)


class IllegalMoveError(ValueError):
    """A move that the position does not allow, or a reply naming no move."""


def nim_sum(heaps: Heaps) -> int:
    return reduce(lambda a, b: a ^ b, heaps, 0)


def legal_moves(heaps: Heaps) -> list[Move]:
    return [(i, n) for i, h in enumerate(heaps) for n in range(1, h + 1)]


def apply(heaps: Heaps, move: Move) -> Heaps:
    i, n = move
    if not (0 <= i < len(heaps)) or not (1 <= n <= heaps[i]):
        raise IllegalMoveError(f"cannot take {n} from heap {i + 1} of {list(heaps)}")
    return heaps[:i] + (heaps[i] - n,) + heaps[i + 1 :]


def optimal_move(heaps: Heaps, rng: random.Random) -> Move:
    """Bouton's winning move when there is one; otherwise a random legal move."""
    s = nim_sum(heaps)
    if s:
        for i, h in enumerate(heaps):
            if h ^ s < h:
                return i, h - (h ^ s)
    return random_move(heaps, rng)


def random_move(heaps: Heaps, rng: random.Random) -> Move:
    return rng.choice(legal_moves(heaps))


def parse_move(text: str) -> Move:
    """The last "take N from heap K" in a reply (heaps numbered from 1)."""
    found = _MOVE_RE.findall(text or "")
    if not found:
        raise IllegalMoveError("the reply names no move of the form 'take N from heap K'")
    n, k = found[-1]
    return int(k) - 1, int(n)


def start_position(seed: int, *, heaps: int, max_heap: int) -> Heaps:
    rng = random.Random(seed)
    return tuple(rng.randint(1, max_heap) for _ in range(heaps))
