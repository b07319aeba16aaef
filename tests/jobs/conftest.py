import pytest

from catalog.models import Benchmark, ModelEntry
from catalog.services import benchmarks_ensure, builtin_models_ensure


@pytest.fixture
def catalog(db):
    """Built-in players and the default benchmarks of every family, as `make demo` seeds them."""
    builtin_models_ensure()
    benchmarks_ensure()
    return {"models": ModelEntry.objects, "benchmarks": Benchmark.objects}


@pytest.fixture
def demo_exam(catalog) -> Benchmark:
    """The physics exam written for this project (data/hipho_demo), the smallest real benchmark."""
    return Benchmark.objects.filter(family="hipho").order_by("slug").first()


@pytest.fixture
def fake_model(db, fake_llm) -> ModelEntry:
    """A model entry that reaches the fake OpenAI-compatible server through litellm."""
    cfg = fake_llm.model_config(slug="fake-gpt", model="openai/gpt-4o-mini")
    return ModelEntry.objects.create(
        slug="fake-gpt", display_name="Fake GPT", litellm_model=cfg.model,
        api_base=cfg.api_base, api_key_env=cfg.api_key_env, params={"temperature": 0.6},
    )
