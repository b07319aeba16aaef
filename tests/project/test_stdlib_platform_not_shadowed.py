"""platform/ holds the Django project but must never shadow the standard library's `platform`
module (Django, Celery and uuid import it). Checked under every entry point we ship."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STDLIB = sysconfig.get_paths()["stdlib"]
PROBE = "import platform, uuid; print(platform.__file__); print(platform.python_implementation())"


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'platform'}",
        "DJANGO_SETTINGS_MODULE": "podium.settings",
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }


def _assert_stdlib(output: str) -> None:
    lines = output.strip().splitlines()
    assert lines[-2].startswith(STDLIB), f"platform came from {lines[-2]}, not {STDLIB}"
    assert lines[-1] == "CPython"


def test_it_is_the_stdlib_module_under_pytest():
    import platform

    assert platform.__file__.startswith(STDLIB)
    assert not (ROOT / "platform" / "__init__.py").exists()


def test_it_is_the_stdlib_module_under_manage_py():
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", PROBE],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    _assert_stdlib(out.stdout)


def test_it_is_the_stdlib_module_under_celery():
    # `celery report` loads the app (and so Django) and formats platform.* facts.
    out = subprocess.run(
        [sys.executable, "-m", "celery", "-A", "podium", "report"],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "imp:CPython" in out.stdout
    probe = subprocess.run(
        [sys.executable, "-c", "import podium.celery, celery.bin.celery;" + PROBE],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    _assert_stdlib(probe.stdout)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_it_is_the_stdlib_module_under_gunicorn(tmp_path):
    record = tmp_path / "platform.txt"
    conf = tmp_path / "gunicorn_conf.py"
    # The config runs inside the gunicorn master, after the app was preloaded.
    conf.write_text(
        "import platform\n"
        "def when_ready(server):\n"
        f"    open({str(record)!r}, 'w').write(platform.__file__ + '\\n' + platform.python_implementation())\n"
    )
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "podium.wsgi:application",
            "--preload",
            "-c",
            str(conf),
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
        ],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        body = None
        while time.monotonic() < deadline and body is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2) as r:
                    body = r.read().decode()
            except OSError:
                time.sleep(0.3)
        assert body is not None and "ok" in body
        _assert_stdlib(record.read_text())
    finally:
        proc.terminate()
        proc.wait(timeout=20)
