"""`manage.py evaluate`: submit from the command line and follow the job to its end."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from jobs.models import Job

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_follows_a_job_to_the_end_and_prints_the_scores(celery_worker, catalog, demo_exam):
    celery_worker(concurrency=2)
    out = StringIO()
    call_command(
        "evaluate",
        "--model",
        "builtin-reference",
        "--benchmark",
        "hipho/podium*",
        "--samples",
        "2",
        "--timeout",
        "120",
        stdout=out,
    )
    text = out.getvalue()
    job = Job.objects.get()
    assert job.status == Job.Status.DONE and job.done_items == job.total_items
    assert f"job {job.pk} done: {job.total_items} done, 0 failed" in text
    run = job.runs.get()
    assert f"{run.score:.4g}" in text and demo_exam.slug in text
    assert "[########################################]" in text  # the bar reached the end


def test_it_returns_at_once_with_detach(catalog, demo_exam):
    out = StringIO()
    call_command(
        "evaluate",
        "--model",
        "builtin/reference",
        "--benchmark",
        demo_exam.slug,
        "--detach",
        stdout=out,
    )
    job = Job.objects.get()
    assert job.status == Job.Status.PENDING
    assert (
        out.getvalue().strip()
        == f"job {job.pk}: 1 model(s) x 1 benchmark(s), {job.total_items} items"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--model", "no-such-model", "--benchmark", "hipho/*"], "unknown model(s): no-such-model"),
        (
            ["--model", "builtin-reference", "--benchmark", "nothing/*"],
            "no active benchmark matches 'nothing/*'",
        ),
        (["--model", "builtin-reference", "--benchmark", "hipho/*", "--samples", "0"], "samples"),
    ],
)
def test_it_explains_what_is_wrong_and_submits_nothing(catalog, args, message):
    with pytest.raises(
        CommandError, match=message.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")
    ):
        call_command("evaluate", *args)
    assert not Job.objects.exists()
