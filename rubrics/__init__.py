"""HiPhO physics-olympiad rubrics: exam data, answer checking, marking-scheme grading, medals.

Pure Python (no Django, no litellm). Modules:

* ``exam``       the data model and the validating loader for the official JSON format
* ``hf``         fetching the exams from the Hugging Face dataset into a local cache
* ``catalogue``  official human medal cut-offs per exam
* ``boxed``      ``\\boxed{}`` extraction
* ``answers``    answer-level grading (rule order, the deciding rule recorded)
* ``steps``      step-level grading with a judge callable
* ``scoring``    exam scores, medals, bootstrap intervals
"""

from rubrics.errors import ExamFormatError, ExamSizeError, ExamSourceError, UnknownExamError

__all__ = ["ExamFormatError", "ExamSizeError", "ExamSourceError", "UnknownExamError"]
