"""Ghooost!'s rules: a round (deal, turns before and after midnight, powers, going out) and a match of
rounds inside one State.

Zones, all as small integers (see cards.py): each hand is a count vector (`hands`, with `sizes`), each
mansion and the crypt are stacks (top = last item), the cemetery is a stack of entries with Kitty cards
counted beside it (`kitty`), the discard is a count vector. `known[s]` counts the cards of hand s that
every other seat has seen go into it (a taken cemetery, a failed gamble or mansion card) and that have
not been played since, or that every seat can deduce (a pass shows a hand of Miss Copy only): this is
public knowledge, the same for every other seat.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from ghostgames.games.ghooost.actions import (
    DONE,
    EFFECT_WORDS,
    GAMBLE,
    KITTY_PLAYS,
    PASS,
    PLAY_TABLE,
    TAKE,
    TURN,
    GhooostAction,
    Move,
    Play,
    Simple,
)
from ghostgames.games.ghooost.cards import (
    COPY_BASE,
    ENTRY_KIND,
    ENTRY_KIND_TEXT,
    FOLLOWS,
    HAND_SIZE,
    HELD_VALUES,
    JACK,
    KIND_BIT,
    KIND_TEXT,
    KINDS,
    KITTY,
    MANSION_SIZE,
    MISS_COPY,
    REVERSE,
    card_text,
    counts_texts,
    deck_cards,
    entry_text,
    held_mask,
)
from ghostgames.games.ghooost.reasons import (
    AFTER_THREE,
    AFTER_TWELVE,
    BELOW_TOP,
    CEMETERY_EMPTY,
    DONE_EXTRA_ONLY,
    MATCH_WON,
    NEVER_DONE,
    NO_GAMBLE,
    NOT_HELD,
    PASS_LAST,
    ROUND_LIMIT,
    TURN_AFTER_MIDNIGHT,
    TURN_EMPTY_HAND,
    TURN_LIMIT,
)
from ghostgames.games.ghooost.scoring import leaders, match_outcome, match_winner, round_outcome, round_points
from ghostgames.rules.chance import derive_rng
from ghostgames.rules.contract import JSON, Event, IllegalAction, Outcome, State
from ghostgames.rules.reasons import UNREADABLE

if TYPE_CHECKING:
    from ghostgames.games.ghooost.game import GhooostGame

# What a play does next (bit flags returned by `_put`; actions.EFFECT_WORDS has the same bits).
AGAIN = 1  # the same player plays again
SKIP = 2  # the next player loses a turn (Kitty)
CLEARED = 4  # the cemetery went to the discard
REVERSED = 8  # the direction changed

SEAT_SETS = tuple(frozenset((s,)) for s in range(max(MANSION_SIZE) + 1))
NOBODY: frozenset[int] = frozenset()
NO_PRIVATE: Mapping[int, Mapping[str, Any]] = Event._field_defaults["private"]
DRAWS = tuple(f"draws {n}" for n in range(HAND_SIZE + 1))
# PILES[value][count][copies]: the cemetery entries of a play (its ghosts, then its Miss Copy cards)
PILES = tuple(
    tuple(tuple((v,) * n + (COPY_BASE + v,) * m for m in range(5)) for n in range(5)) for v in range(KITTY)
)


# A round rarely lasts 200 turns and a match 20 rounds; the limits only stop a game that would not end.
MAX_TURNS = 5000
MAX_ROUNDS = 100


class GhooostOptions(BaseModel):
    model_config = {"extra": "forbid"}

    # first, so that the check of `first` can see it
    players: int | None = Field(None, exclude=True, description="filled in by the table: the number of players")
    deck: Literal["tarot", "original"] = Field(
        "tarot",
        description="tarot: four Kitty and two Miss Copy (the tarot-deck version); "
        "original: two Kitty and four Miss Copy (the published deck)",
    )
    replay: Literal["may", "must"] = Field(
        "may",
        description="may: after a double or triple the extra turn is the player's choice (play again, or "
        "'done' to end the turn, after the refill); must: every extra turn is obligatory. A quartet or a jack "
        "always obliges the player to play again",
    )
    match: bool | None = Field(
        None,
        description="play rounds until somebody holds a second Bouh! (none = on for 3+ players; "
        "with 2 players a match is one round)",
    )
    max_turns: int = Field(
        1000, ge=1, le=MAX_TURNS, description="turns in one round before it ends as a draw (no Bouh!, no points)"
    )
    max_rounds: int = Field(
        30,
        ge=1,
        le=MAX_ROUNDS,
        description="rounds (drawn ones included) after which an undecided match ends: the leader among "
        "the players with fewer than two Bouh! wins, tied leaders draw",
    )
    first: int | None = Field(None, description="seat that starts the first round; none = random from the seed")

    @field_validator("first")
    @classmethod
    def _first_is_a_seat(cls, value: int | None, info: ValidationInfo) -> int | None:
        players = info.data.get("players") or 6
        if value is not None and not 0 <= value < players:
            raise ValueError(f"first must be a seat number from 0 to {players - 1}")
        return value

    def match_on(self, players: int) -> bool:
        return players >= 3 and self.match is not False


class GhooostState(State[GhooostAction]):
    __slots__ = (
        "_outcome",
        "_watched",
        "active",
        "bouh",
        "cemetery",
        "crypt",
        "direction",
        "discard",
        "first",
        "game",
        "hands",
        "held",
        "history",
        "is_out",
        "kitty",
        "known",
        "log",
        "mansions",
        "match_on",
        "may_decline",
        "moves",
        "optional_replay",
        "options",
        "out_order",
        "players",
        "points",
        "round",
        "seed",
        "sizes",
        "top_run",
        "top_value",
        "turn",
        "turns",
    )  # fmt: skip

    def __init__(self, game: GhooostGame, options: GhooostOptions, seed: int, players: int) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.seed = seed
        self.match_on = options.match_on(players)
        self.may_decline = options.replay == "may"  # a double or triple's extra turn may be ended with `done`
        self.round = 0
        self.points = [0] * players
        self.bouh = [0] * players
        self.history: list[JSON] = []
        self._outcome: Outcome | None = None
        self._watched: tuple[int, list[int]] | None = None  # see revealed_by (a clone starts without it)
        self._empty_round(0)

    def _empty_round(self, starter: int) -> None:
        p = self.players
        self.first = starter
        self.turn = starter
        self.direction = 1
        self.hands = [[0] * KINDS for _ in range(p)]
        self.held = [0] * p  # held_mask of each hand, kept in step with it
        self.sizes = [0] * p
        self.known = [[0] * KINDS for _ in range(p)]
        self.mansions: list[list[int]] = [[] for _ in range(p)]
        self.crypt: list[int] = []
        self.cemetery: list[int] = []
        self.kitty = 0
        self.top_value = 0
        self.top_run = 0
        self.discard = [0] * KINDS
        self.is_out = [False] * p
        self.out_order: list[int] = []
        self.active = p
        self.turns = 0
        self.optional_replay = False  # the seat to move is in an extra turn it may end with `done`
        self.log: list[tuple[int | None, str]] = []
        self.moves: list[Move] = []  # the seats' decisions of the log, in values (actions.Move)

    def deal(self, starter: int, cards: list[int] | None = None) -> list[Event]:
        """A fresh round: shuffle from the seed and the round number, 4 cards a hand, the mansions, the crypt.
        `cards` (the whole deck in dealing order, as kinds) replaces the shuffle, for callers that draw the
        chance themselves."""
        self._empty_round(starter)
        if cards is None:
            cards = deck_cards(self.options.deck)
            derive_rng(self.seed, "round", self.round).shuffle(cards)
        else:
            cards = list(cards)
        p, size = self.players, MANSION_SIZE[self.players]
        for s in range(p):
            hand = self.hands[s]
            for kind in cards[s * HAND_SIZE : (s + 1) * HAND_SIZE]:
                hand[kind] += 1
            self.sizes[s] = HAND_SIZE
            self.held[s] = held_mask(hand)
        start = p * HAND_SIZE
        for s in range(p):
            self.mansions[s] = cards[start + s * size : start + (s + 1) * size]
        self.crypt = cards[start + p * size :]
        self.log.append((None, f"round {self.round + 1}: seat {starter} starts"))
        return [
            Event(
                "deal",
                {"round": self.round, "first": starter, "hand": HAND_SIZE, "mansion": size, "crypt": len(self.crypt)},
                {s: {"cards": counts_texts(self.hands[s])} for s in range(p)},
            )
        ]

    # --- whose move -----------------------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        return NOBODY if self._outcome is not None else SEAT_SETS[self.turn]

    def midnight(self) -> bool:
        return not self.crypt

    def legal_actions(self, seat: int) -> list[GhooostAction]:
        if seat != self.turn or self._outcome is not None:
            return []
        hand = self.hands[seat]
        table = PLAY_TABLE[self.top_value][hand[MISS_COPY]]
        out: list[GhooostAction] = []
        for value in HELD_VALUES[self.held[seat]]:
            out += table[value][hand[value]]
        if hand[KITTY]:
            out += KITTY_PLAYS[hand[KITTY]]
        if self.cemetery or self.kitty:
            out.append(TAKE)
        if self.crypt:
            out.append(GAMBLE)
        elif not self.sizes[seat] and self.mansions[seat]:
            out.append(TURN)
        if self.optional_replay:
            out.append(DONE)
        if not out:
            out.append(PASS)
        return out

    # --- applying ---------------------------------------------------------------------------------
    # The contract's `apply` has checked that the game runs and `seat` is to act; `_apply` checks the rest.
    def _apply(self, seat: int, action: GhooostAction) -> list[Event]:
        # type() rather than isinstance(): actions derive from an ABC, whose isinstance check is slow
        if type(action) is Play:
            hand = self.hands[seat]
            if hand[action.value] < action.count or hand[MISS_COPY] < action.copies:
                raise IllegalAction(NOT_HELD, cards=action.cards)
            if not action.free and not FOLLOWS[self.top_value][action.value]:
                raise self._why_not(action.value)
            return self._play(seat, action)
        if type(action) is not Simple:
            raise IllegalAction(f"{action} is not a Ghooost! action", UNREADABLE)
        return self._simple(seat, action)

    def _apply_checked(self, seat: int, action: GhooostAction) -> list[Event]:
        # The hot path of every simulation: a legal play from the hand, made with no check.
        if type(action) is Play:
            return self._play(seat, action)
        return self._apply(seat, action)

    def _play(self, seat: int, play: Play) -> list[Event]:
        hand = self.hands[seat]
        value, count, copies = play.value, play.count, play.copies
        hand[value] -= count
        if not hand[value]:
            self.held[seat] &= ~KIND_BIT[value]
        self.sizes[seat] -= play.size
        known = self.known[seat]
        if known[value]:  # the cards played may be the known ones: they stop being known
            known[value] = known[value] - count if known[value] > count else 0
        if copies:
            hand[MISS_COPY] -= copies
            if known[MISS_COPY]:
                known[MISS_COPY] = known[MISS_COPY] - copies if known[MISS_COPY] > copies else 0
        effect = self._put(value, count, copies)
        self.log.append((seat, play.log[effect]))
        self.moves.append(Move(seat, "play", play.put))
        # tuple.__new__ builds the Event without NamedTuple's Python-level constructor (hot path)
        event = tuple.__new__(Event, ("play", {"seat": seat, "cards": play.cards, "effect": effect}, NO_PRIVATE))
        return self._after(seat, effect, [event])

    def _simple(self, seat: int, action: Simple) -> list[Event]:
        """Take, gamble, turn, done or pass: each checked against the rules, then done."""
        kind = action.kind
        if kind == "take":
            if not (self.cemetery or self.kitty):
                raise IllegalAction(CEMETERY_EMPTY)
            taken = self._take(seat, None)
            self.log.append((seat, "takes the cemetery: " + " ".join(taken)))
            self.moves.append(Move(seat, "take", (), tuple(taken)))
            return self._after(seat, 0, [tuple.__new__(Event, ("take", {"seat": seat, "cards": taken}, NO_PRIVATE))])
        if kind == "gamble":
            if not self.crypt:
                raise IllegalAction(NO_GAMBLE)
            return self._turn_card(seat, self.crypt.pop(), "gamble")
        if kind == "turn":
            if self.crypt:
                raise IllegalAction(TURN_AFTER_MIDNIGHT)
            if self.sizes[seat]:
                raise IllegalAction(TURN_EMPTY_HAND)
            return self._turn_card(seat, self.mansions[seat].pop(), "turn")
        if kind == "done":
            if not self.optional_replay:
                raise IllegalAction(NEVER_DONE if self.options.replay == "must" else DONE_EXTRA_ONLY)
            self.log.append((seat, "ends the turn"))
            self.moves.append(Move(seat, "done"))
            return self._after(seat, 0, [Event("done", {"seat": seat})])
        if self.legal_actions(seat) != [PASS]:
            raise IllegalAction(PASS_LAST)
        # Nothing else allowed means a hand of Miss Copy only (any ghost or Kitty could be played on the
        # empty cemetery): every seat can tell, so the whole hand becomes public knowledge.
        self.known[seat] = self.hands[seat][:]
        self.log.append((seat, "passes"))
        self.moves.append(Move(seat, "pass"))
        return self._after(seat, 0, [Event("pass", {"seat": seat})])

    def _why_not(self, value: int) -> IllegalAction:
        """The refusal of a `value` that cannot follow the top card."""
        top = self.top_value
        if top == 3:
            return IllegalAction(AFTER_THREE)
        if top == 12:
            return IllegalAction(AFTER_TWELVE)
        return IllegalAction(BELOW_TOP, value=value, top=top)

    def _put(self, value: int, count: int, copies: int) -> int:
        """Lay a legal play on the cemetery (Kitty beside it) and apply its powers, each once."""
        if value == KITTY:
            self.kitty += count
            return SKIP
        size = count + copies
        run = self.top_run + size if value == self.top_value else size
        effect = 0
        if value == REVERSE:
            self.direction = -self.direction
            effect = REVERSED
        if run >= 4 or value == JACK:
            discard = self.discard
            for entry in self.cemetery:
                discard[ENTRY_KIND[entry]] += 1
            discard[value] += count
            discard[MISS_COPY] += copies
            discard[KITTY] += self.kitty
            self.kitty = 0
            self.cemetery.clear()
            self.top_value = self.top_run = 0
            return effect | AGAIN | CLEARED
        self.cemetery += PILES[value][count][copies]
        self.top_value = value
        self.top_run = run
        return effect | AGAIN if size >= 2 else effect

    def _take(self, seat: int, extra: int | None) -> list[str]:
        """The cemetery (Kitty included) and `extra` go into the hand, seen by all; returns their names."""
        hand, known, cemetery = self.hands[seat], self.known[seat], self.cemetery
        held = self.held[seat]
        for entry in cemetery:
            kind = ENTRY_KIND[entry]
            hand[kind] += 1
            known[kind] += 1
            held |= KIND_BIT[kind]
        texts = [ENTRY_KIND_TEXT[entry] for entry in cemetery]
        taken = len(cemetery)
        kitty = self.kitty
        if kitty:
            texts.extend("K" * kitty)
            hand[KITTY] += kitty
            known[KITTY] += kitty
            taken += kitty
        if extra is not None:
            hand[extra] += 1
            known[extra] += 1
            held |= KIND_BIT[extra]
            texts.append(card_text(extra))
            taken += 1
        self.sizes[seat] += taken
        self.held[seat] = held
        cemetery.clear()
        self.kitty = self.top_value = self.top_run = 0
        return texts

    def _turn_card(self, seat: int, card: int, how: Literal["gamble", "turn"]) -> list[Event]:
        """A gambled crypt card or a turned mansion card, played alone if legal, else taken with the cemetery."""
        where = "the crypt" if how == "gamble" else "the mansion"
        name = card_text(card)
        if card == KITTY or (card != MISS_COPY and FOLLOWS[self.top_value][card]):
            effect = self._put(card, 1, 0)
            self.log.append((seat, f"turns {name} from {where} and plays it{EFFECT_WORDS[effect]}"))
            self.moves.append(Move(seat, f"{how}_play", (name,), (), name))
            events = [Event(how, {"seat": seat, "card": name, "played": True, "effect": effect})]
        else:
            effect = 0
            taken = self._take(seat, card)
            self.log.append((seat, f"turns {name} from {where}, cannot play it and takes: {' '.join(taken)}"))
            self.moves.append(Move(seat, f"{how}_take", (), tuple(taken), name))
            events = [Event(how, {"seat": seat, "card": name, "played": False, "cards": taken})]
        if how == "gamble" and not self.crypt:
            events.append(Event("midnight", {}))
            self.log.append((None, "midnight: the crypt is empty"))
        return self._after(seat, effect, events)

    def _after(self, seat: int, effect: int, events: list[Event]) -> list[Event]:
        """End of an action: refill, going out, the round's end, and who plays next (and whether an extra
        turn is the player's choice: a double or triple's under `replay` = `may`; CLEARED marks the quartets
        and jacks, which always oblige)."""
        self.optional_replay = False
        if self.crypt:
            if self.sizes[seat] < HAND_SIZE:
                self._refill(seat, events)  # before midnight a hand never empties, so nobody goes out
        elif not self.sizes[seat] and not self.mansions[seat]:
            self.is_out[seat] = True
            self.out_order.append(seat)
            self.active -= 1
            place = len(self.out_order)
            events.append(Event("out", {"seat": seat, "place": place}))
            self.log.append((seat, f"is out ({place}.)"))
            if self.active == 1:
                self.turns += 1
                self._end_round(self.is_out.index(False), events)
                return events
            effect &= ~AGAIN  # going out passes the turn on even when a replay was due
        self.turns += 1
        if self.turns >= self.options.max_turns:
            self._end_round(None, events)
        elif effect & AGAIN:
            self.turn = seat
            self.optional_replay = self.may_decline and not effect & CLEARED
        elif effect & SKIP:
            self.turn = self._next(seat, 2)
        else:  # the next player in the current direction, inline: this runs after nearly every action
            players, direction, out = self.players, self.direction, self.is_out
            seat = (seat + direction) % players
            while out[seat]:
                seat = (seat + direction) % players
            self.turn = seat
        return events

    def _refill(self, seat: int, events: list[Event]) -> None:
        hand, crypt = self.hands[seat], self.crypt
        count = HAND_SIZE - self.sizes[seat]
        if count > len(crypt):
            count = len(crypt)
        drawn = crypt[-count:]
        del crypt[-count:]
        held = self.held[seat]
        for card in drawn:
            hand[card] += 1
            held |= KIND_BIT[card]
        self.held[seat] = held
        self.sizes[seat] += count
        drawn.reverse()  # in the order drawn: the crypt's top first
        private = {seat: {"cards": [KIND_TEXT[c] for c in drawn]}}
        events.append(tuple.__new__(Event, ("draw", {"seat": seat, "count": count}, private)))
        self.log.append((seat, DRAWS[count]))
        if not crypt:
            events.append(Event("midnight", {}))
            self.log.append((None, "midnight: the crypt is empty"))

    def _next(self, seat: int, steps: int) -> int:
        """The player `steps` turns on in the current direction, skipping those who are out."""
        players, direction, out = self.players, self.direction, self.is_out
        for _ in range(steps):
            seat = (seat + direction) % players
            while out[seat]:
                seat = (seat + direction) % players
        return seat

    # --- rounds and the match ---------------------------------------------------------------------
    def _end_round(self, loser: int | None, events: list[Event]) -> None:
        """Score the round; end the game or deal the next round of the match (the loser starts it)."""
        p = self.players
        gained = [0] * p if loser is None else round_points(p, self.out_order, loser)
        if loser is None:
            self.log.append((None, f"the round reached {self.options.max_turns} turns: a draw"))
        else:
            self.log.append((None, f"seat {loser} is the last holding cards and loses the round"))
        if self.match_on and loser is not None:
            self.bouh[loser] += 1
            for s in range(p):
                self.points[s] += gained[s]
        self.history.append(
            {"round": self.round, "loser": loser, "out": list(self.out_order), "points": gained, "turns": self.turns}
        )
        events.append(Event("round_end", {"round": self.round, "loser": loser, "out": list(self.out_order),
                                          "points": gained, "bouh": list(self.bouh), "total": list(self.points)}))
        if not self.match_on:
            self._outcome = (
                round_outcome(p, loser) if loser is not None
                else Outcome.draw(p, TURN_LIMIT, turns=self.options.max_turns)
            )  # fmt: skip
        else:
            winner = match_winner(self.points, self.bouh)
            if winner is not None:
                self._outcome = match_outcome(self.points, self.bouh, [winner], MATCH_WON,
                                              seat=winner, points=self.points[winner])
            elif self.round + 1 >= self.options.max_rounds:
                best = leaders(self.points, self.bouh)
                self._outcome = match_outcome(self.points, self.bouh, best, ROUND_LIMIT,
                                              rounds=self.options.max_rounds)
        if self._outcome is not None:
            events.append(Event("end", self._outcome.to_json()))
            return
        self.round += 1
        starter = loser if loser is not None else derive_rng(self.seed, "first", self.round).randrange(p)
        events.extend(self.deal(starter))

    # --- knowledge --------------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        return self._outcome

    def view(self, seat: int | None) -> JSON:
        over = self._outcome is not None
        return {
            "game": "ghooost",
            "players": self.players,
            "seat": seat,
            "options": self.options.model_dump(),
            "match": self.match_on,
            "round": self.round,
            "phase": "over" if over else ("after midnight" if not self.crypt else "before midnight"),
            "midnight": not self.crypt,
            "first": self.first,
            "turn": None if over else self.turn,
            "to_act": sorted(self.to_act()),
            "direction": "clockwise" if self.direction == 1 else "counterclockwise",
            "optional_replay": self.optional_replay and not over,
            "hand": counts_texts(self.hands[seat]) if seat is not None else None,
            "seats": [
                {
                    "seat": s,
                    "hand": self.sizes[s],
                    "known": counts_texts(self.known[s]),
                    "mansion": len(self.mansions[s]),
                    "out": self.is_out[s],
                    "points": self.points[s],
                    "bouh": self.bouh[s],
                }
                for s in range(self.players)
            ],
            "crypt": len(self.crypt),
            "discard": counts_texts(self.discard),
            "cemetery": [entry_text(e) for e in self.cemetery],
            "kitty": self.kitty,
            "top": self.top_value,
            "top_count": self.top_run,
            "out_order": list(self.out_order),
            "turns": self.turns,
            "points": list(self.points),
            "bouh": list(self.bouh),
            "rounds": [dict(r) for r in self.history],
            "log": [[s, text] for s, text in self.log],
            "moves": [move.to_json() for move in self.moves],
            "legal": self.legal_texts(seat) if seat is not None and not over and seat == self.turn else [],
            "outcome": self._outcome.to_json() if self._outcome else None,
        }

    def __str__(self) -> str:
        """The table, hands included: the round, the cemetery and each seat's hand and mansion.

        >>> from ghostgames.games import get_game
        >>> print(get_game("ghooost").new(2, seed=3))
        Ghooost! round 1, turn 1, before midnight (crypt 30), clockwise: seat 0 to play
        cemetery: empty
        seat 0: hand 2 9 10 14, mansion 12, points 0, Bouh! 0
        seat 1: hand 1 7 10 11, mansion 12, points 0, Bouh! 0
        """
        midnight = "after midnight" if not self.crypt else f"before midnight (crypt {len(self.crypt)})"
        turning = "clockwise" if self.direction == 1 else "counterclockwise"
        if self._outcome is not None:
            status = f"over: {self._outcome.reason}"
        else:
            status = f"seat {self.turn} to play" + (" again or end the turn" if self.optional_replay else "")
        pile = " ".join(entry_text(e) for e in self.cemetery) or "empty"
        kitty = f", Kitty {self.kitty}" if self.kitty else ""
        lines = [f"Ghooost! round {self.round + 1}, turn {self.turns + 1}, {midnight}, {turning}: {status}",
                 f"cemetery: {pile}{kitty}"]
        for s in range(self.players):
            hand = "out" if self.is_out[s] else "hand " + (" ".join(counts_texts(self.hands[s])) or "empty")
            lines.append(f"seat {s}: {hand}, mansion {len(self.mansions[s])}, points {self.points[s]}, "
                         f"Bouh! {self.bouh[s]}")
        return "\n".join(lines)

    # --- search and storage -----------------------------------------------------------------------
    def clone(self) -> GhooostState:
        other = GhooostState.__new__(GhooostState)
        other.game = self.game
        other.players = self.players
        other.options = self.options
        other.may_decline = self.may_decline
        other.seed = self.seed
        other.match_on = self.match_on
        other.round = self.round
        other.points = self.points[:]
        other.bouh = self.bouh[:]
        other.history = self.history[:]
        other._outcome = self._outcome
        other.first = self.first
        other.turn = self.turn
        other.direction = self.direction
        other.hands = [h[:] for h in self.hands]
        other.held = self.held[:]
        other.sizes = self.sizes[:]
        other.known = [k[:] for k in self.known]
        other.mansions = [m[:] for m in self.mansions]
        other.crypt = self.crypt[:]
        other.cemetery = self.cemetery[:]
        other.kitty = self.kitty
        other.top_value = self.top_value
        other.top_run = self.top_run
        other.discard = self.discard[:]
        other.is_out = self.is_out[:]
        other.out_order = self.out_order[:]
        other.active = self.active
        other.turns = self.turns
        other.optional_replay = self.optional_replay
        other.log = self.log[:]
        other.moves = self.moves[:]
        return other

    def sample_world(self, seat: int | None, rng: random.Random) -> GhooostState:
        """Keep what `seat` knows (its hand, public zones, and in `known` the cards seen going into other
        hands or certain from the rules: a pass shows a hand of Miss Copy only, and after midnight such a
        hand stays fully known); re-deal the rest (other hands' unknown cards, every mansion, the crypt) at
        random with the same counts. Nothing else is forced in Ghooost!, so nothing else is certain. A
        spectator (seat None) knows no hand beyond `known`: every hand is re-dealt so."""
        world = self.clone()
        world.seed = rng.randrange(2**63)
        kept = self._kept()
        pool: list[int] = []
        for s in range(self.players):
            if s != seat:
                hand, known = self.hands[s], kept[s]
                for kind in range(1, KINDS):
                    pool.extend([kind] * (hand[kind] - known[kind]))
            pool.extend(self.mansions[s])
        pool.extend(self.crypt)
        pool.sort()  # the hidden cards' true order must not steer the deal (a seeded rng could undo it)
        rng.shuffle(pool)
        at = 0
        for s in range(self.players):
            if s != seat:
                hand = kept[s][:]
                fresh = self.sizes[s] - sum(hand)
                for kind in pool[at : at + fresh]:
                    hand[kind] += 1
                at += fresh
                world.hands[s] = hand
                world.held[s] = held_mask(hand)
            size = len(self.mansions[s])
            world.mansions[s] = pool[at : at + size]
            at += size
        world.crypt = pool[at:]
        return world

    def _kept(self) -> list[list[int]]:
        """The cards a sampled world keeps in each hand: `known`, and in a copy made by `revealed_by` the
        cards of the play the spectator watched (counted as held, whatever else the hand holds)."""
        watched: tuple[int, list[int]] | None = getattr(self, "_watched", None)
        if watched is None:
            return self.known
        kept = [k[:] for k in self.known]
        seat, cards = watched
        kept[seat] = [max(k, c) for k, c in zip(kept[seat], cards, strict=True)]
        return kept

    def revealed_by(self, seat: int, action: GhooostAction) -> GhooostState:
        """Every Ghooost! action is public; a play shows that its cards were in the hand, and a pass the whole
        hand (only a hand of Miss Copy alone may pass, as `_apply` records in `known`)."""
        copy = self.clone()
        if type(action) is Play:
            cards = [0] * KINDS
            cards[action.value] += action.count
            cards[MISS_COPY] += action.copies
            copy._watched = (seat, cards)
        elif action == PASS:
            copy._watched = (seat, self.hands[seat][:])
        return copy

    def to_json(self) -> JSON:
        return {
            "game": "ghooost",
            "players": self.players,
            "options": self.options.model_dump(),
            "seed": self.seed,
            "round": self.round,
            "first": self.first,
            "turn": self.turn,
            "direction": self.direction,
            "hands": [list(h) for h in self.hands],
            "known": [list(k) for k in self.known],
            "mansions": [list(m) for m in self.mansions],
            "crypt": list(self.crypt),
            "cemetery": list(self.cemetery),
            "kitty": self.kitty,
            "discard": list(self.discard),
            "out_order": list(self.out_order),
            "turns": self.turns,
            "optional_replay": self.optional_replay,
            "points": list(self.points),
            "bouh": list(self.bouh),
            "history": [dict(r) for r in self.history],
            "log": [[s, text] for s, text in self.log],
            "moves": [move.to_json() for move in self.moves],
            "outcome": self._outcome.to_json() if self._outcome else None,
        }

    @classmethod
    def from_json(cls, game: GhooostGame, data: Mapping[str, Any]) -> GhooostState:
        """Rebuild exactly; also the way tests build positions (hand and discard are count vectors)."""
        players = int(data["players"])
        options = GhooostOptions.model_validate({**data.get("options", {}), "players": players})
        state = cls(game, options, int(data.get("seed", 0)), players)
        state.round = int(data.get("round", 0))
        state.first = int(data.get("first", 0))
        state.turn = int(data.get("turn", state.first))
        state.direction = int(data.get("direction", 1))
        state.hands = [_counts(h) for h in data["hands"]]
        state.held = [held_mask(h) for h in state.hands]
        state.sizes = [sum(h) for h in state.hands]
        state.known = [_counts(k) for k in data.get("known", [[0] * KINDS] * players)]
        state.mansions = [[int(c) for c in m] for m in data["mansions"]]
        state.crypt = [int(c) for c in data["crypt"]]
        state.cemetery = [int(e) for e in data["cemetery"]]
        state.kitty = int(data.get("kitty", 0))
        state.discard = _counts(data.get("discard", [0] * KINDS))
        state.out_order = [int(s) for s in data.get("out_order", [])]
        state.is_out = [s in state.out_order for s in range(players)]
        state.active = players - len(state.out_order)
        state.turns = int(data.get("turns", 0))
        state.optional_replay = bool(data.get("optional_replay", False))
        state.points = [int(p) for p in data.get("points", [0] * players)]
        state.bouh = [int(b) for b in data.get("bouh", [0] * players)]
        state.history = [dict(r) for r in data.get("history", [])]
        state.log = [(None if s is None else int(s), str(t)) for s, t in data.get("log", [])]
        state.moves = [Move.from_json(move) for move in data.get("moves", [])]
        state._outcome = Outcome.from_json(data["outcome"]) if data.get("outcome") else None
        state._top_from_cemetery()
        return state

    def _top_from_cemetery(self) -> None:
        value = run = 0
        for entry in reversed(self.cemetery):
            v = entry - COPY_BASE if entry > COPY_BASE else entry
            if run and v != value:
                break
            value, run = v, run + 1
        self.top_value, self.top_run = value, run


def _counts(data: Any) -> list[int]:
    counts = [int(c) for c in data]
    if len(counts) != KINDS:
        raise ValueError(f"a count vector has {KINDS} entries (index = card kind)")
    return counts
