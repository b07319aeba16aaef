"""The production start documented in the README (scripts/serve.sh with PODIUM_PRODUCTION=true)
serves every main page with 200: static files are collected before the first request."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.fixtures.services import _database_url

ROOT = Path(__file__).resolve().parents[2]
PAGES = [
    "/",
    "/benchmarks/",
    "/hipho/",
    "/hanabi/",
    "/chess/",
    "/jobs/",
    "/admin/login/",
    "/api/openapi.json",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> tuple[int, str]:
    # behind the TLS proxy the production settings expect (SECURE_PROXY_SSL_HEADER)
    request = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https"})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(errors="replace")


@pytest.fixture
def production_server(transactional_db, catalog, redis_url, tmp_path):
    port = _free_port()
    env = {
        **os.environ,
        "PODIUM_PRODUCTION": "true",
        "DEBUG": "false",
        "SECRET_KEY": "production-test-" + "k" * 50,
        "STATIC_ROOT": str(tmp_path / "static"),
        "DATABASE_URL": _database_url(),
        "REDIS_URL": redis_url,
        "ALLOWED_HOSTS": "127.0.0.1",
        "BIND": f"127.0.0.1:{port}",
        "WEB_WORKERS": "1",
    }
    log = open(tmp_path / "serve.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        ["bash", "scripts/serve.sh"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                raise AssertionError((tmp_path / "serve.log").read_text()[-4000:])
            try:
                _get(base + "/api/health")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError(
                        "server not up: " + (tmp_path / "serve.log").read_text()[-4000:]
                    ) from None
                time.sleep(0.3)
        yield base, tmp_path
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        log.close()


def test_it_serves_every_main_page_with_200(production_server):
    base, tmp_path = production_server
    for page in PAGES:
        status, body = _get(base + page)
        assert status == 200, f"{page}: {status}\n{body[:2000]}"
    assert (tmp_path / "static" / "staticfiles.json").exists()
    status, body = _get(base + "/")
    assert "/static/css/podium." in body  # a hashed name from the manifest


def test_deploy_check_fails_when_static_files_were_not_collected(tmp_path):
    env = {
        **os.environ,
        "PODIUM_PRODUCTION": "true",
        "SECRET_KEY": "production-test-" + "k" * 50,
        "STATIC_ROOT": str(tmp_path / "empty"),
        "ALLOWED_HOSTS": "127.0.0.1",
        "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'platform'}",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "podium.E001" in result.stderr and "collectstatic" in result.stderr
