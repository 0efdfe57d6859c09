"""A compiled The Last core (numba): the same rules as `TheLastState`, for playouts and batched learning.

`TheLastState` (state.py) stays the reference and the contract; this module is a second implementation of
the same rules (2-5 players, the 2-player ghost, rounds, the small decks), proven equal to it action by
action (tests/games/thelast/test_fast_core.py). It is for code that plays many rounds: searches' playouts,
benchmarks (`ghostgames bench engine --game thelast --engine fast`) and the batched environment
`ghostgames.envs.TheLastVectorEnv` (its kernels: envs/thelast_kernels.py).

One game is one row of int64, `FIELDS` long (a batch is a 2-D array, one game per row). Sets of cards are
bit masks (bit c = card c, 0..47 as in cards.py), so "the cards of the led colour in this hand" is one AND.
Participants are numbered as in state.py: seats 0..players-1 and, with 2 players, the ghost as 2.

    PLAYERS COUNT GHOST SIZE NCOLOURS NVALUES ROUNDS   the table: players, participants, the ghost (-1 none),
                        cards per hand, the deck's colours and values, rounds in the match
    ROUND PHASE         the round (0-based) and PLAY, DECIDE, OVER, or DEAL (a round ended and the next
                        one waits for its cards: `deal_round`, or `step` which deals at random)
    LEADER CURRENT ACTOR  who leads the trick, who puts the next card in, the seat to act
    POINTS_CARD         the points card on offer (-1 between rounds and at the end)
    ROUND_LEADER        the first leader of the round;  ROUNDS_DONE  rounds counted so far
    TRICK_N TRICK_MASK  cards in the current trick and the bits of their colours
    TRICKS_N            finished tricks of this round (the one being decided included)
    POINTS_N GHOST_N    cards left in the points pile and in the ghost's pile
    SPARE               the cards not dealt (a mask)
    RING+i  NEXT+p      the order of play, and who comes after participant p
    HAND+p PILE+p       each participant's hand and face-down cards (masks)
    SHOWN_HAND+p SHOWN_PILE+p MIXED+p  the public knowledge of state.py's shown_hand, shown_pile, mixed
    PLAYED+p            the cards p played in this round's finished tricks
    TOTAL+p LAST_PEN+p LAST_PILE+p  total penalty of the finished rounds, the last round's penalty and pile
    TRICK_WHO+k TRICK_CARD+k  the current trick in order of play
    POINTS+k GHOST_PILE+k  the points pile and the ghost's pile in order, the top card last
    LOG + t*LOG_WIDTH   finished trick t of the round: leader, winner, points card, how it was taken
                        (PENDING, KEPT, SWAPPED, GHOST_TOOK), then who played and which card, in order

Actions are encoding.py's indices: 0..47 play a card, 48 keep, 49..96 swap (49 + the card laid down).
Legal actions come in the reference's order, which is the order of the indices.

Observations are `encoding.encode_view` and `info_state.encode_info_state` of one seat's view (seat -1:
a spectator), written into one flat float32 array in the order of `observation_shapes`; `unflatten` gives
the named arrays back. Random numbers come from the splitmix64 streams of ghostgames/jit.py (`new_rng`),
one per game of a batch. Every function is compiled once per machine and cached next to this file
(`cache=True`; compiled afresh when jit.py changes: `forget_stale_kernels` at the end).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.thelast.cards import COLOUR_OF, DECK_SIZE, VALUE_OF, VALUES_PER_COLOUR
from ghostgames.games.thelast.encoding import (
    KEEP_INDEX,
    MAX_HAND,
    MAX_PENALTY,
    MAX_ROUNDS,
    PARTICIPANT_FIXED,
    SWAP_BASE,
    TABLE_SIZE,
    observation_shapes,
)
from ghostgames.games.thelast.info_state import INFO_FIXED, TRICKS, info_state_shapes
from ghostgames.jit import Rng as Rng  # the bots' and envs' kernels take these from the core, as fast.*
from ghostgames.jit import compiled as compiled
from ghostgames.jit import forget_stale_kernels, new_streams, own_kernels
from ghostgames.jit import next_random as next_random
from ghostgames.jit import random_below as random_below
from ghostgames.rules.chance import derive_rng

if TYPE_CHECKING:
    from ghostgames.games.thelast.state import TheLastOptions, TheLastState

Row = NDArray[np.int64]  # one game (FIELDS,) or a batch (N, FIELDS)
Floats = NDArray[np.float32]


# --- the layout of one game ------------------------------------------------------------------------------
MOST = 5  # participants at most
LOG_WIDTH = 4 + 2 * MOST
_SIZES = (
    ("PLAYERS", 1), ("COUNT", 1), ("GHOST", 1), ("SIZE", 1), ("NCOLOURS", 1), ("NVALUES", 1), ("ROUNDS", 1),
    ("ROUND", 1), ("PHASE", 1), ("LEADER", 1), ("CURRENT", 1), ("ACTOR", 1), ("POINTS_CARD", 1),
    ("ROUND_LEADER", 1), ("ROUNDS_DONE", 1), ("TRICK_N", 1), ("TRICK_MASK", 1), ("TRICKS_N", 1),
    ("POINTS_N", 1), ("GHOST_N", 1), ("SPARE", 1), ("RING", MOST), ("NEXT", MOST), ("HAND", MOST),
    ("PILE", MOST), ("SHOWN_HAND", MOST), ("SHOWN_PILE", MOST), ("MIXED", MOST), ("PLAYED", MOST),
    ("TOTAL", MOST), ("LAST_PEN", MOST), ("LAST_PILE", MOST), ("TRICK_WHO", MOST), ("TRICK_CARD", MOST),
    ("POINTS", MAX_HAND), ("GHOST_PILE", MAX_HAND), ("LOG", TRICKS * LOG_WIDTH),
)  # fmt: skip
_OFFSETS = {name: sum(size for _, size in _SIZES[:i]) for i, (name, _) in enumerate(_SIZES)}
FIELDS = sum(size for _, size in _SIZES)
PLAYERS, COUNT, GHOST, SIZE, NCOLOURS, NVALUES, ROUNDS = (_OFFSETS[n] for n in (
    "PLAYERS", "COUNT", "GHOST", "SIZE", "NCOLOURS", "NVALUES", "ROUNDS"))
ROUND, PHASE, LEADER, CURRENT, ACTOR, POINTS_CARD, ROUND_LEADER, ROUNDS_DONE = (_OFFSETS[n] for n in (
    "ROUND", "PHASE", "LEADER", "CURRENT", "ACTOR", "POINTS_CARD", "ROUND_LEADER", "ROUNDS_DONE"))
TRICK_N, TRICK_MASK, TRICKS_N, POINTS_N, GHOST_N, SPARE = (_OFFSETS[n] for n in (
    "TRICK_N", "TRICK_MASK", "TRICKS_N", "POINTS_N", "GHOST_N", "SPARE"))
RING, NEXT, HAND, PILE, SHOWN_HAND, SHOWN_PILE, MIXED, PLAYED = (_OFFSETS[n] for n in (
    "RING", "NEXT", "HAND", "PILE", "SHOWN_HAND", "SHOWN_PILE", "MIXED", "PLAYED"))
TOTAL, LAST_PEN, LAST_PILE, TRICK_WHO, TRICK_CARD, POINTS, GHOST_PILE, LOG = (_OFFSETS[n] for n in (
    "TOTAL", "LAST_PEN", "LAST_PILE", "TRICK_WHO", "TRICK_CARD", "POINTS", "GHOST_PILE", "LOG"))
# Inside a LOG entry:
L_LEADER, L_WINNER, L_POINTS, L_TAKEN, L_WHO, L_CARD = 0, 1, 2, 3, 4, 4 + MOST

PLAY, DECIDE, OVER, DEAL = 0, 1, 2, 3  # PLAY..OVER as state.py numbers them
PENDING, KEPT, SWAPPED, GHOST_TOOK = 0, 1, 2, 3  # how a trick's points card was taken ("", keep, swap, ghost)
TAKEN_NAMES = ("", "keep", "swap", "ghost")
LOSS, WIN, DRAW = 0, 1, 2
MAX_ACTIONS = 1 + MAX_HAND  # keep and a swap per hand card, more than any play allows

# --- tables (numba freezes module-level arrays into the compiled code) -----------------------------------
COLOUR = np.array(COLOUR_OF, dtype=np.int64)
VALUE = np.array(VALUE_OF, dtype=np.int64)
# COLOUR_CARDS[bits]: the mask of every card whose colour is among the colour bits (0..15).
COLOUR_CARDS = np.array([sum(1 << c for c in range(DECK_SIZE) if bits >> COLOUR_OF[c] & 1) for bits in range(16)],
                        dtype=np.int64)


# --- cards as bits -------------------------------------------------------------------------------------------
_ONE, _TWO, _FOUR, _S56 = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)
_M1, _M2, _M4 = np.uint64(0x5555555555555555), np.uint64(0x3333333333333333), np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@compiled
def bit_count(mask: int) -> int:
    """The cards in a mask (a sideways sum that LLVM turns into one instruction where the CPU has one)."""
    x = np.uint64(mask)
    x = x - ((x >> _ONE) & _M1)
    x = (x & _M2) + ((x >> _TWO) & _M2)
    x = (x + (x >> _FOUR)) & _M4
    return int(np.int64((x * _H01) >> _S56))


@compiled
def lowest_card(mask: int) -> int:
    """The lowest card of a non-empty mask."""
    return bit_count((mask & -mask) - 1)


@compiled
def nth_card(mask: int, n: int) -> int:
    """The n-th (from 0) card of the mask, counting up from card 0."""
    for _ in range(n):
        mask &= mask - 1
    return lowest_card(mask)


@compiled
def value_sum(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += VALUE[lowest_card(low)]
        mask ^= low
    return total


# --- a game ----------------------------------------------------------------------------------------------
@compiled
def new_game(s: Row, players: int, colours: int, values: int, size: int, rounds: int) -> None:
    """An empty table before the first deal (then `deal_round` or `random_deal`); `size` is the cards a hand."""
    s[:] = 0
    count = 3 if players == 2 else players
    s[PLAYERS] = players
    s[COUNT] = count
    s[GHOST] = 2 if players == 2 else -1
    s[SIZE] = size
    s[NCOLOURS] = colours
    s[NVALUES] = values
    s[ROUNDS] = rounds
    s[PHASE] = DEAL
    s[POINTS_CARD] = -1
    for i in range(count):
        s[RING + i] = i
        s[NEXT + i] = (i + 1) % count


@compiled
def deal_round(s: Row, deck: NDArray[np.int64], first: int) -> None:
    """Deal round ROUND from `deck` (the shuffled cards, top first: the hands, the points pile, then the spare
    ones) with `first` leading, as state.deal_round does, and play on until a seat must act."""
    size = s[SIZE]
    count = s[COUNT]
    ghost = s[GHOST]
    for p in range(count):
        hand = 0
        for k in range(size):
            card = deck[p * size + k]
            hand |= 1 << card
            if p == ghost:
                s[GHOST_PILE + k] = card
        s[HAND + p] = hand
        s[PILE + p] = 0
        s[SHOWN_HAND + p] = 0
        s[SHOWN_PILE + p] = 0
        s[MIXED + p] = 0
        s[PLAYED + p] = 0
    s[GHOST_N] = size if ghost >= 0 else 0
    dealt = count * size
    for k in range(size):
        s[POINTS + k] = deck[dealt + k]
    s[POINTS_N] = size
    spare = 0
    for k in range(dealt + size, deck.shape[0]):
        spare |= 1 << deck[k]
    s[SPARE] = spare
    if ghost >= 0:  # the ghost's pile lies to the right of the first leader: it plays last in the first trick
        s[RING] = first
        s[RING + 1] = 1 - first
        s[RING + 2] = ghost
    for i in range(count):
        s[NEXT + s[RING + i]] = s[RING + (i + 1) % count]
    s[ROUND_LEADER] = first
    s[TRICKS_N] = 0
    s[TRICK_N] = 0
    s[TRICK_MASK] = 0
    s[PHASE] = PLAY
    _start_trick(s, first)
    _run(s)


@compiled
def deck_cards(s: Row) -> NDArray[np.int64]:
    """The game's cards in id order (values 1..NVALUES of the first NCOLOURS colours)."""
    values = s[NVALUES]
    out = np.empty(s[NCOLOURS] * values, dtype=np.int64)
    n = 0
    for colour in range(s[NCOLOURS]):
        for v in range(values):
            out[n] = colour * VALUES_PER_COLOUR + v
            n += 1
    return out


@compiled
def random_deal(s: Row, rng: Rng, i: int) -> None:
    """Deal round ROUND from a shuffle of stream `i`, a uniformly random seat leading."""
    deck = deck_cards(s)
    for k in range(deck.shape[0] - 1, 0, -1):
        j = np.int64(random_below(rng, i, k + 1))
        deck[k], deck[j] = deck[j], deck[k]
    deal_round(s, deck, random_below(rng, i, s[PLAYERS]))


@compiled
def _start_trick(s: Row, leader: int) -> None:
    s[POINTS_N] -= 1
    s[POINTS_CARD] = s[POINTS + s[POINTS_N]]
    s[LEADER] = leader
    s[CURRENT] = leader


@compiled
def _place(s: Row, who: int, card: int) -> None:
    bit = 1 << card
    s[HAND + who] &= ~bit
    if who == s[GHOST]:
        s[GHOST_N] -= 1
    else:
        s[SHOWN_HAND + who] &= ~bit
        s[MIXED + who] &= ~bit
    n = s[TRICK_N]
    s[TRICK_WHO + n] = who
    s[TRICK_CARD + n] = card
    s[TRICK_N] = n + 1
    s[TRICK_MASK] |= 1 << COLOUR[card]
    s[CURRENT] = s[NEXT + who]


@compiled
def _run(s: Row) -> None:
    """Carry the table forward until a seat must act: the ghost's plays, finished tricks, the round's end."""
    while s[PHASE] == PLAY:
        if s[TRICK_N] == s[COUNT]:
            _resolve(s)
        elif s[CURRENT] == s[GHOST]:
            _place(s, s[GHOST], s[GHOST_PILE + s[GHOST_N] - 1])
        else:
            s[ACTOR] = s[CURRENT]
            return


@compiled
def _resolve(s: Row) -> None:
    """The last card's colour wins; its highest card takes the points card."""
    n = s[TRICK_N]
    colour = COLOUR[s[TRICK_CARD + n - 1]]
    best = -1
    winner = -1
    t = s[TRICKS_N]
    entry = LOG + t * LOG_WIDTH
    for k in range(n):
        who = s[TRICK_WHO + k]
        card = s[TRICK_CARD + k]
        s[entry + L_WHO + k] = who
        s[entry + L_CARD + k] = card
        s[PLAYED + who] |= 1 << card
        if COLOUR[card] == colour and card > best:
            best = card
            winner = who
    points = s[POINTS_CARD]
    s[entry + L_LEADER] = s[LEADER]
    s[entry + L_WINNER] = winner
    s[entry + L_POINTS] = points
    s[TRICKS_N] = t + 1
    s[TRICK_N] = 0
    s[TRICK_MASK] = 0
    if winner == s[GHOST] or s[HAND + winner] == 0:
        # The ghost's takes score for nobody; an empty hand (the last trick) has nothing to lay down instead.
        s[PILE + winner] |= 1 << points
        s[SHOWN_PILE + winner] |= 1 << points
        s[entry + L_TAKEN] = GHOST_TOOK if winner == s[GHOST] else KEPT
        _next_trick(s, winner)
    else:
        s[entry + L_TAKEN] = PENDING
        s[PHASE] = DECIDE
        s[ACTOR] = winner


@compiled
def _next_trick(s: Row, leader: int) -> None:
    if s[POINTS_N] > 0:
        _start_trick(s, leader)
    else:
        _end_round(s)


@compiled
def _end_round(s: Row) -> None:
    s[POINTS_CARD] = -1
    for p in range(s[PLAYERS]):
        penalty = value_sum(s[PILE + p])
        s[TOTAL + p] += penalty
        s[LAST_PEN + p] = penalty
        s[LAST_PILE + p] = s[PILE + p]
    s[ROUNDS_DONE] += 1
    if s[ROUNDS_DONE] < s[ROUNDS]:
        s[ROUND] += 1
        s[PHASE] = DEAL
    else:
        s[PHASE] = OVER


@compiled
def apply_action(s: Row, index: int) -> None:
    """The seat to act takes action `index` (legal: from legal_actions or a mask; not checked here). When it
    ends a round with more to come, the game waits in DEAL for `deal_round` (`step` deals at random)."""
    seat = s[ACTOR]
    if index < KEEP_INDEX:
        _place(s, seat, index)
        _run(s)
        return
    points = s[POINTS_CARD]
    entry = LOG + (s[TRICKS_N] - 1) * LOG_WIDTH
    if index == KEEP_INDEX:
        s[PILE + seat] |= 1 << points
        s[SHOWN_PILE + seat] |= 1 << points
        s[entry + L_TAKEN] = KEPT
    else:
        card = index - SWAP_BASE
        s[HAND + seat] = (s[HAND + seat] & ~(1 << card)) | (1 << points)
        s[PILE + seat] |= 1 << card
        # Nobody else sees which card went down, so every earlier known card of that hand may be it.
        s[MIXED + seat] |= s[SHOWN_HAND + seat]
        s[SHOWN_HAND + seat] = 1 << points
        s[entry + L_TAKEN] = SWAPPED
    s[PHASE] = PLAY
    _next_trick(s, seat)
    _run(s)


@compiled
def step(s: Row, index: int, rng: Rng, i: int) -> None:
    """apply_action, then deal the next round from stream `i` if the action ended a round."""
    apply_action(s, index)
    if s[PHASE] == DEAL:
        random_deal(s, rng, i)


@compiled
def playable(s: Row) -> int:
    """The mask of the cards the seat to act may put into the trick."""
    hand = int(s[HAND + s[ACTOR]])
    n = s[TRICK_N]
    if n == 0:
        return hand
    # A follower must match the led colour; the last player any colour already in the trick.
    colours = (1 << COLOUR[s[TRICK_CARD]]) if n < s[COUNT] - 1 else s[TRICK_MASK]
    follow = hand & int(COLOUR_CARDS[colours])
    return follow if follow else hand


@compiled
def required_colours(s: Row) -> int:
    """The colour bits the next card must have if its player holds one (0: any card), as in state.py."""
    n = s[TRICK_N]
    if n == 0 or s[PHASE] != PLAY:
        return 0
    return int((1 << COLOUR[s[TRICK_CARD]]) if n < s[COUNT] - 1 else s[TRICK_MASK])


@compiled
def legal_actions(s: Row, out: NDArray[np.int64]) -> int:
    """Write the action indices of the seat to act into `out` (the reference's order); return how many."""
    phase = s[PHASE]
    n = 0
    if phase == PLAY:
        cards = playable(s)
        base = 0
    elif phase == DECIDE:
        out[0] = KEEP_INDEX
        n = 1
        cards = s[HAND + s[ACTOR]]
        base = SWAP_BASE
    else:
        return 0
    while cards:
        low = cards & -cards
        out[n] = base + lowest_card(low)
        n += 1
        cards ^= low
    return n


@compiled
def seat_to_act(s: Row) -> int:
    """The seat to act, -1 once the game is over."""
    return int(s[ACTOR]) if s[PHASE] == PLAY or s[PHASE] == DECIDE else -1


@compiled
def legal_mask(s: Row, seat: int, mask: NDArray[np.int8]) -> None:
    """Fill `mask` (97,) as `state.legal_mask(seat)` does."""
    mask[:] = 0
    if seat != seat_to_act(s):
        return
    if s[PHASE] == PLAY:
        cards = playable(s)
        base = 0
    else:
        mask[KEEP_INDEX] = 1
        cards = s[HAND + seat]
        base = SWAP_BASE
    while cards:
        low = cards & -cards
        mask[base + lowest_card(low)] = 1
        cards ^= low


@compiled
def random_action(s: Row, rng: Rng, i: int) -> int:
    """A uniformly random legal action of the seat to act (-1 once the game is over), without listing them."""
    phase = s[PHASE]
    if phase == PLAY:
        cards = playable(s)
        return nth_card(cards, random_below(rng, i, bit_count(cards)))
    if phase == DECIDE:
        hand = s[HAND + s[ACTOR]]
        k = random_below(rng, i, 1 + bit_count(hand))
        return KEEP_INDEX if k == 0 else SWAP_BASE + nth_card(hand, k - 1)
    return -1


@compiled
def random_playout(s: Row, rng: Rng, i: int, log: NDArray[np.int64]) -> int:
    """Play uniformly random actions to the end of the match (later rounds dealt from stream `i`); return the
    number of actions. The first len(log) action indices are written to `log` (an empty array keeps none)."""
    played = 0
    while True:
        index = random_action(s, rng, i)
        if index < 0:
            return played
        if played < log.shape[0]:
            log[played] = index
        step(s, index, rng, i)
        played += 1


@compiled
def play_random_games(games: int, rng: Rng, players: int, colours: int, values: int, size: int,
                      rounds: int) -> int:
    """Play `games` complete random matches on one thread; return the actions taken (the benchmark's count)."""
    s = np.empty(FIELDS, dtype=np.int64)
    none = np.empty(0, dtype=np.int64)
    actions = 0
    for _ in range(games):
        new_game(s, players, colours, values, size, rounds)
        random_deal(s, rng, 0)
        actions += random_playout(s, rng, 0, none)
    return actions


@compiled
def outcome(s: Row, results: NDArray[np.int64], ranks: NDArray[np.int64]) -> bool:
    """Once the match is over, fill per seat its result (LOSS, WIN, DRAW) and rank (lowest total penalty
    first, ties share) as the reference's Outcome, and return True; the scores are the TOTAL fields."""
    if s[PHASE] != OVER:
        return False
    players = s[PLAYERS]
    everybody = True
    for p in range(players):
        rank = 1
        for q in range(players):
            if s[TOTAL + q] < s[TOTAL + p]:
                rank += 1
        ranks[p] = rank
        everybody = everybody and rank == 1
    for p in range(players):
        results[p] = DRAW if everybody else (WIN if ranks[p] == 1 else LOSS)
    return True


# --- observations (encoding.py and info_state.py, seat-relative) ----------------------------------------------
@compiled
def _card_rows(m: int) -> tuple[int, int, int, int, int, int, int, int, int, int, int, int]:
    """Offsets in the flat observation: hand, pile, points card, unknown, trick, played, known in hand, known
    in pile, in hand or pile, participants, table, and the end of the observation."""
    trick = 4 * DECK_SIZE
    participants = trick + 5 * m * DECK_SIZE
    table = participants + m * (PARTICIPANT_FIXED + m)
    return (0, DECK_SIZE, 2 * DECK_SIZE, 3 * DECK_SIZE, trick, trick + m * DECK_SIZE, trick + 2 * m * DECK_SIZE,
            trick + 3 * m * DECK_SIZE, trick + 4 * m * DECK_SIZE, participants, table, table + TABLE_SIZE)


@compiled
def _slot(s: Row, who: int, me: int, m: int) -> int:
    if who == s[GHOST]:
        return m - 1
    return int((who - me) % s[PLAYERS])


@compiled
def _flags(out: Floats, at: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[at + lowest_card(low)] = 1.0
        mask ^= low


@compiled
def encode(s: Row, seat: int, out: Floats) -> None:
    """Fill the first observation_size(players) floats of `out` exactly as `state.encode(seat)` (seat -1: a
    spectator's view, encode_view(view(None))), in the order of observation_shapes. Only what `seat` may know
    goes in: its own hand and pile, the table, and the public knowledge of the others' cards."""
    players = s[PLAYERS]
    count = s[COUNT]
    m = count
    hand_at, pile_at, points_at, unknown_at, trick_at, played_at, kih_at, kip_at, mixed_at, part_at, table_at, end = (
        _card_rows(m))
    out[:end] = 0.0
    seated = 0 <= seat < players
    me = seat if seated else 0
    phase = s[PHASE]
    over = phase == OVER
    actor = s[ACTOR] if not over else -1
    seen = 0  # every card whose place the seat can tell
    if seated:
        _flags(out, hand_at, s[HAND + seat])
        _flags(out, pile_at, s[PILE + seat])
        seen |= s[HAND + seat] | s[PILE + seat]
    if s[POINTS_CARD] >= 0:
        out[points_at + s[POINTS_CARD]] = 1.0
        seen |= 1 << s[POINTS_CARD]
    in_trick = 0  # participants with a card in the current trick, as bits
    for k in range(s[TRICK_N]):
        who = s[TRICK_WHO + k]
        card = s[TRICK_CARD + k]
        out[trick_at + _slot(s, who, me, m) * DECK_SIZE + card] = 1.0
        seen |= 1 << card
        in_trick |= 1 << who
    leader = s[LEADER]
    lead_place = 0
    for i in range(count):
        if s[RING + i] == leader:
            lead_place = i
    width = PARTICIPANT_FIXED + m
    for i in range(count):
        p = s[RING + i]
        slot = _slot(s, p, me, m)
        row = part_at + slot * width
        _flags(out, played_at + slot * DECK_SIZE, s[PLAYED + p])
        _flags(out, kih_at + slot * DECK_SIZE, s[SHOWN_HAND + p])
        _flags(out, kip_at + slot * DECK_SIZE, s[SHOWN_PILE + p])
        _flags(out, mixed_at + slot * DECK_SIZE, s[MIXED + p])
        seen |= s[PLAYED + p] | s[SHOWN_HAND + p] | s[SHOWN_PILE + p] | s[MIXED + p]
        ghost = p == s[GHOST]
        out[row] = 1.0 if ghost else 0.0
        out[row + 1] = bit_count(s[HAND + p]) / MAX_HAND
        out[row + 2] = bit_count(s[PILE + p]) / MAX_HAND
        out[row + 3] = value_sum(s[SHOWN_PILE + p]) / MAX_PENALTY
        if not ghost:
            out[row + 4] = s[TOTAL + p] / (MAX_PENALTY * s[ROUNDS])
            if s[ROUNDS_DONE] > 0:
                out[row + 5] = s[LAST_PEN + p] / MAX_PENALTY
            out[row + 7] = 1.0 if p == actor else 0.0
            out[row + 8] = 1.0 if s[ROUND_LEADER] == p else 0.0
        out[row + 6] = 1.0 if not over and p == leader else 0.0
        out[row + 9] = 1.0 if in_trick >> p & 1 else 0.0
        if not over:
            out[row + PARTICIPANT_FIXED + (i - lead_place) % m] = 1.0
    for card in range(DECK_SIZE):
        out[unknown_at + card] = 0.0 if seen >> card & 1 else 1.0
    t = table_at
    out[t + phase] = 1.0  # PLAY, DECIDE or OVER (a game is never seen waiting for a deal)
    acting = seated and seat == actor
    out[t + 3] = 1.0 if acting else 0.0
    out[t + 4] = (s[ROUND] + 1) / s[ROUNDS]
    out[t + 5] = s[ROUNDS] / MAX_ROUNDS
    out[t + 6] = s[POINTS_N] / MAX_HAND
    out[t + 7] = bit_count(s[SPARE]) / MAX_HAND
    out[t + 8] = s[TRICKS_N] / MAX_HAND
    out[t + 9] = s[TRICK_N] / m
    if not over:
        required = required_colours(s)
        for c in range(4):
            out[t + 10 + c] = 1.0 if required >> c & 1 else 0.0
        if acting and phase == PLAY:
            cards = playable(s)
            for c in range(4):
                out[t + 14 + c] = 1.0 if cards & COLOUR_CARDS[1 << c] else 0.0
    if seated:
        out[t + 18] = value_sum(s[PILE + seat]) / MAX_PENALTY
    out[t + 19] = 0.0 if seated else 1.0


@compiled
def encode_info_state(s: Row, seat: int, out: Floats) -> None:
    """Fill info_state_size(players) floats of `out` exactly as `state.encode_info_state(seat)` (seat -1: a
    spectator), in the order of info_state_shapes: the observation, then the round's tricks one by one."""
    m = s[COUNT]
    encode(s, seat, out)
    plays_at = _card_rows(m)[11]
    info_at = plays_at + TRICKS * m * DECK_SIZE
    width = 2 * m + INFO_FIXED
    out[plays_at:info_at + TRICKS * width] = 0.0
    me = seat if 0 <= seat < s[PLAYERS] else 0
    for t in range(s[TRICKS_N]):
        entry = LOG + t * LOG_WIDTH
        for k in range(m):
            slot = _slot(s, s[entry + L_WHO + k], me, m)
            out[plays_at + (t * m + slot) * DECK_SIZE + s[entry + L_CARD + k]] = 1.0
        row = info_at + t * width
        out[row + _slot(s, s[entry + L_LEADER], me, m)] = 1.0
        out[row + m + _slot(s, s[entry + L_WINNER], me, m)] = 1.0
        out[row + 2 * m + s[entry + L_POINTS]] = 1.0
        taken = s[entry + L_TAKEN]
        out[row + 2 * m + DECK_SIZE] = 1.0 if taken == KEPT else 0.0
        out[row + 2 * m + DECK_SIZE + 1] = 1.0 if taken == SWAPPED else 0.0
        out[row + 2 * m + DECK_SIZE + 2] = 1.0


# --- sizes, names and the reference -------------------------------------------------------------------------
@cache
def observation_size(players: int) -> int:
    return sum(int(np.prod(shape)) for shape in observation_shapes(players).values())


@cache
def info_state_size(players: int) -> int:
    return sum(int(np.prod(shape)) for shape in info_state_shapes(players).values())


def unflatten(flat: Floats, players: int, info: bool = False) -> dict[str, Floats]:
    """The named arrays of encode's (or, with `info`, encode_info_state's) flat output: views, not copies."""
    shapes = info_state_shapes(players) if info else observation_shapes(players)
    out: dict[str, Floats] = {}
    at = 0
    for name, shape in shapes.items():
        size = int(np.prod(shape))
        out[name] = flat[at : at + size].reshape(shape)
        at += size
    return out


def config(players: int, options: TheLastOptions) -> tuple[int, int, int, int, int]:
    """new_game's arguments after the row: players, colours, values, cards a hand, rounds."""
    return players, options.colours, options.values, options.hand_size(players), options.rounds


def _mask(cards: list[int]) -> int:
    return sum(1 << c for c in cards)


def from_state(state: TheLastState) -> Row:
    """The fast row of a reference state (secrets included: for search and tests, like the state)."""
    s = np.zeros(FIELDS, dtype=np.int64)
    new_game(s, *config(state.players, state.options))
    count = len(state.hands)
    s[ROUND] = state.round
    s[PHASE] = state.phase
    s[LEADER], s[CURRENT], s[ACTOR] = state.leader, state.current, state.actor
    s[POINTS_CARD] = state.points_card
    s[ROUND_LEADER] = state.round_leaders[-1] if state.round_leaders else 0
    s[ROUNDS_DONE] = len(state.round_penalties)
    s[TRICK_N] = len(state.trick_cards)
    s[TRICK_MASK] = state.trick_mask
    s[TRICKS_N] = len(state.tricks)
    s[POINTS_N] = len(state.points)
    s[SPARE] = _mask(state.spare)
    totals = state.totals()
    for i, p in enumerate(state.ring):
        s[RING + i] = p
        s[NEXT + p] = state.next_of[p]
    for p in range(count):
        s[HAND + p] = _mask(state.hands[p])
        s[PILE + p] = _mask(state.piles[p])
        s[SHOWN_HAND + p] = _mask(state.shown_hand[p])
        s[SHOWN_PILE + p] = _mask(state.shown_pile[p])
        s[MIXED + p] = _mask(state.mixed[p])
    for p in range(state.players):
        s[TOTAL + p] = totals[p]
        if state.round_penalties:
            s[LAST_PEN + p] = state.round_penalties[-1][p]
        if state.last_piles:
            s[LAST_PILE + p] = _mask(state.last_piles[p])
    for k, (who, card) in enumerate(zip(state.trick_who, state.trick_cards, strict=True)):
        s[TRICK_WHO + k], s[TRICK_CARD + k] = who, card
    for k, card in enumerate(state.points):
        s[POINTS + k] = card
    if state.ghost >= 0:
        s[GHOST_N] = len(state.hands[state.ghost])
        for k, card in enumerate(state.hands[state.ghost]):
            s[GHOST_PILE + k] = card
    for t, (leader, plays, points, winner, taken) in enumerate(state.tricks):
        entry = LOG + t * LOG_WIDTH
        s[entry + L_LEADER], s[entry + L_WINNER], s[entry + L_POINTS] = leader, winner, points
        s[entry + L_TAKEN] = TAKEN_NAMES.index(taken)
        for k, (who, card) in enumerate(plays):
            s[entry + L_WHO + k], s[entry + L_CARD + k] = who, card
            s[PLAYED + who] |= 1 << card
    return s


def dealt_deck(state: TheLastState) -> NDArray[np.int64]:
    """The deck (top first) that deal_round turns into the reference's current round, right after its deal:
    the hands in participant order, the points pile with the card on offer, the spare cards."""
    cards = [c for hand in state.hands for c in hand] + state.points + [state.points_card] + state.spare
    return np.array(cards, dtype=np.int64)


def new_rng(seed: int, streams: int = 1, label: str = "streams") -> Rng:
    """`streams` random streams for one purpose (`label`) of a seed (rules/chance.py's seeding scheme)."""
    return new_streams(derive_rng(seed, "thelast-core", label), streams)


def random_games(players: int, options: Mapping[str, Any], seed: int) -> Callable[[int], int]:
    """For the engine benchmark: a function that plays that many complete random matches of these options on
    one thread and returns the actions taken (random deals and uniformly random legal actions, as the Python
    benchmark plays them)."""
    from ghostgames.games.thelast.state import TheLastOptions

    table = config(players, TheLastOptions.model_validate({**options, "players": players}))
    rng = new_rng(seed, label="bench")

    def play(games: int) -> int:
        return int(play_random_games(games, rng, *table))

    return play


# numba checks a cached kernel against its own file only: compile afresh when jit.py's random streams change
forget_stale_kernels(sys.modules[__name__], own_kernels(sys.modules[__name__]), inlined=())
