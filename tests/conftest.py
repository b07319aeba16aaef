import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

# The test-only family (tests/families/nim) is registered like any plug-in family: worker and
# server processes the tests start inherit PODIUM_EXTRA_FAMILIES and register it at start
# (catalog's AppConfig.ready); this process's settings were read before this file, so it
# registers the same modules here, before any URL configuration is loaded.
os.environ.setdefault("PODIUM_EXTRA_FAMILIES", "tests.families.nim.family")
from evaluators.registry import register_modules  # noqa: E402

register_modules(os.environ["PODIUM_EXTRA_FAMILIES"].split(","))

pytest_plugins = [
    "tests.fixtures.services",
    "tests.fixtures.fake_llm",
    "tests.fixtures.catalog",
]
