"""Security test fixtures: reuse the fault suite's benchmarks and fake model."""

from tests.faults.conftest import hipho_exam, paid_rule  # noqa: F401
