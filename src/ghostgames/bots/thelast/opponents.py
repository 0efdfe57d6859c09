"""Which other seats play like `rules`, read from the round's public history: the expert's opponent-aware
playouts (fast_search.py, OPPONENTS) can then play those seats as `rules` and the rest as before.

`rules` is deterministic, so one move of a seat proves it is not `rules` when the seat is later seen with a
card that `rules` would have played instead: a card it plays after the move was in its hand at the move,
unless it came in later by a swap (the points card taken is public; the card laid down for it is not, and
a swap stays unchecked). So for each move of seat p (lead, follow, last in the trick, keep) the cards p is
*known* to have held are compared with `rules`' choice from them (bots/thelast/rules.py: lead the lowest
card; follow under the top with the highest such card, else the lowest of the colour; without the colour,
drop the lowest; last, the highest card that ducks, else the highest; keep the points card only without a
lower card).
A seat with a few moves checked and none contradicted is taken for `rules`. Only the view is read: the
finished tricks, how each was taken and the trick on the table, never a hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ghostgames.games.thelast.cards import COLOUR_OF, VALUE_OF, parse_card
from ghostgames.rules.contract import JSON


@dataclass
class Record:
    """One seat's moves in the round: how many could be checked (a card known held could have been
    `rules`' other choice) and how many of those were not `rules`'."""

    checked: int = 0
    broken: int = 0

    def looks_like_rules(self, least: int) -> bool:
        return self.checked >= least and self.broken == 0


def _low(card: int) -> tuple[int, int]:
    return VALUE_OF[card], card


def _events(view: JSON) -> list[tuple[str, Any, int, list[int], int]]:
    """The round's moves in order: ("play", who, card, the trick before it, points card) and ("swap" or
    "keep", who, -1, [points card taken] or [], points card)."""
    out: list[tuple[str, Any, int, list[int], int]] = []
    current = parse_card(view["points_card"]) if view.get("points_card") else -1
    for trick in view["tricks"]:
        points = parse_card(trick["points"])
        before: list[int] = []
        for entry in trick["plays"]:
            card = parse_card(entry["card"])
            out.append(("play", entry["who"], card, list(before), points))
            before.append(card)
        if trick["taken"] == "swap":  # the card laid down goes face down: only the one taken is seen
            out.append(("swap", trick["winner"], -1, [points], points))
        elif trick["taken"] == "keep":
            out.append(("keep", trick["winner"], -1, [], points))
    before = []
    for entry in view["trick"]:
        card = parse_card(entry["card"])
        out.append(("play", entry["who"], card, list(before), current))
        before.append(card)
    return out


def _rules_would(kind: str, card: int, before: list[int], points: int, held: set[int], last: bool) -> bool | None:
    """Whether `rules` could have made this move given that it also held `held` (None: nothing to check)."""
    if kind == "keep":
        return None if not held else not any(VALUE_OF[k] < VALUE_OF[points] for k in held)
    if kind == "swap":
        return None  # which card went down is hidden
    if not before:
        return None if not held else not any(_low(k) < _low(card) for k in held)
    required = {COLOUR_OF[c] for c in before} if last else {COLOUR_OF[before[0]]}
    if COLOUR_OF[card] in required:
        held = {k for k in held if COLOUR_OF[k] in required}  # the cards it could have played instead
    if not held:
        return None
    if last:
        highest = {colour: max(c for c in before if COLOUR_OF[c] == colour) for colour in required}

        def ducks(c: int) -> bool:
            return COLOUR_OF[c] in highest and c < highest[COLOUR_OF[c]]

        if ducks(card):
            return not any(ducks(k) and _low(k) > _low(card) for k in held)
        return not any(ducks(k) or _low(k) > _low(card) for k in held)
    led = COLOUR_OF[before[0]]
    if COLOUR_OF[card] != led:
        return not any(_low(k) < _low(card) for k in held)
    top = max(c for c in before if COLOUR_OF[c] == led)
    if card < top:
        return not any(card < k < top for k in held)
    return not any(k < card for k in held)  # over the top: rules plays its lowest of the colour


@dataclass(frozen=True)
class Move:
    """One public move of a seat this round, with the cards it is known to have held then besides the card it
    played (`held`: those it played later, unless a public swap brought them in after the move). `kind` is
    "play", "keep" or "swap"; a play has the trick before it, `last` if it closed the trick."""

    kind: str
    who: int
    card: int
    before: tuple[int, ...]
    points: int
    held: frozenset[int]
    last: bool


def moves(view: JSON) -> list[Move]:
    """The round's moves of the seats (the ghost left out), in order, each with what is known of its hand."""
    out: list[Move] = []
    events = _events(view)
    last = len(view["order"]) - 1
    for i, (kind, who, card, before, points) in enumerate(events):
        if not isinstance(who, int):
            continue
        held: set[int] = set()
        gained: set[int] = set(before) if kind == "swap" else set()  # the points card taken came in now
        for later_kind, later_who, later_card, later_taken, _ in events[i + 1:]:
            if later_who != who:
                continue
            if later_kind == "swap":
                gained.update(later_taken)
            if later_card >= 0 and later_card not in gained:
                held.add(later_card)
        play = kind == "play"
        out.append(Move(kind, who, card, tuple(before) if play else (), points, frozenset(held),
                        play and len(before) == last))
    return out


def records(view: JSON) -> dict[int, Record]:
    """Per seat (the ghost left out), its moves this round checked against `rules`."""
    out = {p: Record() for p in range(int(view["players"]))}
    for move in moves(view):
        verdict = _rules_would(move.kind, move.card, list(move.before), move.points, set(move.held), move.last)
        if verdict is not None:
            out[move.who].checked += 1
            out[move.who].broken += not verdict
    return out
