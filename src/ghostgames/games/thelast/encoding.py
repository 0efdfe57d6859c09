"""The Last for learning code: a fixed action index space and fixed-shape observations of one seat's view.

Actions (97 indices at every player count, the same for every seat; a card is 0..47 = colour * 12 + value - 1,
colours in the order red, blue, green, yellow):
- 0..47:  `play <card>`;
- 48:     `keep`;
- 49..96: `swap <card>` (index 49 + card: the hand card laid face down).

Observations: `encode_view(view)` reads only the JSON view of one seat. Participants are put in slots
relative to that seat: slot 0 is the seat itself, slots 1..players-1 the other seats in turn order after it
(seat + 1, seat + 2, ...), and with 2 players slot 2 is the ghost. M = participants (3 with 2 players,
else the player count). A spectator's view (seat None) is laid out as seen from seat 0 with no hand.
Every value lies in [0, 1]; all arrays are float32.
- `hand` (48,): 1 for each card in the seat's hand.
- `pile` (48,): 1 for each card the seat has laid face down this round (it knows them all).
- `points_card` (48,): 1 for the points card on offer in this trick (all 0 between rounds / at the end).
- `unknown` (48,): 1 for each card whose place the seat cannot tell (another hand, a face-down swapped
  card, the ghost pile, the points pile or the spare cards).
- `trick` (M, 48): row = slot, 1 for the card that participant put into the current trick.
- `played` (M, 48): cards each participant played in this round's finished tricks.
- `known_in_hand` (M, 48): points cards each participant swapped into its hand and still holds (public).
- `known_in_pile` (M, 48): points cards each participant kept face down (public; the ghost's takes too).
- `in_hand_or_pile` (M, 48): cards known to be in that participant's hand or among its face-down cards.
- `participants` (M, 10 + M), per slot: 0 is the ghost; 1 hand size / 12; 2 face-down pile size / 12;
  3 sum of its publicly known face-down values / 132; 4 total penalty of finished rounds / (132 * rounds);
  5 last finished round's penalty / 132; 6 leads the current trick; 7 is to act; 8 led the round's first
  trick; 9 has played in the current trick; 10..10+M-1 one-hot place in the current trick's order
  (0 = leader, M-1 = the last player, whose colour decides).
- `table` (20,): 0-2 phase play / decide / over; 3 this seat is to act; 4 round / rounds; 5 rounds / 100;
  6 points cards still to come / 12; 7 spare cards / 12; 8 finished tricks this round / 12;
  9 cards in the current trick / M; 10-13 colours the next player must play if held (red, blue, green,
  yellow); 14-17 colours this seat may play now; 18 this seat's face-down penalty / 132; 19 spectator view.
132 is the highest penalty a round can bring (the twelve highest values), 12 the largest hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.thelast.actions import KEEP, PLAYS, SWAPS, Keep, Play, Swap, TheLastAction
from ghostgames.games.thelast.cards import CARD_NAMES, COLOURS, DECK_SIZE, VALUE_OF
from ghostgames.rules.contract import IllegalAction
from ghostgames.rules.reasons import NO_SUCH_ACTION

PLAY_BASE = 0
KEEP_INDEX = DECK_SIZE
SWAP_BASE = DECK_SIZE + 1
ACTION_COUNT = 2 * DECK_SIZE + 1

ACTIONS: tuple[TheLastAction, ...] = (*PLAYS, KEEP, *SWAPS)
_INDEX_OF_PLAY: tuple[int, ...] = tuple(PLAY_BASE + c for c in range(DECK_SIZE))
_INDEX_OF_SWAP: tuple[int, ...] = tuple(SWAP_BASE + c for c in range(DECK_SIZE))

CARD_ID: dict[str, int] = {name: card for card, name in enumerate(CARD_NAMES)}
COLOUR_ID: dict[str, int] = {c.letter: i for i, c in enumerate(COLOURS)}
GHOST = "ghost"
MAX_HAND = 12
MAX_PENALTY = 132
MAX_ROUNDS = 100
TABLE_SIZE = 20
PARTICIPANT_FIXED = 10
_CARD_PLANES = ("trick", "played", "known_in_hand", "known_in_pile", "in_hand_or_pile")
_PUBLIC_LISTS = ("known_in_hand", "known_in_pile", "in_hand_or_pile")


def participant_count(players: int) -> int:
    return 3 if players == 2 else players


def action_index(action: TheLastAction) -> int:
    if isinstance(action, Play):
        return _INDEX_OF_PLAY[action.card]
    if isinstance(action, Keep):
        return KEEP_INDEX
    if isinstance(action, Swap):
        return _INDEX_OF_SWAP[action.card]
    raise IllegalAction(f"{action!r} is not an action of The Last", NO_SUCH_ACTION)


def action_at(index: int) -> TheLastAction:
    if not 0 <= index < ACTION_COUNT:
        raise IllegalAction(f"action index {index} is out of range: indices run from 0 to {ACTION_COUNT - 1}",
                            NO_SUCH_ACTION)
    return ACTIONS[index]


def observation_shapes(players: int) -> dict[str, tuple[int, ...]]:
    m = participant_count(players)
    shapes: dict[str, tuple[int, ...]] = {
        "hand": (DECK_SIZE,),
        "pile": (DECK_SIZE,),
        "points_card": (DECK_SIZE,),
        "unknown": (DECK_SIZE,),
    }
    for name in _CARD_PLANES:
        shapes[name] = (m, DECK_SIZE)
    shapes["participants"] = (m, PARTICIPANT_FIXED + m)
    shapes["table"] = (TABLE_SIZE,)
    return shapes


def _flags(names: Any, out: NDArray[np.float32]) -> None:
    for name in names or ():
        out[CARD_ID[name]] = 1.0


def encode_view(view: Mapping[str, Any]) -> dict[str, NDArray[np.float32]]:
    players = int(view["players"])
    m = participant_count(players)
    seen_from = view["seat"]
    me = 0 if seen_from is None else int(seen_from)
    obs = {name: np.zeros(shape, dtype=np.float32) for name, shape in observation_shapes(players).items()}

    def slot(who: int | str) -> int:
        return m - 1 if who == GHOST else (int(who) - me) % players

    _flags(view["hand"], obs["hand"])
    _flags(view["pile"], obs["pile"])
    if view["points_card"] is not None:
        obs["points_card"][CARD_ID[view["points_card"]]] = 1.0
    for play in view["trick"]:
        obs["trick"][slot(play["who"]), CARD_ID[play["card"]]] = 1.0
    for trick in view["tricks"]:
        for play in trick["plays"]:
            obs["played"][slot(play["who"]), CARD_ID[play["card"]]] = 1.0

    rows = obs["participants"]
    rounds = int(view["rounds"])
    totals = view["totals"]
    last_round = view["round_penalties"][-1] if view["round_penalties"] else None
    order = view["order"]
    over = view["outcome"] is not None
    leader = view["leader"]
    lead_place = order.index(leader) if leader is not None else 0
    in_trick = {play["who"] for play in view["trick"]}
    to_act = set(view["to_act"])
    for info in view["participants"]:
        who = info["who"]
        s = slot(who)
        for name in _PUBLIC_LISTS:
            _flags(info[name], obs[name][s])
        row = rows[s]
        row[0] = 1.0 if who == GHOST else 0.0
        row[1] = info["hand_size"] / MAX_HAND
        row[2] = info["pile_size"] / MAX_HAND
        row[3] = sum(VALUE_OF[CARD_ID[c]] for c in info["known_in_pile"]) / MAX_PENALTY
        if who != GHOST:
            row[4] = totals[who] / (MAX_PENALTY * rounds)
            if last_round is not None:
                row[5] = last_round[who] / MAX_PENALTY
            row[7] = 1.0 if who in to_act else 0.0
            row[8] = 1.0 if view["round_leader"] == who else 0.0
        row[6] = 1.0 if leader is not None and who == leader else 0.0
        row[9] = 1.0 if who in in_trick else 0.0
        if not over:
            row[PARTICIPANT_FIXED + (order.index(who) - lead_place) % m] = 1.0

    # What the seat cannot place: everything not in its hand or pile, not on the table, not publicly known.
    unknown = obs["unknown"]
    unknown[:] = 1.0
    for name in ("hand", "pile", "points_card"):
        unknown[obs[name] > 0] = 0.0
    for name in _CARD_PLANES:
        unknown[obs[name].max(axis=0) > 0] = 0.0

    table = obs["table"]
    phase = view["phase"]
    table[0] = 1.0 if phase == "play" else 0.0
    table[1] = 1.0 if phase == "decide" else 0.0
    table[2] = 1.0 if phase == "over" else 0.0
    table[3] = 1.0 if seen_from is not None and seen_from in to_act else 0.0
    table[4] = int(view["round"]) / rounds
    table[5] = rounds / MAX_ROUNDS
    table[6] = int(view["points_left"]) / MAX_HAND
    table[7] = int(view["spare_cards"]) / MAX_HAND
    table[8] = len(view["tricks"]) / MAX_HAND
    table[9] = len(view["trick"]) / m
    for letter in view["required_colours"] or ():
        table[10 + COLOUR_ID[letter]] = 1.0
    for letter in view["allowed_colours"] or ():
        table[14 + COLOUR_ID[letter]] = 1.0
    table[18] = (view["penalty"] or 0) / MAX_PENALTY
    table[19] = 1.0 if seen_from is None else 0.0
    return obs
