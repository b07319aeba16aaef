"""The schedule bound of bench/campaign.py: how long a job would take on a platform that costs
nothing, given the latencies the provider actually drew.

The issue's ideal, max(calls x mean latency / cap, chain x mean latency, calls / rpm), treats the
calls as a fluid: it ignores that the last round of calls ends with its slowest call. With a
log-normal latency (sigma 0.25) and 256 slots, 400 calls cannot finish before about 1.8 x the
ideal, whatever the platform does. The bound replays the drawn latencies through greedy list
scheduling on ``slots`` slots, with no overhead at all:

* calls are taken in arrival order (the order the fake server saw them), each as soon as it is
  ready and a slot is free (a free slot never idles while a call is ready);
* a chain (a Hanabi game: one call per turn) releases its next call when its previous one
  ends; independent calls (a HiPhO sample, a chess position) are chains of one.

Any platform that keeps ``slots`` calls in flight whenever it can, in that order, finishes no
sooner; ``ratio_vs_bound`` = bound / wall is then the share of the wall time that is the
provider's own, and 1 - ratio_vs_bound is what the platform adds.
"""

from __future__ import annotations

import heapq
from collections import defaultdict, deque
from collections.abc import Iterable, Sequence


def list_schedule(chains: Sequence[Sequence[float]], slots: int) -> float:
    """Makespan of greedy list scheduling: ``chains`` in priority order (their first calls'
    arrival order), each a sequence of call latencies that run one after another."""
    if slots < 1:
        raise ValueError(f"slots must be at least 1, got {slots}")
    for chain in chains:
        for latency in chain:
            if latency < 0:
                raise ValueError(f"a latency cannot be negative, got {latency}")
    # ready calls by (ready time, chain priority); free slots by the time they free up
    ready = [(0.0, i, 0) for i, chain in enumerate(chains) if chain]
    heapq.heapify(ready)
    free = [0.0] * slots
    end = 0.0
    while ready:
        at, i, k = heapq.heappop(ready)
        start = max(at, heapq.heappop(free))
        done = start + chains[i][k]
        heapq.heappush(free, done)
        end = max(end, done)
        if k + 1 < len(chains[i]):
            heapq.heappush(ready, (done, i, k + 1))
    return end


def chains_from_log(
    latencies: Sequence[float],
    fingerprints: Sequence[str],
    calls_by_chain: Iterable[Sequence[str]],
) -> tuple[list[list[float]], int]:
    """Rebuild the chains from the server's call log (latency and messages fingerprint of each
    call, in arrival order) and the platform's own record of which calls belong together
    (each chain: the fingerprints of its calls, in order).

    Identical requests (the samples of one problem) are matched in arrival order. A server call
    that no chain claims stays a chain of its own. Returns (chains in the arrival order of their
    first call, how many chain calls found no server call)."""
    if len(latencies) != len(fingerprints):
        raise ValueError("the call log's latencies and fingerprints differ in length")
    by_print: dict[str, deque[int]] = defaultdict(deque)
    for index, fp in enumerate(fingerprints):
        by_print[fp].append(index)
    claimed: set[int] = set()
    chains: list[tuple[int, list[float]]] = []
    missing = 0
    for chain in calls_by_chain:
        indices = []
        for fp in chain:
            if by_print[fp]:
                indices.append(by_print[fp].popleft())
            else:
                missing += 1
        if indices:
            claimed.update(indices)
            chains.append((min(indices), [latencies[i] for i in indices]))
    chains += [(i, [latencies[i]]) for i in range(len(latencies)) if i not in claimed]
    chains.sort(key=lambda c: c[0])
    return [c[1] for c in chains], missing
