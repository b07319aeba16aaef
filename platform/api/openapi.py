"""The OpenAPI 3 description of /api/, written by hand next to the views it describes."""

from __future__ import annotations

from functools import cache
from typing import Any

from evaluators.registry import FAMILIES

_ERROR = {"$ref": "#/components/schemas/Error"}


def _resp(description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description}
    if schema is not None:
        out["content"] = {"application/json": {"schema": schema}}
    return out


def _errors(*codes: int) -> dict[str, Any]:
    names = {
        400: "Bad request (malformed JSON, bad query parameter)",
        401: "Missing, unknown or revoked token",
        403: "Token owner is not staff",
        404: "No such object",
        405: "Method not allowed",
        409: "Conflict with the object's state",
        413: "Request body too large",
        422: "Well-formed but invalid (unknown model, bad field)",
    }
    return {str(c): _resp(names[c], _ERROR) for c in codes}


def _page_of(ref: str) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["count", "page", "pages", "results"],
        "properties": {
            "count": {"type": "integer"},
            "page": {"type": "integer"},
            "pages": {"type": "integer"},
            "per_page": {"type": "integer"},
            "results": {"type": "array", "items": {"$ref": ref}},
        },
    }


_PAGING = [
    {"name": "page", "in": "query", "schema": {"type": "integer", "minimum": 1}},
    {
        "name": "per_page",
        "in": "query",
        "schema": {"type": "integer", "minimum": 1, "maximum": 200},
    },
]


def _id(name: str = "pk", kind: str = "integer") -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": kind}}


def _get(
    summary: str, schema: dict[str, Any], params: list | None = None, errors=(400, 401, 404, 405)
) -> dict:
    return {
        "get": {
            "summary": summary,
            "parameters": params or [],
            "responses": {"200": _resp("OK", schema), **_errors(*errors)},
        }
    }


def _post(
    summary: str,
    schema: dict[str, Any],
    params: list | None = None,
    body: dict | None = None,
    status: str = "200",
    errors=(401, 403, 404, 405),
) -> dict:
    op: dict[str, Any] = {
        "summary": summary,
        "parameters": params or [],
        "security": [{"bearer": []}],
        "responses": {status: _resp("OK", schema), **_errors(*errors)},
    }
    if body:
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    return {"post": op}


@cache
def schema() -> dict[str, Any]:
    obj = {"type": "object", "additionalProperties": True}
    num = {"type": ["number", "null"]}
    components = {
        "Error": {
            "type": "object",
            "required": ["error"],
            "properties": {
                "error": {
                    "type": "object",
                    "required": ["code", "message"],
                    "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
                }
            },
        },
        "Model": {
            "type": "object",
            "properties": {
                "slug": {"type": "string"},
                "display_name": {"type": "string"},
                "litellm_model": {"type": "string"},
                "organisation": {"type": "string"},
                "open_weights": {"type": "boolean"},
                "parameter_count_b": num,
                "modality": {"type": "string", "enum": ["text", "vision"]},
                "active": {"type": "boolean"},
                "builtin": {"type": "boolean"},
                "params": obj,
            },
        },
        "FamilyScore": {
            "type": "object",
            "properties": {
                "family": {"type": "string", "enum": list(FAMILIES)},
                "score": num,
                "score_se": num,
                "n_entries": {"type": "integer"},
            },
        },
        "LeaderboardModel": {
            "allOf": [
                {"$ref": "#/components/schemas/Model"},
                {
                    "type": "object",
                    "properties": {
                        "families": {
                            "type": "array",
                            "items": {"$ref": "#/components/schemas/FamilyScore"},
                        }
                    },
                },
            ]
        },
        "Entry": {
            "type": "object",
            "description": "latest aggregated result of a model on a benchmark (part)",
            "properties": {
                "model": {"type": "string"},
                "benchmark": {"type": "string"},
                "part": {"type": "string"},
                "family": {"type": "string"},
                "group": {"type": "string"},
                "label": {"type": "string"},
                "run": {"type": "integer"},
                "score": num,
                "score_se": num,
                "score_ci95": {"type": "array", "items": num},
                "normalised": num,
                "normalised_se": num,
                "summary": obj,
                "input_tokens": {"type": "integer"},
                "output_tokens": {"type": "integer"},
                "cost_usd": {
                    "type": "number",
                    "description": "the model's own cost (no judge calls)",
                },
                "judge_input_tokens": {"type": "integer"},
                "judge_output_tokens": {"type": "integer"},
                "judge_cost_usd": {
                    "type": "number",
                    "description": "the judge's cost, never counted as the model's",
                },
                "updated_at": {"type": "string", "format": "date-time"},
            },
        },
        "Benchmark": {
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "slug": {"type": "string"},
                "name": {"type": "string"},
                "family": {"type": "string"},
                "version": {"type": "string"},
                "default_samples": {"type": "integer"},
                "description": {"type": "string"},
                "config": obj,
                "active": {"type": "boolean"},
                "judge": {"type": ["string", "null"]},
            },
        },
        "Job": {
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "name": {"type": "string"},
                "status": {"type": "string", "enum": ["pending", "running", "done", "cancelled"]},
                "samples": {"type": "integer"},
                "total_items": {"type": "integer"},
                "done_items": {"type": "integer"},
                "failed_items": {"type": "integer"},
                "progress": {"type": "number"},
                "created_at": {"type": "string"},
                "started_at": {"type": ["string", "null"]},
                "finished_at": {"type": ["string", "null"]},
            },
        },
        "Run": {
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "job": {"type": "integer"},
                "model": {"type": "string"},
                "benchmark": {"type": "string"},
                "family": {"type": "string"},
                "status": {"type": "string"},
                "score": num,
                "score_se": num,
                "total_items": {"type": "integer"},
                "done_items": {"type": "integer"},
                "failed_items": {"type": "integer"},
                "input_tokens": {"type": "integer"},
                "output_tokens": {"type": "integer"},
                "cost_usd": {
                    "type": "number",
                    "description": "the model's own cost (no judge calls)",
                },
                "judge_input_tokens": {"type": "integer"},
                "judge_output_tokens": {"type": "integer"},
                "judge_cost_usd": {"type": "number"},
                "spec_hash": {"type": "string"},
                "spec": obj,
                "metrics": obj,
            },
        },
        "Item": {
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "run": {"type": "integer"},
                "key": {"type": "string"},
                "sample_index": {"type": "integer"},
                "state": {"type": "string"},
                "score": num,
                "attempts": {"type": "integer"},
                "error": {"type": "string"},
                "scores": obj,
                "details": obj,
                "transcript": {"type": "array", "items": obj},
            },
        },
        "JobSubmit": {
            "type": "object",
            "required": ["models", "benchmarks"],
            "additionalProperties": False,
            "properties": {
                "models": {
                    "type": "array",
                    "items": {"type": "string"},
                    "minItems": 1,
                    "description": "model slugs or litellm model strings of registered models",
                },
                "benchmarks": {
                    "type": "array",
                    "items": {"type": "string"},
                    "minItems": 1,
                    "description": "benchmark slugs or shell patterns such as 'hipho/*'",
                },
                "samples": {"type": ["integer", "null"], "minimum": 1, "maximum": 10000},
                "name": {"type": "string", "maxLength": 200},
            },
        },
    }
    ref = "#/components/schemas/"
    job_with_runs = {
        "allOf": [
            {"$ref": ref + "Job"},
            {
                "type": "object",
                "properties": {
                    "live": obj,
                    "runs": {"type": "array", "items": {"$ref": ref + "Run"}},
                    "runs_count": {"type": "integer"},
                    "runs_page": {"type": "integer"},
                    "runs_pages": {"type": "integer"},
                },
            },
        ]
    }
    paths = {
        "/api/": _get(
            "Entry point: this list of endpoints as JSON (a browser gets the documentation page)",
            obj,
            errors=(405,),
        ),
        "/api/docs": {
            "get": {
                "summary": "This documentation as a web page, built from openapi.json",
                "responses": {"200": {"description": "HTML"}},
            }
        },
        "/api/health": _get("Liveness: the database answers", {"type": "object"}, errors=(405,)),
        "/api/openapi.json": _get("This document", obj, errors=(405,)),
        "/api/leaderboard": _get(
            "Every active model with its per-family headline (mean % of max ± SE)",
            _page_of(ref + "LeaderboardModel"),
            _PAGING
            + [
                {
                    "name": "family",
                    "in": "query",
                    "schema": {"type": "string", "enum": list(FAMILIES)},
                }
            ],
        ),
        "/api/leaderboards/{family}": _get(
            "All results of one family",
            _page_of(ref + "Entry"),
            [
                _id("family", "string"),
                *_PAGING,
                {"name": "group", "in": "query", "schema": {"type": "string"}},
            ],
        ),
        "/api/models": _get("Active models", _page_of(ref + "Model"), _PAGING),
        "/api/models/{slug}": _get(
            "One model with all its results",
            {"allOf": [{"$ref": ref + "Model"}, obj]},
            [_id("slug", "string")],
        ),
        "/api/benchmarks": _get(
            "Active benchmarks",
            _page_of(ref + "Benchmark"),
            _PAGING
            + [
                {
                    "name": "family",
                    "in": "query",
                    "schema": {"type": "string", "enum": list(FAMILIES)},
                }
            ],
        ),
        "/api/benchmarks/{pk}": _get(
            "One benchmark with its results", {"$ref": ref + "Benchmark"}, [_id()]
        ),
        "/api/jobs": {
            **_get(
                "Jobs, newest first",
                _page_of(ref + "Job"),
                _PAGING + [{"name": "status", "in": "query", "schema": {"type": "string"}}],
            ),
            **_post(
                "Submit a job (staff token)",
                {"$ref": ref + "Job"},
                body={"$ref": ref + "JobSubmit"},
                status="201",
                errors=(400, 401, 403, 405, 413, 422),
            ),
        },
        "/api/jobs/{pk}": _get(
            "One job with live progress and one page of its runs", job_with_runs, [_id(), *_PAGING]
        ),
        "/api/jobs/{pk}/cancel": _post(
            "Cancel a job (staff token)",
            {"$ref": ref + "Job"},
            [_id()],
            errors=(401, 403, 404, 405, 409),
        ),
        "/api/jobs/{pk}/resume": _post(
            "Re-queue failed and cancelled items (staff token)", {"$ref": ref + "Job"}, [_id()]
        ),
        "/api/runs/{pk}": _get("One run with its spec and metrics", {"$ref": ref + "Run"}, [_id()]),
        "/api/runs/{pk}/items": _get(
            "Items of a run",
            _page_of(ref + "Item"),
            [_id(), *_PAGING, {"name": "state", "in": "query", "schema": {"type": "string"}}],
        ),
        "/api/items/{pk}": _get(
            "One item with transcript and details", {"$ref": ref + "Item"}, [_id()]
        ),
        "/api/games/{pk}": _get(
            "A game item replayed: Hanabi frames or chess positions",
            obj,
            [_id()],
            errors=(401, 404, 405, 422),
        ),
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Podium API",
            "version": "1",
            "description": "Read endpoints are public. Write endpoints need a staff user's API token "
            'in \'Authorization: Bearer <token>\'. Errors are {"error": {"code", "message"}}. '
            "Model replies are untrusted text: escape them when you display them.",
        },
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
