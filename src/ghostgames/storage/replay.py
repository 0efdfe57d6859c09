"""A replay as one reader saw the game: one `view(seat)` per step and who acted, never the seed, a setup
or any other secret of the record. A spectator's replay uses `view(None)`; a player who sat in the game
may ask for their own seat's views. Both go through the game contract's redaction (`State.view`).

A replay is sent in pages of at most `PAGE_STEPS` steps. A page's first step carries its whole view and
every later step only what changed since the step before (`view_delta`): a Ghooost! round log or a match's
round list grows by an entry or two a step, and sending it whole at every step made a replay grow with the
square of its length (issue 31, hole 6). Rebuilding a page with `apply_delta` gives back exactly the views
the reader saw; the deltas are worked out from those redacted views only, so they can reveal nothing more.

Each step after the first also carries what the live log told this reader about its action (issue 32,
point 11: the replay's captions in the log's words): the game's events redacted for the reader
(`Event.for_seat`, as `LogLine.for_reader` sends them) and the action's text only where the log showed it
to this reader (public by `action_is_public`, or the reader's own), else `null`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ghostgames.rules.contract import Outcome, State
from ghostgames.storage.ratings import BOT_PREFIX, is_bot
from ghostgames.storage.repository import StoredRecord
from ghostgames.tables.log import action_is_public

# Steps in one page: with the bulky parts sent as deltas a step costs a few hundred bytes, so a page stays
# below a megabyte even when its first view holds a 5,000-turn round's log.
PAGE_STEPS = 500
MAX_START = 2**31 - 1  # the largest first step a page may ask for: far past any game's end


class NoSuchStep(ValueError):
    """A page asked to start past the record's last step."""

    def __init__(self, start: int, total: int) -> None:
        super().__init__(f"step {start} is past the last step {total - 1}")
        self.start = start
        self.total = total


def view_delta(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What turns the view `before` into `after`, key by key: `set` holds the keys whose value changed (or
    that are new), `append` the lists that only grew (just their new items), `drop` the keys that went.
    Unchanged keys are left out, and so are empty parts: a step that changed nothing is `{}`."""
    changed: dict[str, Any] = {}
    grown: dict[str, list[Any]] = {}
    for key, value in after.items():
        if key not in before:
            changed[key] = value
            continue
        old = before[key]
        if old == value:
            continue
        if isinstance(old, list) and isinstance(value, list) and len(value) > len(old) and value[:len(old)] == old:
            grown[key] = value[len(old):]
        else:
            changed[key] = value
    delta: dict[str, Any] = {}
    if changed:
        delta["set"] = changed
    if grown:
        delta["append"] = grown
    dropped = [key for key in before if key not in after]
    if dropped:
        delta["drop"] = dropped
    return delta


def apply_delta(view: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """The next step's view: `view` (left as it is) changed by `delta`, as the web client does it."""
    out = dict(view)
    out.update(delta.get("set", {}))
    for key, items in delta.get("append", {}).items():
        out[key] = [*out[key], *items]
    for key in delta.get("drop", []):
        out.pop(key, None)
    return out


def seat_replay(stored: StoredRecord, seat: int | None, start: int = 0,
                count: int = PAGE_STEPS) -> dict[str, Any]:
    """The page of `count` steps (at most `PAGE_STEPS`) from step `start` (0 is the position before the
    first action), as `seat` saw them; `total` is the number of steps in the whole game and `next` the
    start of the next page (None after the last). Raises NoSuchStep when `start` is past the last step.

    The record is played forward without a view up to `start`; only the page's own steps are viewed, each
    on a clone so that no view can share a list with the state the next action changes."""
    count = max(1, min(count, PAGE_STEPS))
    record = stored.record
    total = len(record.actions) + 1
    if not 0 <= start < total:
        raise NoSuchStep(start, total)
    end = min(total, start + count)
    steps: list[dict[str, Any]] = []
    state: State[Any] = record.new_state()
    previous: dict[str, Any] | None = None
    for step in range(end):
        acting: int | None = None
        told: dict[str, Any] = {}
        if step > 0:
            acting, text = record.actions[step - 1]
            events = state.apply(acting, text)
            if step >= start:
                # what the live log told this reader about the action: its events as the reader may see
                # them, and its text only when public or the reader's own (else `null`: a secret move)
                told = {"action": text if acting == seat or action_is_public(text, events) else None,
                        "events": [event.for_seat(seat) for event in events]}
        if step < start:
            continue
        view = state.clone().view(seat)
        if previous is None:
            steps.append({"seat": acting, **told, "view": view})
        else:
            steps.append({"seat": acting, **told, "delta": view_delta(previous, view)})
        previous = view
    return {**stored.summary(), "viewer": seat, "total": total, "from": start, "page": PAGE_STEPS,
            "next": end if end < total else None, "steps": steps}


def public_replay(stored: StoredRecord, start: int = 0, count: int = PAGE_STEPS) -> dict[str, Any]:
    return seat_replay(stored, None, start, count)


def encode_replay(replay: dict[str, Any]) -> bytes:
    """The page as the bytes the server sends (and caches): compact JSON."""
    return json.dumps(replay, separators=(",", ":"), ensure_ascii=False).encode()


def rebuild_views(page: dict[str, Any]) -> list[dict[str, Any]]:
    """Every view of a page, rebuilt from its first view and the deltas after it (tests and tools)."""
    views: list[dict[str, Any]] = []
    for step in page["steps"]:
        views.append(step["view"] if "view" in step else apply_delta(views[-1], step["delta"]))
    return views


def final_position(stored: StoredRecord, ratings: Mapping[int, Mapping[str, Any]], seat: int | None) -> dict[str, Any]:
    """A finished table as its address shows it after the table closed: the table's part shaped like a
    live table's summary (status "closed", nothing to do), and the last position as `seat` (None: a
    spectator) sees it. A game ended by a resignation is conceded first, so it reveals what it reveals at
    its end at the live table, and nothing more."""
    state = stored.record.replay()
    if not state.is_over() and stored.outcome is not None:
        state.concede(Outcome.from_json(stored.outcome))
    keys = stored.seat_keys or []
    seats = []
    for index in range(stored.record.players):
        key = keys[index] if index < len(keys) else ""
        bot = key[len(BOT_PREFIX):] if is_bot(key) else None
        name = stored.names[index] if index < len(stored.names) else None
        seats.append({"seat": index, "kind": "bot" if bot else "human", "name": name, "bot": bot,
                      "takeover": None, "connected": True})
    table = {
        "id": stored.table_id, "game": stored.record.game, "status": "closed", "round": 1, "version": 0,
        "seats": seats, "settings": {}, "votes": {}, "options": stored.record.options,
        "clock": {"mode": "none", "bank": [None] * len(seats), "deadline_in": [None] * len(seats)},
        "to_act": [], "spectators": 0, "created_by": None, "rated": stored.rated, "rematch": [],
        "result": None if stored.outcome is None else {"outcome": stored.outcome, "names": stored.names,
                                                         "takeovers": {}},
    }
    return {"table": table, "seat": seat, "view": state.view(seat), "record": stored.id,
            "created": stored.created_at.isoformat(),
            "ratings": {str(s): dict(change) for s, change in ratings.items()}}
