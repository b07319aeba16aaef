"""Exceptions raised by the HiPhO rubrics package. Every message names the file, the record
(index and problem id) and the field at fault, so a bad import can be fixed without guessing."""

from __future__ import annotations


class ExamFormatError(ValueError):
    """An exam file is malformed: bad JSON, a missing or mistyped field, misaligned lists,
    a figure that does not exist. Raised before anything from the file is used."""


class ExamSizeError(ExamFormatError):
    """An exam file (or a figure) is larger than the loader accepts."""


class UnknownExamError(KeyError):
    """An exam id that is not in the folder or the catalogue."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else "unknown exam"


class ExamSourceError(RuntimeError):
    """The exam source (a folder or the Hugging Face dataset) cannot be reached."""
