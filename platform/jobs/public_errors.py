"""What the public sees of a failure: a classified line, never the raw text.

A stored item error or call error may hold a provider's response body verbatim (litellm puts
it in the exception message). Staff may point a model's api_base at an internal address, and
that address's answer must not reach public pages, CSV or the API. So the public sees the
kind of failure ("provider returned 403", "provider timed out") and staff see the full text.
Evaluation errors raised by our own code (an unparseable reply, a lost worker) are not
provider text: their first line is shown, without the traceback.
"""

from __future__ import annotations

import re

_LLM_ERROR = re.compile(r"^(PermanentLLMError|TransientLLMError|LLMError)\b")
_STATUS = re.compile(r"(?:Error code|status(?:_code)?|HTTP)[:= ]+(\d{3})\b", re.IGNORECASE)
_KINDS = (
    ("RateLimitError", "provider rate limit reached (429)"),
    ("AuthenticationError", "provider rejected the credentials (401)"),
    ("PermissionDeniedError", "provider refused the request (403)"),
    ("NotFoundError", "provider does not know the model (404)"),
    ("ContextWindowExceededError", "prompt too long for the model's context window"),
    ("ContentPolicyViolationError", "provider refused the content"),
    ("BadRequestError", "provider rejected the request (400)"),
    ("APIConnectionError", "could not connect to the provider"),
    ("InternalServerError", "provider error (5xx)"),
    ("ServiceUnavailableError", "provider unavailable (503)"),
    ("is not set on this host", "the model's API key is not configured on the workers"),
)


def error_public(text: str) -> str:
    """The public form of a stored error (item.error or a call's error message)."""
    if not text:
        return ""
    first = text.strip().splitlines()[0] if text.strip() else ""
    if not _LLM_ERROR.match(first) and "litellm" not in text.lower():
        return first[:300]
    if "Timeout" in text or "timed out" in text:
        return "provider timed out"
    status = _STATUS.search(text)
    if status:
        return f"provider returned {status.group(1)}"
    for needle, label in _KINDS:
        if needle in text:
            return label
    return "the model call failed"


def error_for(user, text: str) -> str:
    """Full text for staff, the classified line for everyone else."""
    if getattr(user, "is_staff", False):
        return text
    return error_public(text)
