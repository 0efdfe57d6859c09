"""A compiled Ghooost! core (numba): the same rules as `GhooostState`, for playouts, search and batched learning.

`GhooostState` (state.py) stays the reference and the contract; this module is a second implementation of
the same rules (both decks, 2-6 players, every power, midnight and the mansions, `replay` may/must, match
scoring), proven equal to it action by action (tests/games/ghooost/test_fast_core.py). It is for code that
plays many rounds: benchmarks, searches, batched environments.

One game is one row of int32, `FIELDS` long, laid out for six seats whatever the player count (seat-sized
blocks are 6 long; a seat's hand is a count vector by card kind, cards.py's numbering):

    header      the options (PLAYERS, DECK 0 tarot / 1 original, MAY_DECLINE, MATCH_ON, MAX_TURNS,
                MAX_ROUNDS), the round's table (ROUND, FIRST, TURN, DIRECTION +1/-1, TURNS,
                OPTIONAL_REPLAY, TOP_VALUE, TOP_RUN, KITTY beside the cemetery, ACTIVE, OUT_COUNT,
                CRYPT_COUNT, CEMETERY_COUNT), STATUS (RUNNING, DEALING: a round of the match ended and the
                next deal is due, OVER), NEXT_STARTER (the seat that starts the next deal, -1 random),
                ENDING (an index into ENDINGS) with ENDING_SEAT and ENDING_POINTS, DECISIONS this round
    RESULT, RANK    per seat at the end: LOSS / WIN / DRAW and the rank (the reference's Outcome)
    SIZES, MANSION_COUNT, IS_OUT, OUT_ORDER (-1 unused), POINTS, BOUH    per seat
    DISCARD         count vector (17)
    HANDS, KNOWN    per seat a count vector (17): the hand, and the part of it the other seats know
    MANSIONS        per seat a stack of 12 (top = MANSION_COUNT - 1), CRYPT a stack of 30, CEMETERY a
                    stack of 62 entries (a Miss Copy that copied v is COPY_BASE + v); unused slots hold 0
    SEAT_CARDS, SEAT_ACTIONS, RECENT    the round's record for the information state (info_state.py):
                    per seat the cards put down / taken / turned per kind column and the decisions per kind,
                    and a ring of the last 32 decisions (seat, kind, put column, count, copies, 16 taken)

An action is the encoding's index (encoding.py, 0..288: plays, Kitty, take, gamble, turn, pass, done); legal
actions come in the reference's order, which is ascending index order, so an index into one legal list
picks the same action in both. A round that ends inside a match leaves the row DEALING: `deal` (given cards,
as a test or a sampler draws them) or `deal_random` starts the next one; `apply` does both in one call.

Random numbers come from the splitmix64 streams of ghostgames/jit.py (one per game in a batch), so a seed
gives the same rounds on any machine. Every function is compiled once per machine and cached next to this
file (and compiled afresh when jit.py changes: `forget_stale_kernels` at the end).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.ghooost import encoding as enc
from ghostgames.games.ghooost import info_state as info
from ghostgames.games.ghooost import reasons
from ghostgames.games.ghooost.actions import MAX_SAME, Move
from ghostgames.games.ghooost.cards import (
    COPY_BASE,
    DECK_SIZE,
    FOLLOWS,
    HAND_SIZE,
    JACK,
    KINDS,
    KITTY,
    MANSION_SIZE,
    MISS_COPY,
    REVERSE,
    composition,
)
from ghostgames.games.ghooost.scoring import MATCH_END_BOUH
from ghostgames.jit import Rng as Rng  # the bots' and envs' kernels take these from the core, as fast.*
from ghostgames.jit import compiled as compiled
from ghostgames.jit import forget_stale_kernels, new_streams, own_kernels
from ghostgames.jit import next_random as next_random
from ghostgames.jit import random_below as random_below
from ghostgames.rules.chance import derive_rng
from ghostgames.rules.contract import Outcome, ResultKind, SeatResult
from ghostgames.rules.reasons import Reason

if TYPE_CHECKING:
    from ghostgames.games.ghooost.state import GhooostOptions, GhooostState

Row = NDArray[np.int32]  # one game (FIELDS,)


# --- the layout of one game ------------------------------------------------------------------------------
SEATS = 6  # the most players; every per-seat block is this long
MANSION_CAP = max(MANSION_SIZE.values())  # 12
CRYPT_CAP = DECK_SIZE - 2 * HAND_SIZE - 2 * MANSION_SIZE[2]  # 30: the largest crypt (2 players)
RECORD_KINDS = len(info.KINDS)  # play, take, gamble_play, gamble_take, turn_play, turn_take, pass, done
RECENT = info.RECENT
COLUMNS = enc.KIND_COLUMNS  # 16: a card kind k is column k - 1
SLOT = 5 + COLUMNS  # a decision in the ring: seat, kind, put column, put count, put copies, taken per column

_names = (
    ("PLAYERS", 1), ("DECK", 1), ("MAY_DECLINE", 1), ("MATCH_ON", 1), ("MAX_TURNS", 1), ("MAX_ROUNDS", 1),
    ("ROUND", 1), ("FIRST", 1), ("TURN", 1), ("DIRECTION", 1), ("TURNS", 1), ("OPTIONAL_REPLAY", 1),
    ("TOP_VALUE", 1), ("TOP_RUN", 1), ("KITTY_COUNT", 1), ("ACTIVE", 1), ("OUT_COUNT", 1), ("CRYPT_COUNT", 1),
    ("CEMETERY_COUNT", 1), ("STATUS", 1), ("NEXT_STARTER", 1), ("ENDING", 1), ("ENDING_SEAT", 1),
    ("ENDING_POINTS", 1), ("DECISIONS", 1),
    ("RESULT", SEATS), ("RANK", SEATS), ("POINTS", SEATS), ("BOUH", SEATS), ("SIZES", SEATS),
    ("MANSION_COUNT", SEATS), ("IS_OUT", SEATS), ("OUT_ORDER", SEATS), ("DISCARD", KINDS), ("HANDS", SEATS * KINDS),
    ("KNOWN", SEATS * KINDS), ("MANSIONS", SEATS * MANSION_CAP), ("CRYPT", CRYPT_CAP), ("CEMETERY", DECK_SIZE),
    ("SEAT_CARDS", SEATS * 3 * COLUMNS), ("SEAT_ACTIONS", SEATS * RECORD_KINDS), ("RECENT", RECENT * SLOT),
)  # fmt: skip
OFFSETS: dict[str, int] = {}  # field name -> where it starts in a row
_at = 0
for _name, _size in _names:
    OFFSETS[_name] = _at
    _at += _size
FIELDS = _at
(PLAYERS, DECK, MAY_DECLINE, MATCH_ON, MAX_TURNS, MAX_ROUNDS, ROUND, FIRST, TURN, DIRECTION, TURNS,
 OPTIONAL_REPLAY, TOP_VALUE, TOP_RUN, KITTY_COUNT, ACTIVE, OUT_COUNT, CRYPT_COUNT, CEMETERY_COUNT, STATUS,
 NEXT_STARTER, ENDING, ENDING_SEAT, ENDING_POINTS, DECISIONS, RESULT, RANK, POINTS, BOUH, SIZES, MANSION_COUNT,
 IS_OUT, OUT_ORDER, DISCARD, HANDS, KNOWN, MANSIONS, CRYPT, CEMETERY, SEAT_CARDS, SEAT_ACTIONS,
 RECENT_RING) = (OFFSETS[name] for name, _ in _names)  # fmt: skip
ROUND_ZONES = SIZES  # a deal rewrites every field from here on (the match's POINTS and BOUH come before)

RUNNING, DEALING, OVER = 0, 1, 2
LOSS, WIN, DRAW = 0, 1, 2
RESULT_WORDS: tuple[ResultKind, ...] = ("loss", "win", "draw")
# Why a game ended, numbered for the compiled code (0 while it runs).
ENDINGS: tuple[Reason | None, ...] = (None, reasons.ROUND_LOSER, reasons.TURN_LIMIT, reasons.MATCH_WON,
                                      reasons.ROUND_LIMIT)
NO_ENDING, ROUND_LOSER, TURN_LIMIT, MATCH_WON, ROUND_LIMIT = range(5)
DECKS = ("tarot", "original")
# encoding.py's and info_state.py's scales, as plain names for the compiled code
MAX_CARDS, MAX_MANSION, MAX_CRYPT, MAX_POINTS, MAX_BOUH = (enc.MAX_CARDS, enc.MAX_MANSION, enc.MAX_CRYPT,
                                                           enc.MAX_POINTS, enc.MAX_BOUH)
SEAT_FEATURES, TABLE_FEATURES = enc.SEAT_FEATURES, enc.TABLE_FEATURES
CARD_SCALE, ACTION_SCALE = info.CARD_SCALE, info.ACTION_SCALE

# --- actions (encoding.py's indices) ------------------------------------------------------------------------
PER_VALUE = enc.PER_VALUE  # 20: counts 1..4 times copies 0..4
KITTY_BASE = 14 * PER_VALUE  # 280
TAKE_ACTION, GAMBLE_ACTION, TURN_ACTION, PASS_ACTION, DONE_ACTION = range(KITTY_BASE + MAX_SAME, KITTY_BASE + 9)
ACTION_COUNT = enc.ACTION_COUNT  # 289
MAX_ACTIONS = ACTION_COUNT  # no position allows more
OTHER_ACTIONS = np.array([TAKE_ACTION, GAMBLE_ACTION, TURN_ACTION, DONE_ACTION, PASS_ACTION], dtype=np.int32)

# What a play does next (bit flags, as state.py's)
AGAIN, SKIP, CLEARED, REVERSED = 1, 2, 4, 8
# The kinds of decision the information state counts (info_state.KINDS' order)
PLAY, TAKE, GAMBLE_PLAY, GAMBLE_TAKE, TURN_PLAY, TURN_TAKE, PASS, DONE = range(RECORD_KINDS)
PUT_CARDS, TAKEN_CARDS, TURNED_CARDS = info.PUT, info.TAKEN, info.TURNED

# --- tables (numba freezes module-level arrays into the compiled code) -----------------------------------
FOLLOWS_TABLE = np.array([[1 if ok else 0 for ok in row] for row in FOLLOWS], dtype=np.int32)
COMPOSITION = np.array([composition(deck) for deck in DECKS], dtype=np.int32)
# PLAY_CHOICES[follows, held, copies]: how many plays of one value the hand allows (any size when the value
# may follow the top, else quartets only)
PLAY_CHOICES = np.array([[[sum(1 for n in range(1, held + 1) for m in range(copies + 1) if n + m >= (1 if f else 4))
                           for copies in range(MAX_SAME + 1)] for held in range(MAX_SAME + 1)] for f in (0, 1)],
                        dtype=np.int32)
# CHOICES_ON[top, copies, value, held]: PLAY_CHOICES for a value on a top value, in one lookup
CHOICES_ON = np.array([[[[PLAY_CHOICES[FOLLOWS_TABLE[top, value], held, copies] for held in range(MAX_SAME + 1)]
                         for value in range(KITTY)] for copies in range(MAX_SAME + 1)] for top in range(KITTY)],
                      dtype=np.int32)
MANSION_OF = np.array([MANSION_SIZE.get(p, 0) for p in range(SEATS + 1)], dtype=np.int32)

# --- a game and its rounds ------------------------------------------------------------------------------------
@compiled
def new_game(s: Row, players: int, deck: int, may_decline: int, match_on: int, max_turns: int, max_rounds: int,
             first: int) -> None:
    """A game before its first deal (STATUS DEALING); `first` the starting seat, -1 for a random one."""
    s[:] = 0
    s[PLAYERS] = players
    s[DECK] = deck
    s[MAY_DECLINE] = may_decline
    s[MATCH_ON] = match_on
    s[MAX_TURNS] = max_turns
    s[MAX_ROUNDS] = max_rounds
    s[DIRECTION] = 1
    s[STATUS] = DEALING
    s[NEXT_STARTER] = first
    for seat in range(SEATS):
        s[OUT_ORDER + seat] = -1


@compiled
def deal(s: Row, cards: NDArray[np.int32], starter: int) -> None:
    """Start a round from the whole deck in dealing order (kinds; as state.deal's `cards`): 4 cards a hand,
    then the mansions, then the crypt (its top is the last card)."""
    p = s[PLAYERS]
    s[ROUND_ZONES:] = 0
    for seat in range(SEATS):
        s[OUT_ORDER + seat] = -1
    s[FIRST] = starter
    s[TURN] = starter
    s[DIRECTION] = 1
    s[TURNS] = 0
    s[OPTIONAL_REPLAY] = 0
    s[TOP_VALUE] = 0
    s[TOP_RUN] = 0
    s[KITTY_COUNT] = 0
    s[ACTIVE] = p
    s[OUT_COUNT] = 0
    s[CEMETERY_COUNT] = 0
    s[DECISIONS] = 0
    for seat in range(p):
        for j in range(HAND_SIZE):
            s[HANDS + seat * KINDS + cards[seat * HAND_SIZE + j]] += 1
        s[SIZES + seat] = HAND_SIZE
    size = MANSION_OF[p]
    start = p * HAND_SIZE
    for seat in range(p):
        for j in range(size):
            s[MANSIONS + seat * MANSION_CAP + j] = cards[start + seat * size + j]
        s[MANSION_COUNT + seat] = size
    start += p * size
    for j in range(DECK_SIZE - start):
        s[CRYPT + j] = cards[start + j]
    s[CRYPT_COUNT] = DECK_SIZE - start
    s[STATUS] = RUNNING
    s[NEXT_STARTER] = -1


@compiled
def deal_random(s: Row, rng: Rng, i: int) -> None:
    """The due deal, shuffled from stream `i`; the starter is NEXT_STARTER (the loser), or random after a
    drawn round and before the first."""
    cards = np.empty(DECK_SIZE, dtype=np.int32)
    at = 0
    for kind in range(KINDS):
        for _ in range(COMPOSITION[s[DECK], kind]):
            cards[at] = kind
            at += 1
    for j in range(DECK_SIZE - 1, 0, -1):
        k = random_below(rng, i, j + 1)
        cards[j], cards[k] = cards[k], cards[j]
    starter = s[NEXT_STARTER]
    if starter < 0:
        starter = random_below(rng, i, s[PLAYERS])
    deal(s, cards, starter)


@compiled
def seat_to_act(s: Row) -> int:
    """The seat to act; -1 once the game is over, -2 while a deal is due (a chance node)."""
    if s[STATUS] == OVER:
        return -1
    if s[STATUS] == DEALING:
        return -2
    return int(s[TURN])


@compiled
def legal_actions(s: Row, out: NDArray[np.int32]) -> int:
    """Write the legal action indices of the seat to act into `out` (the reference's order); return how many."""
    if s[STATUS] != RUNNING:
        return 0
    seat = s[TURN]
    hand = HANDS + seat * KINDS
    top = s[TOP_VALUE]
    copies = s[hand + MISS_COPY]
    n = 0
    for value in range(1, KITTY):
        held = s[hand + value]
        if held == 0:
            continue
        need = 1 if FOLLOWS_TABLE[top, value] == 1 else MAX_SAME
        base = (value - 1) * PER_VALUE
        for count in range(1, held + 1):
            for m in range(copies + 1):
                if count + m >= need:
                    out[n] = base + (count - 1) * 5 + m
                    n += 1
    for count in range(1, s[hand + KITTY] + 1):
        out[n] = KITTY_BASE + count - 1
        n += 1
    return n + _other_actions(s, seat, n, out[n:])


@compiled
def legal_mask(s: Row, seat: int, mask: NDArray[np.int8]) -> None:
    """Fill `mask` (289,) as `state.legal_mask(seat)` does: 1 at each legal index, all 0 off turn."""
    mask[:] = 0
    if seat_to_act(s) != seat:
        return
    out = np.empty(MAX_ACTIONS, dtype=np.int32)
    for k in range(legal_actions(s, out)):
        mask[out[k]] = 1


# --- applying --------------------------------------------------------------------------------------------------
@compiled
def _begin_decision(s: Row, seat: int, kind: int) -> int:
    """Count a decision of `seat` and open its slot in the ring of recent decisions; returns the slot."""
    d = s[DECISIONS]
    slot = RECENT_RING + (d & (RECENT - 1)) * SLOT  # RECENT is a power of two
    s[slot] = seat
    s[slot + 1] = kind
    for j in range(2, SLOT):
        s[slot + j] = 0
    s[DECISIONS] = d + 1
    s[SEAT_ACTIONS + seat * RECORD_KINDS + kind] += 1
    return int(slot)


@compiled
def _record_put(s: Row, seat: int, slot: int, kind: int, count: int, copies: int) -> None:
    s[slot + 2] = kind - 1
    s[slot + 3] = count
    s[slot + 4] = copies
    base = SEAT_CARDS + (seat * 3 + PUT_CARDS) * COLUMNS
    s[base + kind - 1] += count
    s[base + MISS_COPY - 1] += copies


@compiled
def _put(s: Row, value: int, count: int, copies: int) -> int:
    """Lay a legal play on the cemetery (Kitty beside it) and apply its powers, each once (state._put)."""
    if value == KITTY:
        s[KITTY_COUNT] += count
        return SKIP
    size = count + copies
    run = s[TOP_RUN] + size if value == s[TOP_VALUE] else size
    effect = 0
    if value == REVERSE:
        s[DIRECTION] = -s[DIRECTION]
        effect = REVERSED
    if run >= MAX_SAME or value == JACK:
        for j in range(s[CEMETERY_COUNT]):
            entry = s[CEMETERY + j]
            s[DISCARD + (MISS_COPY if entry > COPY_BASE else entry)] += 1
            s[CEMETERY + j] = 0
        s[DISCARD + value] += count
        s[DISCARD + MISS_COPY] += copies
        s[DISCARD + KITTY] += s[KITTY_COUNT]
        s[KITTY_COUNT] = 0
        s[CEMETERY_COUNT] = 0
        s[TOP_VALUE] = 0
        s[TOP_RUN] = 0
        return effect | AGAIN | CLEARED
    at = s[CEMETERY_COUNT]
    for _ in range(count):
        s[CEMETERY + at] = value
        at += 1
    for _ in range(copies):
        s[CEMETERY + at] = COPY_BASE + value
        at += 1
    s[CEMETERY_COUNT] = at
    s[TOP_VALUE] = value
    s[TOP_RUN] = run
    return effect | AGAIN if size >= 2 else effect


@compiled
def _take(s: Row, seat: int, slot: int, extra: int) -> None:
    """The cemetery (Kitty included) and `extra` (a kind, or 0) go into the hand, seen by all."""
    hand = HANDS + seat * KINDS
    known = KNOWN + seat * KINDS
    totals = SEAT_CARDS + (seat * 3 + TAKEN_CARDS) * COLUMNS
    taken = 0
    for j in range(s[CEMETERY_COUNT]):
        entry = s[CEMETERY + j]
        kind = MISS_COPY if entry > COPY_BASE else entry
        s[hand + kind] += 1
        s[known + kind] += 1
        s[slot + 5 + kind - 1] += 1
        s[totals + kind - 1] += 1
        s[CEMETERY + j] = 0
        taken += 1
    kitty = s[KITTY_COUNT]
    if kitty > 0:
        s[hand + KITTY] += kitty
        s[known + KITTY] += kitty
        s[slot + 5 + KITTY - 1] += kitty
        s[totals + KITTY - 1] += kitty
        taken += kitty
    if extra > 0:
        s[hand + extra] += 1
        s[known + extra] += 1
        s[slot + 5 + extra - 1] += 1
        s[totals + extra - 1] += 1
        taken += 1
    s[SIZES + seat] += taken
    s[CEMETERY_COUNT] = 0
    s[KITTY_COUNT] = 0
    s[TOP_VALUE] = 0
    s[TOP_RUN] = 0


@compiled
def _next(s: Row, seat: int, steps: int) -> int:
    """The player `steps` turns on in the current direction, skipping those who are out."""
    last = s[PLAYERS] - 1
    direction = s[DIRECTION]
    for _ in range(steps):
        while True:  # one seat on, round the table (no division: this runs after nearly every action)
            seat += direction
            if seat > last:
                seat = 0
            elif seat < 0:
                seat = last
            if s[IS_OUT + seat] == 0:
                break
    return seat


@compiled
def _leaders(s: Row, top: NDArray[np.int32]) -> int:
    """Mark in `top` the players with most points among those with fewer than two Bouh! (among all, if
    nobody has fewer); return how many (scoring.leaders)."""
    p = s[PLAYERS]
    anyone = False
    for seat in range(p):
        if s[BOUH + seat] < MATCH_END_BOUH:
            anyone = True
    best = -1
    for seat in range(p):
        if (not anyone or s[BOUH + seat] < MATCH_END_BOUH) and s[POINTS + seat] > best:
            best = s[POINTS + seat]
    n = 0
    for seat in range(p):
        top[seat] = 1 if (not anyone or s[BOUH + seat] < MATCH_END_BOUH) and s[POINTS + seat] == best else 0
        n += top[seat]
    return n


@compiled
def _match_results(s: Row, top: NDArray[np.int32], leaders: int) -> None:
    """scoring.match_outcome's results: the winner (or tied leaders, drawn) first, then the others by points,
    then those with two Bouh! by points; equal keys share a rank."""
    p = s[PLAYERS]
    for seat in range(p):
        s[RESULT + seat] = (WIN if leaders == 1 else DRAW) if top[seat] == 1 else LOSS
    for seat in range(p):
        rank = 1
        for other in range(p):
            if _rank_key(s, top, other) < _rank_key(s, top, seat):
                rank += 1
        s[RANK + seat] = rank


@compiled
def _rank_key(s: Row, top: NDArray[np.int32], seat: int) -> int:
    """match_outcome's sort key (leaders first, then fewer than two Bouh!, then more points) as one number;
    points stay far below the 10,000 between the parts."""
    return int((1 - top[seat]) * 100_000 + (10_000 if s[BOUH + seat] >= MATCH_END_BOUH else 0) - s[POINTS + seat])


@compiled
def _end_round(s: Row, loser: int) -> None:
    """Score the round (loser -1: drawn at the turn limit); end the game or leave the next deal due."""
    p = s[PLAYERS]
    if s[MATCH_ON] == 1 and loser >= 0:
        s[BOUH + loser] += 1
        out = s[OUT_COUNT]
        for k in range(out):
            s[POINTS + s[OUT_ORDER + k]] += 1
        if out > 0:
            s[POINTS + s[OUT_ORDER]] += 1
            s[POINTS + s[OUT_ORDER + out - 1]] += 2
    if s[MATCH_ON] == 0:
        s[STATUS] = OVER
        if loser >= 0:
            s[ENDING] = ROUND_LOSER
            s[ENDING_SEAT] = loser
            for seat in range(p):
                s[RESULT + seat] = LOSS if seat == loser else WIN
                s[RANK + seat] = 2 if seat == loser else 1
        else:
            s[ENDING] = TURN_LIMIT
            for seat in range(p):
                s[RESULT + seat] = DRAW
                s[RANK + seat] = 1
        return
    top = np.zeros(SEATS, dtype=np.int32)
    winner = -1
    most = 0
    for seat in range(p):
        most = max(most, s[BOUH + seat])
    if most >= MATCH_END_BOUH and _leaders(s, top) == 1:
        for seat in range(p):
            if top[seat] == 1:
                winner = seat
    if winner >= 0:
        s[STATUS] = OVER
        s[ENDING] = MATCH_WON
        s[ENDING_SEAT] = winner
        s[ENDING_POINTS] = s[POINTS + winner]
        _match_results(s, top, 1)
    elif s[ROUND] + 1 >= s[MAX_ROUNDS]:
        s[STATUS] = OVER
        s[ENDING] = ROUND_LIMIT
        _match_results(s, top, _leaders(s, top))
    else:
        s[ROUND] += 1
        s[STATUS] = DEALING
        s[NEXT_STARTER] = loser


@compiled
def _refill(s: Row, seat: int) -> None:
    hand = HANDS + seat * KINDS
    count = min(HAND_SIZE - s[SIZES + seat], s[CRYPT_COUNT])
    for _ in range(count):
        top = s[CRYPT_COUNT] - 1
        s[hand + s[CRYPT + top]] += 1
        s[CRYPT + top] = 0
        s[CRYPT_COUNT] = top
    s[SIZES + seat] += count


@compiled
def _after(s: Row, seat: int, effect: int) -> None:
    """End of an action: refill, going out, the round's end, and who plays next (state._after)."""
    s[OPTIONAL_REPLAY] = 0
    if s[CRYPT_COUNT] > 0:
        if s[SIZES + seat] < HAND_SIZE:
            _refill(s, seat)
    elif s[SIZES + seat] == 0 and s[MANSION_COUNT + seat] == 0:
        s[IS_OUT + seat] = 1
        s[OUT_ORDER + s[OUT_COUNT]] = seat
        s[OUT_COUNT] += 1
        s[ACTIVE] -= 1
        if s[ACTIVE] == 1:
            s[TURNS] += 1
            loser = 0
            while s[IS_OUT + loser] == 1:
                loser += 1
            _end_round(s, loser)
            return
        effect &= ~AGAIN
    s[TURNS] += 1
    if s[TURNS] >= s[MAX_TURNS]:
        _end_round(s, -1)
    elif effect & AGAIN:
        s[TURN] = seat
        s[OPTIONAL_REPLAY] = 1 if s[MAY_DECLINE] == 1 and not effect & CLEARED else 0
    elif effect & SKIP:
        s[TURN] = _next(s, seat, 2)
    else:
        s[TURN] = _next(s, seat, 1)


@compiled
def _turn_card(s: Row, seat: int, card: int, played_kind: int) -> None:
    """A gambled crypt card or a turned mansion card: played alone if legal, else taken with the cemetery."""
    slot = 0
    effect = 0
    if card == KITTY or (card != MISS_COPY and FOLLOWS_TABLE[s[TOP_VALUE], card] == 1):
        slot = _begin_decision(s, seat, played_kind)
        _record_put(s, seat, slot, card, 1, 0)
        effect = _put(s, card, 1, 0)
    else:
        slot = _begin_decision(s, seat, played_kind + 1)  # the kind "... and take" follows "... and play"
        _take(s, seat, slot, card)
    s[SEAT_CARDS + (seat * 3 + TURNED_CARDS) * COLUMNS + card - 1] += 1
    _after(s, seat, effect)


@compiled
def apply_action(s: Row, action: int) -> None:
    """The seat to act takes a legal action (not checked: take it from legal_actions or a mask). A round
    that ends inside a match leaves the row DEALING."""
    seat = s[TURN]
    hand = HANDS + seat * KINDS
    known = KNOWN + seat * KINDS
    if action < TAKE_ACTION:
        if action < KITTY_BASE:
            value = action // PER_VALUE + 1
            count = (action % PER_VALUE) // 5 + 1
            copies = action % 5
        else:
            value = KITTY
            count = action - KITTY_BASE + 1
            copies = 0
        s[hand + value] -= count
        s[SIZES + seat] -= count + copies
        s[known + value] = max(s[known + value] - count, 0)
        if copies > 0:
            s[hand + MISS_COPY] -= copies
            s[known + MISS_COPY] = max(s[known + MISS_COPY] - copies, 0)
        slot = _begin_decision(s, seat, PLAY)
        _record_put(s, seat, slot, value, count, copies)
        _after(s, seat, _put(s, value, count, copies))
    elif action == TAKE_ACTION:
        _take(s, seat, _begin_decision(s, seat, TAKE), 0)
        _after(s, seat, 0)
    elif action == GAMBLE_ACTION:
        top = s[CRYPT_COUNT] - 1
        card = s[CRYPT + top]
        s[CRYPT + top] = 0
        s[CRYPT_COUNT] = top
        _turn_card(s, seat, card, GAMBLE_PLAY)
    elif action == TURN_ACTION:
        top = s[MANSION_COUNT + seat] - 1
        card = s[MANSIONS + seat * MANSION_CAP + top]
        s[MANSIONS + seat * MANSION_CAP + top] = 0
        s[MANSION_COUNT + seat] = top
        _turn_card(s, seat, card, TURN_PLAY)
    elif action == PASS_ACTION:
        # Nothing else allowed shows a hand of Miss Copy only: the whole hand becomes public.
        for kind in range(KINDS):
            s[known + kind] = s[hand + kind]
        _begin_decision(s, seat, PASS)
        _after(s, seat, 0)
    else:
        _begin_decision(s, seat, DONE)
        _after(s, seat, 0)


@compiled
def apply(s: Row, action: int, rng: Rng, i: int) -> None:
    """apply_action, then the next deal of the match if one is due (shuffled from stream `i`)."""
    apply_action(s, action)
    if s[STATUS] == DEALING:
        deal_random(s, rng, i)


@compiled
def _others(s: Row, seat: int, plays: int) -> tuple[bool, bool, bool, bool, bool]:
    """After `plays` plays, which of take, gamble, turn, done and pass are legal (pass only when nothing
    else is)."""
    take = s[CEMETERY_COUNT] > 0 or s[KITTY_COUNT] > 0
    gamble = s[CRYPT_COUNT] > 0
    turn = not gamble and s[SIZES + seat] == 0 and s[MANSION_COUNT + seat] > 0
    done = s[OPTIONAL_REPLAY] == 1
    return take, gamble, turn, done, plays == 0 and not (take or gamble or turn or done)


@compiled
def _other_actions(s: Row, seat: int, plays: int, out: NDArray[np.int32]) -> int:
    """The legal ones of take, gamble, turn, done and pass, in this order (the reference's), written to
    `out`; returns how many."""
    n = 0
    legal = _others(s, seat, plays)
    for j in range(5):
        if legal[j]:
            out[n] = OTHER_ACTIONS[j]
            n += 1
    return n


@compiled
def action_count(s: Row) -> int:
    """How many legal actions the seat to act has, counted from the hand without listing them."""
    if s[STATUS] != RUNNING:
        return 0
    seat = s[TURN]
    hand = HANDS + seat * KINDS
    top = s[TOP_VALUE]
    copies = s[hand + MISS_COPY]
    plays = s[hand + KITTY]
    for value in range(1, KITTY):
        held = s[hand + value]
        if held > 0:
            plays += PLAY_CHOICES[FOLLOWS_TABLE[top, value], held, copies]
    take, gamble, turn, done, passing = _others(s, seat, plays)
    return int(plays + int(take) + int(gamble) + int(turn) + int(done) + int(passing))


@compiled
def nth_action(s: Row, k: int) -> int:
    """The k-th (0 .. action_count - 1) legal action of the seat to act, in the reference's order: with
    action_count this picks a uniformly random action without listing the others."""
    seat = s[TURN]
    hand = HANDS + seat * KINDS
    top = s[TOP_VALUE]
    copies = s[hand + MISS_COPY]
    plays = 0
    for value in range(1, KITTY):
        held = s[hand + value]
        if held == 0:
            continue
        follows = FOLLOWS_TABLE[top, value]
        choices = PLAY_CHOICES[follows, held, copies]
        if k < choices:
            need = 1 if follows == 1 else MAX_SAME
            for count in range(1, held + 1):
                for m in range(copies + 1):
                    if count + m >= need:
                        if k == 0:
                            return (value - 1) * PER_VALUE + (count - 1) * 5 + m
                        k -= 1
        k -= choices
        plays += choices
    kitty = s[hand + KITTY]
    if k < kitty:
        return KITTY_BASE + k
    k -= kitty
    plays += kitty
    legal = _others(s, seat, plays)
    for j in range(5):
        if legal[j]:
            if k == 0:
                return int(OTHER_ACTIONS[j])
            k -= 1
    return -1


@compiled
def random_action(s: Row, rng: Rng, i: int) -> int:
    """A uniformly random legal action of the seat to act (-1 when none acts), from stream `i`: as
    nth_action(s, random k below action_count(s)), in one pass over the hand."""
    if s[STATUS] != RUNNING:
        return -1
    seat = s[TURN]
    hand = HANDS + seat * KINDS
    top = s[TOP_VALUE]
    copies = s[hand + MISS_COPY]
    width = copies + 1
    plays = s[hand + KITTY]
    table = CHOICES_ON[top, copies]  # [value, held]: one lookup a value
    for value in range(1, KITTY):
        plays += table[value, s[hand + value]]
    take, gamble, turn, done, passing = _others(s, seat, plays)
    k = random_below(rng, i, plays + int(take) + int(gamble) + int(turn) + int(done) + int(passing))
    for value in range(1, KITTY):
        choices = table[value, s[hand + value]]
        if k < choices:
            if FOLLOWS_TABLE[top, value] == 1:  # every count with every number of copies
                return int((value - 1) * PER_VALUE + (k // width) * 5 + k % width)
            return nth_action(s, _plays_before(s, value) + k)  # quartets only: rare, listed
        k -= choices
    kitty = s[hand + KITTY]
    if k < kitty:
        return KITTY_BASE + k
    k -= kitty
    legal = (take, gamble, turn, done, passing)
    for j in range(5):
        if legal[j]:
            if k == 0:
                return int(OTHER_ACTIONS[j])
            k -= 1
    return -1


@compiled
def _plays_before(s: Row, value: int) -> int:
    """How many plays of the seat to act come before its plays of `value`."""
    hand = HANDS + s[TURN] * KINDS
    before = 0
    for v in range(1, value):
        if s[hand + v] > 0:
            before += PLAY_CHOICES[FOLLOWS_TABLE[s[TOP_VALUE], v], s[hand + v], s[hand + MISS_COPY]]
    return before


@compiled
def random_playout(s: Row, rng: Rng, i: int) -> int:
    """Play uniformly random actions (and the match's deals) to the end of the game; return the actions."""
    played = 0
    while s[STATUS] != OVER:
        if s[STATUS] == DEALING:
            deal_random(s, rng, i)
        apply_action(s, random_action(s, rng, i))
        played += 1
    return played


@compiled
def play_random_games(games: int, rng: Rng, players: int, deck: int, may_decline: int, match_on: int,
                      max_turns: int, max_rounds: int, first: int) -> int:
    """Play `games` complete random games (`first` -1: a random first seat) in one thread; return the
    actions taken (deals are chance, not actions, as the Python benchmark counts)."""
    s = np.empty(FIELDS, dtype=np.int32)
    actions = 0
    for _ in range(games):
        new_game(s, players, deck, may_decline, match_on, max_turns, max_rounds, first)
        actions += random_playout(s, rng, 0)
    return actions


# --- observations (encoding.py's and info_state.py's arrays, flat, seat-relative) -------------------------------
def observation_size(players: int) -> int:
    return sum(math.prod(shape) for shape in enc.observation_shapes(players).values())


def info_state_size(players: int) -> int:
    return sum(math.prod(shape) for shape in info.info_state_shapes(players).values())


@compiled
def encode(s: Row, seat: int, out: NDArray[np.float32]) -> None:
    """Fill `out` (observation_size(players),) with encoding.encode_view's arrays for `seat`, flat in the
    order of observation_shapes: hand, known, seats, cemetery, top, discard, unseen, table."""
    p = s[PLAYERS]
    out[: observation_size_of(p)] = 0.0
    quarter = np.float32(MAX_SAME)
    over = s[STATUS] == OVER
    hand = HANDS + seat * KINDS
    at = 0
    for c in range(COLUMNS):
        out[at + c] = np.float32(s[hand + c + 1]) / quarter
    at += COLUMNS
    for row in range(p):
        other = (seat + row) % p
        for c in range(COLUMNS):
            out[at + row * COLUMNS + c] = np.float32(s[KNOWN + other * KINDS + c + 1]) / quarter
    at += p * COLUMNS
    for row in range(p):
        other = (seat + row) % p
        base = at + row * SEAT_FEATURES
        out[base] = s[SIZES + other] / MAX_CARDS
        out[base + 1] = s[MANSION_COUNT + other] / MAX_MANSION
        out[base + 2] = 1.0 if s[IS_OUT + other] == 1 else 0.0
        out[base + 3] = 1.0 if not over and s[TURN] == other else 0.0
        for k in range(s[OUT_COUNT]):
            if s[OUT_ORDER + k] == other:
                out[base + 4] = (k + 1) / p
        out[base + 5] = min(s[POINTS + other] / MAX_POINTS, 1.0)
        out[base + 6] = min(s[BOUH + other] / MAX_BOUH, 1.0)
    at += p * SEAT_FEATURES
    cemetery = np.zeros(COLUMNS, dtype=np.int32)
    for j in range(s[CEMETERY_COUNT]):
        entry = s[CEMETERY + j]
        cemetery[(MISS_COPY if entry > COPY_BASE else entry) - 1] += 1
    cemetery[KITTY - 1] += s[KITTY_COUNT]
    for c in range(COLUMNS):
        out[at + c] = np.float32(cemetery[c]) / quarter
    at += COLUMNS
    out[at + s[TOP_VALUE]] = 1.0
    at += 15
    for c in range(COLUMNS):
        out[at + c] = np.float32(s[DISCARD + c + 1]) / quarter
    at += COLUMNS
    for c in range(COLUMNS):
        unseen = COMPOSITION[s[DECK], c + 1] - s[hand + c + 1] - cemetery[c] - s[DISCARD + c + 1]
        for row in range(1, p):
            unseen -= s[KNOWN + ((seat + row) % p) * KINDS + c + 1]
        out[at + c] = np.float32(unseen) / quarter
    at += COLUMNS
    out[at] = s[TOP_RUN] / MAX_SAME
    out[at + 1] = s[KITTY_COUNT] / MAX_SAME
    out[at + 2] = (s[CEMETERY_COUNT] + s[KITTY_COUNT]) / MAX_CARDS
    out[at + 3] = s[CRYPT_COUNT] / MAX_CRYPT
    out[at + 4] = 1.0 if s[CRYPT_COUNT] == 0 else 0.0
    out[at + 5] = 1.0 if s[DIRECTION] == 1 else 0.0
    out[at + 6] = 1.0 if s[MATCH_ON] == 1 else 0.0
    out[at + 7] = min(s[ROUND] / s[MAX_ROUNDS], 1.0)
    out[at + 8] = min(s[TURNS] / s[MAX_TURNS], 1.0)
    out[at + 9] = 1.0 if s[DECK] == 1 else 0.0
    out[at + 10] = 1.0 if over else 0.0
    out[at + 11] = 1.0 if s[OPTIONAL_REPLAY] == 1 and not over else 0.0


@compiled
def observation_size_of(players: int) -> int:
    """observation_size for the compiled code: hand, known, seats, cemetery, top, discard, unseen, table."""
    return COLUMNS * 4 + 15 + TABLE_FEATURES + players * (COLUMNS + SEAT_FEATURES)


@compiled
def encode_info_state(s: Row, seat: int, out: NDArray[np.float32]) -> None:
    """Fill `out` (info_state_size(players),) with info_state.encode_info_state's arrays for `seat`, flat:
    the observation, then seat_cards, seat_actions and recent."""
    p = s[PLAYERS]
    encode(s, seat, out)
    at = observation_size_of(p)
    width = p + RECORD_KINDS + 2 * COLUMNS
    out[at : at + p * (3 * COLUMNS + RECORD_KINDS) + RECENT * width] = 0.0
    card_scale = np.float32(CARD_SCALE)
    action_scale = np.float32(ACTION_SCALE)
    quarter = np.float32(MAX_SAME)
    for row in range(p):
        other = (seat + row) % p
        for j in range(3 * COLUMNS):
            out[at + row * 3 * COLUMNS + j] = min(np.float32(s[SEAT_CARDS + other * 3 * COLUMNS + j]) / card_scale,
                                                  np.float32(1.0))
    at += p * 3 * COLUMNS
    for row in range(p):
        other = (seat + row) % p
        for k in range(RECORD_KINDS):
            out[at + row * RECORD_KINDS + k] = min(
                np.float32(s[SEAT_ACTIONS + other * RECORD_KINDS + k]) / action_scale, np.float32(1.0))
    at += p * RECORD_KINDS
    decisions = s[DECISIONS]
    for r in range(min(decisions, RECENT)):
        slot = RECENT_RING + ((decisions - 1 - r) % RECENT) * SLOT
        base = at + r * width
        out[base + (s[slot] - seat) % p] = 1.0
        out[base + p + s[slot + 1]] = 1.0
        cards = base + p + RECORD_KINDS
        if s[slot + 3] > 0:
            out[cards + s[slot + 2]] = np.float32(s[slot + 3]) / quarter
        if s[slot + 4] > 0:
            out[cards + MISS_COPY - 1] = np.float32(s[slot + 4]) / quarter
        for c in range(COLUMNS):
            out[cards + COLUMNS + c] = np.float32(s[slot + 5 + c]) / quarter


# --- to and from the reference ----------------------------------------------------------------------------------
_ENDING_NUMBER = {r.code: number for number, r in enumerate(ENDINGS) if r is not None}
_RESULT_NUMBER = {word: number for number, word in enumerate(RESULT_WORDS)}
_COLUMN_OF_TEXT = enc.COLUMN


def _text_columns(texts: Sequence[str]) -> list[int]:
    return [enc.COPY_COLUMN if t.startswith("X") else _COLUMN_OF_TEXT[t] for t in texts]


def from_state(state: GhooostState, since: tuple[Row, int] | None = None, record: bool = True) -> Row:
    """The fast row of a reference state (secrets included: for search and tests, like the state). The
    round's record is read back from the state's moves, as its information state reads them; `since` = (the
    row of an earlier position of the same round, the number of its moves) reads only the moves made since.
    `record` False leaves the record empty (DECISIONS and the fields after SEAT_CARDS 0): a search that
    never encodes an information state skips reading the moves, most of the cost of a conversion."""
    s = np.zeros(FIELDS, dtype=np.int32)
    p = state.players
    options = state.options
    new_game(s, p, DECKS.index(options.deck), int(state.may_decline), int(state.match_on), options.max_turns,
             options.max_rounds, state.first)
    for name, value in (("ROUND", state.round), ("FIRST", state.first), ("TURN", state.turn),
                        ("DIRECTION", state.direction), ("TURNS", state.turns),
                        ("OPTIONAL_REPLAY", int(state.optional_replay)), ("TOP_VALUE", state.top_value),
                        ("TOP_RUN", state.top_run), ("KITTY_COUNT", state.kitty), ("ACTIVE", state.active),
                        ("OUT_COUNT", len(state.out_order)), ("CRYPT_COUNT", len(state.crypt)),
                        ("CEMETERY_COUNT", len(state.cemetery)), ("STATUS", RUNNING), ("NEXT_STARTER", -1)):
        s[OFFSETS[name]] = value
    for seat in range(p):
        s[SIZES + seat] = state.sizes[seat]
        s[MANSION_COUNT + seat] = len(state.mansions[seat])
        s[IS_OUT + seat] = int(state.is_out[seat])
        s[POINTS + seat] = state.points[seat]
        s[BOUH + seat] = state.bouh[seat]
        s[HANDS + seat * KINDS : HANDS + (seat + 1) * KINDS] = state.hands[seat]
        s[KNOWN + seat * KINDS : KNOWN + (seat + 1) * KINDS] = state.known[seat]
        for j, card in enumerate(state.mansions[seat]):
            s[MANSIONS + seat * MANSION_CAP + j] = card
    for k, seat in enumerate(state.out_order):
        s[OUT_ORDER + k] = seat
    s[DISCARD : DISCARD + KINDS] = state.discard
    s[CRYPT : CRYPT + len(state.crypt)] = state.crypt
    s[CEMETERY : CEMETERY + len(state.cemetery)] = state.cemetery
    outcome = state.outcome()
    if outcome is not None:
        s[STATUS] = OVER
        s[ENDING] = _ENDING_NUMBER[outcome.code]
        if outcome.code in (reasons.ROUND_LOSER.code, reasons.MATCH_WON.code):
            s[ENDING_SEAT] = outcome.args["seat"]
        if outcome.code == reasons.MATCH_WON.code:
            s[ENDING_POINTS] = outcome.args["points"]
        for seat, result in enumerate(outcome.results):
            s[RESULT + seat] = _RESULT_NUMBER[result.result]
            s[RANK + seat] = result.rank
    if not record:
        return s
    moves, begin = state.moves, 0
    if since is not None and since[0][ROUND] == state.round and len(moves) >= since[1]:  # the same round's
        s[DECISIONS] = since[0][DECISIONS]
        s[SEAT_CARDS:] = since[0][SEAT_CARDS:]
        begin = since[1]
    _record_from_moves(s, moves[begin:])
    return s


def _record_from_moves(s: Row, moves: list[Move]) -> None:
    """The round's record (SEAT_CARDS, SEAT_ACTIONS, RECENT) from the reference's moves of this round, on
    top of the record of the earlier moves already in `s`."""
    for seat, kind, put, taken, turned in moves:
        slot = _begin_decision(s, seat, info.KINDS.index(kind))
        columns = _text_columns(put)
        if columns:
            first = columns[0]
            _record_put(s, seat, slot, first + 1, columns.count(first), columns.count(enc.COPY_COLUMN)
                        if first != enc.COPY_COLUMN else 0)
        for c in _text_columns(taken):
            s[slot + 5 + c] += 1
            s[SEAT_CARDS + (seat * 3 + TAKEN_CARDS) * COLUMNS + c] += 1
        if turned is not None:
            s[SEAT_CARDS + (seat * 3 + TURNED_CARDS) * COLUMNS + _text_columns([turned])[0]] += 1


def deck_order(state: GhooostState) -> NDArray[np.int32]:
    """The deal of a reference state's round as `deal` takes it: the hands (each in kind order), the
    mansions, the crypt. Right just after a deal, before any card moved."""
    cards = [kind for hand in state.hands for kind in range(KINDS) for _ in range(hand[kind])]
    for mansion in state.mansions:
        cards += mansion
    cards += state.crypt
    return np.array(cards, dtype=np.int32)


def outcome(s: Row) -> Outcome | None:
    """The reference's Outcome of a finished game (None while it runs)."""
    if s[STATUS] != OVER:
        return None
    p = int(s[PLAYERS])
    ending = int(s[ENDING])
    reason = ENDINGS[ending]
    assert reason is not None
    match = ending in (MATCH_WON, ROUND_LIMIT)
    results = []
    for seat in range(p):
        word = RESULT_WORDS[int(s[RESULT + seat])]
        score = float(s[POINTS + seat]) if match else {"win": 1.0, "loss": 0.0, "draw": 0.5}[word]
        results.append(SeatResult(word, int(s[RANK + seat]), score))
    args: dict[str, int] = {
        ROUND_LOSER: {"seat": int(s[ENDING_SEAT])},
        TURN_LIMIT: {"turns": int(s[MAX_TURNS])},
        MATCH_WON: {"seat": int(s[ENDING_SEAT]), "points": int(s[ENDING_POINTS])},
        ROUND_LIMIT: {"rounds": int(s[MAX_ROUNDS])},
    }[ending]
    return Outcome.because(tuple(results), reason, **args)


def _split(flat: NDArray[np.float32], shapes: dict[str, tuple[int, ...]]) -> dict[str, NDArray[np.float32]]:
    arrays: dict[str, NDArray[np.float32]] = {}
    at = 0
    for name, shape in shapes.items():
        size = math.prod(shape)
        arrays[name] = flat[at : at + size].reshape(shape)
        at += size
    return arrays


def observation(s: Row, seat: int) -> dict[str, NDArray[np.float32]]:
    """encode() as the named arrays of `state.encode(seat)`."""
    players = int(s[PLAYERS])
    flat = np.empty(observation_size(players), dtype=np.float32)
    encode(s, seat, flat)
    return _split(flat, enc.observation_shapes(players))


def information_state(s: Row, seat: int) -> dict[str, NDArray[np.float32]]:
    """encode_info_state() as the named arrays of `state.encode_info_state(seat)`."""
    players = int(s[PLAYERS])
    flat = np.empty(info_state_size(players), dtype=np.float32)
    encode_info_state(s, seat, flat)
    return _split(flat, info.info_state_shapes(players))


def new_rng(seed: int, streams: int = 1, label: str = "streams") -> Rng:
    """`streams` random streams for one purpose (`label`) of a seed (rules/chance.py's one seeding scheme)."""
    return new_streams(derive_rng(seed, "ghooost-core", label), streams)


def options_of(options: GhooostOptions, players: int) -> tuple[int, int, int, int, int]:
    """new_game's option numbers from a GhooostOptions: deck, may_decline, match_on, max_turns, max_rounds."""
    return (DECKS.index(options.deck), int(options.replay == "may"), int(options.match_on(players)),
            options.max_turns, options.max_rounds)


def random_games(players: int, options: Mapping[str, Any], seed: int) -> Callable[[int], int]:
    """For the engine benchmark: a function that plays that many complete random games of these options on
    one thread and returns the actions taken (random deals and uniformly random legal actions, as the
    python engine's benchmark plays them)."""
    from ghostgames.games.ghooost.state import GhooostOptions

    checked = GhooostOptions.model_validate({**options, "players": players})
    numbers = (players, *options_of(checked, players), -1 if checked.first is None else checked.first)
    rng = new_rng(seed, label="bench")

    def play(games: int) -> int:
        return int(play_random_games(games, rng, *numbers))

    return play


# numba checks a cached kernel against its own file only: compile afresh when jit.py's random streams change
forget_stale_kernels(sys.modules[__name__], own_kernels(sys.modules[__name__]), inlined=())
