"""The client's own copy of the game, rebuilt from every board the server sends.

Our bots decide from a `SeatKnowledge`, which needs a full state. The client only knows its own
colours and the colours of captured ghosts, so it builds a state in which the opponent's unknown ghosts
get arbitrary colours consistent with what was captured. That is safe: a bot sees only its own seat's
view, legal actions and sampled worlds, none of which depend on those guessed colours. In the mirror
we are always seat 0 (the protocol frame of a player is seat 0's frame of our board).
"""

from __future__ import annotations

import random
from typing import Any

from ghostgames.bots.base import Bot, SeatKnowledge
from ghostgames.competition.frames import LETTERS, Ghost, parse_board, protocol_letter
from ghostgames.games import get_game
from ghostgames.games.geister.board import OFF_BOARD, SIZE, START, parse_square, square_name, step
from ghostgames.games.geister.reasons import BAD_CAPTURED, GOOD_CAPTURED, LEFT_BOARD, PLY_LIMIT
from ghostgames.rules.contract import Outcome, State
from ghostgames.rules.reasons import SERVER_VERDICT

ME, THEM = 0, 1
CAPTURED, ESCAPED = -1, -2


def _options(first: int) -> dict[str, Any]:
    return {"exit": "escape", "max_plies": 300, "first": first, "disclose": False}


def _direction(origin: int, target: int) -> str:
    """The direction of a one-square step between two of our squares (n = towards row 6)."""
    delta = target - origin
    return {SIZE: "n", -SIZE: "s", 1: "e", -1: "w"}.get(delta, "?")


def _square(ghost: Ghost) -> int:
    if ghost.square is not None:
        return ghost.square
    return ESCAPED if ghost.escaped else CAPTURED


def _outcome(ghosts: list[Ghost], result: str) -> Outcome:
    """The end a final board shows: the winner's escape, the loser's four good ghosts taken or the winner's four
    bad ones; else (a server's own verdict: a timeout, a refused move) the result without a rule's reason."""
    if result == "draw":
        return Outcome.draw(2, PLY_LIMIT, max_plies=300)
    winner = ME if result == "won" else THEM
    mine, theirs = ghosts[winner * 8 : winner * 8 + 8], ghosts[(1 - winner) * 8 : (1 - winner) * 8 + 8]
    if any(g.escaped for g in mine):
        return Outcome.winner_takes_all(2, winner, LEFT_BOARD)
    if sum(g.captured and g.good is True for g in theirs) == 4:
        return Outcome.winner_takes_all(2, winner, GOOD_CAPTURED)
    if sum(g.captured and g.good is False for g in mine) == 4:
        return Outcome.winner_takes_all(2, winner, BAD_CAPTURED)
    return Outcome.winner_takes_all(2, winner, SERVER_VERDICT)


class Mirror:
    """One game as this client sees it; ask it for the answer to `SET?` and to each `MOV?`."""

    def __init__(self, bot: Bot, rng: random.Random) -> None:
        self.bot = bot
        self.rng = rng
        self.first: bool | None = None
        self.moves_made = 0
        self.history: list[str] = []  # the moves of both sides in our notation, for the bot's view
        self._enemy_before: list[int] | None = None  # enemy squares after our last accepted move
        self._own_before: list[int] | None = None
        self._pending: tuple[str, list[int], list[int], bool] | None = None  # our move, waiting for its ack

    # --- SET? -------------------------------------------------------------------------------------
    def set_answer(self) -> str:
        """`SET:XXXX` naming the red ghosts of the setup our bot picks."""
        state = get_game("geister").new(2, _options(ME), seed=self.rng.randrange(2**63))
        action = self.bot.choose(SeatKnowledge(state, ME), self.rng)
        good = {parse_square(str(s)) for s in action.to_json()["good"]}
        return "SET:" + "".join(LETTERS[k] for k in range(8) if START[ME][k] not in good)

    # --- MOV? -------------------------------------------------------------------------------------
    def state_from(self, board: str) -> State[Any]:
        """A full state matching `board` (with guessed enemy colours), us to move."""
        ghosts = parse_board(board, viewer=ME)
        own, enemy = ghosts[:8], ghosts[8:]
        enemy_squares = [_square(g) for g in enemy]
        if self.first is None:  # the opponent's ghosts are all at home only if it has not moved yet
            self.first = enemy_squares == list(START[THEM])
        good: list[bool | None] = [bool(g.good) for g in own]
        known_good = sum(1 for g in enemy if g.good is True)
        for g in enemy:
            if g.good is not None:
                good.append(g.good)
            else:  # unknown: the first ones are called good until four are
                guess = known_good < 4
                known_good += guess
                good.append(guess)
        data = {
            "game": "geister",
            "options": _options(ME if self.first else THEM),
            "seed": 0,
            "first": ME if self.first else THEM,
            "turn": ME,
            "ply": 2 * self.moves_made + (0 if self.first else 1),
            "pos": [_square(g) for g in own] + enemy_squares,
            "good": good,
            "set_up": [True, True],
            "moves": list(self.history),
            "outcome": None,
        }
        return get_game("geister").load(data)

    def final_knowledge(self, board: str, result: str) -> SeatKnowledge:
        """Our seat's knowledge of the finished game (`result`: won / lost / draw), for `Bot.game_over`: squares
        and colours from the final board. A server shows the opponent's colours on it (lower case); if it leaves
        any out, the view shows none of the opponent's colours on the board, so it never holds a guess."""
        ghosts = parse_board(board, viewer=ME)
        data = self.state_from(board).to_json()
        data["options"] = {**data["options"], "disclose": all(g.good is not None for g in ghosts[8:])}
        data["outcome"] = _outcome(ghosts, result).to_json()
        return SeatKnowledge(get_game("geister").load(data), ME)

    def move_answer(self, board: str) -> str:
        """`MOV:<letter>,<dir>` for the move our bot picks on `board`."""
        ghosts = parse_board(board, viewer=ME)
        enemy_squares = [_square(g) for g in ghosts[8:]]
        if self.first is None:
            self.first = enemy_squares == list(START[THEM])
        self._note_enemy_move(ghosts[:8], enemy_squares)
        state = self.state_from(board)
        action = self.bot.choose(SeatKnowledge(state, ME), self.rng).to_json()
        origin = parse_square(str(action["from"]))
        direction = str(action["dir"])
        pos = state.to_json()["pos"]
        ghost = pos.index(origin)
        own_after = [int(p) for p in pos[:8]]
        enemy_after = [int(p) for p in pos[8:]]
        target = step(origin, direction)
        own_after[ghost] = target if target != OFF_BOARD else ESCAPED
        takes = target != OFF_BOARD and target in enemy_after
        if takes:
            enemy_after[enemy_after.index(target)] = CAPTURED
        self._pending = (f"{square_name(origin)} {direction}", own_after, enemy_after, takes)
        return f"MOV:{LETTERS[ghost]},{protocol_letter(direction, ME)}"

    def acknowledged(self, ack: str) -> None:
        """The server's answer to our move: commit it (`OK `, `OKR`, `OKB`) or forget it (`NG `). The
        colour in `OKR` / `OKB` counts only for a move onto an enemy ghost: the reference server may also
        answer an escape with one (the ack of that ghost's previous move)."""
        pending, self._pending = self._pending, None
        if pending is None or ack.startswith("NG"):
            return
        text, own_after, enemy_after, takes = pending
        if takes and ack == "OKR":
            text += " xbad"
        elif takes and ack == "OKB":
            text += " xgood"
        self.history.append(text)
        self.moves_made += 1
        self._own_before, self._enemy_before = own_after, enemy_after

    def _note_enemy_move(self, own: list[Ghost], enemy_squares: list[int]) -> None:
        """Add the opponent's last move to the history by comparing boards (best effort, for views)."""
        before = self._enemy_before
        if before is None:
            if self.first or self.history:
                return
            before = list(START[THEM])
        own_before = self._own_before if self._own_before is not None else list(START[ME])
        for k in range(8):
            if before[k] >= 0 and enemy_squares[k] >= 0 and before[k] != enemy_squares[k]:
                text = f"{square_name(before[k])} {_direction(before[k], enemy_squares[k])}"
                for j in range(8):
                    if own_before[j] >= 0 and own[j].captured:
                        text += " xgood" if own[j].good else " xbad"
                self.history.append(text)
                return
