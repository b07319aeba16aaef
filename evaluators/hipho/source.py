"""Where a HiPhO benchmark's exams come from: its config, validated, and a per-process cache.

Config shapes::

    {"source": "dir", "path": "data/hipho_demo", "exam": "podiumdemo-2025"}
    {"source": "dir", "path": "/abs/hipho", "exam": "suite"}          # every exam in the folder
    {"source": "hf", "cache_dir": "var/hf", "exam": "ipho-2025"}      # SciYu/HiPhO via the Hub

Optional keys: ``temperature`` (float, sent with each model call; the published protocol
uses 0.6), ``answer_judge`` (bool, default true: ask the judge when no rule matches),
``step_level`` (bool, default true: grade marking schemes when a judge is configured).
Relative paths resolve against the repository root.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from evaluators.base import ConfigError
from evaluators.paths import resolve_path
from rubrics.answers import GRADER_PROFILES
from rubrics.errors import ExamFormatError, ExamSourceError, UnknownExamError
from rubrics.exam import Exam, exam_files, exam_id_from_stem, load_exam, load_exam_dir
from rubrics.hf import HF_REPO_ID, hf_snapshot

SUITE = "suite"
_KEYS = {
    "source",
    "path",
    "exam",
    "cache_dir",
    "repo_id",
    "revision",
    "temperature",
    "grader_profile",
    "answer_judge",
    "step_level",
    "offline",
}


def validate_config(config: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(config, Mapping):
        raise ConfigError("config must be an object")
    unknown = set(config) - _KEYS
    if unknown:
        raise ConfigError(f"unknown config field(s): {sorted(unknown)}")
    source = config.get("source", "dir")
    exam = config.get("exam")
    if not isinstance(exam, str) or not exam:
        raise ConfigError("field 'exam' must be an exam id (e.g. 'ipho-2025') or 'suite'")
    out: dict[str, Any] = {"source": source, "exam": exam}
    if source == "dir":
        path = config.get("path")
        if not isinstance(path, str) or not path:
            raise ConfigError("field 'path' must name the folder of exam files")
        if not resolve_path(path).is_dir():
            raise ConfigError(f"field 'path': {path!r} is not a folder")
        ids = set()
        for f in exam_files(resolve_path(path)):
            try:
                ids.add(exam_id_from_stem(f.stem))
            except ExamFormatError:
                continue  # a stray JSON file; loading the suite reports it by name
        if not ids:
            raise ConfigError(f"field 'path': {path!r} holds no <Olympiad>_<year>.json exam files")
        if exam != SUITE and exam not in ids:
            raise ConfigError(f"field 'exam': no exam {exam!r} in {path!r} (found {sorted(ids)})")
        out["path"] = path
    elif source == "hf":
        cache_dir = config.get("cache_dir")
        if not isinstance(cache_dir, str) or not cache_dir:
            raise ConfigError(
                "field 'cache_dir' must name a local folder for the Hugging Face cache"
            )
        out["cache_dir"] = cache_dir
        out["repo_id"] = str(config.get("repo_id") or HF_REPO_ID)
        if config.get("revision") is not None:
            out["revision"] = str(config["revision"])
        out["offline"] = bool(config.get("offline", False))
    else:
        raise ConfigError(f"field 'source' must be 'dir' or 'hf', got {source!r}")
    temperature = config.get("temperature")
    if temperature is not None:
        if (
            isinstance(temperature, bool)
            or not isinstance(temperature, (int, float))
            or not 0 <= temperature <= 2
        ):
            raise ConfigError("field 'temperature' must be a number in [0, 2]")
        out["temperature"] = float(temperature)
    for flag in ("answer_judge", "step_level"):
        value = config.get(flag, True)
        if not isinstance(value, bool):
            raise ConfigError(f"field {flag!r} must be true or false")
        out[flag] = value
    profile = config.get("grader_profile", "strict")
    if profile not in GRADER_PROFILES:
        raise ConfigError(
            f"field 'grader_profile' must be one of {list(GRADER_PROFILES)}, got {profile!r}"
        )
    out["grader_profile"] = profile
    if source == "dir":
        # Load (and cache) the exams now, so a benchmark whose files are broken is refused when it
        # is saved, naming the file and record, not later when a job is submitted.
        folder = resolve_path(out["path"])
        try:
            _load(str(folder), exam, _stamp(folder))
        except (ExamFormatError, UnknownExamError) as exc:
            raise ConfigError(str(exc)) from exc
    return out


def _folder(conf: Mapping[str, Any]) -> Path:
    if conf["source"] == "dir":
        return resolve_path(conf["path"])
    try:
        return hf_snapshot(
            cache_dir=resolve_path(conf["cache_dir"]),
            repo_id=conf["repo_id"],
            revision=conf.get("revision"),
            offline=conf.get("offline", False),
        )
    except ExamSourceError as exc:
        raise ConfigError(str(exc)) from exc


def _stamp(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """Names, sizes and mtimes: a changed file invalidates the cache."""
    return tuple((f.name, f.stat().st_size, f.stat().st_mtime_ns) for f in exam_files(folder))


@lru_cache(maxsize=32)
def _load(folder: str, exam: str, stamp: tuple[tuple[str, int, int], ...]) -> tuple[Exam, ...]:
    if exam == SUITE:
        return tuple(load_exam_dir(folder))
    for f in exam_files(folder):
        if exam_id_from_stem(f.stem) == exam:
            return (load_exam(f),)
    raise UnknownExamError(f"{folder}: no exam {exam!r}")


def exams_for(config: Mapping[str, Any]) -> tuple[Exam, ...]:
    """The exams a (validated) config names; raises ConfigError for a missing or bad source."""
    return exams_of_validated(validate_config(config))


def exams_of_validated(conf: Mapping[str, Any]) -> tuple[Exam, ...]:
    """exams_for of what validate_config returned, without validating it again (an item's
    evaluation has just done so; each validation lists and stats the folder's files)."""
    folder = _folder(conf)
    try:
        return _load(str(folder), conf["exam"], _stamp(folder))
    except (ExamFormatError, UnknownExamError) as exc:
        raise ConfigError(str(exc)) from exc


def is_suite(config: Mapping[str, Any]) -> bool:
    return config.get("exam") == SUITE
