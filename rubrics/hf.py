"""Fetch the HiPhO exams from the Hugging Face dataset ``SciYu/HiPhO`` into a local cache.

The download goes through ``huggingface_hub.snapshot_download`` with a cache folder of our
choosing, so a second call is served from disk. The snapshot is then read with the same
validating folder loader as a local copy: the data is trusted no more because it came from
the Hub.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rubrics.errors import ExamSourceError
from rubrics.exam import Exam, exam_files, load_exam_dir

HF_REPO_ID = "SciYu/HiPhO"
# Only the exam files and their figures: the dataset also carries README and previews.
_PATTERNS = ["*.json", "**/*.json", "image_question/*", "**/image_question/*", "LICENSE*"]


def hf_snapshot(
    *,
    cache_dir: str | Path,
    repo_id: str = HF_REPO_ID,
    revision: str | None = None,
    offline: bool = False,
) -> Path:
    """Download (or reuse) the dataset snapshot; return the folder holding the exam files."""
    try:
        from huggingface_hub import snapshot_download
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise ExamSourceError("huggingface_hub is not installed") from exc
    try:
        root = Path(
            snapshot_download(
                repo_id=repo_id,
                repo_type="dataset",
                revision=revision,
                cache_dir=str(cache_dir),
                allow_patterns=_PATTERNS,
                local_files_only=offline,
            )
        )
    except Exception as exc:  # the hub raises many kinds (offline, 404, auth): report one
        raise ExamSourceError(f"cannot fetch {repo_id} from Hugging Face: {exc}") from exc
    return exam_folder_in(root)


def exam_folder_in(root: Path) -> Path:
    """The folder under ``root`` that holds ``<Olympiad>_<year>.json`` files (the dataset may
    keep them at the top or under a sub-folder such as ``data/``)."""
    candidates = [root] + sorted(p for p in root.rglob("*") if p.is_dir())
    for folder in candidates:
        if any(f.stem.rsplit("_", 1)[-1].isdigit() for f in exam_files(folder)):
            return folder
    raise ExamSourceError(f"{root}: the snapshot holds no <Olympiad>_<year>.json exam files")


def load_hf_exams(
    *,
    cache_dir: str | Path,
    only: Iterable[str] | None = None,
    repo_id: str = HF_REPO_ID,
    revision: str | None = None,
    offline: bool = False,
) -> list[Exam]:
    folder = hf_snapshot(cache_dir=cache_dir, repo_id=repo_id, revision=revision, offline=offline)
    return load_exam_dir(folder, only=only)
