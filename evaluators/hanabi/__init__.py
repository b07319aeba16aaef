"""The Hanabi family: LLM players in three prompt settings, rule bots, self- and cross-play.

``EVALUATOR`` implements evaluators.base.FamilyEvaluator; ``BUILTINS`` lists the bots the
platform registers as builtin/<name> models; ``DEFAULT_BENCHMARKS`` are the demo benchmarks.
"""

from evaluators.hanabi.evaluator import HanabiEvaluator
from evaluators.hanabi.export import game_log, game_rewards, trajectory, verify_export, write_jsonl
from evaluators.hanabi.regret import game_regrets, move_regret
from games.hanabi.bots import BOT_DISPLAY_NAMES

EVALUATOR = HanabiEvaluator()

BUILTINS: dict[str, str] = dict(BOT_DISPLAY_NAMES)

_BOT_SELFPLAY = [
    {
        "slug": f"hanabi/bots-{p}p",
        "name": f"Hanabi self-play, {p} players (bot baseline)",
        "version": "1",
        "config": {"players": p, "setting": None, "mode": "self"},
        "default_samples": 20,
        "description": f"Every seat the same agent, {p} players; meant for the rule bots.",
    }
    for p in (2, 3, 4, 5)
]
_LLM_SELFPLAY = [
    {
        "slug": f"hanabi/{setting}-2p",
        "name": f"Hanabi {setting.capitalize()} self-play, 2 players",
        "version": "1",
        "config": {"players": 2, "setting": setting, "mode": "self"},
        "default_samples": 3,
        "demo": False,  # language models only: the bots' baseline is hanabi/bots-2p on the same seeds
        "description": f"Two copies of the model play together with the {setting.capitalize()} "
        "prompts (seeds 0..n-1, the same deals for every model).",
    }
    for setting in ("watson", "sherlock", "mycroft")
]
_CROSS = [
    {
        "slug": "hanabi/watson-2p-x-iggi",
        "name": "Hanabi Watson cross-play with IGGI, 2 players",
        "version": "1",
        "config": {
            "players": 2,
            "setting": "watson",
            "mode": "cross",
            "partners": ["builtin-iggi"],
        },
        "default_samples": 4,
        "demo": False,
        "description": "The model partners the IGGI rule bot; its seat alternates over seeds.",
    }
]
# The bots with three partners, so a fresh demo has a cross-play matrix (rows: every bot; columns:
# these partners, self-play on the diagonal) and not only self-play.
DEMO_CROSS_PARTNERS = ("iggi", "piers", "outer")
_BOT_CROSS = [
    {
        "slug": f"hanabi/bots-2p-x-{partner}",
        "name": f"Hanabi cross-play with {BOT_DISPLAY_NAMES[partner]}, 2 players (bot baseline)",
        "version": "1",
        "config": {
            "players": 2,
            "setting": None,
            "mode": "cross",
            "partners": [f"builtin-{partner}"],
        },
        "default_samples": 10,
        "description": f"The agent partners the {partner} rule bot; its seat alternates over seeds. "
        "Meant for the rule bots (the demo's cross-play matrix).",
    }
    for partner in DEMO_CROSS_PARTNERS
]
DEFAULT_BENCHMARKS: list[dict] = _BOT_SELFPLAY + _BOT_CROSS + _LLM_SELFPLAY + _CROSS

__all__ = [
    "BUILTINS",
    "DEFAULT_BENCHMARKS",
    "EVALUATOR",
    "HanabiEvaluator",
    "game_log",
    "game_regrets",
    "game_rewards",
    "move_regret",
    "trajectory",
    "verify_export",
    "write_jsonl",
]
