"""The API's request plumbing: JSON errors, token auth, method checks, body limits, paging."""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ObjectDoesNotExist, RequestDataTooBig, ValidationError
from django.core.paginator import EmptyPage, Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from api.services import TokenError, api_token_authenticate
from podium.middleware import unstorable

log = logging.getLogger(__name__)
MAX_BODY_BYTES = 64 * 1024
MAX_PER_PAGE = 200


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers or {}


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JsonResponse:
    response = JsonResponse({"error": {"code": code, "message": message}}, status=status)
    for key, value in (headers or {}).items():
        response[key] = value
    return response


def _authenticate(request: HttpRequest, *, write: bool | str):
    header = request.headers.get("Authorization", "")
    if not header:
        if write:
            raise ApiError(
                401,
                "unauthenticated",
                "this endpoint needs an API token: Authorization: Bearer <token>",
                {"WWW-Authenticate": 'Bearer realm="podium"'},
            )
        return None
    scheme, _, raw = header.partition(" ")
    if scheme.lower() != "bearer" or not raw.strip():
        raise ApiError(
            401,
            "invalid_token",
            "the Authorization header must be 'Bearer <token>'",
            {"WWW-Authenticate": 'Bearer realm="podium", error="invalid_token"'},
        )
    try:
        token = api_token_authenticate(raw.strip())
    except TokenError as exc:
        raise ApiError(
            401,
            "invalid_token",
            f"invalid API token: {exc}",
            {"WWW-Authenticate": 'Bearer realm="podium", error="invalid_token"'},
        ) from None
    if write and not token.user.is_staff:
        raise ApiError(403, "forbidden", "write endpoints are for staff users")
    if isinstance(write, str) and not token.user.has_perm(write):
        raise ApiError(403, "forbidden", f"this token's user lacks the {write} permission")
    return token


def api_view(methods: dict[str, bool | str]):
    """Wrap a view handling the given methods ({method: needs_staff_token}, where a Django
    permission name such as "jobs.add_job" means a staff token whose user has it). The view receives
    (request, *args, token=ApiToken|None, **kwargs) and returns data or a JsonResponse."""

    def decorate(view: Callable[..., Any]):
        @csrf_exempt  # token auth only: no cookie is trusted here, so CSRF cannot apply
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs):
            try:
                if request.method not in methods and not (
                    request.method == "HEAD" and "GET" in methods
                ):
                    raise ApiError(
                        405,
                        "method_not_allowed",
                        f"{request.method} is not allowed here; use {', '.join(sorted(methods))}",
                        {"Allow": ", ".join(sorted(methods))},
                    )
                write = methods.get(request.method, False)
                token = _authenticate(request, write=write)
                result = view(request, *args, token=token, **kwargs)
            except ApiError as exc:
                return error_response(exc.status, exc.code, exc.message, exc.headers)
            except (Http404, ObjectDoesNotExist) as exc:
                return error_response(404, "not_found", str(exc) or "not found")
            except ValidationError as exc:
                return error_response(422, "invalid", "; ".join(exc.messages))
            if isinstance(result, HttpResponse):  # a JsonResponse, or one from the page cache
                return result
            return JsonResponse(result, json_dumps_params={"default": str})

        return wrapper

    return decorate


def json_body(request: HttpRequest) -> dict[str, Any]:
    try:
        length = int(request.headers.get("Content-Length") or 0)
    except ValueError:
        raise ApiError(400, "bad_request", "Content-Length is not a number") from None
    if length > MAX_BODY_BYTES:
        raise ApiError(413, "too_large", f"request body over {MAX_BODY_BYTES} bytes")
    try:
        body = request.body  # a chunked body has no Content-Length: Django's own cap applies
    except RequestDataTooBig:
        raise ApiError(413, "too_large", f"request body over {MAX_BODY_BYTES} bytes") from None
    if len(body) > MAX_BODY_BYTES:
        raise ApiError(413, "too_large", f"request body over {MAX_BODY_BYTES} bytes")
    content_type = request.content_type or ""
    if content_type != "application/json":
        raise ApiError(
            400,
            "bad_request",
            f"Content-Type must be application/json, got {content_type or 'none'!r}",
        )
    try:
        data = json.loads(body.decode("utf-8") or "null")
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ApiError(400, "bad_json", f"body is not valid JSON: {exc}") from None
    except RecursionError:
        raise ApiError(
            400, "bad_json", f"body is nested more than {MAX_JSON_DEPTH} levels deep"
        ) from None
    if not isinstance(data, dict):
        raise ApiError(400, "bad_json", "body must be a JSON object")
    _check_json(data, "body", 0)
    return data


MAX_JSON_DEPTH = 20


def _check_json(value: Any, where: str, depth: int) -> None:
    """Refuse what the database cannot store or what no request needs: deep nesting, NUL
    characters and lone surrogates (json.loads accepts "\\ud800"; PostgreSQL does not)."""
    if depth > MAX_JSON_DEPTH:
        raise ApiError(400, "bad_json", f"body is nested more than {MAX_JSON_DEPTH} levels deep")
    if isinstance(value, str):
        if unstorable(value):
            raise ApiError(400, "bad_json", f"{where} contains a NUL character or a lone surrogate")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_json(key, f"a key in {where}", depth + 1)
            _check_json(item, f"{where}.{key}", depth + 1)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_json(item, f"{where}[{i}]", depth + 1)


def int_param(
    request: HttpRequest, name: str, default: int, *, minimum: int = 1, maximum: int | None = None
) -> int:
    raw = request.GET.get(name)
    if raw in (None, ""):
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError(
            400, "bad_request", f"query parameter {name} must be an integer, got {raw!r}"
        ) from None
    if value < minimum or (maximum is not None and value > maximum):
        bound = f"between {minimum} and {maximum}" if maximum is not None else f"at least {minimum}"
        raise ApiError(400, "bad_request", f"query parameter {name} must be {bound}")
    return value


def paged(
    request: HttpRequest, queryset, serialize: Callable[[Any], dict], *, per_page: int = 50
) -> dict[str, Any]:
    per_page = int_param(request, "per_page", per_page, maximum=MAX_PER_PAGE)
    number = int_param(request, "page", 1)
    paginator = Paginator(queryset, per_page)
    try:
        page = paginator.page(number)
    except EmptyPage:
        raise ApiError(
            404, "not_found", f"page {number} does not exist ({paginator.num_pages} pages)"
        ) from None
    return {
        "count": paginator.count,
        "page": number,
        "pages": paginator.num_pages,
        "per_page": per_page,
        "results": [serialize(obj) for obj in page.object_list],
    }
