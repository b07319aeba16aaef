import pytest

from catalog.models import ModelEntry
from catalog.services import benchmarks_ensure
from evaluators.hanabi import BUILTINS


@pytest.fixture
def hanabi_catalog(db):
    # the Hanabi bots as builtin_models_ensure() registers them (slug builtin-<name>), without
    # importing the other families
    for name, display in BUILTINS.items():
        ModelEntry.objects.update_or_create(
            litellm_model=f"builtin/{name}",
            defaults={"slug": f"builtin-{name}", "display_name": display, "open_weights": True},
        )
    return {b.slug: b for b in benchmarks_ensure("hanabi")}
