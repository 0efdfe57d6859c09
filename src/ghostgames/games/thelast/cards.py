"""The Last's 48 cards: values 1-12 in four colours, one card each.

A card is a small int 0..47: colour * 12 + (value - 1). Each colour has a name, a one-letter code for
typing (`R12`) and a shape symbol, so that players who cannot tell the colours apart can still read
them. The tables below make the rules' hot paths plain lookups.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Colour:
    name: str
    letter: str
    symbol: str


COLOURS: tuple[Colour, ...] = (
    Colour("red", "R", "▲"),
    Colour("blue", "B", "●"),
    Colour("green", "G", "■"),
    Colour("yellow", "Y", "★"),
)
VALUES_PER_COLOUR = 12
DECK_SIZE = len(COLOURS) * VALUES_PER_COLOUR
DECK: tuple[int, ...] = tuple(range(DECK_SIZE))

COLOUR_OF: tuple[int, ...] = tuple(card // VALUES_PER_COLOUR for card in DECK)
VALUE_OF: tuple[int, ...] = tuple(card % VALUES_PER_COLOUR + 1 for card in DECK)
# One bit per colour, so "which colours lie in this trick" is an int mask.
COLOUR_BIT: tuple[int, ...] = tuple(1 << colour for colour in COLOUR_OF)
CARD_NAMES: tuple[str, ...] = tuple(f"{COLOURS[COLOUR_OF[c]].letter}{VALUE_OF[c]}" for c in DECK)
CARD_SYMBOLS: tuple[str, ...] = tuple(f"{COLOURS[COLOUR_OF[c]].symbol}{VALUE_OF[c]}" for c in DECK)

_COLOUR_WORDS: dict[str, int] = {}
for _index, _colour in enumerate(COLOURS):
    _COLOUR_WORDS[_colour.letter.lower()] = _index
    _COLOUR_WORDS[_colour.name] = _index
    _COLOUR_WORDS[_colour.symbol] = _index

CARD_FORMS = "a colour letter and a value 1-12, e.g. R12 or b3 (" + ", ".join(
    f"{c.letter} = {c.name} {c.symbol}" for c in COLOURS
) + ")"


def deck_of(colours: int = len(COLOURS), values: int = VALUES_PER_COLOUR) -> tuple[int, ...]:
    """The cards of a smaller deck: values 1..`values` in the first `colours` colours (ids as in the full deck)."""
    return tuple(c for c in DECK if COLOUR_OF[c] < colours and VALUE_OF[c] <= values)


def card(colour: int, value: int) -> int:
    return colour * VALUES_PER_COLOUR + value - 1


def card_name(card_id: int) -> str:
    return CARD_NAMES[card_id]


def colour_letter(colour: int) -> str:
    return COLOURS[colour].letter


def parse_card(text: str) -> int:
    """Read `R12`, `r 12`, `red12`, `▲12`; raises ValueError naming the forms that work."""
    word = "".join(text.split()).lower()
    digits = len(word)
    while digits > 0 and word[digits - 1].isdigit():
        digits -= 1
    colour_word, value_text = word[:digits], word[digits:]
    if colour_word not in _COLOUR_WORDS or not value_text:
        raise ValueError(f"{text.strip()!r} is not a card; a card is {CARD_FORMS}")
    value = int(value_text)
    if not 1 <= value <= VALUES_PER_COLOUR:
        raise ValueError(f"card values run from 1 to 12, not {value}")
    return card(_COLOUR_WORDS[colour_word], value)
