"""The exam catalogue: official human medal cut-offs for each HiPhO exam.

Numbers are raw points as published with the HiPhO benchmark. ``human_full`` is the full
mark human contestants sat; ``model_full`` is the sum of ``points`` in the data file (some
parts, e.g. experimental or drawing items, could not be given to a model). A model's exam
score is compared with the cut-offs directly, as the published protocol does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Medal = Literal["gold", "silver", "bronze", "none"]
MEDALS: tuple[Medal, ...] = ("gold", "silver", "bronze", "none")
_EPS = 1e-9


@dataclass(frozen=True)
class Cutoffs:
    gold: float
    silver: float
    bronze: float
    top_human: float

    def medal(self, score: float) -> Medal:
        """Boundaries count: a score equal to a cut-off earns that medal. Scores are sums of
        float points (19.7 may arrive as 19.699999999999996), hence the tiny slack."""
        score = score + _EPS
        if score >= self.gold:
            return "gold"
        if score >= self.silver:
            return "silver"
        if score >= self.bronze:
            return "bronze"
        return "none"

    def as_dict(self) -> dict[str, float]:
        return {
            "gold": self.gold,
            "silver": self.silver,
            "bronze": self.bronze,
            "top_human": self.top_human,
        }


@dataclass(frozen=True)
class ExamInfo:
    exam_id: str
    name: str
    human_full: float
    model_full: float
    cutoffs: Cutoffs | None  # None: no published cut-offs (score it, show no medal)
    official: bool = True  # False for the project's own demo exam


def _official(
    exam_id: str, name: str, human: float, model: float, g: float, s: float, b: float, top: float
) -> ExamInfo:
    return ExamInfo(exam_id, name, human, model, Cutoffs(g, s, b, top))


CATALOGUE: dict[str, ExamInfo] = {
    info.exam_id: info
    for info in (
        _official("ipho-2025", "IPhO 2025", 30, 29.4, 19.7, 12.1, 7.2, 29.2),
        _official("ipho-2024", "IPhO 2024", 30, 29.3, 20.8, 11.1, 3.6, 29.4),
        _official("apho-2025", "APhO 2025", 30, 30.0, 23.3, 18.7, 13.1, 30.0),
        _official("eupho-2025", "EuPhO 2025", 30, 29.0, 16.5, 9.8, 5.8, 27.0),
        _official("eupho-2024", "EuPhO 2024", 30, 28.0, 20.4, 14.2, 8.9, 30.0),
        _official("nbpho-2025", "NBPhO 2025", 72, 43.5, 28.6, 20.1, 15.2, 53.2),
        _official("nbpho-2024", "NBPhO 2024", 72, 50.0, 26.5, 19.4, 13.5, 40.8),
        _official("panpho-2025", "PanPhO 2025", 100, 100, 41.5, 28.5, 14.5, 81.0),
        _official("panpho-2024", "PanPhO 2024", 100, 98.0, 52.0, 37.5, 16.0, 66.5),
        _official("panmechanics-2025", "PanMechanics 2025", 100, 100, 52.0, 36.0, 20.0, 62.0),
        _official("panmechanics-2024", "PanMechanics 2024", 100, 100, 51.0, 26.0, 12.0, 51.0),
        _official("fma-2025", "F=MA 2025", 25, 25, 15.0, 11.0, 9.0, 25.0),
        _official("fma-2024", "F=MA 2024", 25, 25, 14.0, 12.0, 10.0, 24.0),
        ExamInfo("cpho-2025", "CPhO 2025", 320, 320, None),
        # The project's own demo exam (data/hipho_demo). Its cut-offs are illustrative, set at
        # 70/50/30 % of full marks so the demo can show medals; they are not human results.
        ExamInfo(
            "podiumdemo-2025",
            "Podium demo exam 2025",
            10,
            10,
            Cutoffs(7.0, 5.0, 3.0, 10.0),
            official=False,
        ),
    )
}


def exam_info(exam_id: str) -> ExamInfo | None:
    """The catalogue entry, or None for an exam we hold no cut-offs for."""
    return CATALOGUE.get(exam_id)


def medal_for(exam_id: str, score: float) -> Medal | None:
    """The medal a score earns on an exam, or None when the exam has no cut-offs."""
    info = CATALOGUE.get(exam_id)
    if info is None or info.cutoffs is None:
        return None
    return info.cutoffs.medal(score)
