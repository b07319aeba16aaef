"""A symlink in an exam folder could carry any file of the host (the secret key, say) into a
prompt, base64-encoded for a vision model. Figures must be real files inside the folder."""

from __future__ import annotations

import pytest

from rubrics.errors import ExamFormatError
from rubrics.exam import load_exam
from tests.rubrics.test_exam_format_errors import _problem, _write

FIGURE = "image_question/Test_2025_1_1.png"


@pytest.fixture
def secret(tmp_path):
    path = tmp_path / "outside" / "secret_key"
    path.parent.mkdir()
    path.write_text("not-for-any-prompt")
    exam_dir = tmp_path / "exam"
    (exam_dir / "image_question").mkdir(parents=True)
    return path, exam_dir


def test_a_symlinked_figure_is_refused_when_loading(secret):
    target, exam_dir = secret
    (exam_dir / FIGURE).symlink_to(target)
    with pytest.raises(ExamFormatError, match="symlink"):
        load_exam(_write(exam_dir, [_problem(image_question=[FIGURE])]))


def test_a_symlinked_folder_on_the_way_is_refused(secret):
    target, exam_dir = secret
    (exam_dir / "linked").symlink_to(target.parent, target_is_directory=True)
    with pytest.raises(ExamFormatError, match="symlink"):
        load_exam(_write(exam_dir, [_problem(image_question=["linked/secret_key"])]))


def test_a_figure_read_later_is_checked_again(secret):
    """Loaded without figure checks (or swapped for a link after loading): still refused when
    the prompt would read it."""
    target, exam_dir = secret
    (exam_dir / FIGURE).write_bytes(b"\x89PNG\r\n")
    exam = load_exam(_write(exam_dir, [_problem(image_question=[FIGURE])]))
    assert exam.figure_path(FIGURE).read_bytes() == b"\x89PNG\r\n"
    (exam_dir / FIGURE).unlink()
    (exam_dir / FIGURE).symlink_to(target)
    with pytest.raises(ExamFormatError, match="symlink"):
        exam.figure_path(FIGURE)
