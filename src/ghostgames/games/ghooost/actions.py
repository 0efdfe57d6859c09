"""Ghooost!'s actions and their text and JSON forms.

- `play 7 7 X`: ghosts of one value from the hand, with Miss Copy cards (X) that copy them;
  `play K` / `play K K`: Kitty cards (alone);
- `take`: the cemetery into the hand; `gamble`: turn the crypt's top card and play it (before midnight);
- `turn`: turn your mansion's top card and play it (after midnight, with an empty hand);
- `pass`: only when nothing else is allowed;
- `done`: end the turn instead of taking the extra turn a double or triple gives (option `replay` = `may`).

Every action object is built once (the tables below), so generating legal actions allocates nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

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
from ghostgames.rules.reasons import UNREADABLE

MAX_SAME = 4  # at most four cards of a kind exist (4 ghosts per value; Kitty and Miss Copy at most 4)

FORMS = (
    "'play' and the cards (values 1-14, X = Miss Copy, K = Kitty), e.g. 'play 7 7 X' or 'play K', "
    "or 'take', 'gamble', 'turn' (your mansion card), 'pass', 'done' (end your turn instead of playing again)"
)

SIMPLE_KINDS = ("take", "gamble", "turn", "pass", "done")

# What a play did, as words for the log, per effect mask (the bits are in state.py).
EFFECT_BITS = ((8, ", reverses"), (4, ", clears the cemetery"), (2, ", skips a turn"), (1, ", plays again"))
EFFECT_WORDS = tuple("".join(word for bit, word in EFFECT_BITS if mask & bit) for mask in range(16))


# The kinds of a seat's decision as the information state counts them (a gamble or a turn either plays the
# card it turned or, when it cannot be played, takes it with the cemetery).
MOVE_KINDS = ("play", "take", "gamble_play", "gamble_take", "turn_play", "turn_take", "pass", "done")


class Move(NamedTuple):
    """A seat's decision in values: what its log line says in words, neither more nor less (the log is public).
    Learning code reads these (info_state.py, fast.py), never the words. Cards by their text ("7", "X", "K")."""

    seat: int
    kind: str  # one of MOVE_KINDS
    put: tuple[str, ...] = ()  # the cards laid on the cemetery (a turned card that could be played)
    taken: tuple[str, ...] = ()  # the cards taken into the hand (a turned card that could not be played last)
    turned: str | None = None  # the card turned from the crypt (a gamble) or from the mansion (a turn)

    def to_json(self) -> list[Any]:
        return [self.seat, self.kind, list(self.put), list(self.taken), self.turned]

    @classmethod
    def from_json(cls, data: Any) -> Move:
        seat, kind, put, taken, turned = data
        return cls(int(seat), str(kind), tuple(map(str, put)), tuple(map(str, taken)),
                   None if turned is None else str(turned))


@dataclass(frozen=True, slots=True)
class Play(Action):
    """`count` cards of kind `value` (a ghost value or KITTY) and `copies` Miss Copy cards copying them.

    Only the three choices are given; the rest follows from them. A choice that is no play (no ghost or
    Kitty in it, Miss Copy copying Kitty, more than four of a kind) cannot be built, so the rules' hot
    path may trust every Play it is handed."""

    value: int
    count: int
    copies: int
    text: str = field(init=False, compare=False)
    cards: str = field(init=False, compare=False)  # the text without "play "
    put: tuple[str, ...] = field(init=False, compare=False, repr=False)  # the cards one by one
    log: tuple[str, ...] = field(init=False, compare=False, repr=False)  # log line per effect mask (state.py)
    size: int = field(init=False, compare=False, repr=False)  # count + copies
    free: bool = field(init=False, compare=False, repr=False)  # Kitty or a quartet: legal whatever the top value

    def __post_init__(self) -> None:
        value, count, copies = self.value, self.count, self.copies
        if not all(type(n) is int for n in (value, count, copies)):
            raise IllegalAction("a play's value, count and copies are whole numbers", UNREADABLE)
        if not (value in GHOST_VALUES or value == KITTY):
            raise IllegalAction(f"a play is of ghosts of value 1 to 14 or of Kitty ({KITTY}), not of {value}",
                                UNREADABLE)
        if count < 1:
            raise IllegalAction(
                f"a play needs at least one ghost or Kitty card, not {count}: a play of no card is no play, "
                "and Miss Copy is never played alone", UNREADABLE
            )
        if count > MAX_SAME:
            raise IllegalAction(f"there are only {MAX_SAME} cards of each value, not {count}", UNREADABLE)
        if not 0 <= copies <= (0 if value == KITTY else MAX_SAME):
            raise IllegalAction(
                "Miss Copy never copies Kitty" if value == KITTY else f"there are at most {MAX_SAME} Miss Copy cards",
                UNREADABLE,
            )
        cards = " ".join([card_text(value)] * count + ["X"] * copies)
        size = count + copies
        for name, data in (
            ("text", "play " + cards),
            ("cards", cards),
            ("put", tuple(cards.split())),
            ("log", tuple("plays " + cards + words for words in EFFECT_WORDS)),
            ("size", size),
            ("free", value == KITTY or size >= MAX_SAME),
        ):
            object.__setattr__(self, name, data)

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> JSON:
        if self.value == KITTY:
            return {"type": "play", "kitty": self.count}
        return {"type": "play", "value": self.value, "count": self.count, "copies": self.copies}


@dataclass(frozen=True, slots=True)
class Simple(Action):
    """take, gamble, turn, pass or done: actions without a choice inside."""

    kind: str

    def __post_init__(self) -> None:
        if self.kind not in SIMPLE_KINDS:
            raise IllegalAction(f"{self.kind!r} is no Ghooost! action; the simple ones are {', '.join(SIMPLE_KINDS)}",
                                UNREADABLE)

    def __str__(self) -> str:
        return self.kind

    def to_json(self) -> JSON:
        return {"type": self.kind}


TAKE = Simple("take")
GAMBLE = Simple("gamble")
TURN = Simple("turn")
PASS = Simple("pass")
DONE = Simple("done")
SIMPLE = {a.kind: a for a in (TAKE, GAMBLE, TURN, PASS, DONE)}
GhooostAction = Play | Simple


# PLAYS[value][count][copies]: the one Play object for that choice; only real plays are there (count >= 1,
# Kitty without Miss Copy), so PLAYS[KITTY][n] has the one entry [0] and PLAYS[v][0] is empty.
PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(
        tuple(Play(v, n, m) for m in range((0 if v == KITTY else MAX_SAME) + 1)) if n and v else ()
        for n in range(MAX_SAME + 1)
    )
    for v in range(KITTY + 1)
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
    if v
    else ()
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


def _number(data: Mapping[str, Any], key: str, default: int | None = None) -> int | None:
    """An integer field of a JSON action; a boolean (which Python counts as an int) is no number here."""
    value = data.get(key, default)
    return value if type(value) is int else None


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
            raise IllegalAction(f"{err}. Type {FORMS}", UNREADABLE) from None
    raise IllegalAction(f"cannot read {text!r}. Type {FORMS}", UNREADABLE)


def action_from_json(data: Mapping[str, Any]) -> GhooostAction:
    kind = data.get("type")
    if isinstance(kind, str) and kind in SIMPLE:
        return SIMPLE[kind]
    if kind == "play":
        kitty, value = _number(data, "kitty"), _number(data, "value")
        count, copies = _number(data, "count"), _number(data, "copies", 0)
        if kitty is not None and 1 <= kitty <= MAX_SAME and data.get("value") is None:
            return PLAYS[KITTY][kitty][0]
        if (
            value in GHOST_VALUES and data.get("kitty") is None
            and count is not None and 1 <= count <= MAX_SAME
            and copies is not None and 0 <= copies <= MAX_SAME
        ):  # fmt: skip
            return PLAYS[value][count][copies]
    raise IllegalAction(
        'a Ghooost! action is {"type": "play", "value": 7, "count": 2, "copies": 1} (value 1-14, count 1-4, '
        'copies 0-4, all whole numbers), {"type": "play", "kitty": 1} (1-4), '
        'or {"type": "take" | "gamble" | "turn" | "pass" | "done"}', UNREADABLE
    )
