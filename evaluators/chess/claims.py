"""Hallucination check: claims in the model's reasoning, checked against the position.

Two kinds of claim are extracted:

* moves, in SAN or UCI, and
* "piece on square" statements ("the knight on f3", "White's bishop on c4", and their
  negations "there is no knight on f3").

The rule that keeps the check precise: a claim is false only if it is false in every position
the text could be talking about. Those positions are the current one and the positions of
the lines the text has spelt out so far, so a text that explores is never punished for
exploring:

* consecutive moves form a line ("1. e4 e5 2. Nf3", "Nxe5 then Qh5"); each move is read in the
  line's position for the side to move, else for the same side again (a plan such as "Nf3,
  g3, Bg2 and O-O"), else as an alternative to the line's start ("Qh5, Bb5 or Nc3");
* the first move of a line may be either side's move (a threat like "...Qxh2"); with a move
  number it may continue any line already spelt out at that number, and a sentence opening
  with "then", "next", "after that" continues the last line of the previous sentence;
* a move earlier in a sentence does not move the position the rest of the sentence is about:
  a piece claim holds if it holds now or at the end of a line the text has spelt out;
* a move whose legality the text denies ("Bc4 is impossible", "I can't play Nxe5") is a claim
  that the move is illegal, true when it is;
* a "+" or "#" on a move claims check or mate, and is verified.

After a move that is illegal everywhere the line ends; its later moves are left out, since
there is no position to check them in. Bare squares ("e4") count as moves only after a move
number or inside a line, so "the pawn on e4" is not a move claim.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any, Literal

import chess

ClaimKind = Literal["move", "piece"]

_NUMBER = "\u2116"  # stands in for a white move number while tokenising
_BLACK_NUMBER = "\u2117"  # ... and for a black one ("12...")
_MOVE_NUMBER_RE = re.compile(r"(?<![\w.])(\d{1,3})\s*\.(\s*\.\.)?")
# move numbers are replaced before splitting, so a single . ! ? ; before a space ends a sentence
_SENTENCE_RE = re.compile(r"(?<![.])[.!?;](?![.])(?=\s|$)|\n+")
_PIECE = r"(king|queen|rook|bishop|knight|pawn)"
_PIECE_RE = re.compile(
    r"\b(?:(no|not\s+an?|not\s+a)\s+)?(?:(white|black)(?:'s)?\s+)?"
    + _PIECE
    + r"s?\s+(?:on|at)\s+([a-h][1-8])\b",
    re.IGNORECASE,
)
_SAN_RE = re.compile(
    r"^(?:[KQRBN][a-h]?[1-8]?x?[a-h][1-8](?:=?[QRBN])?|[a-h]x[a-h][1-8](?:=?[QRBN])?|[a-h][18]=?[QRBN]|O-O(?:-O)?)"
    r"[+#]?$"
)
_UCI_RE = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
_SQUARE_RE = re.compile(r"^[a-h][1-8][+#]?$")
_CONTINUE = {"then", "followed", "by", "->", "\u2192", "...", "after", "which"}
_LINKS = {"and", "or", ","}  # continue a line or a list only right after a move
_MOVE_VERBS = {
    "play",
    "plays",
    "played",
    "playing",
    "push",
    "pushes",
    "pushing",
    "answer",
    "answers",
    "reply",
    "replies",
    "meet",
    "meets",
    "after",
    "then",
    "with",
}
_ALTERNATIVE = {"or", "instead", "alternatively"}
_SENTENCE_CONTINUES = ("then", "next", "after that", "afterwards", "and then", "continuing")
# legality denied in the same clause as the move
_NEGATION_RE = re.compile(
    r"\b(?:impossible|illegal|not\s+(?:a\s+)?(?:legal|possible|available)|isn't\s+(?:legal|possible|available)|"
    r"is\s+not\s+(?:legal|possible|available)|unavailable|can(?:no|')t\s+(?:be\s+played|play|go|move|capture)|"
    r"cannot\s+(?:be\s+played|play|go|move|capture)|can\s+not\s+play|no\s+longer\s+(?:possible|legal))\b",
    re.IGNORECASE,
)
_CLAUSE_RE = re.compile(
    r",|:|\bbut\b|\bso\b|\bbecause\b|\bwhile\b|\bwhereas\b|\bsince\b", re.IGNORECASE
)
_PIECES = {
    "king": chess.KING,
    "queen": chess.QUEEN,
    "rook": chess.ROOK,
    "bishop": chess.BISHOP,
    "knight": chess.KNIGHT,
    "pawn": chess.PAWN,
}


@dataclass(frozen=True)
class Claim:
    kind: ClaimKind
    text: str
    true: bool
    in_variation: bool  # judged in a position of a line rather than the current one
    negated: bool = False  # the text says the move is illegal / the piece is absent

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _parse_move(board: chess.Board, token: str) -> chess.Move | None:
    """The legal move ``token`` names for the side to move, or None."""
    try:
        if _UCI_RE.match(token):
            move = chess.Move.from_uci(token)
            return move if move in board.legal_moves else None
        return board.parse_san(token.rstrip("+#"))
    except chess.AmbiguousMoveError:
        return _underspecified(board, token)
    except ValueError:  # illegal, ambiguous or invalid: python-chess raises ValueError subclasses
        return None


def _underspecified(board: chess.Board, token: str) -> chess.Move | None:
    """A legal move for SAN that fits several ("Nf3" when two knights reach f3): the text
    names a real move, just not which one, so the first that fits is taken."""
    san = token.rstrip("+#").replace("x", "")
    if len(san) < 3 or san[0] not in "KQRBN":
        return None
    hint, dest = san[1:-2], san[-2:]
    for m in board.legal_moves:
        piece = board.piece_at(m.from_square)
        if (
            piece is not None
            and piece.symbol().upper() == san[0]
            and chess.square_name(m.to_square) == dest
            and all(h in chess.square_name(m.from_square) for h in hint)
        ):
            return m
    return None


def _passed(board: chess.Board) -> chess.Board | None:
    """The same position with the other side to move (for threats and one-side plans)."""
    if board.is_check():
        return None  # the other side cannot move while the side to move is in check
    b = board.copy(stack=False)
    b.push(chess.Move.null())
    return b


def _play(board: chess.Board, token: str) -> tuple[chess.Board, bool] | None:
    """The board after ``token`` and whether its +/# suffix holds; None if illegal."""
    move = _parse_move(board, token)
    if move is None:
        return None
    after = board.copy(stack=False)
    after.push(move)
    if token.endswith("#"):
        return after, after.is_checkmate()
    if token.endswith("+"):
        return after, after.is_check()
    return after, True


def _first_legal(
    candidates: Iterable[chess.Board | None], token: str
) -> tuple[chess.Board, chess.Board, bool] | None:
    """(position, position after, suffix holds) for the first candidate where ``token`` is
    legal, preferring one where its +/# suffix also holds."""
    first = None
    for b in candidates:
        if b is None:
            continue
        got = _play(b, token)
        if got is None:
            continue
        if got[1]:
            return b, got[0], True
        first = first or (b, got[0], False)
    return first


def _with_passes(boards: Iterable[chess.Board | None]) -> list[chess.Board | None]:
    out: list[chess.Board | None] = []
    for b in boards:
        if b is not None:
            out += [b, _passed(b)]
    return out


def _clean(token: str) -> str:
    token = token.strip("*`_\"'()[]{}<>,:;!?")
    if token.endswith(".") and not token.endswith("..."):
        token = token.rstrip(".")
    token = token.lstrip(".")  # "...Qxh2"
    return token.replace("0-0-0", "O-O-O").replace("0-0", "O-O")


def _is_move_token(token: str, *, in_run: bool) -> bool:
    if _SAN_RE.match(token) or _UCI_RE.match(token):
        return True
    return in_run and bool(_SQUARE_RE.match(token))


def _number_token(m: re.Match[str]) -> str:
    return f" {_BLACK_NUMBER if m.group(2) else _NUMBER}{m.group(1)} "


class _Reader:
    """The positions a reply has reached, kept across its sentences."""

    def __init__(self, board: chess.Board) -> None:
        self.board = board
        self.last_line_end: chess.Board | None = None  # end of the last line spelt out
        self.line_ends: list[chess.Board] = []  # every line end so far (piece claims)
        self.by_number: dict[tuple[int, bool], list[chess.Board]] = {}  # positions inside lines
        self.claims: list[Claim] = []
        self._seen: set[tuple[str, str, str, bool]] = set()

    def add(
        self, kind: ClaimKind, text: str, ok: bool, at: chess.Board, negated: bool = False
    ) -> None:
        key = (kind, text, at.fen(), negated)
        if key not in self._seen:
            self._seen.add(key)
            self.claims.append(
                Claim(
                    kind,
                    text,
                    ok,
                    at.board_fen() != self.board.board_fen() or at.turn != self.board.turn,
                    negated,
                )
            )

    def remember(self, b: chess.Board) -> None:
        self.by_number.setdefault((b.fullmove_number, b.turn), []).append(b)

    def numbered(self, number: int | None, black: bool) -> list[chess.Board]:
        if number is None:
            return []
        turn = chess.BLACK if black else chess.WHITE
        found = [b for b in [self.board] if (b.fullmove_number, b.turn) == (number, turn)]
        return found + list(reversed(self.by_number.get((number, turn), [])))[:8]


def extract_claims(reasoning: str, board: chess.Board) -> list[Claim]:
    """Every move and piece claim of ``reasoning`` about ``board``, each judged true or false.
    Repeats of the same claim about the same position count once."""
    reader = _Reader(board)
    text = _MOVE_NUMBER_RE.sub(_number_token, reasoning)
    for sentence in _SENTENCE_RE.split(text):
        if sentence and sentence.strip():
            _read_sentence(reader, sentence)
    return reader.claims


def _clauses(sentence: str) -> list[tuple[int, int, bool]]:
    """(start, end, denies legality) of each clause of a sentence."""
    bounds = [0] + [m.end() for m in _CLAUSE_RE.finditer(sentence)] + [len(sentence) + 1]
    return [
        (a, b, bool(_NEGATION_RE.search(sentence[a:b])))
        for a, b in zip(bounds, bounds[1:], strict=False)
    ]


def _squares_read_as_moves(tokens: list[str]) -> set[int]:
    """Indexes of bare squares ("e4") that name moves: the first word of a sentence, a square
    after a verb of playing ("I play e4"), or one of a list that reaches a piece move
    ("d4, c4, Nc3 and e4"); a square in "controls e5, d4 and f4" stays a square."""
    out: set[int] = set()
    cleaned = [_clean(t) for t in tokens]
    for i, tok in enumerate(cleaned):
        if not _SQUARE_RE.match(tok):
            continue
        prev = cleaned[i - 1].lower() if i else ""
        if i == 0 or prev in _MOVE_VERBS or prev.startswith((_NUMBER, _BLACK_NUMBER)):
            out.add(i)
            continue
        j = i + 1
        while j < len(cleaned):
            nxt = cleaned[j]
            if nxt.lower() in _LINKS or nxt == "" or _SQUARE_RE.match(nxt):
                j += 1
                continue
            if _SAN_RE.match(nxt) or _UCI_RE.match(nxt):
                out.add(i)
            break
    return out


def _read_sentence(reader: _Reader, sentence: str) -> None:
    board = reader.board
    clauses = _clauses(sentence)
    pieces = list(_PIECE_RE.finditer(sentence))
    piece_spans = [(m.start(4), m.end(4)) for m in pieces]
    events: list[tuple[int, str, Any]] = [(m.start(), "piece", m) for m in pieces]
    for m in re.finditer(r"\S+", sentence):
        if any(a <= m.start() < b for a, b in piece_spans):
            continue  # the square of a piece claim
        events.append((m.start(), "token", m.group()))
    events.sort(key=lambda e: e[0])
    squares_as_moves = _squares_read_as_moves([v for _, w, v in events if w == "token"])
    opening = sentence.strip().lower().lstrip(",")
    continues = reader.last_line_end is not None and opening.startswith(_SENTENCE_CONTINUES)
    run: chess.Board | None = reader.last_line_end if continues else None
    run_start: chess.Board | None = run
    run_dead = False
    expect_move = continues
    alternative = False
    number: tuple[int, bool] | None = None
    after_comma = False  # the previous token ended with a comma (a list, not a line)
    sentence_ends: list[chess.Board] = []

    def end_run() -> None:
        nonlocal run, run_start, run_dead
        if run is not None and run is not reader.last_line_end:
            reader.last_line_end = run
            reader.line_ends.append(run)
            sentence_ends.append(run)
        run, run_start, run_dead = None, None, False

    token_index = -1
    for pos, what, value in events:
        if what == "token":
            token_index += 1
        negated_clause = next((neg for a, b, neg in clauses if a <= pos < b), False)
        if what == "piece":
            _piece_claim(
                reader,
                value,
                [board, *sentence_ends, *([run] if run else []), *reader.line_ends[-4:]],
            )
            continue
        raw: str = value
        listed, after_comma = after_comma, raw.endswith(",")
        if raw[0] in (_NUMBER, _BLACK_NUMBER):
            number = (int(raw[1:]), raw[0] == _BLACK_NUMBER)
            expect_move = True
            continue
        token = _clean(raw)
        low = token.lower()
        if low in _ALTERNATIVE or (low in _LINKS and run is not None):
            alternative = alternative or low in _ALTERNATIVE
            expect_move = True
            continue
        if low in _CONTINUE or raw.startswith("..."):
            expect_move = True
            if low in _CONTINUE or not token:
                continue
        in_run = run is not None or run_dead or token_index in squares_as_moves
        if not token or not _is_move_token(token, in_run=in_run or expect_move):
            end_run()
            expect_move, alternative, number = False, False, None
            continue
        expect_move = False
        if negated_clause:
            # "Bc4 is impossible": true if the move is illegal for the side to move (wherever
            # the text stands); a denied move does not extend a line
            here = run or board
            legal = _parse_move(here, token) is not None
            reader.add("move", token, not legal, here, negated=True)
            alternative, number = False, None
            continue
        if run_dead and (alternative or listed):
            run_dead = False  # "Qh5 or Bb5", "Qh5, Bb5": the next item is read afresh
        if run_dead:
            continue
        numbered: list[chess.Board | None] = list(reader.numbered(*number)) if number else []
        if run is None:
            # a new line: a numbered position, the current one (either side), or a line end
            candidates = numbered + _with_passes(
                [board, *reversed(sentence_ends), reader.last_line_end]
            )
            start_of_line = True
        else:
            # inside a line: the next move, the same side again (a plan), an alternative to the
            # line's start, a numbered position, or the current position
            if alternative:  # "Bd2 or Nb5": Nb5 instead of Bd2, never after it
                candidates = numbered + _with_passes([run_start, board])
            else:
                candidates = [*numbered, run, _passed(run), *_with_passes([run_start, board])]
            start_of_line = False
        got = _first_legal(candidates, token)
        alternative, number = False, None
        if got is None:
            reader.add("move", token, False, run if run is not None else board)
            end_run()
            run_dead = True
            continue
        at, after, suffix_ok = got
        reader.add("move", token, suffix_ok, at)
        if start_of_line:
            run_start = at
        reader.remember(at)
        reader.remember(after)
        run = after
    end_run()


def _piece_claim(reader: _Reader, m: re.Match[str], positions: list[chess.Board]) -> None:
    negation, colour, piece, square = m.group(1), m.group(2), m.group(3).lower(), m.group(4).lower()
    sq = chess.parse_square(square)

    def holds(b: chess.Board) -> bool:
        found = b.piece_at(sq)
        return (
            found is not None
            and found.piece_type == _PIECES[piece]
            and (colour is None or found.color == (colour.lower() == "white"))
        )

    seen: list[chess.Board] = []
    for b in positions:
        if all(b.board_fen() != s.board_fen() for s in seen):
            seen.append(b)
    text = m.group(0)
    if negation:
        # "no knight on f3": false only if a knight stands there in every position in view
        ok = not all(holds(b) for b in seen)
        reader.add("piece", text, ok, seen[0], negated=True)
        return
    where = next((b for b in seen if holds(b)), None)
    reader.add("piece", text, where is not None, where if where is not None else seen[0])


def summarise(claims: list[Claim]) -> dict[str, int]:
    return {"total": len(claims), "false": sum(1 for c in claims if not c.true)}
