"""The one path resolver for benchmark configs: "shared:<path>" is under the shared data folder
(evaluators.config: PODIUM_SHARED_DATA, default ../shared/data, never copied into the repo); a
relative path is under the repository root; an absolute path is itself."""

from __future__ import annotations

import os
from pathlib import Path

from evaluators.config import REPO_ROOT, current

SHARED_PREFIX = "shared:"

__all__ = ["REPO_ROOT", "SHARED_PREFIX", "resolve_path", "shared_data_dir"]


def shared_data_dir() -> Path:
    return current().shared_data


def resolve_path(raw: str | os.PathLike[str]) -> Path:
    text = os.fspath(raw)
    if text.startswith(SHARED_PREFIX):
        return shared_data_dir() / text[len(SHARED_PREFIX) :]
    p = Path(text)
    return p if p.is_absolute() else REPO_ROOT / p
