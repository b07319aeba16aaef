"""Chess analysis (pure Python): Stockfish over UCI, an analysis cache, the move-quality
formulas (Win%, Lichess accuracy, move classes), Elo estimates, Lichess puzzles and our own
generated position sets. Nothing here knows about Django or language models."""
