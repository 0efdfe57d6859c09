"""Ghooost!'s actions and their text and JSON forms.

- `play 7 7 X`: ghosts of one value from the hand, with Miss Copy cards (X) that copy them;
  `play K` / `play K K`: Kitty cards (alone);
- `take`: the cemetery into the hand; `gamble`: turn the crypt's top card and play it (before midnight);
- `turn`: turn your mansion's top card and play it (after midnight, with an empty hand);
- `pass`: only when nothing else is allowed.

Every action object is built once (the tables below), so generating legal actions allocates nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ghostgames.games.ghooost.cards import (
    COPY_WORDS,
    FOLLOWS,
    GHOST_VALUES,
    KITTY,
    KITTY_WORDS,
    VALUE_WORDS,
    card_text,
)
from ghostgames.rules.contract import JSON, Action, IllegalAction

MAX_SAME = 4  # at most four cards of a kind exist (4 ghosts per value; Kitty and Miss Copy at most 4)

FORMS = (
    "'play' and the cards (values 1-14, X = Miss Copy, K = Kitty), e.g. 'play 7 7 X' or 'play K', "
    "or 'take', 'gamble', 'turn' (your mansion card), 'pass'"
)


@dataclass(frozen=True, slots=True)
class Play(Action):
    """`count` cards of kind `value` (a ghost value or KITTY) and `copies` Miss Copy cards copying them."""

    value: int
    count: int
    copies: int
    text: str = field(compare=False)
    cards: str = field(compare=False)  # the text without "play "
    log: tuple[str, ...] = field(compare=False, repr=False)  # log line for each effect mask (see state.py)
    size: int = field(compare=False, repr=False)  # count + copies
    free: bool = field(compare=False, repr=False)  # Kitty or a quartet: legal whatever the top value

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> JSON:
        if self.value == KITTY:
            return {"type": "play", "kitty": self.count}
        return {"type": "play", "value": self.value, "count": self.count, "copies": self.copies}


@dataclass(frozen=True, slots=True)
class Simple(Action):
    """take, gamble, turn or pass: actions without a choice inside."""

    kind: str

    def __str__(self) -> str:
        return self.kind

    def to_json(self) -> JSON:
        return {"type": self.kind}


TAKE = Simple("take")
GAMBLE = Simple("gamble")
TURN = Simple("turn")
PASS = Simple("pass")
SIMPLE = {a.kind: a for a in (TAKE, GAMBLE, TURN, PASS)}
GhooostAction = Play | Simple


EFFECT_BITS = ((8, ", reverses"), (4, ", clears the cemetery"), (2, ", skips a turn"), (1, ", plays again"))
EFFECT_WORDS = tuple("".join(word for bit, word in EFFECT_BITS if mask & bit) for mask in range(16))


def _play(value: int, count: int, copies: int) -> Play:
    cards = " ".join([card_text(value)] * count + ["X"] * copies)
    log = tuple("plays " + cards + w for w in EFFECT_WORDS)
    size = count + copies
    return Play(value, count, copies, "play " + cards, cards, log, size, value == KITTY or size >= MAX_SAME)


# PLAYS[value][count][copies]: the one Play object for that choice (count >= 1).
PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(_play(v, n, m) for m in range(MAX_SAME + 1)) for n in range(MAX_SAME + 1)) for v in range(KITTY + 1)
)
KITTY_PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(PLAYS[KITTY][n][0] for n in range(1, held + 1)) for held in range(MAX_SAME + 1)
)


def _choices(value: int, held: int, copies_held: int, need: int) -> tuple[Play, ...]:
    return tuple(
        PLAYS[value][n][m]
        for n in range(1, held + 1)
        for m in range(copies_held + 1)
        if n + m >= need
    )


# GHOST_CHOICES[value][held][copies_held][need]: every play of `value` with at least `need` cards, when the
# hand holds `held` such ghosts and `copies_held` Miss Copy cards. need = 1: any play; 4 - k: completes a
# quartet over k cemetery ghosts; 4: a quartet of its own.
GHOST_CHOICES: tuple[tuple[tuple[tuple[tuple[Play, ...], ...], ...], ...], ...] = tuple(
    tuple(
        tuple(tuple(_choices(v, held, cop, need) for need in range(MAX_SAME + 1)) for cop in range(MAX_SAME + 1))
        for held in range(MAX_SAME + 1)
    )
    for v in range(KITTY)
)


def _need(top: int, value: int) -> int:
    return 1 if FOLLOWS[top][value] else MAX_SAME


# PLAY_TABLE[top][copies_held][value][held]: the legal plays of `value` on the top value `top` (any size
# if the value may follow, else quartets only), so legal-move generation is one lookup per held value.
PLAY_TABLE: tuple[tuple[tuple[tuple[tuple[Play, ...], ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(GHOST_CHOICES[v][held][cop][_need(top, v)] if v else () for held in range(MAX_SAME + 1))
            for v in range(KITTY)
        )
        for cop in range(MAX_SAME + 1)
    )
    for top in range(KITTY)
)


def _read_kind(word: str) -> int:
    """One card word: a value (or its name), 'X' or 'K'. Returns the ghost value, KITTY or 0 for Miss Copy."""
    if word in KITTY_WORDS:
        return KITTY
    if word in COPY_WORDS:
        return 0
    if word in VALUE_WORDS:
        return VALUE_WORDS[word]
    if word.isdigit() and int(word) in GHOST_VALUES:
        return int(word)
    raise ValueError(f"{word!r} is not a card; cards are 1 to 14, X (Miss Copy) and K (Kitty)")


def read_play(words: list[str]) -> Play:
    kinds = [_read_kind(w) for w in words]
    if not kinds:
        raise ValueError("name the cards to play, e.g. 'play 7 7' or 'play K'")
    copies = kinds.count(0)
    values = {k for k in kinds if k != 0}
    if not values:
        raise ValueError("Miss Copy is never played alone or only with Miss Copy; add a ghost to copy")
    if len(values) > 1:
        if KITTY in values:
            raise ValueError("Kitty is played alone, never with ghosts or Miss Copy")
        raise ValueError("the cards of one play must all have the same value (Miss Copy may join them)")
    value = values.pop()
    if value == KITTY and copies:
        raise ValueError("Miss Copy never copies Kitty")
    count = len(kinds) - copies
    if count > MAX_SAME or copies > MAX_SAME:
        raise ValueError("there are only four cards of each value")
    return PLAYS[value][count][copies]


def parse_action(text: str) -> GhooostAction:
    words = text.strip().lower().replace(",", " ").split()
    if len(words) == 1 and words[0] in SIMPLE:
        return SIMPLE[words[0]]
    if words and words[0] == "play":
        try:
            return read_play(words[1:])
        except ValueError as err:
            raise IllegalAction(f"{err}. Type {FORMS}") from None
    raise IllegalAction(f"cannot read {text!r}. Type {FORMS}")


def action_from_json(data: Mapping[str, Any]) -> GhooostAction:
    kind = data.get("type")
    if isinstance(kind, str) and kind in SIMPLE:
        return SIMPLE[kind]
    if kind == "play":
        kitty, value, count, copies = data.get("kitty"), data.get("value"), data.get("count"), data.get("copies", 0)
        if isinstance(kitty, int) and 1 <= kitty <= MAX_SAME and value is None:
            return PLAYS[KITTY][kitty][0]
        if (
            isinstance(value, int) and value in GHOST_VALUES
            and isinstance(count, int) and 1 <= count <= MAX_SAME
            and isinstance(copies, int) and 0 <= copies <= MAX_SAME
        ):  # fmt: skip
            return PLAYS[value][count][copies]
    raise IllegalAction(
        'a Ghooost! action is {"type": "play", "value": 7, "count": 2, "copies": 1}, {"type": "play", "kitty": 1}, '
        'or {"type": "take" | "gamble" | "turn" | "pass"}'
    )
