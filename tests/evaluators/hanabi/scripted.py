"""A scripted model for evaluator tests: reads the numbered legal moves from the prompt and
answers in the setting's format; some replies are deliberately unusable."""

from __future__ import annotations

import json
import re

from evaluators.base import Completion

LEGAL_LINE = re.compile(r"^(\d+)\. \((\w+)", re.MULTILINE)


class ScriptedModel:
    def __init__(self, *, garbage_every: int = 0, always_garbage: bool = False) -> None:
        self.calls: list[list[dict]] = []
        self.garbage_every = garbage_every
        self.always_garbage = always_garbage

    def __call__(self, messages, *, model, sample_index=0, purpose="model", params=None):
        self.calls.append(list(messages))
        n = len(self.calls)
        if self.always_garbage or (self.garbage_every and n % self.garbage_every == 0):
            text = "Let me think about the fireworks... I am not sure."
        else:
            prompt = next(m["content"] for m in messages if m["role"] == "user")
            legal = LEGAL_LINE.findall(prompt)
            # prefer a hint, then a discard: a harmless, always-legal style of play
            kinds = {k: int(i) for i, k in reversed(legal)}
            idx = kinds.get("Reveal", kinds.get("Discard", 0))
            if "MOVE: <number>" in messages[0]["content"]:
                text = f"Hints help my partner.\nMOVE: {idx}"
            else:
                text = json.dumps(
                    {
                        "reason": "hint first",
                        "move_ratings": {str(idx): 7},
                        "deductions": {"P0": ["card 0: unknown"]},
                        "action": idx,
                    }
                )
        return Completion(
            text=text,
            request_hash=f"h{n}",
            model=model.model,
            input_tokens=100,
            output_tokens=20,
            cost_usd=0.0001,
            latency_s=0.01,
        )
