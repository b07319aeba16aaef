"""Where the shared HiPhO data lives (read in place, never copied into the repository)."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def shared_data() -> Path:
    override = os.environ.get("PODIUM_SHARED_DATA")
    return Path(override) if override else REPO_ROOT / ".." / "shared" / "data"


def hipho_dir() -> Path:
    return shared_data() / "hipho"


DEMO_DIR = REPO_ROOT / "data" / "hipho_demo"
