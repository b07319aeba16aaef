"""A labelled corpus of claims for the hallucination checker (evaluators/chess/claims.py).

Every text is written against a real position (built below from the moves of a real opening,
or a short endgame FEN), and every claim is labelled from chess truth: T when the move is
legal where the text plays it (and its + or # holds), or the piece stands on the square; F
otherwise. A denied move ("X is impossible") is T when the move is indeed illegal. A move
that follows an illegal one in the same line has no position to be judged in and is not a
claim; in a list ("d3, O-O, Bc4 and c3") the items after an illegal one are judged afresh. Shapes: move, line, later_sentence, earlier_move, plan, negation, suffix, piece,
piece_negation, alternative, threat, uci.

Each entry: (position, shape, text, labels); labels are "claim T|F" separated by ";", a
claim containing " on " being a piece claim.
"""

from __future__ import annotations

import chess


def _after(*sans: str) -> chess.Board:
    b = chess.Board()
    for san in sans:
        b.push_san(san)
    return b


POSITIONS: dict[str, chess.Board] = {
    "START": chess.Board(),
    "ITALIAN3": _after("e4", "e5", "Nf3", "Nc6"),
    "GIUOCO": _after("e4", "e5", "Nf3", "Nc6", "Bc4"),
    "RUY": _after("e4", "e5", "Nf3", "Nc6", "Bb5", "a6"),
    "QGD": _after("d4", "d5", "c4", "e6", "Nc3", "Nf6"),
    "SCHOLAR": _after("e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"),
    "FRENCH_PIN": _after("e4", "e6", "d4", "d5", "Nc3", "Bb4"),
    "SICILIAN": _after("e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3"),
    "CHECKED": _after("e4", "e5", "f3", "Qh4+"),
    "BACKRANK": chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"),
    "KPK": chess.Board("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"),
    "KID": _after("d4", "Nf6", "c4", "g6", "Nc3", "Bg7", "e4", "d6"),
    "CARO": _after("e4", "c6", "d4", "d5", "Nc3", "dxe4", "Nxe4", "Bf5"),
}

CORPUS: list[tuple[str, str, str, str]] = [
    # --- START --------------------------------------------------------------------------
    ("START", "alternative", "e4 and d4 are the main moves.", "e4 T; d4 T"),
    ("START", "move", "Nf3 is flexible, while Nh3 is rare.", "Nf3 T; Nh3 T"),
    ("START", "move", "Bc4 develops the bishop.", "Bc4 F"),
    ("START", "move", "Qh5 attacks f7 at once.", "Qh5 F"),
    ("START", "negation", "O-O is not possible yet because nothing has been developed.", "O-O T"),
    ("START", "negation", "White can't play Ke2 now.", "Ke2 T"),
    ("START", "negation", "I can't play Nc3 here.", "Nc3 F"),
    ("START", "negation", "Nf3 is illegal.", "Nf3 F"),
    ("START", "negation", "Nf6 is impossible for White.", "Nf6 T"),
    (
        "START",
        "line",
        "After 1. e4 e5 2. Nf3 Nc6 3. Bb5 the bishop on b5 pins nothing yet.",
        "e4 T; e5 T; Nf3 T; Nc6 T; Bb5 T; bishop on b5 T",
    ),
    (
        "START",
        "suffix",
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# is the famous trap.",
        "e4 T; e5 T; Qh5 T; Nc6 T; Bc4 T; Nf6 T; Qxf7# T",
    ),
    (
        "START",
        "line",
        "1. d4 d5 2. c4 dxc4 3. e4 and White regains the pawn later.",
        "d4 T; d5 T; c4 T; dxc4 T; e4 T",
    ),
    (
        "START",
        "later_sentence",
        "1. e4 e5 2. Nf3 Nc6. Then 3. Bc4 Bc5 is the Giuoco Piano.",
        "e4 T; e5 T; Nf3 T; Nc6 T; Bc4 T; Bc5 T",
    ),
    (
        "START",
        "later_sentence",
        "1. e4 e5 2. Nf3 Nf6. Next Nxe5 wins a pawn for a moment.",
        "e4 T; e5 T; Nf3 T; Nf6 T; Nxe5 T",
    ),
    (
        "START",
        "piece",
        "The knight on g1 and the bishop on f1 are undeveloped.",
        "knight on g1 T; bishop on f1 T",
    ),
    (
        "START",
        "piece",
        "The queen on d1 and the king on d1 stand side by side.",
        "queen on d1 T; king on d1 F",
    ),
    ("START", "piece_negation", "There is no knight on f3 yet.", "no knight on f3 T"),
    ("START", "piece_negation", "There is no pawn on e2.", "no pawn on e2 F"),
    ("START", "suffix", "Nf3+ is check.", "Nf3+ F"),
    ("START", "plan", "A calm setup is Nf3, g3, Bg2 and O-O.", "Nf3 T; g3 T; Bg2 T; O-O T"),
    (
        "START",
        "plan",
        "White wants d4, c4, Nc3 and e4 to build a big centre.",
        "d4 T; c4 T; Nc3 T; e4 T",
    ),
    ("START", "plan", "The plan is e4, Bc4, Qh5 and Qxf7#.", "e4 T; Bc4 T; Qh5 T; Qxf7# T"),
    (
        "START",
        "earlier_move",
        "I could play Nf3, but the knight on g1 is fine where it is.",
        "Nf3 T; knight on g1 T",
    ),
    (
        "START",
        "suffix",
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7+ is check.",
        "e4 T; e5 T; Bc4 T; Nc6 T; Qh5 T; Nf6 T; Qxf7+ T",
    ),
    ("START", "suffix", "1. f3 e5 2. g4 Qh4# is the fool's mate.", "f3 T; e5 T; g4 T; Qh4# T"),
    ("START", "line", "1. f3 e5 2. g4 Qh4+ 3. Kf2 is forced.", "f3 T; e5 T; g4 T; Qh4+ T; Kf2 F"),
    ("START", "uci", "e2e4 and g1f3 are standard.", "e2e4 T; g1f3 T"),
    # --- ITALIAN3: 1. e4 e5 2. Nf3 Nc6, White to move -------------------------------------
    ("ITALIAN3", "piece", "Bb5 pins the knight on c6.", "Bb5 T; knight on c6 T"),
    ("ITALIAN3", "alternative", "Bc4 and Bb5 are both natural.", "Bc4 T; Bb5 T"),
    ("ITALIAN3", "line", "Nxe5 Nxe5 d4 gives White the center.", "Nxe5 T; Nxe5 T; d4 T"),
    ("ITALIAN3", "line", "d4 exd4 Nxd4 is the Scotch.", "d4 T; exd4 T; Nxd4 T"),
    (
        "ITALIAN3",
        "earlier_move",
        "I considered Nxe5, but the knight on f3 is needed to defend.",
        "Nxe5 T; knight on f3 T",
    ),
    (
        "ITALIAN3",
        "earlier_move",
        "After Bc4 the bishop on c4 eyes f7, and the knight on f3 supports Ng5.",
        "Bc4 T; bishop on c4 T; knight on f3 T; Ng5 T",
    ),
    (
        "ITALIAN3",
        "earlier_move",
        "Nxe5 is tempting, yet the pawn on e5 is defended by the knight on c6.",
        "Nxe5 T; pawn on e5 T; knight on c6 T",
    ),
    ("ITALIAN3", "move", "Qxf7 is winning.", "Qxf7 F"),
    ("ITALIAN3", "threat", "Black threatens ...Nd4 and ...Qf6.", "Nd4 T; Qf6 T"),
    ("ITALIAN3", "suffix", "Black can reply ...Bb4+ to check the king.", "Bb4+ F"),
    (
        "ITALIAN3",
        "plan",
        "Bb5 and then Bxc6 dxc6 Nxe5 wins a pawn.",
        "Bb5 T; Bxc6 T; dxc6 T; Nxe5 T",
    ),
    ("ITALIAN3", "move", "Nd5 attacks c7.", "Nd5 F"),
    ("ITALIAN3", "piece", "The bishop on c4 is already active.", "bishop on c4 F"),
    (
        "ITALIAN3",
        "piece",
        "White's pawn on e4 and Black's pawn on e5 block each other.",
        "White's pawn on e4 T; Black's pawn on e5 T",
    ),
    ("ITALIAN3", "piece", "Black's knight on f6 defends the centre.", "Black's knight on f6 F"),
    (
        "ITALIAN3",
        "negation",
        "O-O is impossible because the bishop on f1 is in the way.",
        "O-O T; bishop on f1 T",
    ),
    ("ITALIAN3", "negation", "Bc4 is impossible right now.", "Bc4 F"),
    ("ITALIAN3", "negation", "Nxe5 is illegal here.", "Nxe5 F"),
    (
        "ITALIAN3",
        "negation",
        "Qh5 cannot be played since the knight on f3 blocks the diagonal.",
        "Qh5 T; knight on f3 T",
    ),
    (
        "ITALIAN3",
        "later_sentence",
        "3. Bc4 Bc5. Then c3 Nf6, and then d4 exd4.",
        "Bc4 T; Bc5 T; c3 T; Nf6 T; d4 T; exd4 T",
    ),
    ("ITALIAN3", "plan", "White can set up Bc4, d3, O-O and c3.", "Bc4 T; d3 T; O-O T; c3 T"),
    ("ITALIAN3", "plan", "White can set up d3, O-O, Bc4 and c3.", "d3 T; O-O F; Bc4 T; c3 T"),
    (
        "ITALIAN3",
        "line",
        "Bb5 a6 Bxc6 dxc6 Nxe5 Qd4 regains the pawn.",
        "Bb5 T; a6 T; Bxc6 T; dxc6 T; Nxe5 T; Qd4 T",
    ),
    ("ITALIAN3", "alternative", "White can choose Bc4, Bb5 or d4.", "Bc4 T; Bb5 T; d4 T"),
    ("ITALIAN3", "alternative", "Candidates are Bc4, Qe2 or Bd3.", "Bc4 T; Qe2 T; Bd3 T"),
    ("ITALIAN3", "threat", "The threat is ...Qh4 hitting e4.", "Qh4 T"),
    ("ITALIAN3", "uci", "f3e5 wins a pawn.", "f3e5 T"),
    ("ITALIAN3", "uci", "d1h5 attacks the pawn.", "d1h5 F"),
    # --- GIUOCO: 1. e4 e5 2. Nf3 Nc6 3. Bc4, Black to move --------------------------------
    (
        "GIUOCO",
        "later_sentence",
        "3... Nf6 4. Ng5 d5. After that exd5 Na5 is the main line.",
        "Nf6 T; Ng5 T; d5 T; exd5 T; Na5 T",
    ),
    (
        "GIUOCO",
        "later_sentence",
        "3... Nf6 4. Ng5. Then Bc5 5. Nxf7 is the Traxler.",
        "Nf6 T; Ng5 T; Bc5 T; Nxf7 T",
    ),
    (
        "GIUOCO",
        "suffix",
        "3... Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# is the Blackburne trap.",
        "Nd4 T; Nxe5 T; Qg5 T; Nxf7 T; Qxg2 T; Rf1 T; Qxe4+ T; Be2 T; Nf3# T",
    ),
    (
        "GIUOCO",
        "earlier_move",
        "After 3... Nf6 4. Ng5, the knight on g5 and the bishop on c4 hit f7.",
        "Nf6 T; Ng5 T; knight on g5 T; bishop on c4 T",
    ),
    (
        "GIUOCO",
        "earlier_move",
        "3... Nf6 4. Ng5 d5, and the pawn on d5 blocks the bishop on c4, while the knight on f6 covers e4.",
        "Nf6 T; Ng5 T; d5 T; pawn on d5 T; bishop on c4 T; knight on f6 T",
    ),
    (
        "GIUOCO",
        "earlier_move",
        "If 3... Be7 then the knight on f3 can go to g5, and the bishop on e7 covers g5.",
        "Be7 T; knight on f3 T; bishop on e7 T",
    ),
    (
        "GIUOCO",
        "threat",
        "Qxf7+ is a threat for White, but Black's king on e8 defends f7.",
        "Qxf7+ F; Black's king on e8 T",
    ),
    ("GIUOCO", "move", "3... Nxe4 4. Nxe4 is a blunder by Black.", "Nxe4 F"),
    (
        "GIUOCO",
        "suffix",
        "3... Bc5 4. c3 Nf6 5. d4 exd4 6. cxd4 Bb4+ is the Moller line.",
        "Bc5 T; c3 T; Nf6 T; d4 T; exd4 T; cxd4 T; Bb4+ T",
    ),
    ("GIUOCO", "threat", "White threatens Ng5 and Bxf7+.", "Ng5 T; Bxf7+ T"),
    # --- RUY: 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6, White to move --------------------------------
    ("RUY", "line", "4. Ba4 Nf6 5. O-O Be7 is the main line.", "Ba4 T; Nf6 T; O-O T; Be7 T"),
    ("RUY", "line", "4. Bxc6 dxc6 5. Nxe5 Qd4 regains the pawn.", "Bxc6 T; dxc6 T; Nxe5 T; Qd4 T"),
    ("RUY", "line", "4. Bxc6 bxc6 5. Nxe5 Qg5 is also playable.", "Bxc6 T; bxc6 T; Nxe5 T; Qg5 T"),
    (
        "RUY",
        "piece",
        "The bishop on b5 is attacked by the pawn on a6.",
        "bishop on b5 T; pawn on a6 T",
    ),
    ("RUY", "move", "4. Bc4 retreats the bishop.", "Bc4 T"),
    ("RUY", "move", "4. Bd3 is awkward.", "Bd3 T"),
    ("RUY", "move", "4. Bxa6 wins a pawn.", "Bxa6 T"),
    ("RUY", "line", "4. Nxe5 Nxe5 5. d4 Ng6 is fine for Black.", "Nxe5 T; Nxe5 T; d4 T; Ng6 T"),
    ("RUY", "negation", "4. Bb3 is impossible because the bishop is still on b5.", "Bb3 T"),
    ("RUY", "suffix", "4. Bxc6+ dxc6 is the exchange.", "Bxc6+ F; dxc6 T"),
    (
        "RUY",
        "plan",
        "White plays O-O, Re1, c3 and d4 in the main line.",
        "O-O T; Re1 T; c3 T; d4 T",
    ),
    (
        "RUY",
        "threat",
        "Black threatens ...b5 to chase the bishop.",
        "b5 F",
    ),  # the bishop stands on b5
    ("RUY", "piece_negation", "There is no knight on f3 for White.", "no knight on f3 F"),
    ("RUY", "piece_negation", "There is no bishop on f1 any more.", "no bishop on f1 T"),
    # --- QGD: 1. d4 d5 2. c4 e6 3. Nc3 Nf6, White to move ---------------------------------
    ("QGD", "line", "4. Bg5 Be7 5. e3 O-O is classical.", "Bg5 T; Be7 T; e3 T; O-O T"),
    (
        "QGD",
        "line",
        "4. cxd5 exd5 5. Bg5 c6 is the exchange variation.",
        "cxd5 T; exd5 T; Bg5 T; c6 T",
    ),
    ("QGD", "line", "4. Nf3 dxc4 5. e4 Bb4 is the Vienna.", "Nf3 T; dxc4 T; e4 T; Bb4 T"),
    ("QGD", "alternative", "4. Bf4 and 4. Bg5 are both good.", "Bf4 T; Bg5 T"),
    ("QGD", "move", "4. e4 gambits a pawn.", "e4 T"),
    ("QGD", "suffix", "4. Qa4+ is check.", "Qa4+ T"),  # d7 is empty after ...d5
    (
        "QGD",
        "piece",
        "Black's knight on f6 pins nothing, and the bishop on f8 is still home.",
        "Black's knight on f6 T; bishop on f8 T",
    ),
    ("QGD", "line", "4. Nxd5 exd5 wins material for Black.", "Nxd5 T; exd5 T"),
    ("QGD", "suffix", "4. Bb5+ is a check.", "Bb5+ F"),
    ("QGD", "piece", "The pawn on c4 is attacked by the pawn on d5.", "pawn on c4 T; pawn on d5 T"),
    ("QGD", "piece", "The pawn on e5 supports d4.", "pawn on e5 F"),
    (
        "QGD",
        "earlier_move",
        "After 4. cxd5 the pawn on d5 is White's, but right now the pawn on c4 attacks d5.",
        "cxd5 T; pawn on d5 T; pawn on c4 T",
    ),
    ("QGD", "plan", "White will follow with Bg5, e3, Nf3 and Bd3.", "Bg5 T; e3 T; Nf3 T; Bd3 T"),
    ("QGD", "plan", "Black's plan is ...Be7, ...O-O and ...b6.", "Be7 T; O-O T; b6 T"),
    (
        "QGD",
        "alternative",
        "4. Bg5 or 4. Nf3 or 4. cxd5 are the main moves.",
        "Bg5 T; Nf3 T; cxd5 T",
    ),
    ("QGD", "threat", "Black threatens ...dxc4 and ...Bb4.", "dxc4 T; Bb4 T"),
    ("QGD", "negation", "O-O is not possible for White yet.", "O-O T"),
    # --- SCHOLAR: 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6, White to move ---------------------------
    ("SCHOLAR", "suffix", "4. Qxf7# ends the game.", "Qxf7# T"),
    ("SCHOLAR", "suffix", "4. Qxf7+ wins.", "Qxf7+ T"),
    ("SCHOLAR", "suffix", "4. Bxf7+ Ke7 is less clear.", "Bxf7+ T; Ke7 T"),
    ("SCHOLAR", "suffix", "4. Qxe5+ Qe7 trades queens.", "Qxe5+ T; Qe7 T"),
    (
        "SCHOLAR",
        "piece",
        "Black's knight on f6 attacks the queen on h5.",
        "Black's knight on f6 T; queen on h5 T",
    ),
    (
        "SCHOLAR",
        "negation",
        "4. Qxf7# is not possible because the knight on f6 covers f7.",
        "Qxf7# F; knight on f6 T",
    ),
    ("SCHOLAR", "piece", "The queen on f7 gives mate.", "queen on f7 F"),
    ("SCHOLAR", "line", "4. Qxf7# Kxf7 and Black wins the queen.", "Qxf7# T; Kxf7 F"),
    ("SCHOLAR", "line", "4. Nf3 Nxh5 loses the queen.", "Nf3 T; Nxh5 T"),
    ("SCHOLAR", "line", "4. d3 Nxh5 drops the queen for nothing.", "d3 T; Nxh5 T"),
    ("SCHOLAR", "alternative", "4. Qxf7# or 4. Qxe5+ both look good.", "Qxf7# T; Qxe5+ T"),
    (
        "SCHOLAR",
        "negation",
        "Qxe5+ is impossible because the knight on c6 guards e5.",
        "Qxe5+ F; knight on c6 T",
    ),
    # --- FRENCH_PIN: 1. e4 e6 2. d4 d5 3. Nc3 Bb4, White to move (the c3 knight is pinned) -
    ("FRENCH_PIN", "move", "4. Nb5 attacks c7.", "Nb5 F"),
    (
        "FRENCH_PIN",
        "suffix",
        "4. e5 c5 5. a3 Bxc3+ 6. bxc3 is the Winawer.",
        "e5 T; c5 T; a3 T; Bxc3+ T; bxc3 T",
    ),
    (
        "FRENCH_PIN",
        "negation",
        "4. Nd5 is impossible because the knight on c3 is pinned.",
        "Nd5 T; knight on c3 T",
    ),
    ("FRENCH_PIN", "piece", "4. Bd2 unpins the knight on c3.", "Bd2 T; knight on c3 T"),
    (
        "FRENCH_PIN",
        "line",
        "4. a3 Bxc3+ 5. bxc3 dxe4 gives Black a pawn.",
        "a3 T; Bxc3+ T; bxc3 T; dxe4 T",
    ),
    (
        "FRENCH_PIN",
        "line",
        "4. exd5 exd5 5. Bd3 Ne7 is the exchange.",
        "exd5 T; exd5 T; Bd3 T; Ne7 T",
    ),
    (
        "FRENCH_PIN",
        "line",
        "4. Qg4 Nf6 5. Qxg7 Rg8 6. Qh6 is sharp.",
        "Qg4 T; Nf6 T; Qxg7 T; Rg8 T; Qh6 T",
    ),
    (
        "FRENCH_PIN",
        "move",
        "4. Ne2 is fine because the knight on c3 is pinned anyway.",
        "Ne2 T; knight on c3 T",
    ),
    (
        "FRENCH_PIN",
        "line",
        "4. Nge2 dxe4 5. a3 Be7 6. Nxe4 is the main line.",
        "Nge2 T; dxe4 T; a3 T; Be7 T; Nxe4 T",
    ),
    ("FRENCH_PIN", "negation", "Nge2 is not possible.", "Nge2 F"),
    (
        "FRENCH_PIN",
        "negation",
        "Nxd5 is illegal because the knight on c3 is pinned.",
        "Nxd5 T; knight on c3 T",
    ),
    ("FRENCH_PIN", "alternative", "4. Bd2 or 4. Nb5 are the options.", "Bd2 T; Nb5 F"),
    # --- SICILIAN: ... 5. Nc3, Black to move ------------------------------------------------
    (
        "SICILIAN",
        "line",
        "5... a6 6. Be2 e5 7. Nb3 Be7 is the Najdorf.",
        "a6 T; Be2 T; e5 T; Nb3 T; Be7 T",
    ),
    (
        "SICILIAN",
        "line",
        "5... g6 6. Be3 Bg7 7. f3 O-O is the Dragon.",
        "g6 T; Be3 T; Bg7 T; f3 T; O-O T",
    ),
    ("SICILIAN", "line", "5... Nxe4 6. Nxe4 wins a piece for White.", "Nxe4 T; Nxe4 T"),
    ("SICILIAN", "piece", "5... Qb6 attacks the knight on d4.", "Qb6 T; knight on d4 T"),
    ("SICILIAN", "line", "5... e5 6. Nf5 is possible.", "e5 T; Nf5 T"),
    (
        "SICILIAN",
        "line",
        "5... Nc6 6. Bg5 e6 7. Qd2 is the Richter-Rauzer.",
        "Nc6 T; Bg5 T; e6 T; Qd2 T",
    ),
    ("SICILIAN", "piece", "5... Bg4 pins the knight on f3.", "Bg4 T; knight on f3 F"),
    (
        "SICILIAN",
        "piece",
        "White's knight on d4 and White's knight on c3 are centralised.",
        "White's knight on d4 T; White's knight on c3 T",
    ),
    ("SICILIAN", "piece", "The pawn on c5 controls d4.", "pawn on c5 F"),
    ("SICILIAN", "piece", "5... Qa5 pins the knight on c3.", "Qa5 T; knight on c3 T"),
    ("SICILIAN", "negation", "5... Nd5 is impossible.", "Nd5 F"),
    ("SICILIAN", "negation", "5... Ke7 is illegal.", "Ke7 T"),
    (
        "SICILIAN",
        "negation",
        "5... Bb4 is impossible because the pawn on e7 blocks the bishop.",
        "Bb4 T; pawn on e7 T",
    ),
    ("SICILIAN", "suffix", "5... Qa5+ is check.", "Qa5+ F"),
    ("SICILIAN", "suffix", "6. Bb5+ would be check.", "Bb5+ T"),
    (
        "SICILIAN",
        "plan",
        "Black develops with ...g6, ...Bg7, ...O-O and ...Nc6.",
        "g6 T; Bg7 T; O-O T; Nc6 T",
    ),
    (
        "SICILIAN",
        "earlier_move",
        "5... e5 kicks the knight, and the knight on d4 must move.",
        "e5 T; knight on d4 T",
    ),
    ("SICILIAN", "piece_negation", "Black has no pawn on c5 now.", "no pawn on c5 T"),
    ("SICILIAN", "threat", "White threatens Ndb5 and Nf5.", "Ndb5 T; Nf5 T"),
    # --- CHECKED: 1. e4 e5 2. f3 Qh4+, White to move and in check ---------------------------
    ("CHECKED", "suffix", "3. g3 Qxg3+ 4. hxg3 is forced.", "g3 T; Qxg3+ T; hxg3 T"),
    ("CHECKED", "suffix", "3. Ke2 Qxe4# is mate.", "Ke2 T; Qxe4# F"),
    ("CHECKED", "move", "3. Nh3 blocks the check.", "Nh3 F"),
    ("CHECKED", "negation", "3. Qe2 is impossible while the king is in check.", "Qe2 T"),
    ("CHECKED", "move", "3. g3 is the only move besides Ke2.", "g3 T; Ke2 T"),
    (
        "CHECKED",
        "piece",
        "The queen on h4 gives check and the pawn on f3 is the culprit.",
        "queen on h4 T; pawn on f3 T",
    ),
    ("CHECKED", "move", "3. Be2 blocks the check.", "Be2 F"),
    ("CHECKED", "negation", "Ke2 is illegal while in check.", "Ke2 F"),
    ("CHECKED", "suffix", "3. g3 Qxg3# is mate.", "g3 T; Qxg3# F"),
    # --- BACKRANK: White Kg1 Ra1 f2 g2 h2, Black Kg8 f7 g7 h7, White to move -----------------
    ("BACKRANK", "suffix", "Ra8# is mate at once.", "Ra8# T"),
    ("BACKRANK", "plan", "Re1 and Re8# is slower.", "Re1 T; Re8# T"),
    ("BACKRANK", "suffix", "Ra7 h6 Ra8+ Kh7 is just a draw.", "Ra7 T; h6 T; Ra8+ T; Kh7 T"),
    ("BACKRANK", "plan", "h3 and then Ra8 is check.", "h3 T; Ra8 T"),
    (
        "BACKRANK",
        "piece",
        "The rook on a1 controls the file, and Black's king on h8 is safe.",
        "rook on a1 T; Black's king on h8 F",
    ),
    ("BACKRANK", "suffix", "Ra8+ is check but not mate.", "Ra8+ T"),
    ("BACKRANK", "negation", "Rd1 is illegal.", "Rd1 F"),
    ("BACKRANK", "negation", "Kf1 cannot be played.", "Kf1 F"),
    ("BACKRANK", "plan", "Rb1 and Rb8# is another mate.", "Rb1 T; Rb8# T"),
    (
        "BACKRANK",
        "piece",
        "White's king on g1 is boxed in by the pawn on g2.",
        "White's king on g1 T; pawn on g2 T",
    ),
    (
        "BACKRANK",
        "negation",
        "Kh1 is illegal because the pawn on h2 is in the way.",
        "Kh1 F; pawn on h2 T",
    ),
    ("BACKRANK", "negation", "Ra8 cannot be played.", "Ra8 F"),
    ("BACKRANK", "piece_negation", "Black has no rook on a8.", "no rook on a8 T"),
    ("BACKRANK", "alternative", "Ra8#, Re1 or h4 are all fine.", "Ra8# T; Re1 T; h4 T"),
    # --- KPK: White Ke1 e2, Black Ke5, White to move -----------------------------------------
    ("KPK", "line", "e4 Kxe4 draws at once.", "e4 T; Kxe4 T"),
    ("KPK", "suffix", "Kd2 Kd4 e3+ Ke4 is a typical dance.", "Kd2 T; Kd4 T; e3+ T; Ke4 T"),
    (
        "KPK",
        "piece",
        "The pawn on e2 and the king on e1 are White's only pieces.",
        "pawn on e2 T; king on e1 T",
    ),
    ("KPK", "piece", "Black's king on e4 already blocks the pawn.", "Black's king on e4 F"),
    ("KPK", "suffix", "e4+ is check.", "e4+ F"),
    ("KPK", "suffix", "Kf2 Kf4 e3+ is check.", "Kf2 T; Kf4 T; e3+ T"),
    ("KPK", "piece_negation", "There is no pawn on e2.", "no pawn on e2 F"),
    ("KPK", "alternative", "Kd2, Kf2 or e4 all hold.", "Kd2 T; Kf2 T; e4 T"),
    ("KPK", "negation", "Ke4 is impossible for White.", "Ke4 T"),
]


# Written after the checker passed the corpus above and run against it once, unchanged: the
# figures on these are reported apart (tests/evaluators/chess/test_claims_corpus.py).
HELD_OUT: list[tuple[str, str, str, str]] = [
    (
        "KID",
        "line",
        "5. Nf3 O-O 6. Be2 e5 7. O-O Nc6 is the classical main line.",
        "Nf3 T; O-O T; Be2 T; e5 T; O-O T; Nc6 T",
    ),
    ("KID", "line", "5. f3 O-O 6. Be3 e5 is the Samisch.", "f3 T; O-O T; Be3 T; e5 T"),
    (
        "KID",
        "suffix",
        "5. e5 dxe5 6. dxe5 Qxd1+ 7. Kxd1 Ng4 wins the pawn back.",
        "e5 T; dxe5 T; dxe5 T; Qxd1+ T; Kxd1 T; Ng4 T",
    ),
    (
        "KID",
        "piece",
        "The bishop on g7 and the knight on f6 guard the king, and the pawn on d6 holds e5.",
        "bishop on g7 T; knight on f6 T; pawn on d6 T",
    ),
    (
        "KID",
        "piece",
        "White's queen on d1 and the bishop on c1 are undeveloped.",
        "White's queen on d1 T; bishop on c1 T",
    ),
    ("KID", "negation", "Bg5 is impossible for White right now.", "Bg5 F"),
    ("KID", "line", "5. Bd3 e5 6. d5 Nh5 is a plan for Black.", "Bd3 T; e5 T; d5 T; Nh5 T"),
    ("KID", "suffix", "5. Bb5+ is check.", "Bb5+ F"),  # the c4 pawn blocks f1-b5 (label corrected)
    ("KID", "suffix", "5. Qa4+ c6 blocks.", "Qa4+ T; c6 T"),
    ("KID", "piece", "Black's bishop on f8 is still at home.", "Black's bishop on f8 F"),
    ("KID", "plan", "White plays Nf3, Be2, O-O and d5.", "Nf3 T; Be2 T; O-O T; d5 T"),
    ("KID", "line", "5. Nd5 Nxd5 6. exd5 is harmless.", "Nd5 T; Nxd5 T; exd5 T"),
    ("KID", "piece_negation", "There is no pawn on e5 yet.", "no pawn on e5 T"),
    ("KID", "move", "5. Qxd6 wins a pawn.", "Qxd6 F"),
    ("KID", "earlier_move", "5... Nxe4 is a threat, but Nc3xe4 answers it.", "Nxe4 T; Nc3xe4 T"),
    (
        "CARO",
        "line",
        "5. Ng3 Bg6 6. h4 h6 7. Nf3 Nd7 8. h5 Bh7 is the main line.",
        "Ng3 T; Bg6 T; h4 T; h6 T; Nf3 T; Nd7 T; h5 T; Bh7 T",
    ),
    ("CARO", "line", "5. Nc5 b6 6. Nb3 is odd but legal.", "Nc5 T; b6 T; Nb3 T"),
    ("CARO", "suffix", "5. Nd6# is mate.", "Nd6# F"),
    ("CARO", "suffix", "5. Nd6+ exd6 loses a knight.", "Nd6+ T; exd6 T"),
    (
        "CARO",
        "piece",
        "The bishop on f5 attacks the knight on e4.",
        "bishop on f5 T; knight on e4 T",
    ),
    ("CARO", "piece", "Black's bishop on c8 is passive.", "Black's bishop on c8 F"),
    ("CARO", "line", "5. Bd3 Bxe4 6. Bxe4 gives White the bishop pair.", "Bd3 T; Bxe4 T; Bxe4 T"),
    ("CARO", "negation", "O-O is illegal for White.", "O-O T"),
    ("CARO", "negation", "5. Qf3 is impossible.", "Qf3 F"),
    ("CARO", "line", "5. Ng5 h6 6. Nf3 is a retreat.", "Ng5 T; h6 T; Nf3 T"),
    ("CARO", "negation", "5... e5 is impossible because White is to move.", "e5 T"),
    (
        "CARO",
        "line",
        "5. c4 e6 6. Nf3 Nd7 7. Be2 Ngf6 is solid.",
        "c4 T; e6 T; Nf3 T; Nd7 T; Be2 T; Ngf6 T",
    ),
    (
        "CARO",
        "alternative",
        "The knight on e4 can be kicked by ...Nf6 or ...Nd7.",
        "knight on e4 T; Nf6 T; Nd7 T",
    ),
    ("CARO", "move", "5... Qxd4 is a blunder.", "Qxd4 T"),
    ("CARO", "piece", "5. Bg5 attacks the queen on d8.", "Bg5 T; queen on d8 T"),
    (
        "ITALIAN3",
        "earlier_move",
        "I considered Nxe5, but the bishop on c4 would then be hanging.",
        "Nxe5 T; bishop on c4 F",
    ),
    (
        "START",
        "earlier_move",
        "After 1. e4 the pawn on e4 controls d5, and the knight on f3 is ready.",
        "e4 T; pawn on e4 T; knight on f3 F",
    ),
    (
        "GIUOCO",
        "earlier_move",
        "After 3... Nf6 the knight on g5 attacks f7.",
        "Nf6 T; knight on g5 F",
    ),
    (
        "QGD",
        "earlier_move",
        "I thought of 4. Bg5, but the queen on a4 already pins the knight.",
        "Bg5 T; queen on a4 F",
    ),
    (
        "START",
        "later_sentence",
        "1. e4 e5 2. Nf3 Nc6. Then 3. Bc4 Bxf2 is a gamble.",
        "e4 T; e5 T; Nf3 T; Nc6 T; Bc4 T; Bxf2 F",
    ),
    ("ITALIAN3", "later_sentence", "3. Bc4 Bc5. Then Qxf7 is mate.", "Bc4 T; Bc5 T; Qxf7 F"),
    (
        "GIUOCO",
        "later_sentence",
        "3... Nf6 4. Ng5. Then Nxe4 5. Nxf7 Qxf7 is wild.",
        "Nf6 T; Ng5 T; Nxe4 T; Nxf7 T; Qxf7 F",
    ),
]


def labels(entry: tuple[str, str, str, str]) -> list[tuple[str, str, bool]]:
    """(kind, claim text, true) of one entry."""
    out = []
    for part in entry[3].split(";"):
        text, _, verdict = part.strip().rpartition(" ")
        if verdict not in ("T", "F"):
            raise ValueError(f"bad label {part!r} in {entry[2]!r}")
        out.append(("piece" if " on " in text else "move", text, verdict == "T"))
    return out
