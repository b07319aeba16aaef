"""Which models a family headline may rank against each other: only those that ran the same
benchmarks. Pure functions over (model, benchmark key, norm, se) tuples, so the rule is tested on
constructed cases and the overview and API can share it.

The rule (stated on the overview under the table):
1. A family's *common set* starts as every benchmark key that at least half of the family's
   rankable models ran (a HiPhO exam counts once, whether graded alone or inside a suite).
2. While fewer than two models ran the whole set, the key run by the fewest models is dropped
   (ties: the last in sort order), so a set that nobody completes shrinks to one that some do.
3. Models that ran every key of the set are ranked on their mean over exactly that set (the same
   mean and SE as the family headline, see summaries.mean_with_se), with rank intervals.
4. Every other model shows its coverage ("ran 1 of 13") and is not ranked.
5. The grader sanity check (the reference answers replayed through the grader) is never ranked:
   it measures the grader, not a model.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from leaderboard.ranks import rank_intervals
from leaderboard.summaries import mean_with_se


@dataclass(frozen=True)
class Point:
    model_id: int
    key: str
    norm: float
    norm_se: float | None


@dataclass
class FamilyRanking:
    common: list[str]  # the benchmark keys every ranked model ran
    scores: dict[int, tuple[float | None, float | None]] = field(
        default_factory=dict
    )  # ranked only
    ranks: dict[int, tuple[int, int] | None] = field(default_factory=dict)
    coverage: dict[int, int] = field(default_factory=dict)  # common keys each model ran
    own: dict[int, tuple[float | None, float | None]] = field(
        default_factory=dict
    )  # mean over what it ran
    excluded: set[int] = field(default_factory=set)  # sanity checks: shown, never ranked

    def ranked(self, model_id: int) -> bool:
        return model_id in self.scores


def common_keys(ran: dict[int, set[str]]) -> list[str]:
    """Rules 1 and 2 over {model: keys it ran}."""
    if not ran:
        return []
    counts: dict[str, int] = {}
    for keys in ran.values():
        for k in keys:
            counts[k] = counts.get(k, 0) + 1
    need = (len(ran) + 1) // 2
    common = sorted(k for k, c in counts.items() if c >= need)
    while common and sum(1 for keys in ran.values() if keys.issuperset(common)) < min(2, len(ran)):
        fewest = min(counts[k] for k in common)
        drop = [k for k in common if counts[k] == fewest][-1]
        common.remove(drop)
    return common


def rank_family(points: list[Point], sanity: set[int]) -> FamilyRanking:
    values: dict[int, dict[str, tuple[float, float | None]]] = {}
    for p in points:
        values.setdefault(p.model_id, {})[p.key] = (p.norm, p.norm_se)
    rankable = {m: set(v) for m, v in values.items() if m not in sanity}
    common = common_keys(rankable)
    out = FamilyRanking(common=common, excluded={m for m in values if m in sanity})
    for model_id, by_key in values.items():
        out.own[model_id] = mean_with_se(list(by_key.values()))
        out.coverage[model_id] = sum(1 for k in common if k in by_key)
        if common and model_id in rankable and rankable[model_id].issuperset(common):
            out.scores[model_id] = mean_with_se([by_key[k] for k in common])
    ids = list(out.scores)
    for model_id, interval in zip(ids, rank_intervals([out.scores[m] for m in ids])):
        out.ranks[model_id] = interval
    return out
