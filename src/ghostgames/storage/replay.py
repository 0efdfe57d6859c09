"""A replay as one reader saw the game: one `view(seat)` per step and who acted, never the seed, a setup
or any other secret of the record. A spectator's replay uses `view(None)`; a player who sat in the game
may ask for their own seat's views. Both go through the game contract's redaction (`State.view`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghostgames.rules.contract import Outcome
from ghostgames.storage.ratings import BOT_PREFIX, is_bot
from ghostgames.storage.repository import StoredRecord


def seat_replay(stored: StoredRecord, seat: int | None) -> dict[str, Any]:
    steps: list[dict[str, Any]] = []
    seats: list[int | None] = [None, *(acting for acting, _ in stored.record.actions)]
    for acting, state in zip(seats, stored.record.states(), strict=False):
        steps.append({"seat": acting, "view": state.view(seat)})
    return {**stored.summary(), "viewer": seat, "steps": steps}


def public_replay(stored: StoredRecord) -> dict[str, Any]:
    return seat_replay(stored, None)


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
