"""Malformed exam files each give a clear error naming the file, record and field, and a
folder with one bad file yields no exams at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rubrics.errors import ExamFormatError, ExamSizeError
from rubrics.exam import MAX_EXAM_BYTES, load_exam, load_exam_dir


def _problem(**over):
    record = {
        "id": "Test_2025_1",
        "context": "",
        "question": "How fast?",
        "marking": [["Award 1 pt if ..."]],
        "answer": ["\\boxed{3}"],
        "answer_type": ["Numerical Value"],
        "unit": ["m/s"],
        "points": [1.0],
        "modality": "text-only",
        "field": "Mechanics",
        "source": "Test_2025",
        "image_question": [],
    }
    record.update(over)
    return record


def _write(folder: Path, records, name="Test_2025.json") -> Path:
    path = folder / name
    path.write_text(json.dumps([{"information": "g = 9.8"}] + records), encoding="utf-8")
    return path


def test_it_loads_a_good_file(tmp_path):
    exam = load_exam(_write(tmp_path, [_problem()]))
    assert exam.exam_id == "test-2025" and exam.full_marks == 1.0
    assert exam.problems[0].units == ("m/s",)


def test_it_reports_bad_json_with_line_and_column(tmp_path):
    path = tmp_path / "Test_2025.json"
    path.write_text('[{"information": "x"},\n {"id": "a",, }]', encoding="utf-8")
    with pytest.raises(ExamFormatError, match=r"Test_2025\.json: invalid JSON at line 2 column"):
        load_exam(path)


@pytest.mark.parametrize("field", ["id", "question", "answer", "points"])
def test_it_names_a_missing_field(tmp_path, field):
    record = _problem()
    del record[field]
    with pytest.raises(ExamFormatError) as err:
        load_exam(_write(tmp_path, [_problem(id="Test_2025_0"), record]))
    message = str(err.value)
    assert message.startswith("Test_2025.json: record 2")
    assert f"'{field}'" in message
    if field != "id":
        assert "problem 'Test_2025_1'" in message


def test_it_rejects_points_not_aligned_with_answers(tmp_path):
    bad = _problem(answer=["\\boxed{1}", "\\boxed{2}"], points=[1.0])
    with pytest.raises(
        ExamFormatError,
        match=r"record 1 \(problem 'Test_2025_1'\): field 'points' has 1 entries but 'answer' has 2",
    ):
        load_exam(_write(tmp_path, [bad]))


def test_it_rejects_a_negative_or_textual_point_value(tmp_path):
    with pytest.raises(ExamFormatError, match=r"'points'\[0\] must be a non-negative number"):
        load_exam(_write(tmp_path, [_problem(points=["1"])]))
    with pytest.raises(ExamFormatError, match=r"'points'\[0\]"):
        load_exam(_write(tmp_path, [_problem(points=[-1])]))


def test_it_rejects_a_missing_figure(tmp_path):
    bad = _problem(image_question=["image_question/Test_2025_1_1.png"])
    with pytest.raises(
        ExamFormatError, match=r"figure 'image_question/Test_2025_1_1\.png' does not exist"
    ):
        load_exam(_write(tmp_path, [bad]))
    (tmp_path / "image_question").mkdir()
    (tmp_path / "image_question" / "Test_2025_1_1.png").write_bytes(b"\x89PNG\r\n")
    assert load_exam(_write(tmp_path, [bad])).problems[0].figures == (
        "image_question/Test_2025_1_1.png",
    )


def test_it_rejects_a_figure_outside_the_folder(tmp_path):
    with pytest.raises(ExamFormatError, match="inside the exam folder"):
        load_exam(_write(tmp_path, [_problem(image_question=["../secret.png"])]))


def test_it_refuses_a_fifty_megabyte_file_before_reading_it(tmp_path):
    path = tmp_path / "Huge_2025.json"
    with path.open("wb") as f:  # sparse: 50 MB on paper, nothing on disk
        f.truncate(50 * 1024 * 1024)
    assert path.stat().st_size > MAX_EXAM_BYTES
    with pytest.raises(
        ExamSizeError, match=r"Huge_2025\.json: file is 52428800 bytes; the limit is"
    ):
        load_exam(path)


def test_it_rejects_a_missing_information_sheet(tmp_path):
    path = tmp_path / "Test_2025.json"
    path.write_text(json.dumps([_problem()]), encoding="utf-8")
    with pytest.raises(ExamFormatError, match=r"record 0: must be \{\"information\""):
        load_exam(path)


def test_it_rejects_duplicate_problem_ids(tmp_path):
    with pytest.raises(
        ExamFormatError, match=r"record 2 \(problem 'Test_2025_1'\): field 'id' repeats record 1"
    ):
        load_exam(_write(tmp_path, [_problem(), _problem()]))


def test_it_rejects_a_badly_named_file(tmp_path):
    with pytest.raises(ExamFormatError, match="<Olympiad>_<year>.json"):
        load_exam(_write(tmp_path, [_problem()], name="exam.json"))


def test_a_bad_file_in_a_folder_loads_nothing(tmp_path):
    _write(tmp_path, [_problem()], name="Good_2025.json")
    _write(tmp_path, [_problem(points=[1.0, 2.0])], name="Bad_2024.json")
    with pytest.raises(ExamFormatError, match=r"Bad_2024\.json: record 1"):
        load_exam_dir(tmp_path)


def test_it_accepts_the_official_quirks(tmp_path):
    # one unit for two answers, and one scheme written as a flat list of criteria
    quirky = _problem(
        answer=["\\boxed{1}", "\\boxed{2}"],
        points=[1.0, 2.0],
        unit=[None],
        answer_type=["Expression"],
        marking=["Award 1 pt if ...", "Award 2 pts if ..."],
    )
    problem = load_exam(_write(tmp_path, [quirky])).problems[0]
    assert problem.units == (None, None)
    assert problem.answer_types == ("Expression", "")
    assert problem.marking == (("Award 1 pt if ...", "Award 2 pts if ..."),)
    assert problem.full_marks == 3.0


def test_the_hugging_face_snapshot_folder_is_found_under_data(tmp_path):
    from rubrics.errors import ExamSourceError
    from rubrics.hf import exam_folder_in

    (tmp_path / "README.md").write_text("dataset card")
    data = tmp_path / "data"
    data.mkdir()
    _write(data, [_problem()])
    assert exam_folder_in(tmp_path) == data
    with pytest.raises(ExamSourceError, match="no <Olympiad>_<year>.json exam files"):
        exam_folder_in(_empty(tmp_path))


def _empty(tmp_path: Path) -> Path:
    empty = tmp_path / "empty"
    empty.mkdir()
    return empty
