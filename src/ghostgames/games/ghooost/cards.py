"""Ghooost! cards as small integers, the two decks, and the "may this value follow that one" table.

Suits never matter in Ghooost!, only values, so a card is its kind: 1..14 for ghosts (11 jack, 12 knight,
13 queen, 14 king), KITTY and MISS_COPY for the two special cards. A hand, the discard and a deck's
composition are count vectors indexed by kind (length KINDS; index 0 is unused).

In the cemetery a Miss Copy is stored as COPY_BASE + the value it copied, so the stack remembers both
what the card is (it goes back to being a Miss Copy when taken) and the value it had.
"""

from __future__ import annotations

KITTY = 15
MISS_COPY = 16
KINDS = 17
GHOST_VALUES = tuple(range(1, 15))
COPY_BASE = MISS_COPY  # cemetery entry of a Miss Copy that copied value v: COPY_BASE + v (17..30)
HAND_SIZE = 4
DECK_SIZE = 62
MANSION_SIZE = {2: 12, 3: 10, 4: 8, 5: 6, 6: 4}

# deck name -> (Kitty cards, Miss Copy cards); both have the 56 ghosts (four of each value 1..14)
DECKS: dict[str, tuple[int, int]] = {"tarot": (4, 2), "original": (2, 4)}

RED = (3, 12)  # the scary ghosts: only 1, the same red value (3 also admits 12) or a quartet may follow
JACK = 11
REVERSE = 8
SCOOTY = 1

VALUE_WORDS = {
    "ace": 1, "jack": 11, "valet": 11, "knight": 12, "cavalier": 12, "queen": 13, "dame": 13, "king": 14, "roi": 14,
}  # fmt: skip
KITTY_WORDS = ("k", "kitty")
COPY_WORDS = ("x", "copy", "miss", "misscopy")


def composition(deck: str) -> list[int]:
    """How many cards of each kind the deck holds (a count vector)."""
    kitty, copies = DECKS[deck]
    counts = [0] * KINDS
    for value in GHOST_VALUES:
        counts[value] = 4
    counts[KITTY] = kitty
    counts[MISS_COPY] = copies
    return counts


def deck_cards(deck: str) -> list[int]:
    """The 62 cards of a deck as a list of kinds, in a fixed order (shuffle it to deal)."""
    return [kind for kind, count in enumerate(composition(deck)) for _ in range(count)]


def card_text(kind: int) -> str:
    """The short name people type: the value, K for Kitty, X for Miss Copy."""
    if kind == KITTY:
        return "K"
    if kind == MISS_COPY:
        return "X"
    return str(kind)


def _kind_text(kind: int) -> str:
    return card_text(kind) if kind else ""


KIND_TEXT: tuple[str, ...] = tuple(_kind_text(k) for k in range(KINDS))


def entry_kind(entry: int) -> int:
    """The card behind a cemetery entry (a Miss Copy entry is a Miss Copy again)."""
    return MISS_COPY if entry > COPY_BASE else entry


def entry_value(entry: int) -> int:
    return entry - COPY_BASE if entry > COPY_BASE else entry


def entry_text(entry: int) -> str:
    """A cemetery entry as shown face up: '7', or 'X=7' for a Miss Copy that copied a 7."""
    return f"X={entry - COPY_BASE}" if entry > COPY_BASE else str(entry)


def counts_texts(counts: list[int]) -> list[str]:
    """A count vector as sorted card names, e.g. ['3', '3', '9', 'K', 'X']."""
    return [card_text(kind) for kind in range(1, KINDS) for _ in range(counts[kind])]


def _may_follow(top: int, value: int) -> bool:
    if value == SCOOTY:
        return True
    if top == 3:
        return value in RED
    if top == 12:
        return value == 12
    return value >= top


# FOLLOWS[top][value]: may `value` (one card or more, not a quartet) be played on the top value `top`?
FOLLOWS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(value != 0 and _may_follow(top, value) for value in range(15)) for top in range(15)
)


# Lookup tables for the hot paths: the card behind each cemetery entry, and its name.
ENTRY_KIND: tuple[int, ...] = tuple(entry_kind(e) for e in range(COPY_BASE + 15))
ENTRY_KIND_TEXT: tuple[str, ...] = tuple(KIND_TEXT[entry_kind(e)] for e in range(COPY_BASE + 15))

# A hand's held ghost values as a bit mask (bit v-1 for value v; Kitty and Miss Copy have no bit), and for
# every mask the values it holds: legal-move generation then visits only the values actually held.
KIND_BIT: tuple[int, ...] = tuple(1 << (k - 1) if 1 <= k <= 14 else 0 for k in range(KINDS))
HELD_VALUES: tuple[tuple[int, ...], ...] = tuple(
    tuple(v for v in GHOST_VALUES if mask & KIND_BIT[v]) for mask in range(1 << len(GHOST_VALUES))
)


def held_mask(hand: list[int]) -> int:
    """The bit mask of the ghost values a count vector holds."""
    mask = 0
    for value in GHOST_VALUES:
        if hand[value]:
            mask |= KIND_BIT[value]
    return mask
