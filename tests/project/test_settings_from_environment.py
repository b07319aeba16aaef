"""Bad environment values stop the process at start with a message naming the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _start(**env: str) -> subprocess.CompletedProcess:
    full = {
        **os.environ,
        "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'platform'}",
        "DJANGO_SETTINGS_MODULE": "podium.settings",
        **env,
    }
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); "
            "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])",
        ],
        cwd=ROOT,
        env=full,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("DATABASE_URL", "mysql://root@localhost/x"),
        ("DATABASE_URL", "not a url"),
        ("REDIS_URL", "http://127.0.0.1:6379"),
        ("DEBUG", "maybe"),
        ("PODIUM_ITEM_LEASE_SECONDS", "five"),
        ("PODIUM_ITEM_LEASE_SECONDS", "0"),
        ("PODIUM_LLM_MAX_RETRIES", "-1"),
    ],
)
def test_it_rejects_a_bad_value_naming_the_variable(variable, value):
    result = _start(**{variable: value})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert variable in result.stderr.strip().splitlines()[-1]


def test_it_requires_a_secret_key_in_production():
    result = _start(PODIUM_PRODUCTION="true", SECRET_KEY="")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr.strip().splitlines()[-1]


def test_it_uses_sqlite_by_default_and_postgres_from_database_url():
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    default = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings;"
            "print(settings.DATABASES['default']['ENGINE'])",
        ],
        cwd=ROOT,
        env={
            **env,
            "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'platform'}",
            "DJANGO_SETTINGS_MODULE": "podium.settings",
        },
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert default.stdout.strip() == "django.db.backends.sqlite3"
    pg = _start(DATABASE_URL="postgres://postgres@127.0.0.1:5432/test")
    assert pg.stdout.strip() == "django.db.backends.postgresql"
