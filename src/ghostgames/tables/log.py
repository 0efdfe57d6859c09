"""Log lines in words, each redacted per reader: a `code` and `args` for translation (seats from 0), an
English `text` for old clients and logs, and the game's events as that reader may see them. A reader
makes its words from the code and args and never parses the text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ghostgames.rules.contract import Event


@dataclass(frozen=True, slots=True)
class LogLine:
    kind: str
    text: str
    args: Mapping[str, Any]
    # seat -> (text, args) for the one reader who may know more (e.g. their own secret setup)
    private: Mapping[int, tuple[str, Mapping[str, Any]]] = field(default_factory=dict)
    events: Sequence[Event] = ()
    # who sat in each seat (index from 0) when the line was written: {"name": label or None, "bot": level
    # or None}; a reader names the seats of an old line by this, not by who sits there now
    names: Sequence[Mapping[str, Any]] = ()
    # Which sentence `text` is, when the kind is said more than one way ("action_secret" for another's
    # secret move); empty: the kind itself. A private entry is the line in full, so its code is the kind.
    code: str = ""

    def for_reader(self, seat: int | None) -> dict[str, Any]:
        text, args, code = self.text, self.args, self.code or self.kind
        if seat is not None and seat in self.private:
            text, args = self.private[seat]
            code = self.kind
        return {
            "kind": self.kind,
            "code": code,
            "text": text,
            "args": dict(args),
            "events": [event.for_seat(seat) for event in self.events],
            "names": [dict(entry) for entry in self.names],
        }


def action_is_public(text: str, events: Sequence[Event]) -> bool:
    """An action's text may be shown to everybody only when the game's public events already tell it.

    That is: the text itself is a public value (Geister: {"move": "b2 n"}), or every word after the verb
    is (The Last: "play R4" with {"card": "R4"}; Ghooost!: "take" with a public event). A secret action
    (a Geister setup: its squares appear in no public event) stays with the seat that made it. Cautious
    by design: when in doubt the others read "made their move", never a secret.
    """
    words = text.split()
    if not words or not events:
        return False
    public: set[str] = set()
    for event in events:
        for value in event.public.values():
            items = value if isinstance(value, (list, tuple)) else [value]
            for item in items:
                if isinstance(item, (str, int)) and not isinstance(item, bool):
                    public.add(str(item))
                    public.update(str(item).split())
    return text in public or all(word in public for word in words[1:])
