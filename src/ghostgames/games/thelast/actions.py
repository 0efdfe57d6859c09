"""The Last's three kinds of action and their text forms.

- `play R12`: play a card into the trick (a bare card, `r12`, means the same);
- `keep`: the trick's winner lays the points card face down in front of them;
- `swap B3`: the winner takes the points card into the hand and lays B3 from the hand face down instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ghostgames.games.thelast.cards import CARD_FORMS, CARD_NAMES, DECK, parse_card
from ghostgames.rules.contract import JSON, Action, IllegalAction
from ghostgames.rules.reasons import UNREADABLE

FORMS = (
    f"'play' and a card (e.g. 'play R12'), 'keep', or 'swap' and a card from your hand (e.g. 'swap B3'); "
    f"a card is {CARD_FORMS}"
)


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Put `card` from the hand into the current trick."""

    card: int
    text: str = field(compare=False)

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> JSON:
        return {"type": "play", "card": CARD_NAMES[self.card]}


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """Lay the won points card face down as a penalty."""

    def __str__(self) -> str:
        return "keep"

    def to_json(self) -> JSON:
        return {"type": "keep"}


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Take the won points card into the hand and lay `card` face down in its place."""

    card: int
    text: str = field(compare=False)

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> JSON:
        return {"type": "swap", "card": CARD_NAMES[self.card]}


TheLastAction = Play | Keep | Swap

# One shared object per action: generating legal actions allocates nothing but the list.
PLAYS: tuple[Play, ...] = tuple(Play(c, f"play {CARD_NAMES[c]}") for c in DECK)
SWAPS: tuple[Swap, ...] = tuple(Swap(c, f"swap {CARD_NAMES[c]}") for c in DECK)
KEEP = Keep()


def parse_action(text: str) -> TheLastAction:
    words = text.strip().lower().split()
    try:
        if words == ["keep"]:
            return KEEP
        if len(words) >= 2 and words[0] == "swap":
            return SWAPS[parse_card(" ".join(words[1:]))]
        if len(words) >= 2 and words[0] == "play":
            return PLAYS[parse_card(" ".join(words[1:]))]
        if words and words[0] not in ("keep", "swap", "play"):
            return PLAYS[parse_card(" ".join(words))]
    except ValueError as err:
        raise IllegalAction(f"{err}. Type {FORMS}", UNREADABLE) from None
    raise IllegalAction(f"cannot read {text.strip()!r}. Type {FORMS}", UNREADABLE)


def action_from_json(data: Mapping[str, Any]) -> TheLastAction:
    kind = data.get("type")
    if kind == "keep":
        return KEEP
    if kind in ("play", "swap") and isinstance(data.get("card"), str):
        return parse_action(f"{kind} {data['card']}")
    raise IllegalAction(
        'a The Last action is {"type": "play", "card": "R12"}, {"type": "keep"} or {"type": "swap", "card": "B3"}',
        UNREADABLE,
    )
