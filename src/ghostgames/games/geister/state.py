"""Geister's rules: secret simultaneous setup, one-square moves, captures that reveal, exits.

Ghost ids are 0..15: seat s owns s*8 .. s*8+7, and ghost k of a seat starts on START[seat][k], so an id
says nothing secret. `good[id]` is the secret colour (None before that seat's setup).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import combinations
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field, field_validator

from ghostgames.games.geister.actions import MOVES, STEPS, Move, Setup
from ghostgames.games.geister.board import (
    ESCAPE_DIRECTIONS,
    EXITS,
    FILES,
    GHOST_IN_SEAT,
    GHOSTS,
    OFF_BOARD,
    OWNER_SHIFT,
    SIZE,
    SQUARES,
    START,
    square_name,
)
from ghostgames.games.geister.deductions import Result, exit_deductions
from ghostgames.games.geister.reasons import (
    BAD_CAPTURED,
    ESCAPE_FROM_EXIT,
    ESCAPE_GOOD_ONLY,
    GOOD_CAPTURED,
    LEFT_BOARD,
    NO_ESCAPE,
    NO_GHOST,
    NOT_START,
    OWN_GHOST,
    PLY_LIMIT,
    REACHED,
    SETUP_FIRST,
    SETUP_OVER,
)
from ghostgames.rules.contract import JSON, Event, IllegalAction, Outcome, State
from ghostgames.rules.reasons import UNREADABLE, Reason

if TYPE_CHECKING:
    from ghostgames.games.geister.game import GeisterGame

CAPTURED = -1
ESCAPED = -2
GeisterAction = Setup | Move
_ONLY = (frozenset((0,)), frozenset((1,)))
_NOBODY: frozenset[int] = frozenset()
NO_PRIVATE: Mapping[int, Mapping[str, Any]] = Event._field_defaults["private"]
EXIT_BITS = tuple(sum(1 << sq for sq in EXITS[seat]) for seat in (0, 1))
# Per seat, (exit square, the moves that leave the board from it), for the `escape` rule.
ESCAPES: tuple[tuple[tuple[int, tuple[Move, ...]], ...], ...] = tuple(
    tuple((sq, tuple(MOVES[sq][d] for d in ESCAPE_DIRECTIONS[seat][sq])) for sq in EXITS[seat])
    for seat in (0, 1)
)
# Move generation by table: for a square, the bits of its neighbours, and for each pattern of own ghosts on
# those neighbours the moves that remain. One AND and two look-ups per ghost instead of a loop. The two
# entries after square 35 are reached by the negative positions CAPTURED (-1) and ESCAPED (-2) and give
# no moves, so the loop needs no test for ghosts that left the board.
NEIGHBOUR_BITS: tuple[int, ...] = (*(sum(1 << dest for dest, _ in STEPS[sq]) for sq in range(SQUARES)), 0, 0)
MOVES_IF_BLOCKED: tuple[dict[int, tuple[Move, ...]], ...] = (
    *(
        {
            blocked: tuple(move for dest, move in STEPS[sq] if not (blocked >> dest) & 1)
            for blocked in (
                sum(1 << dest for i, (dest, _) in enumerate(STEPS[sq]) if (subset >> i) & 1)
                for subset in range(1 << len(STEPS[sq]))
            )
        }
        for sq in range(SQUARES)
    ),
    {0: ()},
    {0: ()},
)


# A game of Geister rarely passes 200 moves (the competition stops at 300); more is a game nobody ends.
MAX_PLIES_CEILING = 1000  # the largest `max_plies` a table may set


class GeisterOptions(BaseModel):
    model_config = {"extra": "forbid"}

    exit: Literal["reach", "escape"] = Field(
        "reach",
        description="reach: a good ghost stepping onto an exit corner wins; "
        "escape: a good ghost on an exit corner uses one more move to leave the board",
    )
    max_plies: int | None = Field(
        None, ge=1, le=MAX_PLIES_CEILING, description="moves (both sides counted) before the game is a draw"
    )
    disclose: bool = Field(
        False,
        description="show every ghost's colour at the end (only when both players choose it)",
        json_schema_extra={"vote": True},
    )
    first: int | None = Field(None, description="seat that moves first (0 or 1); none = random from the seed")

    @field_validator("first")
    @classmethod
    def _seat(cls, value: int | None) -> int | None:
        if value is not None and value not in (0, 1):
            raise ValueError("first is seat 0 or seat 1")
        return value


class GeisterState(State[GeisterAction]):
    __slots__ = (
        "_deduced",
        "_outcome",
        "board",
        "escape",
        "first",
        "game",
        "good",
        "max_plies",
        "moves",
        "occupied",
        "options",
        "players",
        "playing",
        "ply",
        "pos",
        "seed",
        "set_up",
        "turn",
    )  # fmt: skip

    def __init__(self, game: GeisterGame, options: GeisterOptions, seed: int, first: int) -> None:
        self.game = game
        self.players = 2
        self.options = options
        self.seed = seed
        self.first = first
        self.turn = first
        self.ply = 0
        self.board: list[int] = [-1] * SQUARES
        self.pos: list[int] = [START[g >> OWNER_SHIFT][g & GHOST_IN_SEAT] for g in range(GHOSTS)]
        for ghost, square in enumerate(self.pos):
            self.board[square] = ghost
        self.occupied = _occupancy(self.pos)  # per seat, one bit per square holding its ghost
        self.good: list[bool | None] = [None] * 16
        self.set_up = [False, False]
        self.playing = False  # both seats have set up (kept with set_up: the hot paths test one flag)
        self.escape = options.exit == "escape"  # the options, read once instead of on every move
        self.max_plies = options.max_plies
        self.moves: list[str] = []
        self._outcome: Outcome | None = None
        self._deduced: tuple[int, dict[int, bool]] | None = None  # (plies, deduced_colours()), see there

    # --- whose move -----------------------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        if self._outcome is not None:
            return _NOBODY
        if self.playing:
            return _ONLY[self.turn]
        return frozenset(s for s in (0, 1) if not self.set_up[s])

    def setup_phase(self) -> bool:
        return not self.playing

    def legal_actions(self, seat: int) -> list[GeisterAction]:
        if seat != self.turn or not self.playing or self._outcome is not None:
            if self.playing or self._outcome is not None or self.set_up[seat]:
                return []
            return list(_SETUPS[seat])
        # The hot path of every search: two table look-ups per ghost, written out for the eight ghosts
        # (one list display costs less than a loop of extends). A ghost id's seat is id >> 3, and an
        # empty square's -1 >> 3 is -1, never a seat.
        own = self.occupied[seat]
        b, n = MOVES_IF_BLOCKED, NEIGHBOUR_BITS
        p0, p1, p2, p3, p4, p5, p6, p7 = self.pos[seat * 8 : seat * 8 + 8]
        out: list[GeisterAction] = [
            *b[p0][own & n[p0]], *b[p1][own & n[p1]], *b[p2][own & n[p2]], *b[p3][own & n[p3]],
            *b[p4][own & n[p4]], *b[p5][own & n[p5]], *b[p6][own & n[p6]], *b[p7][own & n[p7]],
        ]  # fmt: skip
        if self.escape and own & EXIT_BITS[seat]:  # one of our ghosts stands on an exit
            board, good = self.board, self.good
            for square, escapes in ESCAPES[seat]:
                ghost = board[square]
                if ghost >> OWNER_SHIFT == seat and good[ghost]:
                    out += escapes
        return out

    # --- applying ---------------------------------------------------------------------------------
    # The contract's `apply` has checked that the game runs and `seat` is to act; `_apply` checks the rest.
    def _apply(self, seat: int, action: GeisterAction) -> list[Event]:
        if type(action) is not Move:
            if not isinstance(action, Setup):
                raise IllegalAction(f"{action!r} is not a Geister action", UNREADABLE)
            return self._apply_setup(seat, action)
        if not self.playing:
            raise IllegalAction(SETUP_FIRST)
        board = self.board
        origin = action.origin
        ghost = board[origin]
        if ghost >> OWNER_SHIFT != seat:  # an empty square's -1 >> 3 is -1
            raise IllegalAction(NO_GHOST, square=square_name(origin))
        target = action.target
        if target == OFF_BOARD:
            if not self.escape:
                raise IllegalAction(NO_ESCAPE)
            if origin not in EXITS[seat] or action.direction not in ESCAPE_DIRECTIONS[seat][origin]:
                raise IllegalAction(ESCAPE_FROM_EXIT)
            if not self.good[ghost]:
                raise IllegalAction(ESCAPE_GOOD_ONLY)
        elif board[target] >> OWNER_SHIFT == seat:
            raise IllegalAction(OWN_GHOST, square=square_name(target))
        return self._move(seat, action, ghost)

    def _apply_checked(self, seat: int, action: GeisterAction) -> list[Event]:
        if type(action) is not Move:
            return self._apply_setup(seat, action)
        return self._move(seat, action, self.board[action.origin])

    def _move(self, seat: int, action: Move, ghost: int) -> list[Event]:
        """Make a legal move of `ghost`: the hot path of every search and benchmark."""
        target = action.target
        if target == OFF_BOARD:
            return self._escape(seat, action, ghost)
        board = self.board
        other = board[target]
        board[action.origin] = -1
        board[target] = ghost
        self.occupied[seat] ^= action.squares
        self.pos[ghost] = target
        if other >= 0:
            return self._capture(seat, action, ghost, other)
        if not self.escape and target in EXITS[seat] and self.good[ghost]:
            return self._after_move(seat, action, ghost, None, seat, REACHED)
        # A quiet move, most of every game: the short way through _after_move.
        self.ply += 1
        self.turn = 1 - seat
        self.moves.append(action.text)
        # tuple.__new__ skips NamedTuple's Python-level constructor (as in Ghooost!): one Event per move.
        events = [tuple.__new__(Event, ("move", {"seat": seat, "move": action.text, "ghost": ghost}, NO_PRIVATE))]
        if self.max_plies is not None and self.ply >= self.max_plies:
            self._outcome = Outcome.draw(2, PLY_LIMIT, max_plies=self.max_plies)
            events.append(Event("end", self._outcome.to_json()))
        return events

    def _apply_setup(self, seat: int, action: Setup) -> list[Event]:
        if not self.setup_phase() or self.set_up[seat]:
            raise IllegalAction(SETUP_OVER)
        start = START[seat]
        wrong = [square_name(s) for s in sorted(action.good) if s not in start]
        if wrong:
            raise IllegalAction(_not_start_squares(seat, wrong), NOT_START, squares=" ".join(wrong))
        for k, square in enumerate(start):
            self.good[seat * 8 + k] = square in action.good
        self.set_up[seat] = True
        self.playing = self.set_up[0] and self.set_up[1]
        event = Event("setup", {"seat": seat}, {seat: {"good": sorted(square_name(s) for s in action.good)}})
        if self.playing:
            return [event, Event("start", {"first": self.first})]
        return [event]

    def _escape(self, seat: int, move: Move, ghost: int) -> list[Event]:
        """A good ghost leaves the board by one of its exits (checked by `_apply`)."""
        origin = move.origin
        self.board[origin] = -1
        self.occupied[seat] ^= 1 << origin
        self.pos[ghost] = ESCAPED
        return self._after_move(seat, move, ghost, None, seat, LEFT_BOARD)

    def _capture(self, seat: int, move: Move, ghost: int, other: int) -> list[Event]:
        """The board has changed already; take `other` off it and see whether that decides the game."""
        pos, good = self.pos, self.good
        pos[other] = CAPTURED
        enemy = 1 - seat
        self.occupied[enemy] ^= 1 << move.target
        good_left = bad_left = 0
        for g in range(enemy * 8, enemy * 8 + 8):
            if pos[g] >= 0 or pos[g] == ESCAPED:
                if good[g]:
                    good_left += 1
                else:
                    bad_left += 1
        winner: int | None = None
        reason: Reason | None = None
        if good_left == 0:
            winner, reason = seat, GOOD_CAPTURED
        elif bad_left == 0:
            winner, reason = enemy, BAD_CAPTURED
        elif not self.escape and move.target in EXITS[seat] and good[ghost]:
            winner, reason = seat, REACHED
        return self._after_move(seat, move, ghost, other, winner, reason)

    def _after_move(
        self, seat: int, move: Move, ghost: int, captured: int | None, winner: int | None, reason: Reason | None
    ) -> list[Event]:
        self.ply += 1
        self.turn = 1 - seat
        text = move.text
        public: dict[str, Any] = {"seat": seat, "move": text, "ghost": ghost}
        if captured is not None:
            text += " x" + ("good" if self.good[captured] else "bad")
            public["captured"] = captured
            public["colour"] = "good" if self.good[captured] else "bad"
        if move.target == OFF_BOARD:
            public["escaped"] = True
        self.moves.append(text)
        events = [Event("move", public)]
        if winner is not None and reason is not None:
            self._outcome = Outcome.winner_takes_all(2, winner, reason)
        elif self.max_plies is not None and self.ply >= self.max_plies:
            self._outcome = Outcome.draw(2, PLY_LIMIT, max_plies=self.max_plies)
        if self._outcome is not None:
            events.append(Event("end", self._outcome.to_json()))
        return events

    # --- knowledge --------------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        return self._outcome

    def colour_known(self, ghost: int, seat: int | None) -> bool:
        """Whether `seat` (None: a spectator) may know this ghost's colour."""
        if self.good[ghost] is None:
            return False
        if seat is not None and ghost >> OWNER_SHIFT == seat:
            return True
        if self.pos[ghost] < 0:  # captured or escaped: shown to both
            return True
        return self._outcome is not None and self.options.disclose

    def view(self, seat: int | None) -> JSON:
        ghosts = []
        for g in range(GHOSTS):
            square = self.pos[g]
            known = self.colour_known(g, seat)
            ghosts.append(
                {
                    "id": g,
                    "owner": g >> OWNER_SHIFT,
                    "square": square_name(square) if square >= 0 else None,
                    "status": "board" if square >= 0 else ("captured" if square == CAPTURED else "escaped"),
                    "colour": ("good" if self.good[g] else "bad") if known else None,
                }
            )
        captured = [
            {
                "good": sum(1 for g in range(e * 8, e * 8 + 8) if self.pos[g] == CAPTURED and self.good[g]),
                "bad": sum(1 for g in range(e * 8, e * 8 + 8) if self.pos[g] == CAPTURED and not self.good[g]),
            }
            for e in (0, 1)
        ]
        to_act = sorted(self.to_act())
        return {
            "game": "geister",
            "players": 2,
            "seat": seat,
            "options": self.options.model_dump(),
            "phase": "over" if self._outcome else ("setup" if self.setup_phase() else "play"),
            "set_up": list(self.set_up),
            "first": self.first,
            "turn": None if self.setup_phase() or self._outcome else self.turn,
            "to_act": to_act,
            "ply": self.ply,
            "ghosts": ghosts,
            "captured": captured,  # captured[s] = ghosts of seat s taken by the other side
            "exits": [sorted(square_name(s) for s in EXITS[0]), sorted(square_name(s) for s in EXITS[1])],
            "start_squares": [[square_name(s) for s in START[0]], [square_name(s) for s in START[1]]],
            "moves": list(self.moves),
            "legal": self.legal_texts(seat) if seat is not None and seat in to_act else [],
            "outcome": self._outcome.to_json() if self._outcome else None,
        }

    def __str__(self) -> str:
        """The board as seat 0 sees it (row 6 on top), colours included: seat 0's ghosts in capitals, seat
        1's in small letters, G good, B bad, X not set up yet; `+` marks an empty exit.

        >>> from ghostgames.games import get_game
        >>> state = get_game("geister").new(2, {"exit": "escape"}, seed=7)
        >>> _ = state.apply(0, "setup b1 c1 d1 e1")
        >>> print(state)
        Geister (exit escape), setup: seat 1 to set up
          a b c d e f
        6 + x x x x + 6
        5 . x x x x . 5
        4 . . . . . . 4
        3 . . . . . . 3
        2 . B B B B . 2
        1 + G G G G + 1
          a b c d e f
        """
        lines = []
        for row in range(SIZE - 1, -1, -1):
            cells = []
            for square in range(row * SIZE, row * SIZE + SIZE):
                ghost = self.board[square]
                if ghost < 0:
                    cells.append("+" if square in EXITS[0] or square in EXITS[1] else ".")
                    continue
                colour = self.good[ghost]
                letter = "X" if colour is None else "G" if colour else "B"
                cells.append(letter if ghost >> OWNER_SHIFT == 0 else letter.lower())
            lines.append(f"{row + 1} {' '.join(cells)} {row + 1}")
        files = "  " + " ".join(FILES)
        limit = f", at most {self.max_plies} moves" if self.max_plies else ""
        if self._outcome is not None:
            status = f"over after {self.ply} moves: {self._outcome.reason}"
        elif not self.playing:
            waiting = sorted(self.to_act())
            status = "setup: " + ("seats 0 and 1" if len(waiting) == 2 else f"seat {waiting[0]}") + " to set up"
        else:
            status = f"move {self.ply + 1}: seat {self.turn} to move"
        gone = [
            f"seat {e} lost {sum(1 for g in range(e * 8, e * 8 + 8) if self.pos[g] == CAPTURED and self.good[g])}"
            f" good and {sum(1 for g in range(e * 8, e * 8 + 8) if self.pos[g] == CAPTURED and not self.good[g])} bad"
            for e in (0, 1)
        ]
        tail = ["; ".join(gone)] if any(p == CAPTURED for p in self.pos) else []
        return "\n".join([f"Geister (exit {self.options.exit}{limit}), {status}", files, *lines, files, *tail])

    # --- search and storage -----------------------------------------------------------------------
    def clone(self) -> GeisterState:
        other = GeisterState.__new__(GeisterState)
        other.game = self.game
        other.players = 2
        other.options = self.options
        other.seed = self.seed
        other.first = self.first
        other.turn = self.turn
        other.ply = self.ply
        other.board = self.board[:]
        other.occupied = self.occupied[:]
        other.pos = self.pos[:]
        other.good = self.good[:]
        other.set_up = self.set_up[:]
        other.playing = self.playing
        other.escape = self.escape
        other.max_plies = self.max_plies
        other.moves = self.moves[:]
        other._outcome = self._outcome
        return other

    def sample_world(self, seat: int | None, rng: random.Random) -> GeisterState:
        """Deal the enemy colours `seat` has not seen anew (seat None, a spectator: both sides' colours
        not yet shown): 4 good and 4 bad a side, and every colour that follows from public facts (a ghost
        that stood on its own exit under `reach`) kept."""
        world = self.clone()
        world.seed = rng.randrange(2**63)
        deduced_all = self.deduced_colours()
        for side in ((1 - seat,) if seat is not None else (0, 1)):
            if self.set_up[side]:
                self._recolour(world, side, seat, deduced_all, rng)
        return world

    def _recolour(self, world: GeisterState, side: int, seat: int | None, deduced_all: dict[int, bool],
                  rng: random.Random) -> None:
        """Re-colour in `world` the ghosts of `side` whose colour `seat` (None: a spectator) cannot know."""
        hidden = [g for g in range(side * 8, side * 8 + 8) if not self.colour_known(g, seat)]
        known_good = sum(1 for g in range(side * 8, side * 8 + 8) if g not in hidden and self.good[g])
        deduced = {g: good for g, good in deduced_all.items() if g in hidden}
        free = [g for g in hidden if g not in deduced]
        goods = 4 - known_good - sum(deduced.values())
        if not 0 <= goods <= len(free):  # a hand-made position that breaks the deductions: colours only
            deduced, free, goods = {}, hidden, 4 - known_good
        colours = [True] * goods + [False] * (len(free) - goods)
        rng.shuffle(colours)
        for g, colour in zip(free, colours, strict=True):
            world.good[g] = colour
        for g, colour in deduced.items():
            world.good[g] = colour

    def revealed_by(self, seat: int, action: GeisterAction) -> GeisterState | None:
        """A setup is the secret a spectator never sees; a step shows nothing hidden; an escape shows that
        the ghost leaving is good (only a good ghost may leave), so it joins the colours every seat can
        work out, which the public sampler keeps."""
        if isinstance(action, Setup):
            return None
        revealed = self.clone()
        if action.target == OFF_BOARD:
            revealed._deduced = (len(self.moves), {**self.deduced_colours(), self.board[action.origin]: True})
        return revealed

    def deduced_colours(self) -> dict[int, bool]:
        """Ghost id -> good, for the ghosts whose colour every seat can work out from public facts.

        Kept until the next move: a search samples many worlds from one position, and the deductions
        replay the whole move list. (A clone starts without it; the dict is never changed in place.)
        """
        cached: tuple[int, dict[int, bool]] | None = getattr(self, "_deduced", None)
        if cached is not None and cached[0] == len(self.moves):
            return cached[1]
        outcome = self._outcome
        result: Result = "going" if outcome is None else ("draw" if outcome.results[0].result == "draw" else "win")
        deduced = exit_deductions(self.moves, self.pos, not self.escape, result)
        self._deduced = (len(self.moves), deduced)
        return deduced

    def to_json(self) -> JSON:
        return {
            "game": "geister",
            "options": self.options.model_dump(),
            "seed": self.seed,
            "first": self.first,
            "turn": self.turn,
            "ply": self.ply,
            "pos": list(self.pos),
            "good": list(self.good),
            "set_up": list(self.set_up),
            "moves": list(self.moves),
            "outcome": self._outcome.to_json() if self._outcome else None,
        }

    @classmethod
    def from_json(cls, game: GeisterGame, data: Mapping[str, Any]) -> GeisterState:
        options = GeisterOptions.model_validate(data["options"])
        state = cls(game, options, int(data["seed"]), int(data["first"]))
        state.turn = int(data["turn"])
        state.ply = int(data["ply"])
        state.pos = [int(p) for p in data["pos"]]
        state.board = [-1] * SQUARES
        for ghost, square in enumerate(state.pos):
            if square >= 0:
                state.board[square] = ghost
        state.occupied = _occupancy(state.pos)
        state.good = [None if g is None else bool(g) for g in data["good"]]
        state.set_up = [bool(s) for s in data["set_up"]]
        state.playing = state.set_up[0] and state.set_up[1]
        state.moves = [str(m) for m in data["moves"]]
        state._outcome = Outcome.from_json(data["outcome"]) if data.get("outcome") else None
        return state


def _not_start_squares(seat: int, wrong: list[str]) -> str:
    """Which named squares are wrong, and the squares that would work (with an example)."""
    mine = [square_name(s) for s in sorted(START[seat])]
    if len(wrong) == 1:
        said = f"{wrong[0]} is not one of your start squares"
    else:
        said = f"{', '.join(wrong[:-1])} and {wrong[-1]} are not your start squares"
    theirs = {square_name(s) for s in START[1 - seat]}
    if all(name in theirs for name in wrong):
        said += " (they are your opponent's)"
    return (f"{said}; you start on {', '.join(mine)}: name 4 of them for your good ghosts, "
            f"e.g. 'setup {' '.join(mine[:4])}'")


def _occupancy(pos: list[int]) -> list[int]:
    return [sum(1 << sq for sq in pos[seat * 8 : seat * 8 + 8] if sq >= 0) for seat in (0, 1)]


# The 70 ways to choose 4 good squares among the 8 start squares, per seat.
_SETUPS = tuple(tuple(Setup(frozenset(c)) for c in combinations(sorted(START[s]), 4)) for s in (0, 1))
