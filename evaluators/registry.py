"""Family name -> evaluator. Imports lazily so a worker that only grades physics never loads
OpenSpiel or starts Stockfish."""

from __future__ import annotations

import importlib
from functools import cache

from evaluators.base import FAMILIES, FamilyEvaluator

# module path and attribute of each family's evaluator object
_LOCATIONS = {
    "hipho": ("evaluators.hipho", "EVALUATOR"),
    "hanabi": ("evaluators.hanabi", "EVALUATOR"),
    "chess": ("evaluators.chess", "EVALUATOR"),
}


class UnknownFamilyError(KeyError):
    pass


@cache
def get_family(family: str) -> FamilyEvaluator:
    if family not in FAMILIES:
        raise UnknownFamilyError(f"unknown benchmark family {family!r}; expected one of {FAMILIES}")
    module_name, attr = _LOCATIONS[family]
    return getattr(importlib.import_module(module_name), attr)


def family_module(family: str):
    if family not in FAMILIES:
        raise UnknownFamilyError(f"unknown benchmark family {family!r}; expected one of {FAMILIES}")
    return importlib.import_module(_LOCATIONS[family][0])


def family_builtins(family: str) -> dict[str, str]:
    """Built-in players (name -> display name) that can play this family."""
    return dict(family_module(family).BUILTINS)
