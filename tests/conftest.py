import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

pytest_plugins = [
    "tests.fixtures.services",
    "tests.fixtures.fake_llm",
    "tests.fixtures.catalog",
]
