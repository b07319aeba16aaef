"""The HiPhO family evaluator against an in-process model: prompts, figures, judge wiring,
transcripts, aggregation, re-grading. (The Celery + HTTP path is tested in tests/hipho_exams.)"""

from __future__ import annotations

import base64
import re

import pytest

from evaluators.base import (
    Completion,
    ConfigError,
    EvalContext,
    ItemKey,
    ModelConfig,
    StoredOutcome,
)
from evaluators.hipho import (
    BUILTINS,
    DEFAULT_BENCHMARKS,
    EVALUATOR,
    GRADER_VERSION,
    regrade_outcome,
)
from evaluators.hipho.prompts import TEMPLATE_HASH
from tests.requirements import require
from tests.rubrics.paths import DEMO_DIR, hipho_dir

DEMO = {"source": "dir", "path": "data/hipho_demo", "exam": "podiumdemo-2025"}
REFERENCE = ModelConfig(slug="builtin-reference", model="builtin/reference")
TEXT_MODEL = ModelConfig(slug="text", model="openai/text-model")
VISION_MODEL = ModelConfig(slug="vision", model="openai/vision-model", vision=True)
JUDGE = ModelConfig(slug="judge", model="openai/judge-model")


class FakeModel:
    """Answers model calls from ``solutions`` (keyed by a fragment of the prompt) and judge calls
    by ``judge`` (a function of the prompt)."""

    def __init__(self, solutions=None, judge=None):
        self.solutions = solutions or {}
        self.judge = judge or (lambda prompt: "\\boxed{0}")
        self.calls = []

    def __call__(self, messages, *, model, sample_index=0, purpose="model", params=None):
        self.calls.append(
            {
                "messages": messages,
                "model": model.slug,
                "purpose": purpose,
                "sample_index": sample_index,
                "params": params,
            }
        )
        content = messages[-1]["content"]
        text = content if isinstance(content, str) else content[0]["text"]
        if purpose == "judge":
            reply = self.judge(text)
        else:
            reply = next((r for k, r in self.solutions.items() if k in text), "I do not know.")
        return Completion(text=reply, request_hash=str(len(self.calls)), model=model.model)


def _run(config, model, fake, *, judge=None, samples=1):
    outcomes = []
    for item in EVALUATOR.items(config, samples=samples):
        ctx = EvalContext(generate=fake, judge=judge)
        out = EVALUATOR.evaluate(config=config, model=model, item=item, ctx=ctx)
        outcomes.append((item, out))
    stored = [
        StoredOutcome(
            key=i.key,
            sample_index=i.sample_index,
            state="done",
            score=o.score,
            scores=o.scores,
            details=o.details,
        )
        for i, o in outcomes
    ]
    return outcomes, EVALUATOR.aggregate(config=config, outcomes=stored)


def test_it_ships_the_demo_benchmark_and_the_reference_builtin():
    assert BUILTINS == {"reference": "Reference answers (grader sanity check)"}
    (demo,) = DEFAULT_BENCHMARKS
    assert demo["slug"] == "hipho/podiumdemo-2025" and demo["config"] == DEMO
    assert EVALUATOR.validate_config(demo["config"])["exam"] == "podiumdemo-2025"
    assert (DEMO_DIR / "PodiumDemo_2025.json").is_file()


def test_the_reference_baseline_scores_every_answer_without_calling_a_model():
    fake = FakeModel()
    outcomes, metrics = _run(DEMO, REFERENCE, fake)
    assert fake.calls == []
    assert [o.scores["A"] for _, o in outcomes] == [2.0, 1.0, 2.5, 2.0, 1.0, 0.0]  # 6 is open-ended
    assert metrics["score"] == 8.5 and metrics["full_marks"] == 10.0
    assert metrics["medal"] == "gold" and metrics["sanity_check"] is True
    assert metrics["answer_level_only"] is True
    assert (
        metrics["exam_id"] == "podiumdemo-2025"
        and metrics["n_items"] == 6
        and metrics["n_failed"] == 0
    )
    assert metrics["problems"]["PodiumDemo_2025_3"] == {
        "full": 2.5,
        "A": 2.5,
        "S": None,
        "P": 2.5,
        "best_scheme": None,
        "samples": 1,
        "failed": 0,
    }
    assert metrics["share_of_top_human"] == pytest.approx(0.85)


def test_a_text_only_model_sees_a_visible_flag_instead_of_the_figure():
    fake = FakeModel(
        {
            "Sliding block": "a = g(\\sin\\theta - \\mu\\cos\\theta) \\boxed{g(\\sin\\theta-\\mu\\cos\\theta)} and \\boxed{3.2\\,\\mathrm{m/s^2}}"
        }
    )
    config = DEMO
    item = ItemKey("PodiumDemo_2025_3", 0)
    out = EVALUATOR.evaluate(
        config=config, model=TEXT_MODEL, item=item, ctx=EvalContext(generate=fake)
    )
    (call,) = fake.calls
    user = call["messages"][-1]["content"]
    assert isinstance(user, str) and "[FIGURES OMITTED: this problem has 1 figure(s)" in user
    assert "\\boxed{}" in user and "expects 2 final answer(s)" in user
    assert "Exam information sheet" in user and "Sliding block" in user
    assert out.details["figures_omitted"] == 1
    assert out.scores == {
        "A": 2.5,
        "S": None,
        "P": 2.5,
        "full": 2.5,
        "best_scheme": None,
        "judge_failed": False,
    }
    rules = [e["rule"] for e in out.transcript if e["role"] == "grading"]
    assert rules == ["after_equals:symbolic", "numeric"] or rules[1] == "numeric"
    assert [e["role"] for e in out.transcript[:3]] == ["prompt", "reply", "parsed"]


def test_a_vision_model_gets_the_figure_as_a_base64_image_part():
    fake = FakeModel()
    EVALUATOR.evaluate(
        config=DEMO,
        model=VISION_MODEL,
        item=ItemKey("PodiumDemo_2025_3", 0),
        ctx=EvalContext(generate=fake),
    )
    parts = fake.calls[0]["messages"][-1]["content"]
    assert parts[0]["type"] == "text" and "1 figure(s) attached" in parts[0]["text"]
    url = parts[1]["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    png = (DEMO_DIR / "image_question" / "PodiumDemo_2025_3_1.png").read_bytes()
    assert base64.b64decode(url.split(",", 1)[1]) == png


def test_the_judge_grades_each_criterion_and_the_better_level_counts():
    # the model answers problem 6 (open-ended) in words: only the step level can credit it
    def judge(prompt):
        if "CORRECT or INCORRECT" in prompt:
            return "INCORRECT"
        criterion = prompt.split("## Marking criterion", 1)[1]
        return (
            "Met. \\boxed{0.5}"
            if "smaller orbit is faster" in criterion or "GMm" in criterion
            else "\\boxed{0}"
        )

    fake = FakeModel(
        {
            "[Orbits]": "Gravity gives GMm/r^2 = m v^2/r, so the lower satellite is faster. \\boxed{the lower one}"
        },
        judge=judge,
    )
    out = EVALUATOR.evaluate(
        config=DEMO,
        model=TEXT_MODEL,
        item=ItemKey("PodiumDemo_2025_6", 2),
        ctx=EvalContext(generate=fake, judge=JUDGE),
    )
    judge_calls = [c for c in fake.calls if c["purpose"] == "judge"]
    assert len(judge_calls) == 3 and all(c["model"] == "judge" for c in judge_calls)
    assert {c["sample_index"] for c in judge_calls} == {200}  # sample 2, first draw of each prompt
    prompt = judge_calls[0]["messages"][0]["content"]
    assert "strict and conservative grader" in prompt and "lower satellite is faster" in prompt
    assert out.scores["A"] == 0.0 and out.scores["S"] == 1.0 and out.scores["P"] == 1.0
    assert out.scores["best_scheme"] == 0
    judged = [e for e in out.transcript if e["role"] == "judge" and e["kind"] == "criterion"]
    assert [e["score"] for e in judged] == [0.5, 0.0, 0.5]
    assert all(e["prompt"] and e["criterion"] for e in judged)
    assert out.details["answer_level_only"] is False


def test_the_answer_judge_decides_only_when_no_rule_matches():
    verdicts = iter(["CORRECT"])
    fake = FakeModel(
        {
            "Resistors": "\\boxed{the fourth option}",
            "[Cliff throw]": "\\boxed{\\sqrt{2h/g}} \\boxed{30.3}",
        },
        judge=lambda prompt: next(verdicts) if "CORRECT or INCORRECT" in prompt else "\\boxed{0}",
    )
    out = EVALUATOR.evaluate(
        config={**DEMO, "step_level": False},
        model=TEXT_MODEL,
        item=ItemKey("PodiumDemo_2025_2", 0),
        ctx=EvalContext(generate=fake, judge=JUDGE),
    )
    assert [v["rule"] for v in out.details["answers"]] == ["judge"]
    assert out.scores["A"] == 1.0
    out = EVALUATOR.evaluate(
        config={**DEMO, "step_level": False},
        model=TEXT_MODEL,
        item=ItemKey("PodiumDemo_2025_1", 0),
        ctx=EvalContext(generate=fake, judge=JUDGE),
    )
    assert [v["rule"] for v in out.details["answers"]] == ["symbolic", "string"] or out.scores[
        "A"
    ] == 2.0
    assert len([c for c in fake.calls if c["purpose"] == "judge"]) == 1


def test_without_a_judge_the_run_is_answer_level_only():
    fake = FakeModel({"Resistors": "\\boxed{D}"})
    _, metrics = _run(DEMO, TEXT_MODEL, fake, samples=2)
    assert metrics["answer_level_only"] is True
    assert metrics["problems"]["PodiumDemo_2025_2"]["P"] == 1.0
    assert metrics["score"] == 1.0 and metrics["medal"] == "none"
    assert metrics["score_se"] == 0.0 and metrics["medal_probs"]["none"] == 1.0
    assert all(c["purpose"] == "model" for c in fake.calls)
    assert {c["sample_index"] for c in fake.calls} == {0, 1}


def test_it_passes_the_configured_temperature():
    fake = FakeModel()
    EVALUATOR.evaluate(
        config={**DEMO, "temperature": 0.6},
        model=TEXT_MODEL,
        item=ItemKey("PodiumDemo_2025_5", 0),
        ctx=EvalContext(generate=fake),
    )
    assert fake.calls[0]["params"] == {"temperature": 0.6}


def test_it_resumes_from_a_checkpointed_reply_without_calling_the_model():
    fake = FakeModel()
    saved = []
    out = EVALUATOR.evaluate(
        config=DEMO,
        model=TEXT_MODEL,
        item=ItemKey("PodiumDemo_2025_5", 0),
        ctx=EvalContext(generate=fake, checkpoint=saved.append),
    )
    assert saved == [{"reply": "I do not know."}]
    fake2 = FakeModel()
    out = EVALUATOR.evaluate(
        config=DEMO,
        model=TEXT_MODEL,
        item=ItemKey("PodiumDemo_2025_5", 0),
        ctx=EvalContext(generate=fake2, resume={"reply": "E = hc/\\lambda = \\boxed{2.48 eV}"}),
    )
    assert fake2.calls == [] and out.scores["A"] == 1.0


def test_regrade_uses_the_stored_reply():
    fake = FakeModel({"photon": "\\boxed{2.481\\,\\mathrm{eV}}"})
    out = EVALUATOR.evaluate(
        config=DEMO,
        model=TEXT_MODEL,
        item=ItemKey("PodiumDemo_2025_5", 0),
        ctx=EvalContext(generate=fake),
    )
    again = regrade_outcome(config=DEMO, key="PodiumDemo_2025_5", details=out.details)
    assert again.scores == out.scores and again.details["reply"] == out.details["reply"]
    assert again.details["grader_version"] == GRADER_VERSION


def test_regrading_the_reference_baseline_never_asks_the_judge():
    out = EVALUATOR.evaluate(
        config=DEMO,
        model=REFERENCE,
        item=ItemKey("PodiumDemo_2025_6", 0),
        ctx=EvalContext(generate=FakeModel(), judge=JUDGE),
    )
    asked = []
    again = regrade_outcome(
        config=DEMO,
        key="PodiumDemo_2025_6",
        details=out.details,
        judge=lambda prompt: asked.append(prompt) or "\\boxed{1.5}",
    )
    assert asked == [] and again.scores["S"] is None and again.details["sanity_check"] is True


def test_spec_names_versions_and_hashes():
    spec = EVALUATOR.spec(DEMO)
    assert spec["prompt_template_hash"] == TEMPLATE_HASH and re.fullmatch(
        r"[0-9a-f]{64}", TEMPLATE_HASH
    )
    assert spec["grader_version"] == GRADER_VERSION
    assert set(spec["benchmark_content"]) == {"podiumdemo-2025"}


@pytest.mark.parametrize(
    "config,message",
    [
        ({"source": "dir", "path": "data/hipho_demo"}, "field 'exam'"),
        ({"source": "dir", "path": "data/nowhere", "exam": "x-2025"}, "field 'path'"),
        ({"source": "dir", "path": "data/hipho_demo", "exam": "ipho-2025"}, "no exam 'ipho-2025'"),
        ({"source": "ftp", "exam": "ipho-2025"}, "field 'source'"),
        ({**DEMO, "temperature": 5}, "field 'temperature'"),
        ({**DEMO, "colour": "red"}, "unknown config field"),
        ({"source": "hf", "exam": "ipho-2025"}, "field 'cache_dir'"),
    ],
)
def test_it_rejects_bad_configs(config, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        EVALUATOR.validate_config(config)


def test_the_suite_keys_items_by_exam_and_problem():
    require(hipho_dir().is_dir(), f"shared HiPhO data at {hipho_dir()}")
    config = {"source": "dir", "path": str(hipho_dir()), "exam": "suite"}
    keys = EVALUATOR.items(config, samples=1)
    assert len(keys) == 403
    assert keys[0].key.count("/") == 1 and keys[0].key.startswith("apho-2025/APhO_2025_")
    one = {"source": "dir", "path": str(hipho_dir()), "exam": "ipho-2025"}
    assert len(EVALUATOR.items(one, samples=8)) == 39 * 8


def test_the_suite_aggregates_per_exam_with_the_reference_baseline():
    require(hipho_dir().is_dir(), f"shared HiPhO data at {hipho_dir()}")
    config = {"source": "dir", "path": str(hipho_dir()), "exam": "suite"}
    _, metrics = _run(config, REFERENCE, FakeModel())
    exams = metrics["exams"]
    assert len(exams) == 14
    ipho = exams["ipho-2025"]
    assert ipho["score"] == pytest.approx(29.4) and ipho["medal"] == "gold"
    assert exams["cpho-2025"]["medal"] is None and exams["cpho-2025"]["score"] == pytest.approx(
        320.0
    )
    # open-ended items (no reference answer) are the only points the baseline misses
    assert exams["eupho-2025"]["score"] == pytest.approx(29.0 - 4.0)
    assert metrics["medal_counts"]["gold"] == 13 and metrics["sanity_check"] is True
