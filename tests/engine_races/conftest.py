"""Helpers for engine races on PostgreSQL: a second OS process that holds a transaction open."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tests.fixtures.services import _database_url
from tests.requirements import require

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def postgres(transactional_db):
    require(connection.vendor == "postgresql", "PostgreSQL (set DATABASE_URL=postgres://...)")


def django_process(script: str, **env: str) -> subprocess.Popen:
    """A Python process with Django set up on the test database, running `script`; it talks
    line by line over stdin/stdout."""
    full = {
        **os.environ,
        "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'platform'}",
        "DJANGO_SETTINGS_MODULE": "podium.settings",
        "DATABASE_URL": _database_url(),
        **env,
    }
    prelude = "import django, sys\ndjango.setup()\n"
    return subprocess.Popen(
        [sys.executable, "-c", prelude + script],
        cwd=ROOT,
        env=full,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
