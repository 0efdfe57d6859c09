"""Ghooost!'s information-state tensor: the observation plus a record of who did what this round.

The observation (encoding.py) already keeps every card the rules let a seat place: its hand, what each other
hand is known to hold (taken cemeteries, failed gambles, a pass), the cemetery, the discard and the unseen
rest. So it is Markov for the deal: given it, the hidden cards are as likely to lie one way as another
whatever happened before. It is not Markov for the play: it forgets which seat played, took or gambled
what and when, and that shows how the others play (a seat that took rather than played may have had no
card above the top). This tensor adds that record.

Made from one seat's view only: its public log of this round (`view["log"]`, from the entry that starts the
round). Seat rows are seat-relative as in encoding.py (row 0 the viewer, row i the seat i places after it).
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

from ghostgames.games.ghooost.actions import MAX_SAME
from ghostgames.games.ghooost.encoding import COLUMN, COPY_COLUMN, KIND_COLUMNS, encode_view, observation_shapes

RECENT = 32
KINDS = ("play", "take", "gamble_play", "gamble_take", "turn_play", "turn_take", "pass", "done")
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


def read_entry(text: str) -> tuple[str, list[str], list[str]] | None:
    """A log line of a seat as (kind, cards put down, cards taken); None for what is no decision (a draw,
    going out). Refuses a line it does not know, so a change of the log's wording cannot pass unnoticed."""
    if text.startswith("plays "):
        return "play", text[len("plays ") :].split(",")[0].split(), []
    if text.startswith("takes the cemetery: "):
        return "take", [], text.split(": ", 1)[1].split()
    if text.startswith("turns "):
        card, where = text.split()[1], "gamble" if " from the crypt" in text else "turn"
        if ", cannot play it and takes: " in text:
            return f"{where}_take", [], text.split(": ", 1)[1].split()
        return f"{where}_play", [card], []
    if text == "passes":
        return "pass", [], []
    if text == "ends the turn":
        return "done", [], []
    if text.startswith(("draws ", "is out")):
        return None
    raise ValueError(f"a Ghooost! log line the information state cannot read: {text!r}")


def encode_info_state(view: Mapping[str, Any]) -> dict[str, NDArray[np.float32]]:
    """The arrays of the module docstring, from one seat's view (refused for a spectator's, as encode_view)."""
    out = encode_view(view)
    me: int = view["seat"]
    players: int = view["players"]
    log: list[list[Any]] = view["log"]
    starts = [i for i, (seat, text) in enumerate(log) if seat is None and str(text).startswith("round ")]
    cards = np.zeros((players, 3, KIND_COLUMNS), dtype=np.float32)
    actions = np.zeros((players, len(KINDS)), dtype=np.float32)
    decisions: list[tuple[int, int, NDArray[np.float32], NDArray[np.float32]]] = []
    for seat, text in log[starts[-1] + 1 if starts else 0 :]:
        if seat is None:
            continue
        entry = read_entry(text)
        if entry is None:
            continue
        kind, put, taken = entry
        row, k = (seat - me) % players, KINDS.index(kind)
        put_counts, taken_counts = _counts(put), _counts(taken)
        cards[row, PUT] += put_counts
        cards[row, TAKEN] += taken_counts
        if kind.startswith(("gamble", "turn")):  # "turns 7 from ...": the turned card
            cards[row, TURNED] += _counts([text.split()[1]])
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
