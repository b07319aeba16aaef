"""Skip a test locally when a service, binary or browser is missing, but FAIL in CI.

CI sets PODIUM_REQUIRE_ALL=1 so a missing dependency can never turn into a silent skip.
"""

from __future__ import annotations

import os

import pytest


def require(condition: bool, what: str) -> None:
    if condition:
        return
    if os.environ.get("PODIUM_REQUIRE_ALL") == "1":
        pytest.fail(f"required for this test but missing: {what} (PODIUM_REQUIRE_ALL=1)")
    pytest.skip(f"missing: {what}")
