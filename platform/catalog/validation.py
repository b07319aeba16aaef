"""Validation of model registrations, shared by the admin form, the CLI and the API."""

from __future__ import annotations

import json
import math
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


MAX_TIMEOUT_S = 3600
MAX_EXTRA_BODY_CHARS = 4000
# Parameters inside extra_body that multiply what one call costs (n completions per request).
_COST_MULTIPLIERS = ("n", "best_of", "num_completions", "num_generations")
# Shapes of provider keys, so a key pasted as a value (not only under a key-like name) is refused.
_SECRET_VALUE = re.compile(
    r"^(?:sk-|sk_|rk_|pk_live|xox[abpr]-|ghp_|gho_|github_pat_|AKIA|ASIA|AIza|hf_|glpat-|Bearer\s)",
    re.IGNORECASE,
)
_TOKEN_LIKE = re.compile(r"^[A-Za-z0-9_\-+/=.]{32,}$")


def _finite(value: Any, where: str) -> None:
    """NaN and infinities are not JSON (PostgreSQL's jsonb refuses them) nor sensible parameters."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValidationError(f"{where} must be a finite number, got {value!r}")
    if isinstance(value, Mapping):
        for key, inner in value.items():
            _finite(inner, f"{where}.{key}")
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            _finite(inner, f"{where}[{index}]")


def _looks_like_secret(text: str) -> bool:
    text = text.strip()
    if _SECRET_VALUE.match(text):
        return True
    # a long unbroken token with letters and digits (an opaque key), not a word or a URL
    return (
        bool(_TOKEN_LIKE.match(text))
        and any(c.isdigit() for c in text)
        and any(c.isalpha() for c in text)
        and "://" not in text
    )


def validate_params(params: Any) -> None:
    """Generation parameters, with documented caps: timeout in (0, 3600] s; extra_body at most
    4,000 characters of JSON, without cost multipliers (n, best_of, ...) other than 1 and
    without credentials, by name or by shape; no NaN or infinity anywhere."""
    if not isinstance(params, Mapping):
        raise ValidationError(f"params must be an object, got {type(params).__name__}")
    _finite(dict(params), "params")
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
        if name == "timeout" and not 0 < number <= MAX_TIMEOUT_S:
            raise ValidationError(
                f"params.timeout must be more than 0 and at most {MAX_TIMEOUT_S} "
                f"seconds, got {value!r}"
            )
        if name == "extra_body":
            _refuse_credentials(value, "params.extra_body")
            _refuse_multipliers(value, "params.extra_body")
            if len(json.dumps(value, default=str)) > MAX_EXTRA_BODY_CHARS:
                raise ValidationError(
                    f"params.extra_body is over {MAX_EXTRA_BODY_CHARS} characters of JSON"
                )


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
    elif isinstance(value, str) and _looks_like_secret(value):
        raise ValidationError(
            f"{where} holds a value shaped like an API key or token; parameters are published "
            "with every result, so put secrets in the environment variable named by api_key_env"
        )


def _refuse_multipliers(value: Any, where: str) -> None:
    if isinstance(value, Mapping):
        for key, inner in value.items():
            if str(key) in _COST_MULTIPLIERS and inner != 1:
                raise ValidationError(
                    f"{where}.{key} = {inner!r} asks for several completions per request (a cost "
                    "multiplier the call log cannot see); use samples instead"
                )
            _refuse_multipliers(inner, f"{where}.{key}")
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            _refuse_multipliers(inner, f"{where}[{index}]")
