"""The engine wrapper against the real Stockfish binary, and both analysis caches."""

from __future__ import annotations

import uuid

import chess
import pytest

from games.chess.cache import MemoryAnalysisCache, RedisAnalysisCache, analysis_key
from games.chess.engine import Engine, EngineNotFoundError, SearchLimit, find_stockfish


def test_a_missing_binary_is_a_clear_error_naming_the_path(tmp_path):
    missing = tmp_path / "no-such-stockfish"
    with pytest.raises(EngineNotFoundError, match=str(missing)):
        Engine(missing)
    with pytest.raises(EngineNotFoundError, match=str(missing)):
        find_stockfish(str(missing))


def test_a_non_executable_file_is_refused(tmp_path):
    f = tmp_path / "stockfish"
    f.write_text("not an engine")
    with pytest.raises(EngineNotFoundError, match="not executable"):
        find_stockfish(f)


def test_the_env_variable_names_the_binary(tmp_path, monkeypatch):
    monkeypatch.setenv("PODIUM_STOCKFISH", str(tmp_path / "sf"))
    with pytest.raises(EngineNotFoundError, match="sf"):
        find_stockfish()


def test_it_runs_one_thread_and_repeats_exactly_at_a_node_limit(engine):
    assert engine.id.startswith("Stockfish")
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    first = engine.analyse(board)
    engine.analyse(chess.Board())  # other work in between must not change the result
    again = engine.analyse(board)
    assert first == again
    assert first.nodes >= SearchLimit().nodes
    assert first.best_move in {m.uci() for m in board.legal_moves}


def test_a_second_process_agrees(engine):
    board = chess.Board("6k1/pp3ppp/8/8/3n4/8/PP3PPP/3R2K1 w - - 0 1")
    with Engine() as other:
        assert other.analyse(board) == engine.analyse(board)


def test_depth_limit_and_restricted_search(engine):
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    ev = engine.analyse(board, limit=SearchLimit(nodes=None, depth=6))
    assert ev.mate == 1 and ev.best_move == "a1a8" and ev.depth >= 6
    only = engine.analyse(board, root_moves=[chess.Move.from_uci("h2h3")])
    assert only.best_move == "h2h3" and only.mate is None


def test_finished_positions_need_no_engine(engine):
    mated = chess.Board("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1")
    ev = engine.analyse(mated)
    assert ev.mate == 0 and ev.best_move is None and ev.clamped_cp == -1000


def test_it_reads_what_the_full_info_parse_reads(engine, puzzle_sample):
    """Engine.analyse parses only the score and takes the move from the bestmove line; on 30
    puzzle positions, searched whole and restricted to one move, that is exactly what
    python-chess's full parse reads from the same search (score, depth, nodes, PV's first move)."""
    import csv

    import chess.engine

    with open(puzzle_sample, newline="") as f:
        rows = list(csv.DictReader(f))[:30]
    for row in rows:
        board = chess.Board(row["FEN"])
        board.push_uci(row["Moves"].split()[0])
        for roots in (None, [min(board.legal_moves, key=lambda m: m.uci())]):
            ours = engine.analyse(board, root_moves=roots)
            full = engine._engine.analyse(
                chess.Board(board.fen()), SearchLimit().to_chess(), root_moves=roots, game=object()
            )
            pov = full["score"].pov(board.turn)
            assert (ours.cp, ours.mate, ours.depth, ours.nodes) == (
                pov.score(),
                pov.mate(),
                full["depth"],
                full["nodes"],
            ), board.fen()
            assert ours.pv == (full["pv"][0].uci(),) and ours.best_move == ours.pv[0], board.fen()


def test_limited_strength_play_returns_a_legal_move(engine):
    board = chess.Board()
    assert engine.play(board, elo=1350) in board.legal_moves


def test_memory_cache_is_bounded():
    c = MemoryAnalysisCache(max_entries=2)
    for i in range(3):
        c.put(str(i), {"i": i})
    assert c.get("0") is None and c.get("2") == {"i": 2} and len(c) == 2


def test_cache_key_holds_fen_engine_limit_and_restriction():
    k1 = analysis_key("fen", "Stockfish 15.1", SearchLimit().key())
    assert k1 != analysis_key("fen", "Stockfish 16", SearchLimit().key())
    assert k1 != analysis_key("fen", "Stockfish 15.1", SearchLimit(nodes=1).key())
    assert k1 != analysis_key("fen", "Stockfish 15.1", SearchLimit().key(), ["e2e4"])


def test_redis_cache_is_shared_between_clients(redis_url):
    prefix = f"podium:test:chess:{uuid.uuid4().hex}:"
    a, b = (
        RedisAnalysisCache(redis_url, prefix=prefix),
        RedisAnalysisCache(redis_url, prefix=prefix),
    )
    try:
        assert a.get("k") is None
        a.put("k", {"cp": 12, "mate": None})
        assert b.get("k") == {"cp": 12, "mate": None}
    finally:
        assert a.clear() == 1
