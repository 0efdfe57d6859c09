"""A belief over The Last's hidden hands, read from what each player did this round.

`sample_world` deals the hidden cards uniformly within the certain deductions (voids, swaps). Players do
more than that tells: one who kept a points card of value 7 rarely held a card under 7 (it would have laid
that down instead), one who led a 5 rarely held lower cards, one who followed just under the top rarely held
the cards between, one who was last and ducked with a 4 rarely held a higher card that ducks too. Each such
*event* marks, for its player, the unseen cards it makes unlikely; a card's score in a player's hand is a
weighted sum of the marks, the weights fitted on games between our bots (`ghostgames train thelast-belief`,
learn/thelast/belief_fit.py). A world's log-weight is the sum of the scores of the cards each other player
holds in it; `belief_search.BeliefExpertPolicy` plays its worlds in proportion to their weights (measured
at 3 players and not adopted: docs/research/thelast-multiplayer.md).

Everything here reads the round's public history (the finished tricks, how each was taken, the trick on the
table, as the seat's view gives them), never a hidden card: worlds the seat cannot tell apart get the same scores.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.thelast.cards import COLOUR_OF, DECK_SIZE, VALUE_OF, parse_card
from ghostgames.rules.contract import JSON

Floats = NDArray[np.float64]

# One mark per kind of event; card c is marked for player p when p ...
FEATURES = (
    "kept_over",  # kept a points card of higher value than c (instead of swapping)
    "swapped_over",  # swapped a points card of higher value than c
    "led_over",  # led a card of higher value than c
    "led_colour_over",  # led a card of c's colour above c
    "over_top",  # followed above the top of the led colour although c (that colour, under the top) was lower
    "under_gap",  # followed under the top with a card lower than c (c between it and the top)
    "discard_over",  # without the led colour, dropped a card of higher value than c
    "duck_gap",  # last in the trick, ducked with a card of lower value than c, which would have ducked too
    "won_duck",  # last in the trick, took it although c would have ducked
    "won_over",  # last in the trick, took it with a card of lower value than c, of a colour in the trick
)
WEIGHTS_FILE = "belief-weights.json"
_VALUE = np.array(VALUE_OF, dtype=np.int64)
_COLOUR = np.array(COLOUR_OF, dtype=np.int64)
_CARD = np.arange(DECK_SIZE)


def _plays(view: JSON) -> list[tuple[int, list[tuple[Any, int]], int, str]]:
    """The round's tricks as (winner, plays, points card, how taken), the trick on the table last (winner -1);
    the ghost's plays and tricks under the name the view gives it (not an int)."""
    def plays(entries: list[JSON]) -> list[tuple[Any, int]]:
        return [(e["who"], parse_card(e["card"])) for e in entries]

    out = [(t["winner"] if isinstance(t["winner"], int) else -1, plays(t["plays"]), parse_card(t["points"]),
            t["taken"] or "") for t in view["tricks"]]
    if view["trick"]:
        out.append((-1, plays(view["trick"]), -1, ""))
    return out


def marks(view: JSON) -> Floats:
    """marks[p, c, f]: 1 where seat p did an event of kind FEATURES[f] that makes card c unlikely in its hand.
    Read from a seat's view: the round's public history only."""
    out = np.zeros((int(view["players"]), DECK_SIZE, len(FEATURES)), dtype=np.float64)
    last = len(view["order"]) - 1
    for winner, plays, points, how in _plays(view):
        if winner >= 0 and how in ("keep", "swap"):  # the ghost's tricks are "ghost"
            out[winner, VALUE_OF[points] > _VALUE, 0 if how == "keep" else 1] = 1.0
        for position, (who, card) in enumerate(plays):
            if not isinstance(who, int):
                continue
            value, colour = VALUE_OF[card], COLOUR_OF[card]
            before = [c for _, c in plays[:position]]
            mine = out[who]
            if position == 0:
                mine[value > _VALUE, 2] = 1.0
                mine[(colour == _COLOUR) & (card > _CARD), 3] = 1.0
            elif position < last:
                led = COLOUR_OF[before[0]]
                top = max(c for c in before if COLOUR_OF[c] == led)
                if colour != led:
                    mine[value > _VALUE, 6] = 1.0
                elif card > top:
                    mine[(led == _COLOUR) & (top > _CARD), 4] = 1.0
                else:
                    mine[(led == _COLOUR) & (card < _CARD) & (top > _CARD), 5] = 1.0
            else:
                colours = {COLOUR_OF[c] for c in before}
                in_trick = np.isin(_COLOUR, list(colours))
                highest = np.full(4, -1)
                for c in before:
                    highest[COLOUR_OF[c]] = max(highest[COLOUR_OF[c]], c)
                ducks = in_trick & (highest[_COLOUR] > _CARD)
                if colour in colours and card < highest[colour]:
                    mine[ducks & (value < _VALUE), 7] = 1.0
                else:
                    mine[ducks, 8] = 1.0
                    mine[in_trick & (value < _VALUE), 9] = 1.0
    return out


def scores(view: JSON, weights: Floats) -> Floats:
    """scores[p, c]: the log-weight card c adds to a world where seat p holds it."""
    return marks(view) @ weights


def load_weights(path: Path | None = None) -> Floats:
    """The fitted weights (the packaged ones unless `path`), one per FEATURES name."""
    text = path.read_text() if path else resources.files("ghostgames.bots.thelast").joinpath(WEIGHTS_FILE).read_text()
    data: dict[str, Any] = json.loads(text)
    return np.array([float(data["weights"][name]) for name in FEATURES], dtype=np.float64)
