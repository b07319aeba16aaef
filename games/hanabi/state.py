"""A Hanabi game: OpenSpiel's HLE rules, our seeded deal, and a readable mirror of the state.

OpenSpiel decides what is legal and when the game ends; our own seeded RNG shuffles the deck
and answers every chance node from it, so a seed fixes the deal whoever plays. A game is fully
described by (seed, players, moves) and any state is rebuilt by ``HanabiGame.replay``.

Alongside the pyspiel state we keep a mirror in plain Python lists (hands, hint knowledge,
fireworks, tokens, discards) because bots and prompts read it thousands of times per game and
parsing OpenSpiel's observation strings would be far slower. Tests check the mirror against
OpenSpiel's own observations.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import pyspiel

from games.hanabi.cards import (
    DECK_SIZE,
    FULL_COUNTS,
    MAX_INFO_TOKENS,
    MAX_LIFE_TOKENS,
    NUM_RANKS,
    UNKNOWN,
    CardKnowledge,
    card_name,
    full_counts,
)
from games.hanabi.moves import IllegalMoveError, InvalidMoveStringError, Move, parse_move

EndReason = Literal["perfect", "bomb", "deck"]
MIN_PLAYERS, MAX_PLAYERS = 2, 5


@dataclass(frozen=True)
class _Rules:
    """One pyspiel game object per player count, with its action names.

    Held by every HanabiGame built from it, so the pyspiel game outlives all of its states.
    """

    game: Any
    players: int
    names: tuple[str, ...]  # action id -> HLE string
    ids: dict[str, int]
    moves: tuple[Move, ...]  # action id -> parsed move


@cache
def _rules(players: int) -> _Rules:
    game = pyspiel.load_game("hanabi", {"players": players})
    # the game object only names actions generically; a dealt state names them in HLE form
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    names = tuple(state.action_to_string(0, a) for a in range(game.num_distinct_actions()))
    return _Rules(
        game,
        players,
        names,
        {n: i for i, n in enumerate(names)},
        tuple(parse_move(n) for n in names),
    )


def deck_order(seed: int) -> list[int]:
    """The 50 cards in dealing order for a seed (independent of who plays)."""
    deck = [card for card, n in enumerate(FULL_COUNTS) for _ in range(n)]
    random.Random(f"podium-hanabi-deck/{seed}").shuffle(deck)
    return deck


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One applied move and what it revealed, for histories and transcripts."""

    turn: int
    player: int
    move: str
    card: int | None = None  # the card played or discarded
    success: bool | None = None  # plays only
    target: int | None = None  # hints: absolute seat
    touched: tuple[int, ...] = ()  # hints: indices of the touched cards

    def describe(self) -> str:
        if self.card is not None and self.success is not None:
            outcome = "successfully" if self.success else "and it FAILED (life lost)"
            return f"P{self.player} played {card_name(self.card)} {outcome}"
        if self.card is not None:
            return f"P{self.player} discarded {card_name(self.card)}"
        parsed = parse_move(self.move)
        what = (
            "colour " + "RYGWB"[parsed.colour]  # type: ignore[index]
            if parsed.kind == "reveal_colour"
            else f"rank {parsed.rank}"
        )
        where = ", ".join(str(i) for i in self.touched)
        return f"P{self.player} told P{self.target} {what} (cards {where})"


class HanabiGame:
    """One game from its first deal to its end. Not thread-safe; cheap to clone."""

    def __init__(self, seed: int, players: int, *, deck: Sequence[int] | None = None) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be 2..5, got {players}")
        self.seed = seed
        self.players = players
        self._rules = _rules(players)  # keeps the pyspiel game alive as long as this state
        self._state = self._rules.game.new_initial_state()
        self._deck = list(deck) if deck is not None else deck_order(seed)
        self._next_card = 0
        self.hand_size = 5 if players <= 3 else 4
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.knowledge: list[list[CardKnowledge]] = [[] for _ in range(players)]
        self.fireworks = [0] * 5
        self.info_tokens = MAX_INFO_TOKENS
        self.lives = MAX_LIFE_TOKENS
        self.discards: list[int] = []
        self.history: list[MoveRecord] = []
        # Fixed hand slots as the Walton-Rivers framework keeps them (its Hand / TimedHand:
        # a drawn card takes the slot the played or discarded card left, and a slot stays
        # empty once the deck is out). slots[p][s] is the HLE index of the card in slot s,
        # or None. HLE itself shifts the hand left and appends; the bots read slots so that
        # "first slot that ..." breaks ties the way the original does.
        self.slots: list[list[int | None]] = [[] for _ in range(players)]
        # deck position each hand card was dealt from (parallel to hands), so a sampler can
        # swap what a player holds for another hand consistent with their knowledge
        self.deck_positions: list[list[int]] = [[] for _ in range(players)]
        self._legal_cache: list[str] | None = None
        # initial deal: HLE deals player by player, hand_size cards each
        for p in range(players):
            for _ in range(self.hand_size):
                self._deal(p)

    # ----- construction -----------------------------------------------------------------

    @classmethod
    def replay(cls, seed: int, players: int, moves: Iterable[str]) -> HanabiGame:
        game = cls(seed, players)
        for i, move in enumerate(moves):
            try:
                game.apply(move)
            except (IllegalMoveError, InvalidMoveStringError) as exc:
                raise IllegalMoveError(f"replay of seed {seed}: move {i} {move!r}: {exc}") from exc
        return game

    def clone(self, *, reshuffle: random.Random | None = None) -> HanabiGame:
        """An independent copy. With ``reshuffle``, the undealt cards are shuffled again
        (a different possible future for Monte-Carlo rollouts)."""
        new = object.__new__(HanabiGame)
        new.seed, new.players, new._rules = self.seed, self.players, self._rules
        new._state = self._state.clone()
        new._deck = list(self._deck)
        new._next_card = self._next_card
        if reshuffle is not None:
            rest = new._deck[new._next_card :]
            reshuffle.shuffle(rest)
            new._deck[new._next_card :] = rest
        new.hand_size = self.hand_size
        new.hands = [list(h) for h in self.hands]
        new.knowledge = [list(k) for k in self.knowledge]
        new.fireworks = list(self.fireworks)
        new.info_tokens, new.lives = self.info_tokens, self.lives
        new.discards = list(self.discards)
        new.history = list(self.history)
        new.slots = [list(s) for s in self.slots]
        new.deck_positions = [list(p) for p in self.deck_positions]
        new._legal_cache = self._legal_cache
        return new

    # ----- reading ----------------------------------------------------------------------

    @property
    def moves(self) -> list[str]:
        return [r.move for r in self.history]

    @property
    def turn(self) -> int:
        return len(self.history)

    @property
    def current_player(self) -> int:
        return self._state.current_player()

    @property
    def deck_size(self) -> int:
        return DECK_SIZE - self._next_card

    def is_terminal(self) -> bool:
        return self._state.is_terminal()

    def legal_moves(self) -> list[str]:
        """HLE strings of the legal moves, in OpenSpiel's action order."""
        if self._legal_cache is None:
            names = self._rules.names
            self._legal_cache = [names[a] for a in self._state.legal_actions()]
        return list(self._legal_cache)

    def is_legal(self, move: str) -> bool:
        return move in self.legal_moves()

    @property
    def fireworks_score(self) -> int:
        """The study's score: cards on the fireworks, kept when the last life is lost."""
        return sum(self.fireworks)

    @property
    def hle_score(self) -> int:
        """HLE's score: the fireworks sum, but 0 once all lives are lost."""
        return 0 if self.lives == 0 else sum(self.fireworks)

    def end_reason(self) -> EndReason | None:
        if not self.is_terminal():
            return None
        if self.lives == 0:
            return "bomb"
        if sum(self.fireworks) == 25:
            return "perfect"
        return "deck"

    def is_playable(self, card: int) -> bool:
        return self.fireworks[card // NUM_RANKS] == card % NUM_RANKS

    def is_useless(self, card: int) -> bool:
        """Already played, or can never be played because a lower card is all discarded."""
        colour, rank = divmod(card, NUM_RANKS)
        if rank < self.fireworks[colour]:
            return True
        gone = self.discard_counts()
        base = colour * NUM_RANKS
        return any(
            gone[base + r] == FULL_COUNTS[base + r] for r in range(self.fireworks[colour], rank)
        )

    def is_critical(self, card: int) -> bool:
        """Not useless, and the last copy of its kind (discarding it lowers the max score)."""
        return not self.is_useless(card) and self.discard_counts()[card] == FULL_COUNTS[card] - 1

    def discard_counts(self) -> list[int]:
        counts = [0] * 25
        for card in self.discards:
            counts[card] += 1
        return counts

    def unseen_counts(self, player: int) -> list[int]:
        """Copies of each card type that ``player`` cannot see: the deck plus their own hand."""
        counts = full_counts()
        for card in self.discards:
            counts[card] -= 1
        for colour, height in enumerate(self.fireworks):
            for r in range(height):
                counts[colour * NUM_RANKS + r] -= 1
        for p, hand in enumerate(self.hands):
            if p != player:
                for card in hand:
                    counts[card] -= 1
        return counts

    def possible_cards(
        self, player: int, index: int, unseen: Sequence[int] | None = None
    ) -> dict[int, int]:
        """Card -> copies still unseen by ``player`` that agree with the hints on one of their
        cards (hint knowledge plus card counting)."""
        counts = unseen if unseen is not None else self.unseen_counts(player)
        know = self.knowledge[player][index]
        return {c: n for c, n in enumerate(counts) if n > 0 and know.may_be(c)}

    @property
    def deck(self) -> list[int]:
        """The whole deck in dealing order (dealt and undealt): for analysis, never for players."""
        return list(self._deck)

    def observation_string(self, player: int) -> str:
        """OpenSpiel's own observation text for ``player`` (HLE's rendering)."""
        return self._state.observation_string(player)

    def pyspiel_state(self) -> Any:
        """The underlying pyspiel state (read it, never apply moves to it directly)."""
        return self._state

    # ----- playing ----------------------------------------------------------------------

    def apply(self, move: str) -> MoveRecord:
        """Apply an HLE move string for the current player and deal the replacement card."""
        if self.is_terminal():
            raise IllegalMoveError(f"game is over; cannot apply {move!r}")
        action = self._rules.ids.get(move)
        if action is None:
            parse_move(move)  # raises InvalidMoveStringError for malformed text
            raise IllegalMoveError(f"{move!r} does not exist with {self.players} players")
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move!r} is not legal now; legal: {self.legal_moves()}")
        parsed = self._rules.moves[action]
        player = self.current_player
        self._state.apply_action(action)
        self._legal_cache = None
        record = self._mirror(player, parsed, move)
        self.history.append(record)
        if self._state.is_chance_node():
            self._deal(player)
        return record

    def _mirror(self, player: int, move: Move, text: str) -> MoveRecord:
        turn = len(self.history)
        if move.kind in ("play", "discard"):
            idx = move.card_index
            assert idx is not None
            card = self.hands[player].pop(idx)
            self.knowledge[player].pop(idx)
            self.deck_positions[player].pop(idx)
            slots = self.slots[player]
            slots[slots.index(idx)] = None
            for s, i in enumerate(slots):
                if i is not None and i > idx:
                    slots[s] = i - 1
            if move.kind == "discard":
                self.discards.append(card)
                self.info_tokens += 1
                return MoveRecord(turn, player, text, card=card)
            colour, rank0 = divmod(card, NUM_RANKS)
            success = self.fireworks[colour] == rank0
            if success:
                self.fireworks[colour] += 1
                if rank0 == 4 and self.info_tokens < MAX_INFO_TOKENS:
                    self.info_tokens += 1
            else:
                self.lives -= 1
                self.discards.append(card)
            return MoveRecord(turn, player, text, card=card, success=success)
        target = (player + (move.target_offset or 0)) % self.players
        hand, know = self.hands[target], self.knowledge[target]
        touched = []
        for i, card in enumerate(hand):
            if move.kind == "reveal_colour":
                hit = card // NUM_RANKS == move.colour
                know[i] = know[i].with_colour_hint(move.colour, hit)  # type: ignore[arg-type]
            else:
                hit = card % NUM_RANKS + 1 == move.rank
                know[i] = know[i].with_rank_hint(move.rank, hit)  # type: ignore[arg-type]
            if hit:
                touched.append(i)
        self.info_tokens -= 1
        return MoveRecord(turn, player, text, target=target, touched=tuple(touched))

    def _deal(self, player: int) -> None:
        card = self._deck[self._next_card]
        self._next_card += 1
        self._state.apply_action(card)  # the chance action id is the card id
        self.hands[player].append(card)
        self.knowledge[player].append(UNKNOWN)
        self.deck_positions[player].append(self._next_card - 1)
        slots, index = self.slots[player], len(self.hands[player]) - 1
        if len(slots) < self.hand_size:  # the initial deal fills slots in order
            slots.append(index)
        else:  # the slot just vacated (the only empty one while the deck lasts)
            slots[slots.index(None)] = index

    def __repr__(self) -> str:
        return (
            f"HanabiGame(seed={self.seed}, players={self.players}, turn={self.turn}, "
            f"fireworks={self.fireworks}, lives={self.lives}, info={self.info_tokens})"
        )
