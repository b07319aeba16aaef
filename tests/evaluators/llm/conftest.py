"""Gateways built for one test and closed after it (their loop thread stopped)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from evaluators.llm import CallRecord, Gateway


class Recorder:
    """An on_call hook that keeps every CallRecord."""

    def __init__(self) -> None:
        self.records: list[CallRecord] = []

    def __call__(self, record: CallRecord) -> None:
        self.records.append(record)


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def make_gateway() -> Iterator[Callable[..., Gateway]]:
    made: list[Gateway] = []

    def make(**kwargs: Any) -> Gateway:
        kwargs.setdefault("backoff_base_s", 0.01)
        kwargs.setdefault("timeout_s", 5.0)
        gateway = Gateway(**kwargs)
        made.append(gateway)
        return gateway

    yield make
    for gateway in made:
        gateway.close()
