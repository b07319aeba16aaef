"""requirements.lock pins every package `make install` installs, consistently with the ranges
in pyproject.toml, and `make install` installs from it (not from the open ranges)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
_PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;#]+)")


def _locked() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _PIN.match(line.strip())
        assert match, f"requirements.lock: not an exact pin: {line!r}"
        pins[canonicalize_name(match.group(1))] = match.group(2)
    return pins


def test_every_declared_dependency_is_pinned_within_its_range():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = project["dependencies"] + project["optional-dependencies"]["test"]
    locked = _locked()
    for spec in declared:
        requirement = Requirement(spec)
        name = canonicalize_name(requirement.name)
        assert name in locked, (
            f"{requirement.name} is in pyproject.toml but not in requirements.lock (run make lock)"
        )
        assert requirement.specifier.contains(locked[name], prereleases=True), (
            f"requirements.lock pins {requirement.name}=={locked[name]}, outside {requirement.specifier}"
        )


def test_make_install_installs_the_lock():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("$(VENV)/.installed:", 1)[1].split("\n\n", 1)[0]
    assert "requirements.lock" in recipe.splitlines()[0]  # a changed lock reinstalls
    assert "pip install -q -r requirements.lock" in recipe
    assert "--no-deps" in recipe  # the project itself adds no unpinned version
