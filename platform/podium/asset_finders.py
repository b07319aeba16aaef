"""Static files that come from installed packages instead of the repository.

Third-party browser code is never committed: plotly.js ships inside the `plotly` wheel (and, smaller,
in the npm package of package.json, preferred when `make install` put it in node_modules/) and
MathJax inside the `django-static-mathjax` wheel, installed from pyproject.toml. This finder exposes
the few files the pages use under `vendor/`, so `{% static %}`, WhiteNoise and `collectstatic`
(hashing + gzip in production) treat them like any other static file.
"""

from __future__ import annotations

from pathlib import Path

from django.contrib.staticfiles.finders import BaseFinder
from django.core.checks import Warning as CheckWarning
from django.core.files.storage import FileSystemStorage


def _package_dir(module: str) -> Path | None:
    try:
        mod = __import__(module)
    except ImportError:
        return None
    return Path(mod.__file__).resolve().parent if mod.__file__ else None


NODE_MODULES = Path(__file__).resolve().parents[2] / "node_modules"
# plotly.js's cartesian bundle (bar, scatter, heatmap: every chart the pages draw), 1.5 MB against
# the full bundle's 4.8 MB, so a first chart page parses a third of the script. `make install`
# installs it from npm (package.json) into the git-ignored node_modules/.
CARTESIAN = NODE_MODULES / "plotly.js-cartesian-dist-min" / "plotly-cartesian.min.js"


class _Renamed(FileSystemStorage):
    """One file published under another name (vendor/plotly/plotly.min.js -> the cartesian bundle)."""

    def __init__(self, source: Path, name: str, prefix: str):
        super().__init__(location=str(source.parent))
        self.source, self.name, self.prefix = source, name, prefix

    def path(self, name):
        return str(self.source) if name == self.name else super().path(name)

    def open(self, name, mode="rb"):
        return super().open(self.source.name if name == self.name else name, mode)


def _sources() -> list[tuple[str, Path, list[str] | None]]:
    """(url prefix, directory, files or None for the whole tree) per installed package."""
    out: list[tuple[str, Path, list[str] | None]] = []
    plotly_dir = _package_dir("plotly")
    if plotly_dir is not None and not CARTESIAN.is_file():  # the full bundle from the wheel
        out.append(("vendor/plotly", plotly_dir / "package_data", ["plotly.min.js"]))
    mathjax_dir = _package_dir("mathjax")
    if mathjax_dir is not None:
        # The es5 bundles: tex-svg.js needs no font files; it loads extensions (ui/safe, boldsymbol,
        # ...) from its own directory at run time, so the whole es5 tree is exposed.
        out.append(("vendor/mathjax", mathjax_dir / "static" / "mathjax" / "es5", None))
    return out


class _PrefixedStorage(FileSystemStorage):
    def __init__(self, location: Path, prefix: str):
        super().__init__(location=str(location))
        self.prefix = prefix


class InstalledAssetsFinder(BaseFinder):
    def __init__(self, *args, **kwargs):
        self.sources = [
            (prefix, root, files) for prefix, root, files in _sources() if root.is_dir()
        ]
        self.storages = {prefix: _PrefixedStorage(root, prefix) for prefix, root, _ in self.sources}
        self.cartesian = (
            _Renamed(CARTESIAN, "plotly.min.js", "vendor/plotly") if CARTESIAN.is_file() else None
        )

    def check(self, **kwargs):
        found = {prefix for prefix, _, _ in self.sources} | (
            {"vendor/plotly"} if self.cartesian else set()
        )
        return [
            CheckWarning(
                f"static assets {p} not found: is its package installed?", id="podium.W001"
            )
            for p in ("vendor/plotly", "vendor/mathjax")
            if p not in found
        ]

    def _files(self, root: Path, files: list[str] | None) -> list[str]:
        if files is not None:
            return [f for f in files if (root / f).is_file()]
        return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())

    def find(self, path, find_all=False, **kwargs):
        if self.cartesian is not None and path == "vendor/plotly/plotly.min.js":
            return [str(CARTESIAN)] if find_all else str(CARTESIAN)
        found = []
        for prefix, root, files in self.sources:
            if not path.startswith(prefix + "/"):
                continue
            rel = path[len(prefix) + 1 :]
            candidate = (root / rel).resolve()
            allowed = files is None or rel in files
            if allowed and candidate.is_file() and root.resolve() in candidate.parents:
                if not find_all:
                    return str(candidate)
                found.append(str(candidate))
        return found

    def list(self, ignore_patterns):
        if self.cartesian is not None:
            yield "plotly.min.js", self.cartesian
        for prefix, root, files in self.sources:
            for rel in self._files(root, files):
                yield rel, self.storages[prefix]
