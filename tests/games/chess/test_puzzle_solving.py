"""Puzzle rules on hand-made puzzles, and the acceptance check on the shared 2k sample:
full-strength Stockfish solves at least 95%, a random legal mover far fewer."""

from __future__ import annotations

import random

import chess
import pytest

from games.chess.engine import Engine, SearchLimit
from games.chess.puzzles import Puzzle, accuracy_by_band, load_puzzles, rating_band, solve_puzzle

# Black pushes c7-c6; White has two mating moves (Ra8#, Rb8#), the listed one is Ra8.
TWO_MATES = Puzzle(
    id="m1", fen="6k1/2p2ppp/8/8/8/8/5PPP/RR4K1 b - - 0 1", moves=("c7c6", "a1a8"), rating=500
)
# A two-step line checked move by move: White takes the queen on d5, then, after the listed
# reply Ra7, plays Qa8+.
TWO_STEPS = Puzzle(
    id="s2",
    fen="r3k3/8/8/3q4/8/8/3Q4/4K3 b - - 0 1",
    moves=("e8f8", "d2d5", "a8a7", "d5a8"),
    rating=1200,
)


def fixed(*ucis: str):
    it = iter(ucis)
    return lambda board: chess.Move.from_uci(next(it))


def test_the_solver_starts_after_the_opponents_move():
    assert TWO_MATES.start_board().fen().split()[:2] == ["6k1/5ppp/2p5/8/8/8/5PPP/RR4K1", "w"]


def test_any_mate_counts_on_a_mate_in_one():
    assert solve_puzzle(TWO_MATES, fixed("a1a8")).solved
    assert solve_puzzle(TWO_MATES, fixed("b1b8")).solved  # not the listed move, but mate
    miss = solve_puzzle(TWO_MATES, fixed("a1a7"))
    assert not miss.solved and miss.failed_at == 0


def test_every_solver_move_must_be_right():
    assert TWO_STEPS.solver_moves == ("d2d5", "d5a8")
    assert solve_puzzle(TWO_STEPS, fixed("d2d5", "d5a8")).solved
    wrong = solve_puzzle(TWO_STEPS, fixed("d2d5", "d5d1"))
    assert not wrong.solved and wrong.failed_at == 1 and wrong.played == ("d2d5", "d5d1")


def test_accuracy_by_band():
    bands = accuracy_by_band([(400, True), (999, False), (1000, True), (2600, True)])
    assert bands == {
        "<1000": {"n": 2, "solved": 1, "rate": 0.5},
        "1000-1499": {"n": 1, "solved": 1, "rate": 1.0},
        "2500+": {"n": 1, "solved": 1, "rate": 1.0},
    }
    assert rating_band(1499) == "1000-1499" and rating_band(1500) == "1500-1999"


# A node limit that clears 95% with a margin on this sample. Measured on the 1992 puzzles:
# 2000 nodes 91.9%, 5000 nodes 95.9%, 10000 nodes 97.0% (about 2 minutes), 20000 nodes 97.8%.
# It is still full strength (no UCI_LimitStrength), only a short search.
SOLVER_NODES = 10_000


@pytest.mark.slow
def test_stockfish_solves_at_least_95_percent_of_the_sample(puzzle_sample):
    puzzles = load_puzzles(puzzle_sample)
    with Engine(limit=SearchLimit(nodes=SOLVER_NODES)) as sf:
        results = [(p.rating, solve_puzzle(p, lambda b: sf.play(b)).solved) for p in puzzles]
    rate = sum(s for _, s in results) / len(results)
    print(
        f"stockfish nodes={SOLVER_NODES}: puzzle accuracy {rate:.4f} on {len(results)}; "
        f"by band {accuracy_by_band(results)}"
    )
    assert rate >= 0.95


def test_random_legal_is_far_below(puzzle_sample):
    puzzles = load_puzzles(puzzle_sample)
    rng = random.Random(0)
    solved = sum(
        solve_puzzle(p, lambda b: rng.choice(sorted(b.legal_moves, key=chess.Move.uci))).solved
        for p in puzzles
    )
    rate = solved / len(puzzles)
    print(f"random legal: puzzle accuracy {rate:.4f}")
    assert rate < 0.2
