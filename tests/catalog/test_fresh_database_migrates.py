"""A fresh database migrates: `migrate` runs the database system checks before it creates any
table, so a check that queries the catalogue must not stop the migration that creates it (every
first start of a deployment, and `make demo` on a fresh checkout, begin this way)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_it_migrates_an_empty_database_and_then_passes_the_database_checks(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}"}
    for args in (["migrate", "--noinput", "-v", "0"], ["check", "--database", "default"]):
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"manage.py {' '.join(args)}:\n{done.stderr[-2000:]}"
