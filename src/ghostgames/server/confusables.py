"""Names that look alike have the same skeleton (Unicode TR39), so `аlice` (Cyrillic а) or `ａlice`
(full-width) cannot pose as `alice`.

skeleton(name) = NFKC, case-folded, then each character replaced by the prototype of its confusable class
(`1`, `I` and `|` share one with `l`; `m` becomes `rn`), NFKC and case-folded again. The classes come from
the Unicode confusables data as shipped by the `confusable-homoglyphs` package (a map from each character
to its look-alikes, both ways); the prototype chosen for a class only has to be the same every time.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib.resources import files

DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")  # the package wraps right-to-left letters in them


@functools.cache
def _prototypes() -> dict[str, str]:
    raw = json.loads(files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8"))
    alike: dict[str, list[str]] = {}
    for key, entries in raw.items():
        alike[key.translate(DIRECTION_MARKS)] = [entry["c"].translate(DIRECTION_MARKS) for entry in entries]
    parent: dict[str, str] = {}

    def root(ch: str) -> str:
        while parent.setdefault(ch, ch) != ch:
            parent[ch] = parent[parent[ch]]
            ch = parent[ch]
        return ch

    for key, others in alike.items():
        for other in others:
            if len(key) == 1 and len(other) == 1:
                parent[root(key)] = root(other)
    classes: dict[str, list[str]] = {}
    for ch in parent:
        classes.setdefault(root(ch), []).append(ch)
    prototype: dict[str, str] = {}
    for members in classes.values():
        # the class's prototype is the character every other one points to (the longest list of look-alikes)
        chosen = min(members, key=lambda ch: (-len(alike.get(ch, ())), ord(ch)))
        prototype.update(dict.fromkeys(members, chosen))
    for key, others in alike.items():
        if len(key) == 1 and len(others) == 1 and len(others[0]) > 1:
            prototype[key] = "".join(prototype.get(ch, ch) for ch in others[0])  # a sequence: m -> rn
    return prototype


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def skeleton(name: str) -> str:
    """The same for two names a reader could take for one another."""
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", _fold(name)))
    return _fold("".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", _fold(mapped))))
