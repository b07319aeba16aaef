"""Writes of the api app: create and revoke tokens; authenticate a presented token."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.utils import timezone

from api.models import ApiToken

TOKEN_PREFIX = "pod_"
# last_used_at is refreshed at most this often, so reads do not write on every request
_TOUCH_EVERY = timedelta(minutes=1)


class TokenError(Exception):
    """The presented token is malformed, unknown or revoked."""


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def api_token_create(*, user, name: str) -> tuple[ApiToken, str]:
    """Create a token; the raw value is returned once and never stored."""
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name[:100], prefix=raw[:12], key_hash=token_hash(raw)
    )
    return token, raw


def api_token_revoke(*, token: ApiToken) -> ApiToken:
    if token.revoked_at is None:
        ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        token.refresh_from_db()
    return token


def api_token_authenticate(raw: str) -> ApiToken:
    """The active token with this value (its user loaded), or TokenError."""
    if not raw or not raw.startswith(TOKEN_PREFIX) or len(raw) > 200:
        raise TokenError("malformed token")
    token = ApiToken.objects.select_related("user").filter(key_hash=token_hash(raw)).first()
    if token is None:
        raise TokenError("unknown token")
    if token.revoked_at is not None:
        raise TokenError("token has been revoked")
    if not token.user.is_active:
        raise TokenError("token owner is inactive")
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > _TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token
