"""HiPhO exams: the data model and the loader for the official JSON format.

A file is a JSON array. Element 0 is ``{"information": str}`` (the exam's constants sheet); every
other element is one problem. ``answer``, ``points`` (and, where present, ``answer_type`` and
``unit``) are aligned one-to-one; the problem's full mark is ``sum(points)``. Figures are paths
relative to the exam folder (``image_question/...``).

Loading is all-or-nothing: a file is parsed and validated completely before an ``Exam`` is
returned, and ``load_exam_dir`` validates every file before returning any of them.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rubrics.errors import ExamFormatError, ExamSizeError, UnknownExamError

# The largest official file is ~240 kB; anything this big is not an exam.
MAX_EXAM_BYTES = 8 * 1024 * 1024
MAX_FIGURE_BYTES = 8 * 1024 * 1024

_FILE_NAME = re.compile(r"^(?P<name>.+?)_(?P<year>\d{4})$")


@dataclass(frozen=True)
class Problem:
    id: str
    index: int  # position in the file (1-based, element 0 is the information sheet)
    context: str
    question: str
    marking: tuple[tuple[str, ...], ...]  # alternative schemes, each a tuple of criteria
    answers: tuple[str, ...]  # reference answers as written, e.g. "\\boxed{$v = ...$}"; "" = open
    answer_types: tuple[str, ...]  # padded with "" when the file lists fewer than answers
    units: tuple[str | None, ...]  # padded with None likewise
    points: tuple[float, ...]
    modality: str
    field: str
    source: str
    figures: tuple[str, ...]  # paths relative to the exam folder

    @property
    def full_marks(self) -> float:
        return float(sum(self.points))

    @property
    def has_figures(self) -> bool:
        return bool(self.figures)

    @property
    def gradable_answers(self) -> bool:
        """True when every reference answer is written down (open-ended items have "")."""
        return bool(self.answers) and all(a.strip() for a in self.answers)


@dataclass(frozen=True)
class Exam:
    exam_id: str  # e.g. "ipho-2025"
    name: str  # e.g. "IPhO 2025"
    path: Path  # the JSON file
    information: str
    problems: tuple[Problem, ...]
    content_hash: str  # sha256 of the file bytes: the benchmark version of this exam

    @property
    def root(self) -> Path:
        return self.path.parent

    @property
    def full_marks(self) -> float:
        return round(sum(p.full_marks for p in self.problems), 6)

    def problem(self, problem_id: str) -> Problem:
        for p in self.problems:
            if p.id == problem_id:
                return p
        raise UnknownExamError(f"{self.path.name}: no problem with id {problem_id!r}")

    def figure_path(self, relative: str) -> Path:
        """The figure's file, refused (ExamFormatError) when it is, or passes through, a
        symlink or lies outside the exam folder: checked again here, at read time, because
        an exam may have been loaded without its figures checked, and the file's bytes go
        base64-encoded into prompts sent to a provider."""
        return figure_inside(self.path, self.root, relative)


def figure_inside(exam_file: Path, root: Path, relative: str) -> Path:
    rel = Path(relative)
    if rel.is_absolute() or ".." in rel.parts:
        raise ExamFormatError(
            f"{exam_file.name}: figure {relative!r} must be a path inside the exam folder"
        )
    current = root
    for part in rel.parts:
        current = current / part
        if current.is_symlink():
            raise ExamFormatError(
                f"{exam_file.name}: figure {relative!r} is or passes through a symlink "
                f"({current}); exam folders must hold the figure files themselves"
            )
    if not current.resolve().is_relative_to(root.resolve()):
        raise ExamFormatError(f"{exam_file.name}: figure {relative!r} lies outside the exam folder")
    return current


def exam_id_from_stem(stem: str) -> str:
    """``IPhO_2025`` -> ``ipho-2025``; ``F=MA_2024`` -> ``fma-2024``."""
    m = _FILE_NAME.match(stem)
    if not m:
        raise ExamFormatError(f"{stem}.json: file name must look like <Olympiad>_<year>.json")
    name = re.sub(r"[^a-z0-9]", "", m.group("name").lower())
    if not name:
        raise ExamFormatError(f"{stem}.json: file name has no olympiad name before the year")
    return f"{name}-{m.group('year')}"


def exam_name_from_stem(stem: str) -> str:
    m = _FILE_NAME.match(stem)
    return f"{m.group('name')} {m.group('year')}" if m else stem


def _fail(path: Path, where: str, message: str) -> ExamFormatError:
    return ExamFormatError(f"{path.name}: {where}: {message}")


def _str_list(path: Path, where: str, record: dict[str, Any], key: str) -> list[Any]:
    value = record.get(key)
    if not isinstance(value, list):
        raise _fail(path, where, f"field {key!r} must be a list, got {type(value).__name__}")
    return value


def _problem(path: Path, index: int, record: Any, *, check_figures: bool) -> Problem:
    where = f"record {index}"
    if not isinstance(record, dict):
        raise _fail(path, where, f"a problem must be an object, got {type(record).__name__}")
    pid = record.get("id")
    if not isinstance(pid, str) or not pid.strip():
        raise _fail(path, where, "field 'id' is missing or not a non-empty string")
    where = f"record {index} (problem {pid!r})"
    for key in ("context", "question"):
        if not isinstance(record.get(key), str):
            raise _fail(path, where, f"field {key!r} is missing or not a string")
    if not record["question"].strip():
        raise _fail(path, where, "field 'question' is empty")

    answers = _str_list(path, where, record, "answer")
    if not answers:
        raise _fail(path, where, "field 'answer' is empty (open-ended items use [\"\"])")
    for i, a in enumerate(answers):
        if not isinstance(a, str):
            raise _fail(path, where, f"field 'answer'[{i}] must be a string")
    points = _str_list(path, where, record, "points")
    if len(points) != len(answers):
        raise _fail(
            path,
            where,
            f"field 'points' has {len(points)} entries but 'answer' has {len(answers)}: "
            "they must be aligned one-to-one",
        )
    for i, pt in enumerate(points):
        if (
            isinstance(pt, bool)
            or not isinstance(pt, (int, float))
            or not math.isfinite(pt)
            or pt < 0
        ):
            raise _fail(
                path, where, f"field 'points'[{i}] must be a non-negative number, got {pt!r}"
            )

    # answer_type and unit are informative; the official files sometimes list fewer entries
    # than answers (e.g. one unit for two answers), so they are padded, never trusted for length.
    types = _str_list(path, where, record, "answer_type") if "answer_type" in record else []
    units = _str_list(path, where, record, "unit") if "unit" in record else []
    if len(types) > len(answers) or len(units) > len(answers):
        raise _fail(path, where, "fields 'answer_type'/'unit' have more entries than 'answer'")
    for i, u in enumerate(units):
        if u is not None and not isinstance(u, str):
            raise _fail(path, where, f"field 'unit'[{i}] must be a string or null")
    for i, t in enumerate(types):
        if not isinstance(t, str):
            raise _fail(path, where, f"field 'answer_type'[{i}] must be a string")

    marking_raw = record.get("marking", [])
    if marking_raw is None:
        marking_raw = []
    if not isinstance(marking_raw, list):
        raise _fail(path, where, "field 'marking' must be a list of schemes")
    # Normally a list of schemes (lists of criteria); a few official items hold one scheme as a
    # flat list of criterion strings (PanPhO 2025 6.8, 6.10, 6.11).
    if marking_raw and all(isinstance(c, str) for c in marking_raw):
        marking_raw = [marking_raw]
    schemes: list[tuple[str, ...]] = []
    for s, scheme in enumerate(marking_raw):
        if not isinstance(scheme, list) or not all(isinstance(c, str) for c in scheme):
            raise _fail(path, where, f"field 'marking'[{s}] must be a list of criterion strings")
        if scheme:
            schemes.append(tuple(scheme))

    figures = record.get("image_question", [])
    if figures is None:
        figures = []
    if not isinstance(figures, list) or not all(isinstance(f, str) for f in figures):
        raise _fail(path, where, "field 'image_question' must be a list of file paths")
    for f in figures:
        rel = Path(f)
        if rel.is_absolute() or ".." in rel.parts:
            raise _fail(path, where, f"figure {f!r} must be a path inside the exam folder")
        if check_figures:
            try:
                full = figure_inside(path, path.parent, f)
            except ExamFormatError as exc:
                raise _fail(path, where, str(exc).split(": ", 1)[1]) from None
            if not full.is_file():
                raise _fail(path, where, f"figure {f!r} does not exist (looked for {full})")
            if full.stat().st_size > MAX_FIGURE_BYTES:
                raise ExamSizeError(
                    f"{path.name}: {where}: figure {f!r} is larger than {MAX_FIGURE_BYTES} bytes"
                )

    for key in ("modality", "field", "source"):
        if key in record and not isinstance(record[key], str):
            raise _fail(path, where, f"field {key!r} must be a string")

    return Problem(
        id=pid,
        index=index,
        context=record["context"],
        question=record["question"],
        marking=tuple(schemes),
        answers=tuple(answers),
        answer_types=tuple(types) + ("",) * (len(answers) - len(types)),
        units=tuple(units) + (None,) * (len(answers) - len(units)),
        points=tuple(float(p) for p in points),
        modality=record.get("modality", "text-only"),
        field=record.get("field", ""),
        source=record.get("source", ""),
        figures=tuple(figures),
    )


def parse_exam(path: Path, raw: bytes, *, check_figures: bool = True) -> Exam:
    """Validate one exam file's bytes. Raises ExamFormatError naming file, record and field."""
    if len(raw) > MAX_EXAM_BYTES:
        raise ExamSizeError(f"{path.name}: file is {len(raw)} bytes; the limit is {MAX_EXAM_BYTES}")
    exam_id = exam_id_from_stem(path.stem)
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ExamFormatError(
            f"{path.name}: not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from exc
    except json.JSONDecodeError as exc:
        raise ExamFormatError(
            f"{path.name}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from exc
    if not isinstance(data, list) or not data:
        raise ExamFormatError(f"{path.name}: the file must be a non-empty JSON array")
    head = data[0]
    if not isinstance(head, dict) or not isinstance(head.get("information"), str):
        raise ExamFormatError(
            f'{path.name}: record 0: must be {{"information": <text>}} (the constants sheet)'
        )
    if len(data) < 2:
        raise ExamFormatError(f"{path.name}: the exam has no problems")
    problems = [
        _problem(path, i, rec, check_figures=check_figures) for i, rec in enumerate(data[1:], 1)
    ]
    seen: dict[str, int] = {}
    for p in problems:
        if p.id in seen:
            raise _fail(
                path,
                f"record {p.index} (problem {p.id!r})",
                f"field 'id' repeats record {seen[p.id]}",
            )
        seen[p.id] = p.index
    return Exam(
        exam_id=exam_id,
        name=exam_name_from_stem(path.stem),
        path=path,
        information=head["information"],
        problems=tuple(problems),
        content_hash=hashlib.sha256(raw).hexdigest(),
    )


def load_exam(path: str | Path, *, check_figures: bool = True) -> Exam:
    path = Path(path)
    if not path.is_file():
        raise ExamFormatError(f"{path}: no such exam file")
    size = path.stat().st_size
    if size > MAX_EXAM_BYTES:  # refuse before reading a huge file into memory
        raise ExamSizeError(f"{path.name}: file is {size} bytes; the limit is {MAX_EXAM_BYTES}")
    return parse_exam(path, path.read_bytes(), check_figures=check_figures)


def exam_files(directory: str | Path) -> list[Path]:
    directory = Path(directory)
    if not directory.is_dir():
        raise ExamFormatError(f"{directory}: not a folder of exam files")
    return sorted(p for p in directory.glob("*.json") if p.is_file())


def load_exam_dir(directory: str | Path, *, only: Iterable[str] | None = None) -> list[Exam]:
    """Every exam in a folder (optionally only the given exam ids), all validated first."""
    files = exam_files(directory)
    if only is not None:
        wanted = set(only)
        files = [f for f in files if exam_id_from_stem(f.stem) in wanted]
        missing = wanted - {exam_id_from_stem(f.stem) for f in files}
        if missing:
            raise UnknownExamError(f"{directory}: no exam file for {sorted(missing)}")
    if not files:
        raise ExamFormatError(f"{directory}: no *.json exam files")
    exams = [load_exam(f) for f in files]
    ids: dict[str, Path] = {}
    for e in exams:
        if e.exam_id in ids:
            raise ExamFormatError(
                f"{e.path.name}: exam id {e.exam_id!r} repeats {ids[e.exam_id].name}"
            )
        ids[e.exam_id] = e.path
    return exams
