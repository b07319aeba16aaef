"""Documented caps, each with a clear error: samples per job (PODIUM_MAX_SAMPLES), items per
job (PODIUM_MAX_JOB_ITEMS), import_hipho --samples, and model parameters (timeout in (0, 3600],
no cost multipliers or credentials inside extra_body, no NaN)."""

from __future__ import annotations

import json
import math

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from api.services import api_token_create
from catalog.models import ModelEntry
from catalog.validation import validate_params
from jobs import services
from jobs.models import Job
from tests.fixtures.users import job_operator

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"timeout": 0}, "params.timeout"),
        ({"timeout": -5}, "params.timeout"),
        ({"timeout": 86400}, "params.timeout"),
        ({"extra_body": {"n": 128}}, "params.extra_body.n"),
        ({"extra_body": {"options": {"best_of": 8}}}, "params.extra_body.options.best_of"),
        (
            {"extra_body": {"metadata": "sk-proj-0123456789abcdefABCDEF"}},
            "params.extra_body.metadata",
        ),
        ({"extra_body": {"routing": ["AKIAIOSFODNN7EXAMPLE"]}}, "params.extra_body.routing[0]"),
        ({"extra_body": {"x": "q9Zr4TnV0bX7c2LmP5sK8wY1dF6gH3jA"}}, "params.extra_body.x"),
        ({"temperature": math.nan}, "params.temperature"),
        ({"extra_body": {"top_k": math.inf}}, "params.extra_body.top_k"),
        ({"extra_body": {"pad": "x" * 5000}}, "4000 characters"),
    ],
)
def test_a_parameter_over_its_cap_is_refused_by_name(params, message):
    with pytest.raises(ValidationError) as refused:
        validate_params(params)
    assert message in refused.value.messages[0]


def test_ordinary_parameters_pass():
    validate_params(
        {
            "timeout": 120,
            "temperature": 0.6,
            "extra_body": {
                "n": 1,
                "top_k": 40,
                "provider": {"order": ["together", "fireworks"]},
                "url": "https://example.org/a-very-long-path-name-without-secrets-1234567890",
            },
        }
    )


@pytest.fixture
def reference(catalog) -> ModelEntry:
    return ModelEntry.objects.get(litellm_model="builtin/reference")


@pytest.mark.parametrize("samples", [65, 10_000, 1_000_000_000])
def test_samples_over_the_cap_are_refused_before_anything_is_built(reference, demo_exam, samples):
    with pytest.raises(ValidationError, match="PODIUM_MAX_SAMPLES"):
        services.job_submit(models=[reference], benchmarks=[demo_exam], samples=samples)
    assert not Job.objects.exists()


def test_a_job_over_the_item_cap_is_refused(reference, demo_exam, settings):
    settings.PODIUM_MAX_JOB_ITEMS = 10
    with pytest.raises(ValidationError, match="PODIUM_MAX_JOB_ITEMS"):
        services.job_submit(models=[reference], benchmarks=[demo_exam], samples=64)
    assert not Job.objects.exists()


def test_the_api_refuses_ten_thousand_samples(client, reference, demo_exam):
    token = api_token_create(user=job_operator("owner"), name="ci")[1]
    response = client.post(
        "/api/jobs",
        json.dumps({"models": [reference.slug], "benchmarks": [demo_exam.slug], "samples": 10_000}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert (
        response.status_code == 422 and "PODIUM_MAX_SAMPLES" in response.json()["error"]["message"]
    )


def test_evaluate_refuses_a_billion_samples(reference, demo_exam):
    with pytest.raises(CommandError, match="PODIUM_MAX_SAMPLES"):
        call_command(
            "evaluate",
            "--model",
            reference.slug,
            "--benchmark",
            demo_exam.slug,
            "--samples",
            "1000000000",
            "--detach",
        )


@pytest.mark.parametrize("samples", ["-3", "0", "1000000"])
def test_import_hipho_refuses_bad_samples_clearly(samples, tmp_path):
    with pytest.raises(CommandError, match=r"--samples must be from 1 to \d+"):
        call_command("import_hipho", "--path", str(tmp_path), "--samples", samples)
