"""Validation of model registrations, shared by the admin form, the CLI and the API."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, cast
from urllib.parse import urlparse

from django.core.exceptions import ValidationError

# provider/model, where model may itself contain slashes, dots, colons (e.g. ollama/llama3:8b)
_MODEL_STRING = re.compile(r"^[a-z0-9][a-z0-9_\-]*/[A-Za-z0-9][A-Za-z0-9_.:@\-/]*$")
_ENV_NAME = re.compile(r"^[A-Z_][A-Z0-9_]*$")

# parameter name -> (accepted types, check) ; anything else is rejected so typos surface early
_PARAM_TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    "temperature": ((int, float), "a number between 0 and 2"),
    "top_p": ((int, float), "a number between 0 and 1"),
    "max_tokens": ((int,), "a positive integer"),
    "max_completion_tokens": ((int,), "a positive integer"),
    "reasoning_effort": ((str,), "one of minimal, low, medium, high"),
    "seed": ((int,), "an integer"),
    "stop": ((list, str), "a string or a list of strings"),
    "presence_penalty": ((int, float), "a number"),
    "frequency_penalty": ((int, float), "a number"),
    "timeout": ((int, float), "a positive number of seconds"),
    "extra_body": ((dict,), "an object"),
}


def validate_model_string(value: str) -> None:
    from evaluators.llm import model_string_problem

    if not value:
        raise ValidationError("the litellm model string is empty")
    if value.startswith("builtin/"):
        return
    if not _MODEL_STRING.match(value):
        raise ValidationError(
            f"{value!r} is not a litellm model string of the form provider/model (e.g. openai/gpt-4o)"
        )
    problem = model_string_problem(value)
    if problem:
        raise ValidationError(problem)


def validate_api_base(value: str) -> None:
    if not value:
        return
    parsed = urlparse(value)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise ValidationError(f"api_base {value!r} is not an http(s) URL")


def validate_api_key_env(value: str) -> None:
    if value and not _ENV_NAME.match(value):
        raise ValidationError(
            f"api_key_env {value!r} must be the NAME of an environment variable (A-Z, 0-9, _), "
            "never the key itself"
        )


def validate_params(params: Any) -> None:
    if not isinstance(params, Mapping):
        raise ValidationError(f"params must be an object, got {type(params).__name__}")
    checked: Mapping[str, Any] = params  # values are compared only after their type is checked
    for name, value in checked.items():
        if name not in _PARAM_TYPES:
            raise ValidationError(
                f"unknown generation parameter {name!r}; known: {', '.join(sorted(_PARAM_TYPES))}"
            )
        types, wanted = _PARAM_TYPES[name]
        if isinstance(value, bool) or not isinstance(value, types):
            raise ValidationError(f"params.{name} must be {wanted}, got {value!r}")
        number = cast(float, value)  # a number: its type was checked just above
        if name == "temperature" and not 0 <= number <= 2:
            raise ValidationError(f"params.temperature must be {wanted}, got {value!r}")
        if name == "top_p" and not 0 < number <= 1:
            raise ValidationError(f"params.top_p must be {wanted}, got {value!r}")
        if name in ("max_tokens", "max_completion_tokens") and number <= 0:
            raise ValidationError(f"params.{name} must be {wanted}, got {value!r}")
        if name == "reasoning_effort" and value not in ("minimal", "low", "medium", "high"):
            raise ValidationError(f"params.reasoning_effort must be {wanted}, got {value!r}")
        if name == "extra_body":
            _refuse_credentials(value, "params.extra_body")


_CREDENTIAL_WORDS = ("key", "token", "secret", "password", "authorization", "credential", "bearer")


def _refuse_credentials(value: Any, where: str) -> None:
    """Parameters are public (they are part of every run's spec): keep credentials out of them."""
    if isinstance(value, Mapping):
        for key, inner in value.items():
            if any(word in str(key).lower() for word in _CREDENTIAL_WORDS):
                raise ValidationError(
                    f"{where}.{key} looks like a credential; parameters are published with every "
                    "result, so put secrets in the environment variable named by api_key_env"
                )
            _refuse_credentials(inner, f"{where}.{key}")
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            _refuse_credentials(inner, f"{where}[{index}]")
