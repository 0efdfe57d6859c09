"""The Python sparring bots `random`, `charge`, `rules` and `defender`, compiled on the fast core, so that a
learner in the batched environment (envs/vector.py) can train against them at the core's speed.

Each bot is written twice: in Python (charge.py, rules.py, defender.py, random_bot.py), which reads a seat's
view, and here, which reads a fast row but only what that seat may know (its own colours, and which enemy
ghosts were taken as what; an enemy colour on the board is never read). Where a Python bot draws at random
it calls `rng.choice(candidates)` once, so each kernel here is split the same way: `candidates` writes the
list the Python bot would choose from (one move when its choice is sure), and `opponent_action` draws one
uniformly from a splitmix stream. tests/bots/test_fast_opponents.py compares the two lists on many positions:
the same moves, so the same move probabilities. A setup is uniformly random, as every Python bot places.
"""

from __future__ import annotations

import sys

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.geister import fast
from ghostgames.games.geister.encoding import SETUP_COUNT
from ghostgames.games.geister.fast import (
    BOARD,
    COLUMN_OF,
    EXIT_DISTANCE,
    GOOD,
    IS_EXIT,
    POS,
    ROW_OF,
    SET_UP,
    STEP,
    TURN,
    Board,
    Rng,
)
from ghostgames.jit import compiled, forget_stale_kernels

# The opponent kinds, as the environment passes them to the kernels.
RANDOM, CHARGE, RULES, DEFENDER = range(4)
KINDS = {"random": RANDOM, "charge": CHARGE, "rules": RULES, "defender": DEFENDER}
SCRATCH = 40 * 2 + 36 + 36  # moves, candidates, a distance per square, a queue of squares (int32)
UNREACHABLE = 36  # charge.py's "no way out": longer than any path on the board
DANGER, POST = 2, 1  # defender.py's numbers
# NEIGHBOUR[square, d]: the square one step in direction d (n, e, s, w), or -1 off the board.
NEIGHBOUR = fast.STEP.reshape(36, 4).copy()
# DISTANCE[a, b]: steps between two squares (picture.py's distance, looked up)
DISTANCE = np.array([[abs(ROW_OF[a] - ROW_OF[b]) + abs(COLUMN_OF[a] - COLUMN_OF[b]) for b in range(36)]
                     for a in range(36)], dtype=np.int32)


@compiled
def distance(a: int, b: int) -> int:
    return int(DISTANCE[a, b])


@compiled
def is_enemy(s: Board, square: int, me: int) -> bool:
    ghost = s[BOARD + square]
    return bool(ghost >= 0 and (ghost >> 3) != me)


@compiled
def attacked_by(s: Board, square: int, owner: int, ignore: int) -> bool:
    """Whether a ghost of `owner` other than `ignore` stands next to `square` (picture.py's attacked_by)."""
    for d in range(4):
        near = NEIGHBOUR[square, d]
        if near >= 0:
            ghost = s[BOARD + near]
            if ghost >= 0 and ghost != ignore and (ghost >> 3) == owner:
                return True
    return False


@compiled
def may_capture(s: Board, me: int) -> bool:
    """Whether taking an enemy ghost of unknown colour cannot be taking its fourth bad ghost (which loses):
    fewer than three of its bad ghosts were taken. (Enemy colours on the board are unknown in play.)"""
    taken_bad = 0
    for g in range((1 - me) * 8, (1 - me) * 8 + 8):
        if s[POS + g] == fast.CAPTURED and s[GOOD + g] == 0:
            taken_bad += 1
    return taken_bad < 3


@compiled
def own_good(s: Board, square: int) -> bool:
    return bool(s[GOOD + s[BOARD + square]] == 1)


@compiled
def leave_now(s: Board, me: int, moves: NDArray[np.int32], n: int) -> int:
    """rules.leave_now: the first escape, or (reach) the first step of a good ghost onto an exit; else -1."""
    for k in range(n):
        code = moves[k]
        target = STEP[code]
        if target < 0:
            return int(code)
        if s[fast.ESCAPE_RULE] == 0 and IS_EXIT[me, target] == 1 and own_good(s, code >> 2):
            return int(code)
    return -1


# --- charge.py ----------------------------------------------------------------------------------------------
@compiled
def _steps_to_exit(s: Board, me: int, dist: NDArray[np.int32], queue: NDArray[np.int32]) -> None:
    for sq in range(36):
        dist[sq] = UNREACHABLE
    head = 0
    tail = 0
    for sq in range(36):
        if IS_EXIT[me, sq] == 1 and not (s[BOARD + sq] >= 0 and (s[BOARD + sq] >> 3) == me):
            dist[sq] = 0
            queue[tail] = sq
            tail += 1
    while head < tail:
        sq = queue[head]
        head += 1
        for d in range(4):
            near = NEIGHBOUR[sq, d]
            if near >= 0 and dist[near] == UNREACHABLE and not (s[BOARD + near] >= 0 and (s[BOARD + near] >> 3) == me):
                dist[near] = dist[sq] + 1
                queue[tail] = near
                tail += 1


@compiled
def charge_candidates(s: Board, me: int, moves: NDArray[np.int32], n: int, out: NDArray[np.int32],
                      dist: NDArray[np.int32], queue: NDArray[np.int32]) -> int:
    for k in range(n):
        if STEP[moves[k]] < 0:
            out[0] = moves[k]
            return 1
    _steps_to_exit(s, me, dist, queue)
    best = -1
    count = 0
    for g in range(me * 8, me * 8 + 8):
        origin = s[POS + g]
        if origin < 0 or IS_EXIT[me, origin] == 1:
            continue
        nearest = UNREACHABLE
        found = False
        for k in range(n):
            code = moves[k]
            if (code >> 2) == origin and STEP[code] >= 0:
                found = True
                nearest = min(nearest, dist[STEP[code]])
        if not found or nearest >= UNREACHABLE:
            continue
        key = (0 if s[GOOD + g] == 1 else 1) * 100 + nearest
        if best < 0 or key < best:
            best = key
            count = 0
        if key == best:
            for k in range(n):
                code = moves[k]
                if (code >> 2) == origin and STEP[code] >= 0 and dist[STEP[code]] == nearest:
                    out[count] = code
                    count += 1
    if count == 0:
        out[:n] = moves[:n]
        return n
    return count


# --- rules.py -----------------------------------------------------------------------------------------------
@compiled
def rules_candidates(s: Board, me: int, moves: NDArray[np.int32], n: int, out: NDArray[np.int32]) -> int:
    enemy = 1 - me
    sure = leave_now(s, me, moves, n)
    if sure >= 0:
        out[0] = sure
        return 1
    capture_ok = may_capture(s, me)
    # _guard_exits: the first capture (in move order) nearest to our corners, when within one step of one
    urgent = -1
    urgent_d = 99
    for k in range(n):
        target = STEP[moves[k]]
        if target >= 0 and is_enemy(s, target, me) and capture_ok:
            d = min(EXIT_DISTANCE[enemy, target], 99)
            if d <= 1 and d < urgent_d:
                urgent, urgent_d = moves[k], d
    if urgent >= 0:
        out[0] = urgent
        return 1
    # _safe_capture
    count = 0
    for k in range(n):
        code = moves[k]
        target = STEP[code]
        if target >= 0 and is_enemy(s, target, me) and capture_ok and (
                not own_good(s, code >> 2) or not attacked_by(s, target, enemy, s[BOARD + target])):
            out[count] = code
            count += 1
    if count:
        return count
    # _push_good
    best = 99
    for k in range(n):
        code = moves[k]
        origin = code >> 2
        target = STEP[code]
        if target < 0 or not own_good(s, origin) or s[BOARD + target] >= 0 or attacked_by(s, target, enemy, -1):
            continue
        after = EXIT_DISTANCE[me, target]
        if after >= EXIT_DISTANCE[me, origin]:
            continue
        if after < best:
            best = after
            count = 0
        if after == best:
            out[count] = code
            count += 1
    if count:
        return count
    # _send_bad
    for k in range(n):
        code = moves[k]
        origin = code >> 2
        target = STEP[code]
        if target < 0 or own_good(s, origin) or s[BOARD + target] >= 0:
            continue
        before = 99
        after = 99
        for g in range(enemy * 8, enemy * 8 + 8):
            sq = s[POS + g]
            if sq >= 0:
                before = min(before, DISTANCE[origin, sq])
                after = min(after, DISTANCE[target, sq])
        if after < before:
            out[count] = code
            count += 1
    if count:
        return count
    # any move that does not offer a good ghost to the enemy, else any move
    for k in range(n):
        code = moves[k]
        target = STEP[code]
        if not (target >= 0 and own_good(s, code >> 2) and attacked_by(s, target, enemy, -1)):
            out[count] = code
            count += 1
    if count:
        return count
    out[:n] = moves[:n]
    return n


# --- defender.py --------------------------------------------------------------------------------------------
@compiled
def _corner_distance(enemy: int, square: int) -> int:
    return int(EXIT_DISTANCE[enemy, square])  # our corners are the enemy's exits


@compiled
def defender_candidates(s: Board, me: int, moves: NDArray[np.int32], n: int, out: NDArray[np.int32]) -> int:
    enemy = 1 - me
    sure = leave_now(s, me, moves, n)
    if sure >= 0:
        out[0] = sure
        return 1
    capture_ok = may_capture(s, me)
    # _take_intruder
    nearest = 99
    count = 0
    for k in range(n):
        target = STEP[moves[k]]
        if target >= 0 and is_enemy(s, target, me) and capture_ok:
            near = _corner_distance(enemy, target)
            if near <= DANGER:
                if near < nearest:
                    nearest = near
                    count = 0
                if near == nearest:
                    out[count] = moves[k]
                    count += 1
    if count:
        return count
    # _post_guard: corners in square order
    for corner in range(36):
        if IS_EXIT[enemy, corner] == 0:
            continue
        guarded = False
        for g in range(me * 8, me * 8 + 8):
            if s[POS + g] >= 0 and distance(s[POS + g], corner) <= POST:
                guarded = True
        if guarded:
            continue
        nearest = 99
        for k in range(n):
            code = moves[k]
            origin = code >> 2
            target = STEP[code]
            if (target < 0 or s[BOARD + target] >= 0 or _corner_distance(enemy, origin) <= POST
                    or distance(target, corner) >= distance(origin, corner)
                    or (own_good(s, origin) and attacked_by(s, target, enemy, -1))):
                continue
            here = distance(origin, corner)
            if here < nearest:
                nearest = here
                count = 0
            if here == nearest:
                out[count] = code
                count += 1
        if count:
            return count
    # _advance_safely
    nearest = 99
    for k in range(n):
        code = moves[k]
        origin = code >> 2
        target = STEP[code]
        if (target < 0 or s[BOARD + target] >= 0 or _corner_distance(enemy, origin) <= POST
                or not own_good(s, origin) or attacked_by(s, target, enemy, -1)
                or EXIT_DISTANCE[me, target] >= EXIT_DISTANCE[me, origin]):
            continue
        after = EXIT_DISTANCE[me, target]
        if after < nearest:
            nearest = after
            count = 0
        if after == nearest:
            out[count] = code
            count += 1
    if count:
        return count
    # _keep_formation
    for k in range(n):
        code = moves[k]
        origin = code >> 2
        target = STEP[code]
        if (target < 0 or _corner_distance(enemy, origin) <= POST
                or (own_good(s, origin) and attacked_by(s, target, enemy, -1))
                or not (s[BOARD + target] < 0 or capture_ok)):
            continue
        out[count] = code
        count += 1
    if count:
        return count
    out[:n] = moves[:n]
    return n


# --- one decision -------------------------------------------------------------------------------------------
@compiled
def candidates(kind: int, s: Board, scratch: NDArray[np.int32]) -> int:
    """Write the move codes the bot `kind` would choose among, uniformly, for the seat to move into
    scratch[40:80]; return how many. (scratch[:40] holds the legal moves, the rest is charge's.)"""
    me = s[TURN]
    moves = scratch[:40]
    out = scratch[40:80]
    n = fast.legal_moves(s, moves)
    if kind == CHARGE:
        return charge_candidates(s, me, moves, n, out, scratch[80:116], scratch[116:152])
    if kind == RULES:
        return rules_candidates(s, me, moves, n, out)
    if kind == DEFENDER:
        return defender_candidates(s, me, moves, n, out)
    out[:n] = moves[:n]
    return n


@compiled
def opponent_action(kind: int, s: Board, rng: Rng, i: int, scratch: NDArray[np.int32]) -> np.int64:
    """The action index the bot `kind` plays for the seat to act in a running game (stream i of rng)."""
    seat = fast.seat_to_act(s)
    if s[SET_UP + seat] == 0:
        return np.int64(fast.random_below(rng, i, SETUP_COUNT))  # numba would make float of uint and int
    count = candidates(kind, s, scratch)
    pick = np.int64(0) if count == 1 else np.int64(fast.random_below(rng, i, count))
    return np.int64(fast.move_index(int(scratch[np.int64(40) + pick]), seat))


KERNELS = (distance, is_enemy, attacked_by, may_capture, own_good, leave_now, _steps_to_exit, charge_candidates,
           rules_candidates, _corner_distance, defender_candidates, candidates, opponent_action)
forget_stale_kernels(sys.modules[__name__], KERNELS, inlined=(fast,))  # they inline the core's functions
