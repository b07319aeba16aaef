"""Signals the job engine sends, so that read models (the leaderboard) follow the engine without
the engine importing them."""

from __future__ import annotations

from django.dispatch import Signal

# sent with run_id=<int> after run_aggregate stored a run's metrics (in the same transaction, if any)
run_aggregated = Signal()
