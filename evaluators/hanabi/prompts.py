"""Prompts of the three settings (Watson, Sherlock, Mycroft), written for Podium.

* Watson: short strategy priorities; the state shows only hints directly revealed; a numbered
  list of legal moves; the reply gives reasoning and a move number.
* Sherlock: adds, for every card in every hand, the colours and ranks still possible (from
  the engine), the unseen-card counts and card-counting guidance; the reply is JSON with
  reason, move ratings and action.
* Mycroft: no engine deductions; the model keeps its own per-player deductions in its JSON
  reply, and its previous turn (state shown and reply) is pasted back as working memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from evaluators.base import Message, stable_hash
from games.hanabi import HanabiGame, card_name, parse_move
from games.hanabi.cards import COLOUR_NAMES, COLOURS, MAX_INFO_TOKENS, MAX_LIFE_TOKENS

Setting = Literal["watson", "sherlock", "mycroft"]
SETTINGS: tuple[Setting, ...] = ("watson", "sherlock", "mycroft")
PROMPT_VERSION = "hanabi-prompts-1"
RECENT_MOVES = 8  # moves of history shown (about two rounds at 4 players)
MEMORY_REPLY_CHARS = 6000  # Mycroft: how much of the previous reply is pasted back

RULES = (
    "Hanabi is a cooperative card game. Cards have a colour (R red, Y yellow, G green, W white, "
    "B blue) and a rank 1-5; each colour has three 1s, two 2s, 3s and 4s, and one 5. "
    "You see everyone's cards except your own. The team builds one firework per colour, "
    "in order 1 to 5. On your turn you either PLAY a card (if it is the next rank of its "
    "colour it is added; otherwise it is discarded and the team loses a life), DISCARD a card "
    "(regains an information token; not allowed with 8 tokens), or give a HINT to another "
    "player (costs a token): name one colour or one rank and every card of that colour/rank "
    "in their hand is pointed out. Playing a 5 regains a token. The game ends when the "
    "third life is lost, all fireworks are complete, or one round after the deck runs out. "
    "Score = cards on the fireworks (max 25). Your cards are numbered from 0, the oldest first; "
    "a new card always goes to the end."
)

SYSTEM = {
    "watson": (
        "You are an expert Hanabi player. " + RULES + "\n\nPriorities: (1) play a card you know "
        "is playable; (2) otherwise give a hint that lets a teammate play a card or saves a "
        "card that must not be discarded; (3) otherwise discard the card you are most sure is "
        "not needed. Never risk the last life.\n\nReply with your reasoning, then a final "
        "line exactly of the form `MOVE: <number>` with the number of one legal move."
    ),
    "sherlock": (
        "You are an expert Hanabi player. " + RULES + "\n\nFor every card the state lists the "
        "colours and ranks still possible given all hints so far, and how many copies of each "
        "card you have not yet seen (deck plus your own hand). Use card counting: a card is "
        "safe to play when every possibility is playable, safe to discard when every "
        "possibility is already played or can no longer be played, and critical when it is the "
        "last unseen copy of a card still needed. Priorities: safe play, then a useful hint "
        "(playable or critical cards), then the safest discard. Never risk the last life.\n\n"
        'Reply with JSON only: {"reason": "<short reasoning>", "move_ratings": '
        '{"<move number>": <0-10>, ...}, "action": <move number>}'
    ),
    "mycroft": (
        "You are an expert Hanabi player. " + RULES + "\n\nThe state shows only the hints "
        "given directly; you must deduce the rest yourself and keep your own notes. Each turn "
        "you see your previous turn's state and reply as working memory. Track, for every "
        "player's cards, what that player can deduce (colours and ranks still possible) and "
        "count the cards you have not seen. Priorities: safe play, then a useful hint, then the "
        "safest discard. Never risk the last life.\n\n"
        'Reply with JSON only: {"deductions": {"P0": ["card 0: ...", ...], ...}, '
        '"reason": "<short reasoning>", "move_ratings": {"<move number>": <0-10>, ...}, '
        '"action": <move number>}'
    ),
}

REASK = (
    "Your reply could not be used: {error}\nAnswer again: choose exactly one legal move by its "
    "number, 0 to {last}, in the format required."
)

TEMPLATE_HASH = stable_hash(
    {"version": PROMPT_VERSION, "system": SYSTEM, "reask": REASK, "recent": RECENT_MOVES}
)


def _set_text(mask_values: Iterable[Any]) -> str:
    return "".join(str(v) for v in mask_values)


def describe_move(game: HanabiGame, move: str) -> str:
    """A plain-language gloss for a legal move of the current player."""
    parsed = parse_move(move)
    me = game.current_player
    if parsed.kind == "play":
        return f"play your card {parsed.card_index}"
    if parsed.kind == "discard":
        return f"discard your card {parsed.card_index}"
    target = (me + (parsed.target_offset or 0)) % game.players
    hand = game.hands[target]
    if parsed.kind == "reveal_colour":
        assert parsed.colour is not None
        idx = [i for i, c in enumerate(hand) if c // 5 == parsed.colour]
        what = COLOUR_NAMES[parsed.colour]
    else:
        idx = [i for i, c in enumerate(hand) if c % 5 + 1 == parsed.rank]
        what = f"rank {parsed.rank}"
    cards = ", ".join(str(i) for i in idx)
    return f"tell P{target} which cards are {what} (their cards {cards})"


def _hand_lines(game: HanabiGame, seat: int, viewer: int, *, possibilities: bool) -> list[str]:
    lines = []
    for i, know in enumerate(game.knowledge[seat]):
        shown = "??" if seat == viewer else card_name(game.hands[seat][i])
        hinted = []
        if know.colour is not None:
            hinted.append(f"colour {COLOURS[know.colour]}")
        if know.rank is not None:
            hinted.append(f"rank {know.rank}")
        text = f"  card {i}: {shown}; hinted: {', '.join(hinted) or 'nothing'}"
        if possibilities:
            colours = _set_text(COLOURS[c] for c in know.possible_colours())
            ranks = _set_text(know.possible_ranks())
            text += f"; still possible: colours {colours}, ranks {ranks}"
        lines.append(text)
    return lines


def render_state(game: HanabiGame, seat: int, setting: Setting) -> str:
    """What ``seat`` is shown about the game in ``setting`` (no hidden information)."""
    sherlock = setting == "sherlock"
    fw = " ".join(f"{COLOURS[c]}{h}" for c, h in enumerate(game.fireworks))
    discards = " ".join(sorted(card_name(c) for c in game.discards)) or "none"
    out = [
        f"You are P{seat} in a {game.players}-player game. Turn {game.turn + 1}.",
        f"Fireworks: {fw} (score {game.fireworks_score}/25)",
        (
            f"Information tokens: {game.info_tokens}/{MAX_INFO_TOKENS}. "
            f"Lives: {game.lives}/{MAX_LIFE_TOKENS}. Cards left in deck: {game.deck_size}."
        ),
        f"Discard pile: {discards}",
        "Your hand (you cannot see it; oldest first):",
        *_hand_lines(game, seat, seat, possibilities=sherlock),
    ]
    for k in range(1, game.players):
        other = (seat + k) % game.players
        out.append(f"P{other}'s hand (oldest first):")
        out.extend(_hand_lines(game, other, seat, possibilities=sherlock))
    if sherlock:
        unseen = game.unseen_counts(seat)
        counts = " ".join(f"{card_name(c)}:{n}" for c, n in enumerate(unseen) if n)
        out.append(f"Cards you have not seen (deck + your hand), copies left: {counts}")
        critical = [card_name(c) for c in range(25) if game.is_critical(c)]
        out.append(f"Critical cards (last copy, still needed): {' '.join(critical) or 'none'}")
    recent = game.history[-RECENT_MOVES:]
    if recent:
        out.append("Recent moves (oldest first):")
        out.extend(f"  {r.describe()}" for r in recent)
    return "\n".join(out)


def render_legal_moves(game: HanabiGame, legal: Sequence[str]) -> str:
    return "\n".join(f"{i}. {m} - {describe_move(game, m)}" for i, m in enumerate(legal))


@dataclass(frozen=True)
class Memory:
    """Mycroft's working memory for one seat of one game: its previous turn."""

    turn: int
    state: str
    reply: str

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "state": self.state, "reply": self.reply}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Memory:
        return cls(int(data["turn"]), str(data["state"]), str(data["reply"]))


def build_messages(
    game: HanabiGame, seat: int, setting: Setting, legal: Sequence[str], memory: Memory | None
) -> tuple[list[Message], str]:
    """The chat messages for one turn and the state text shown (kept as Mycroft's memory)."""
    state = render_state(game, seat, setting)
    parts = []
    if setting == "mycroft":
        if memory is None:
            parts.append("Working memory: none yet (this is your first turn).")
        else:
            parts.append(
                f"Working memory - your previous turn (turn {memory.turn + 1}):\n"
                f"[state you saw]\n{memory.state}\n[your reply]\n"
                f"{memory.reply[:MEMORY_REPLY_CHARS]}\n[end of working memory]"
            )
    parts.append(state)
    parts.append("Legal moves:\n" + render_legal_moves(game, legal))
    return [
        {"role": "system", "content": SYSTEM[setting]},
        {"role": "user", "content": "\n\n".join(parts)},
    ], state
