"""Security test fixtures: reuse the fault suite's benchmarks and fake model."""

from tests.faults.conftest import fake_model, hipho_exam, paid_rule  # noqa: F401
