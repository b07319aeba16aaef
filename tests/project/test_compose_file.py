"""docker-compose.yml and the Dockerfile keep their production hygiene: no default secret,
restart policies, health checks, a stop grace period that covers a model call in flight,
persistent Redis (AOF) and PostgreSQL, Flower never open, static files collected in the image.

These read the files; `make compose-smoke` (scripts/compose_smoke.sh) is what runs them."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "docker-compose.yml").read_text()
COMPOSE = yaml.safe_load(TEXT)
SERVICES = COMPOSE["services"]
APP = ("web", "worker-llm", "worker-cpu", "beat", "flower")


def _default(value: str) -> str:
    """The default of a `${VAR:-default}` reference (the value itself when it is literal)."""
    match = re.fullmatch(r"\$\{\w+:-([^}]*)\}", str(value))
    return match.group(1) if match else str(value)


def _seconds(value: str) -> float:
    match = re.fullmatch(r"(?:(\d+)m)?(?:(\d+)s)?", _default(value))
    assert match and any(match.groups()), f"unreadable duration {value!r}"
    return int(match.group(1) or 0) * 60 + int(match.group(2) or 0)


def test_it_has_no_default_secret():
    for name in ("SECRET_KEY", "POSTGRES_PASSWORD", "REDIS_PASSWORD"):
        refs = re.findall(r"\$\{" + name + r"(:?[-?=]?)", TEXT)
        assert refs, f"{name} is not used"
        assert set(refs) == {":?"}, f"{name} must be required (${{{name}:?...}}), found {refs}"
    env = SERVICES["web"]["environment"]
    assert "${SECRET_KEY:?" in env["SECRET_KEY"] and "${POSTGRES_PASSWORD:?" in env["DATABASE_URL"]


def test_it_runs_in_production_mode_by_default():
    assert _default(SERVICES["web"]["environment"]["PODIUM_PRODUCTION"]) == "true"


def test_every_service_restarts():
    for name, service in SERVICES.items():
        assert service.get("restart") in ("unless-stopped", "always", "on-failure"), name


def test_web_workers_and_stores_have_health_checks():
    for name in ("web", "worker-llm", "worker-cpu", "redis", "postgres"):
        assert SERVICES[name].get("healthcheck", {}).get("test"), name
    assert "/api/health" in str(SERVICES["web"]["healthcheck"]["test"])
    for name in ("worker-llm", "worker-cpu"):
        assert "inspect ping" in str(SERVICES[name]["healthcheck"]["test"]), name


def test_workers_get_time_to_drain_a_model_call():
    for name in ("worker-llm", "worker-cpu"):
        grace = _seconds(SERVICES[name]["stop_grace_period"])
        assert grace > settings.PODIUM_LLM_TIMEOUT_SECONDS, (name, grace)


def test_two_llm_workers_one_cpu_worker_one_beat():
    assert SERVICES["worker-llm"]["deploy"]["replicas"] == 2
    assert "--pool threads" in SERVICES["worker-llm"]["command"]
    assert "--pool prefork" in SERVICES["worker-cpu"]["command"]
    assert "replicas" not in SERVICES["beat"].get("deploy", {})


def test_redis_and_postgres_persist():
    assert "--appendonly yes" in SERVICES["redis"]["command"]
    assert any(v.endswith(":/data") for v in SERVICES["redis"]["volumes"])
    assert any(v.endswith(":/var/lib/postgresql/data") for v in SERVICES["postgres"]["volumes"])
    assert {"pgdata", "redisdata"} <= set(COMPOSE["volumes"])


def test_flower_is_optional_authenticated_and_local():
    flower = SERVICES["flower"]
    assert flower.get("profiles"), "flower starts only on demand"
    assert "FLOWER_BASIC_AUTH" in flower["command"] and "exit 1" in flower["command"]
    for port in flower.get("ports", []):
        assert str(port).startswith("127.0.0.1:"), port


def test_only_the_loopback_is_published_by_default():
    for name, service in SERVICES.items():
        for port in service.get("ports", []):
            resolved = re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", str(port))
            assert resolved.split(":")[0] == "127.0.0.1", (name, port)


def test_base_images_are_parameters():
    assert _default(SERVICES["redis"]["image"]) == "redis:7"
    assert _default(SERVICES["postgres"]["image"]) == "postgres:15"
    assert _default(SERVICES["web"]["build"]["args"]["PYTHON_IMAGE"]) == "python:3.11-slim-bookworm"
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "ARG PYTHON_IMAGE=python:3.11-slim-bookworm" in dockerfile
    assert "FROM ${PYTHON_IMAGE}" in dockerfile


def test_the_image_collects_static_files_and_runs_unprivileged():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "collectstatic" in dockerfile and "stockfish" in dockerfile
    users = re.findall(r"^USER (\S+)", dockerfile, re.MULTILINE)
    assert users and users[-1] not in ("root", "0")


def test_wheels_and_build_trees_stay_out_of_git():
    ignored = (ROOT / ".gitignore").read_text().split()
    assert "wheelhouse/" in ignored and ".build/" in ignored
