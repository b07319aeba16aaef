"""Bad model registrations through every door - catalog.services.model_register, the admin form
and the add_model command - get an error naming the field at fault, and no row is written.
(The JSON API has no model-registration endpoint: models are registered by staff in the admin
or with the command.)"""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.test import Client

from catalog.models import ModelEntry
from catalog.services import model_register

pytestmark = pytest.mark.django_db

GOOD = {
    "slug": "m",
    "display_name": "M",
    "litellm_model": "openai/gpt-4o-mini",
    "api_base": "",
    "api_key_env": "OPENAI_API_KEY",
    "params": {"temperature": 0.6},
}

# case: (fields changed, the form field at fault, words the error must contain)
CASES = {
    "unknown provider": (
        {"litellm_model": "nosuchprovider/gpt-4o"},
        "litellm_model",
        ["nosuchprovider/gpt-4o"],
    ),
    "malformed model string": (
        {"litellm_model": "gpt 4o; rm -rf /"},
        "litellm_model",
        ["provider/model"],
    ),
    "model string without a model": ({"litellm_model": "openai/"}, "litellm_model", ["openai/"]),
    "api base not a URL": ({"api_base": "javascript:alert(1)"}, "api_base", ["URL"]),
    "api base without a host": ({"api_base": "http://"}, "api_base", ["URL"]),
    "the key itself instead of a variable name": (
        {"api_key_env": "sk-proj-abc123"},
        "api_key_env",
        ["NAME of an environment variable"],
    ),
    "temperature as a string": ({"params": {"temperature": "hot"}}, "params", ["temperature"]),
    "max_tokens as a float": (
        {"params": {"max_tokens": 12.5}},
        "params",
        ["max_tokens", "positive integer"],
    ),
    "boolean seed": ({"params": {"seed": True}}, "params", ["seed"]),
    "unknown parameter": ({"params": {"temprature": 0.5}}, "params", ["temprature"]),
    "params not an object": ({"params": [1, 2]}, "params", ["object"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_service_refuses_it(case):
    changes, _field, words = CASES[case]
    with pytest.raises(ValidationError) as info:
        model_register(**{**GOOD, **changes})
    message = " ".join(info.value.messages)
    for word in words:
        assert word in message, f"{case}: {word!r} not in {message!r}"
    assert ModelEntry.objects.count() == 0


@pytest.mark.parametrize("case", list(CASES))
def test_the_admin_form_refuses_it(case):
    changes, field, words = CASES[case]
    staff = Client()
    staff.force_login(get_user_model().objects.create_superuser("root", "r@example.test", "pw"))
    data = {**GOOD, **changes}
    form = {
        **{k: v for k, v in data.items() if k != "params"},
        "params": json.dumps(data["params"]),
        "modality": "text",
        "active": "on",
    }
    response = staff.post("/admin/catalog/modelentry/add/", form)
    assert response.status_code == 200, f"{case}: the form was accepted"
    errors = response.context["adminform"].form.errors
    assert field in errors, f"{case}: no error on {field}: {errors}"
    text = " ".join(errors[field])
    for word in words:
        assert word in text or field == "api_base", f"{case}: {word!r} not in {text!r}"
    assert ModelEntry.objects.count() == 0


@pytest.mark.parametrize("case", list(CASES))
def test_the_add_model_command_refuses_it(case):
    changes, _field, words = CASES[case]
    data = {**GOOD, **changes}
    args = [
        data["slug"],
        data["litellm_model"],
        "--name",
        data["display_name"],
        "--api-base",
        data["api_base"],
        "--key-env",
        data["api_key_env"],
        "--params",
        json.dumps(data["params"]),
    ]
    with pytest.raises(CommandError) as info:
        call_command("add_model", *args, stdout=io.StringIO(), stderr=io.StringIO())
    for word in words:
        assert word in str(info.value), f"{case}: {word!r} not in {info.value}"
    assert ModelEntry.objects.count() == 0


def test_the_good_registration_of_the_corpus_is_good():
    assert model_register(**GOOD).pk
