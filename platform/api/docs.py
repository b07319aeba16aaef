"""The API's entry point: /api/ (an index of endpoints, JSON for programs, the documentation page
for browsers) and /api/docs (the documentation page). Both are built from api.openapi.schema(), the
same document served at /api/openapi.json, so they cannot drift apart; nothing loads from the web."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from api.openapi import schema
from leaderboard.pages import CONTENT_SECURITY_POLICY

_METHODS = ("get", "post", "put", "patch", "delete")


def _ref_name(node: Any) -> str:
    if isinstance(node, dict):
        if "$ref" in node:
            return node["$ref"].rsplit("/", 1)[-1]
        for key in ("allOf", "oneOf", "anyOf"):
            if key in node:
                return " + ".join(_ref_name(n) for n in node[key])
        if (
            node.get("type") == "object"
            and "properties" in node
            and set(node["properties"]) >= {"results", "page"}
        ):
            return f"page of {_ref_name(node['properties']['results'].get('items', {}))}"
        return str(node.get("type", "object"))
    return ""


def endpoints() -> list[dict[str, Any]]:
    doc = schema()
    out = []
    for path, item in doc["paths"].items():
        for method in _METHODS:
            op = item.get(method)
            if not op:
                continue
            responses = []
            for code, resp in sorted(op.get("responses", {}).items()):
                body = resp.get("content", {}).get("application/json", {}).get("schema")
                responses.append(
                    {
                        "code": code,
                        "description": resp.get("description", ""),
                        "schema": _ref_name(body) if body else "",
                    }
                )
            body = (
                op.get("requestBody", {})
                .get("content", {})
                .get("application/json", {})
                .get("schema")
            )
            out.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "summary": op.get("summary", ""),
                    "anchor": f"{method}-{path.strip('/').replace('/', '-').replace('{', '').replace('}', '')}",
                    "auth": bool(op.get("security")),
                    "parameters": [
                        {
                            "name": p["name"],
                            "in": p["in"],
                            "required": p.get("required", False),
                            "type": p.get("schema", {}).get("type", ""),
                            "description": p.get("description", ""),
                        }
                        for p in op.get("parameters", [])
                    ],
                    "body": _ref_name(body) if body else "",
                    "responses": responses,
                }
            )
    return out


def _wants_html(request: HttpRequest) -> bool:
    accept = request.headers.get("Accept", "")
    return "text/html" in accept and "application/json" not in accept.split(",")[0]


def _docs_response(request: HttpRequest) -> HttpResponse:
    doc = schema()
    schemas = [
        {"name": name, "json": json.dumps(body, indent=2, sort_keys=True)}
        for name, body in sorted(doc.get("components", {}).get("schemas", {}).items())
    ]
    response = render(
        request,
        "api/docs.html",
        {
            "info": doc["info"],
            "version": doc.get("openapi", ""),
            "endpoints": endpoints(),
            "schemas": schemas,
        },
    )
    response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return response


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """GET /api/: the documentation page for a browser, a JSON index for everything else."""
    if _wants_html(request):
        response = _docs_response(request)
    else:
        response = JsonResponse(
            {
                "name": schema()["info"]["title"],
                "docs": request.build_absolute_uri("/api/docs"),
                "openapi": request.build_absolute_uri("/api/openapi.json"),
                "endpoints": [
                    {"method": e["method"], "path": e["path"], "summary": e["summary"]}
                    for e in endpoints()
                ],
            },
            json_dumps_params={"indent": 1},
        )
    patch_vary_headers(response, ["Accept"])
    return response


@require_GET
def docs(request: HttpRequest) -> HttpResponse:
    return _docs_response(request)
