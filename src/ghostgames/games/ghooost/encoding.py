"""Ghooost! for learning code: a fixed action index space and fixed-shape observations of one seat's view.

Action indices (289 for every player count, seat, deck and `replay` option; both decks' plays fit in one
table):

- 0..279: a play of ghosts, index = (value - 1) * 20 + (count - 1) * 5 + copies, for value 1..14,
  count 1..4 ghosts of that value and copies 0..4 Miss Copy cards copying them;
- 280..283: a Kitty play of 1..4 Kitty cards (index 280 + count - 1);
- 284 take, 285 gamble, 286 turn, 287 pass, 288 done (end the optional extra turn of a double or triple;
  legal only under the option `replay` = `may`; added last so that the older indices kept their meaning).

No action depends on the seat, so the seat does not change an index.

Observation (`encode_view`), float32, every value in [0, 1]. A card kind is a column 0..15: ghost values
1..14 at columns 0..13, Kitty at 14, Miss Copy at 15. Seat rows are seat-relative: row 0 is the viewing
seat, row i the seat i places after it clockwise (seat + i mod players), whatever the current direction.

- "hand" (16,): the seat's own cards per kind / 4.
- "known" (players, 16): per seat row, the cards of that hand every other player saw go into it (a taken
  cemetery, a failed gamble or mansion card) or can deduce (a pass shows a hand of Miss Copy only) and that
  were not played since, per kind / 4. Row 0 is what
  the others know of the viewer's own hand.
- "seats" (players, 7) per seat row: 0 hand size / 62, 1 mansion size / 12, 2 out of the round,
  3 to move, 4 place in going out / players (0 while in), 5 match points / 30 (capped at 1),
  6 Bouh! tokens / 3 (capped at 1).
- "cemetery" (16,): the cemetery's cards per kind / 4 (a Miss Copy counts as Miss Copy whatever it copied);
  Kitty cards beside the cemetery are in column 14 too.
- "top" (15,): one-hot of the top value; index 0 = no top value (empty cemetery), index v = value v.
- "discard" (16,): discarded cards per kind / 4.
- "unseen" (16,): cards the viewer cannot place, per kind / 4: the deck minus its own hand, the other seats'
  known cards, the cemetery (Kitty included) and the discard; they are in other hands, mansions or the crypt.
- "table" (12,): 0 cards of the top value in a row (top run) / 4, 1 Kitty cards beside the cemetery / 4,
  2 cemetery size / 62, 3 crypt size / 30, 4 midnight (crypt empty), 5 direction is clockwise,
  6 match on, 7 round / max_rounds (capped), 8 turns this round / max_turns (capped), 9 original deck
  (0 = tarot), 10 game over, 11 the player to move is in an optional extra turn (after a double or
  triple under `replay` = `may`: `done` may end it; 0 under `must` and in every other turn).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.ghooost.actions import (
    DONE,
    GAMBLE,
    KITTY_PLAYS,
    MAX_SAME,
    PASS,
    PLAYS,
    TAKE,
    TURN,
    GhooostAction,
)
from ghostgames.games.ghooost.cards import DECKS, GHOST_VALUES, KITTY, MISS_COPY, composition
from ghostgames.rules.contract import IllegalAction
from ghostgames.rules.reasons import NO_SUCH_ACTION

# --- actions ------------------------------------------------------------------------------------------

PER_VALUE = MAX_SAME * (MAX_SAME + 1)  # count 1..4 times copies 0..4
ACTIONS: tuple[GhooostAction, ...] = (
    tuple(PLAYS[v][n][m] for v in GHOST_VALUES for n in range(1, MAX_SAME + 1) for m in range(MAX_SAME + 1))
    + KITTY_PLAYS[MAX_SAME]
    + (TAKE, GAMBLE, TURN, PASS, DONE)
)
ACTION_COUNT = len(ACTIONS)
INDEX: dict[GhooostAction, int] = {action: i for i, action in enumerate(ACTIONS)}


def action_index(action: GhooostAction) -> int:
    try:
        return INDEX[action]
    except (KeyError, TypeError):
        raise IllegalAction(f"{action} is not an action Ghooost! can produce", NO_SUCH_ACTION) from None


def action_at(index: int) -> GhooostAction:
    if not 0 <= index < ACTION_COUNT:
        raise IllegalAction(f"a Ghooost! action index is from 0 to {ACTION_COUNT - 1}, not {index}", NO_SUCH_ACTION)
    return ACTIONS[index]


# --- observations -------------------------------------------------------------------------------------

KIND_COLUMNS = 16
KITTY_COLUMN = KITTY - 1
COPY_COLUMN = MISS_COPY - 1
SEAT_FEATURES = 7
TABLE_FEATURES = 12
MAX_CARDS = 62
MAX_MANSION = 12
MAX_CRYPT = 30  # 2 players: 62 - 2 * 4 - 2 * 12
MAX_POINTS = 30
MAX_BOUH = 3

# the text of a card (as views show it) -> its column; a cemetery "X=7" is a Miss Copy
COLUMN: dict[str, int] = {str(v): v - 1 for v in GHOST_VALUES} | {"K": KITTY_COLUMN, "X": COPY_COLUMN}
DECK_COUNTS: dict[str, NDArray[np.float32]] = {
    deck: np.array(composition(deck)[1:], dtype=np.float32) for deck in DECKS
}


def observation_shapes(players: int) -> dict[str, tuple[int, ...]]:
    return {
        "hand": (KIND_COLUMNS,),
        "known": (players, KIND_COLUMNS),
        "seats": (players, SEAT_FEATURES),
        "cemetery": (KIND_COLUMNS,),
        "top": (15,),
        "discard": (KIND_COLUMNS,),
        "unseen": (KIND_COLUMNS,),
        "table": (TABLE_FEATURES,),
    }


def _counts(texts: list[str]) -> NDArray[np.float32]:
    counts = np.zeros(KIND_COLUMNS, dtype=np.float32)
    for text in texts:
        counts[COPY_COLUMN if text.startswith("X") else COLUMN[text]] += 1
    return counts


def _capped(value: float, limit: float) -> float:
    return min(value / limit, 1.0)


def encode_view(view: Mapping[str, Any]) -> dict[str, NDArray[np.float32]]:
    """The arrays described in the module docstring, from one seat's view only."""
    me = view.get("seat")
    if me is None:
        raise ValueError("encode_view needs the view of a seat (a spectator's view has no hand)")
    players: int = view["players"]
    options = view["options"]
    order = [(me + i) % players for i in range(players)]
    seats = view["seats"]

    hand = _counts(view["hand"])
    known = np.stack([_counts(seats[s]["known"]) for s in order])
    cemetery = _counts(view["cemetery"])
    cemetery[KITTY_COLUMN] += view["kitty"]
    discard = _counts(view["discard"])
    unseen = DECK_COUNTS[options["deck"]] - hand - known[1:].sum(axis=0) - cemetery - discard

    to_act = set(view["to_act"])
    out_order: list[int] = view["out_order"]
    rows = np.zeros((players, SEAT_FEATURES), dtype=np.float32)
    for row, s in enumerate(order):
        info = seats[s]
        rows[row] = (
            info["hand"] / MAX_CARDS,
            info["mansion"] / MAX_MANSION,
            1.0 if info["out"] else 0.0,
            1.0 if s in to_act else 0.0,
            (out_order.index(s) + 1) / players if s in out_order else 0.0,
            _capped(info["points"], MAX_POINTS),
            _capped(info["bouh"], MAX_BOUH),
        )

    top = np.zeros(15, dtype=np.float32)
    top[view["top"]] = 1.0
    table = np.array(
        (
            view["top_count"] / MAX_SAME,
            view["kitty"] / MAX_SAME,
            (len(view["cemetery"]) + view["kitty"]) / MAX_CARDS,
            view["crypt"] / MAX_CRYPT,
            1.0 if view["midnight"] else 0.0,
            1.0 if view["direction"] == "clockwise" else 0.0,
            1.0 if view["match"] else 0.0,
            _capped(view["round"], options["max_rounds"]),
            _capped(view["turns"], options["max_turns"]),
            1.0 if options["deck"] == "original" else 0.0,
            1.0 if view["phase"] == "over" else 0.0,
            1.0 if view["optional_replay"] else 0.0,
        ),
        dtype=np.float32,
    )
    return {
        "hand": hand / MAX_SAME,
        "known": known / MAX_SAME,
        "seats": rows,
        "cemetery": cemetery / MAX_SAME,
        "top": top,
        "discard": discard / MAX_SAME,
        "unseen": unseen / MAX_SAME,
        "table": table,
    }
