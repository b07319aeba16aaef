"""Example reply rules for the fake server's ``--rule`` option (a rule gets the request
JSON and returns the reply text, or a Reply). Families put their own next to their tests."""

from __future__ import annotations

from typing import Any

from tests.fakes.openai_server import Reply


def shout(request: dict[str, Any]) -> str:
    """The last user message in capitals."""
    messages = [m for m in request.get("messages", []) if m.get("role") == "user"]
    content = messages[-1]["content"] if messages else ""
    return content.upper() if isinstance(content, str) else "IMAGE"


def count_tokens_exactly(request: dict[str, Any]) -> Reply:
    """A reply with fixed usage, for cost arithmetic."""
    return Reply(text="counted", prompt_tokens=1000, completion_tokens=100)
