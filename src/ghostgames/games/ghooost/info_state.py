"""Ghooost!'s information-state tensor: the observation plus a record of who did what this round.

The observation (encoding.py) already keeps every card the rules let a seat place: its hand, what each other
hand is known to hold (taken cemeteries, failed gambles, a pass), the cemetery, the discard and the unseen
rest. So it is Markov for the deal: given it, the hidden cards are as likely to lie one way as another
whatever happened before. It is not Markov for the play: it forgets which seat played, took or gambled
what and when, and that shows how the others play (a seat that took rather than played may have had no
card above the top). This tensor adds that record.

Made from one seat's view only: the decisions of this round in values (`view["moves"]`, actions.Move: what
the public log says in words, so nothing here reads the words). Seat rows are seat-relative as in
encoding.py (row 0 the viewer, row i the seat i places after it).
Kinds of decision, in this order: play, take, gamble and play, gamble and take, turn and play (a mansion card),
turn and take, pass, done. All float32 in [0, 1]:

- every array of the observation, unchanged;
- "seat_cards" (players, 3, 16): per seat row, per card kind (columns as in encoding.py): 0 the cards it put on
  the cemetery (turned cards included), 1 the cards it took, 2 the cards it turned from the crypt or its
  mansion; each count / 16, capped at 1 (cards come back, so a kind can pass through a hand more than 4 times);
- "seat_actions" (players, 8): per seat row, how many decisions of each kind it made / 100, capped at 1;
- "recent" (RECENT, players + 8 + 32): the last RECENT decisions of the round, row 0 the latest: the seat row
  (one-hot), the kind (one-hot), the cards put down per kind / 4, the cards taken per kind / 4.

Perfect recall holds for rounds of up to RECENT decisions; past that the oldest leave "recent" and only the
per-seat totals remember them (draws are left out: they are automatic, and the hands' sizes show them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.ghooost.actions import MAX_SAME, MOVE_KINDS
from ghostgames.games.ghooost.encoding import COLUMN, COPY_COLUMN, KIND_COLUMNS, encode_view, observation_shapes

RECENT = 32
KINDS = MOVE_KINDS
PUT, TAKEN, TURNED = 0, 1, 2
CARD_SCALE = 16
ACTION_SCALE = 100


def info_state_shapes(players: int) -> dict[str, tuple[int, ...]]:
    return {
        **observation_shapes(players),
        "seat_cards": (players, 3, KIND_COLUMNS),
        "seat_actions": (players, len(KINDS)),
        "recent": (RECENT, players + len(KINDS) + 2 * KIND_COLUMNS),
    }


def _counts(texts: list[str]) -> NDArray[np.float32]:
    counts = np.zeros(KIND_COLUMNS, dtype=np.float32)
    for text in texts:
        counts[COPY_COLUMN if text.startswith("X") else COLUMN[text]] += 1
    return counts


def encode_info_state(view: Mapping[str, Any]) -> dict[str, NDArray[np.float32]]:
    """The arrays of the module docstring, from one seat's view (refused for a spectator's, as encode_view)."""
    out = encode_view(view)
    me: int = view["seat"]
    players: int = view["players"]
    cards = np.zeros((players, 3, KIND_COLUMNS), dtype=np.float32)
    actions = np.zeros((players, len(KINDS)), dtype=np.float32)
    decisions: list[tuple[int, int, NDArray[np.float32], NDArray[np.float32]]] = []
    for seat, kind, put, taken, turned in view["moves"]:
        row, k = (seat - me) % players, KINDS.index(kind)
        put_counts, taken_counts = _counts(put), _counts(taken)
        cards[row, PUT] += put_counts
        cards[row, TAKEN] += taken_counts
        if turned is not None:
            cards[row, TURNED] += _counts([turned])
        actions[row, k] += 1
        decisions.append((row, k, put_counts, taken_counts))
    recent = np.zeros((RECENT, players + len(KINDS) + 2 * KIND_COLUMNS), dtype=np.float32)
    for r, (row, k, put_counts, taken_counts) in enumerate(reversed(decisions[-RECENT:])):
        recent[r, row] = 1.0
        recent[r, players + k] = 1.0
        base = players + len(KINDS)
        recent[r, base : base + KIND_COLUMNS] = put_counts / MAX_SAME
        recent[r, base + KIND_COLUMNS :] = taken_counts / MAX_SAME
    return {
        **out,
        "seat_cards": np.minimum(cards / CARD_SCALE, 1.0),
        "seat_actions": np.minimum(actions / ACTION_SCALE, 1.0),
        "recent": recent,
    }
