"""The demo exam end to end: a real Celery worker, the fake OpenAI-compatible server as both
the model under test and the judge (over real HTTP through litellm), results in the database;
then `regrade` grades the stored replies again without calling the model."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from catalog.models import Benchmark, ModelEntry
from catalog.services import benchmarks_ensure
from jobs import services
from jobs.models import ItemResult, Job, LLMCall
from tests.fixtures.services import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

# What the fake model answers per problem (keyed by a phrase of the problem's text).
SOLUTIONS = {
    "[Cliff throw]": "t = \\sqrt{2h/g}, d = v_0 t. \\boxed{t=\\sqrt{\\frac{2h}{g}}} and \\boxed{30.30\\,\\mathrm{m}}",
    "Resistors": "The parallel resistance is 2 ohm. \\boxed{C}",
    "[Sliding block]": "\\boxed{a = g(\\sin\\theta - \\mu\\cos\\theta)} so \\boxed{4.1}",
    "[Isothermal expansion]": "\\boxed{W = nRT\\ln 2} giving \\boxed{2.0 \\times 10^{3}\\ \\mathrm{J}}",
    "photon": "E = hc/\\lambda, so \\boxed{3.1\\,\\mathrm{eV}}",
    "[Orbits]": "GMm/r^2 = mv^2/r, so v = sqrt(GM/r): the lower satellite is faster. \\boxed{\\text{lower}}",
}
# Expected per problem: (A, S, P). The judge awards 0.5 to every criterion worth 0.5 pt, 0 to
# the others, and says INCORRECT to every answer-equivalence question.
EXPECTED = {
    "PodiumDemo_2025_1": (2.0, 2.0, 2.0),
    "PodiumDemo_2025_2": (0.0, None, 0.0),  # multiple choice, no marking scheme
    "PodiumDemo_2025_3": (1.5, 1.5, 1.5),  # scheme 0: 0.5+0.5+0.5+0; scheme 1: 0
    "PodiumDemo_2025_4": (1.0, 1.0, 1.0),
    "PodiumDemo_2025_5": (0.0, 1.0, 1.0),
    "PodiumDemo_2025_6": (0.0, 1.5, 1.5),  # open-ended: step level only
}


def fake_rule(request):
    messages = request["messages"]
    text = messages[-1]["content"]
    if isinstance(text, list):
        text = text[0]["text"]
    if "CORRECT or INCORRECT" in text:
        return "INCORRECT"
    if "## Marking criterion" in text:
        criterion = text.split("## Marking criterion", 1)[1]
        return (
            "The step is shown. \\boxed{0.5}"
            if "Award 0.5 pt" in criterion
            else "Not shown. \\boxed{0}"
        )
    for phrase, reply in SOLUTIONS.items():
        if phrase in text:
            return reply
    return "no idea"


@pytest.fixture
def entries(db, fake_llm):
    model_cfg = fake_llm.model_config(slug="fake-solver", model="openai/fake-solver")
    judge_cfg = fake_llm.model_config(slug="fake-judge", model="openai/fake-judge")
    solver = ModelEntry.objects.create(
        slug="fake-solver",
        display_name="Fake solver",
        litellm_model=model_cfg.model,
        api_base=model_cfg.api_base,
        api_key_env=model_cfg.api_key_env,
        params={"temperature": 0.0},
    )
    judge = ModelEntry.objects.create(
        slug="fake-judge",
        display_name="Fake judge",
        litellm_model=judge_cfg.model,
        api_base=judge_cfg.api_base,
        api_key_env=judge_cfg.api_key_env,
        params={"temperature": 0.0},
    )
    reference = ModelEntry.objects.create(
        slug="builtin-reference", display_name="Reference", litellm_model="builtin/reference"
    )
    (bench,) = [b for b in benchmarks_ensure("hipho") if b.slug == "hipho/podiumdemo-2025"]
    Benchmark.objects.filter(pk=bench.pk).update(judge=judge)
    bench.refresh_from_db()
    return solver, judge, reference, bench


def test_the_demo_exam_runs_through_celery_and_regrades(celery_worker, fake_llm, entries):
    solver, _judge, reference, bench = entries
    fake_llm.rule = fake_rule
    celery_worker(concurrency=2, lease=30)  # a loaded machine must not make items look lost
    job = services.job_submit(models=[solver, reference], benchmarks=[bench], samples=1)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        timeout=300,
        what="the HiPhO job to finish",
    )
    job.refresh_from_db()
    assert job.failed_items == 0 and job.done_items == job.total_items == 12

    run = job.runs.get(model=solver)
    for item in run.items.all():
        assert item.state == ItemResult.State.DONE
        A, S, P = EXPECTED[item.item_key]
        assert (item.scores["A"], item.scores["S"], item.scores["P"]) == (A, S, P), item.item_key
        assert item.score == P
        roles = [t["role"] for t in item.transcript]
        assert roles[:3] == ["prompt", "reply", "parsed"] and "grading" in roles
        assert (
            item.details["reply"]
            == SOLUTIONS[next(k for k in SOLUTIONS if k in item.transcript[0]["text"])]
        )
    fig = run.items.get(item_key="PodiumDemo_2025_3")
    assert "[FIGURES OMITTED" in fig.transcript[0]["text"] and fig.details["figures_omitted"] == 1
    rules = {v["rule"] for v in fig.details["answers"]}
    assert rules == {"string", "judge"}  # the wrong number went to the judge, which said no

    m = run.metrics
    assert m["score"] == pytest.approx(7.0) and run.score == pytest.approx(7.0)
    assert m["medal"] == "gold"  # exactly on the (illustrative) gold cut-off
    assert m["answer_level_only"] is False and m["sanity_check"] is False
    assert m["problems"]["PodiumDemo_2025_5"] == {
        "full": 1.0,
        "A": 0.0,
        "S": 1.0,
        "P": 1.0,
        "best_scheme": 0,
        "samples": 1,
        "failed": 0,
    }
    assert m["cutoffs"] == {"gold": 7.0, "silver": 5.0, "bronze": 3.0, "top_human": 10.0}
    assert m["n_items"] == 6 and m["n_failed"] == 0
    # calls that reached the server (a retried item would add cache hits, not new calls)
    model_calls = LLMCall.objects.filter(run=run, purpose="model", cache_hit=False).count()
    judge_calls = LLMCall.objects.filter(run=run, purpose="judge", cache_hit=False).count()
    assert model_calls == 6
    # 4+0+(4+2)+3+2+3 criteria, plus one answer question per unmatched answer: "C" (2), 4.1
    # (3b), 2.0e3 (4b), 3.1 (5); the open-ended problem 6 has no reference to compare with
    assert judge_calls == 18 + 4

    ref_run = job.runs.get(model=reference)
    assert (
        ref_run.metrics["score"] == pytest.approx(8.5) and ref_run.metrics["sanity_check"] is True
    )
    assert LLMCall.objects.filter(run=ref_run, purpose="model").count() == 0

    # regrade without the judge: answers graded again, old grades kept in the history
    requests_before = fake_llm.counters.requests
    out = io.StringIO()
    call_command("regrade", str(run.pk), "--answers-only", stdout=out)
    assert f"run {run.pk}: re-graded 6 items (0 changed); score 7.0" in out.getvalue()
    assert fake_llm.counters.requests == requests_before  # nothing was asked of any model
    item = run.items.get(item_key="PodiumDemo_2025_5")
    assert item.scores["S"] == 1.0 and item.score == 1.0
    (old,) = item.details["history"]
    assert old["scores"]["P"] == 1.0 and old["grader_version"]
    run.refresh_from_db()
    assert run.score == pytest.approx(7.0) and run.spec["regrades"][0]["judge"] is False

    # regrade with the judge: identical prompts are served from the response cache
    call_command("regrade", str(run.pk), stdout=io.StringIO())
    assert fake_llm.counters.requests == requests_before
    item.refresh_from_db()
    assert len(item.details["history"]) == 2 and item.scores["S"] == 1.0
    assert LLMCall.objects.filter(run=run, purpose="model", cache_hit=False).count() == model_calls
