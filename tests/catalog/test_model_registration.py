"""Registering models: what the admin form, the CLI and the service accept and reject."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from catalog.models import ModelEntry
from catalog.services import model_key_warning, model_register

pytestmark = pytest.mark.django_db


def _register(**overrides):
    kwargs = {
        "slug": "m",
        "display_name": "M",
        "litellm_model": "openai/gpt-4o-mini",
        "api_key_env": "OPENAI_API_KEY",
        "params": {"temperature": 0.6},
    }
    kwargs.update(overrides)
    return model_register(**kwargs)


def test_it_registers_a_valid_model_without_storing_a_key():
    entry = _register()
    assert entry.pk and entry.api_key_env == "OPENAI_API_KEY"
    field_names = {f.name for f in ModelEntry._meta.fields}
    assert not {"api_key", "key", "secret"} & field_names


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"litellm_model": "gpt4o"}, "provider/model"),
        ({"litellm_model": "openai/"}, "provider/model"),
        ({"litellm_model": "nosuchprovider/some-model"}, "nosuchprovider"),
        ({"litellm_model": ""}, "empty"),
        ({"api_base": "localhost:8000"}, "not an http(s) URL"),
        ({"api_base": "ftp://example.org/v1"}, "not an http(s) URL"),
        ({"api_key_env": "sk-live-123abc"}, "NAME of an environment variable"),
        ({"params": {"temperature": "hot"}}, "params.temperature"),
        ({"params": {"temperature": 3}}, "params.temperature"),
        ({"params": {"max_tokens": 1.5}}, "params.max_tokens"),
        ({"params": {"max_tokens": True}}, "params.max_tokens"),
        ({"params": {"reasoning_effort": "extreme"}}, "params.reasoning_effort"),
        ({"params": {"temprature": 0.5}}, "unknown generation parameter 'temprature'"),
        ({"params": [1, 2]}, "params must be an object"),
        (
            {"params": {"extra_body": {"headers": {"X-Api-Key": "abc"}}}},
            "params.extra_body.headers.X-Api-Key looks like a credential",
        ),
    ],
)
def test_it_rejects_a_bad_registration_naming_the_field(overrides, message):
    with pytest.raises(ValidationError) as info:
        _register(**overrides)
    assert message in " ".join(info.value.messages)
    assert ModelEntry.objects.count() == 0


def test_it_warns_when_the_key_variable_is_not_set_here(monkeypatch):
    monkeypatch.delenv("PODIUM_TEST_UNSET_KEY", raising=False)
    entry = _register(api_key_env="PODIUM_TEST_UNSET_KEY")
    assert "PODIUM_TEST_UNSET_KEY is not set" in model_key_warning(entry)
    monkeypatch.setenv("PODIUM_TEST_UNSET_KEY", "value-not-shown")
    assert model_key_warning(entry) is None


def test_it_registers_from_the_cli_and_reports_errors_clearly(capsys):
    call_command(
        "add_model",
        "local",
        "openai/qwen",
        "--api-base",
        "http://127.0.0.1:9/v1",
        "--params",
        '{"temperature": 0.2}',
        "--open-weights",
        "--params-b",
        "7",
    )
    entry = ModelEntry.objects.get(slug="local")
    assert (
        entry.open_weights and entry.parameter_count_b == 7 and entry.params == {"temperature": 0.2}
    )
    with pytest.raises(CommandError, match="--params is not valid JSON"):
        call_command("add_model", "bad", "openai/x", "--params", "{temperature: 1}")
    with pytest.raises(CommandError, match="not an http"):
        call_command("add_model", "bad", "openai/x", "--api-base", "not-a-url")
    assert ModelEntry.objects.count() == 1


def test_the_admin_form_validates_and_warns(admin_client, monkeypatch):
    monkeypatch.delenv("PODIUM_ADMIN_FORM_KEY", raising=False)
    data = {
        "slug": "adm",
        "display_name": "Adm",
        "litellm_model": "not a model",
        "api_base": "",
        "api_key_env": "PODIUM_ADMIN_FORM_KEY",
        "params": "{}",
        "organisation": "",
        "modality": "text",
        "notes": "",
        "active": "on",
    }
    response = admin_client.post("/admin/catalog/modelentry/add/", data)
    assert response.status_code == 200 and "provider/model" in response.content.decode()
    assert not ModelEntry.objects.exists()
    data["litellm_model"] = "anthropic/claude-3-5-sonnet-20240620"
    response = admin_client.post("/admin/catalog/modelentry/add/", data, follow=True)
    assert ModelEntry.objects.filter(slug="adm").exists()
    assert "PODIUM_ADMIN_FORM_KEY is not set on this host" in response.content.decode()
