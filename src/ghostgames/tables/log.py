"""Log lines in words, each redacted per reader: a stable `kind` and `args` for translation, an English
`text`, and the game's events as that reader may see them."""

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

    def for_reader(self, seat: int | None) -> dict[str, Any]:
        text, args = self.text, self.args
        if seat is not None and seat in self.private:
            text, args = self.private[seat]
        return {
            "kind": self.kind,
            "text": text,
            "args": dict(args),
            "events": [event.for_seat(seat) for event in self.events],
        }


def action_is_public(text: str, events: Sequence[Event]) -> bool:
    """An action's text may be shown to everybody only when the game itself tells it in public.

    Games put a public action in their events (Geister: {"move": "b2 n"}); a secret one (a Geister
    setup) is not there, so its text stays with the seat that made it. Cautious by design: a game
    that never repeats its action text publicly gets "made a move" lines, never a leak.
    """
    for event in events:
        for value in event.public.values():
            if value == text:
                return True
            if isinstance(value, (list, tuple)) and text in [str(v) for v in value]:
                return True
    return False
