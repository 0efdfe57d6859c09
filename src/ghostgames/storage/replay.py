"""A replay as one reader saw the game: one `view(seat)` per step and who acted, never the seed, a setup
or any other secret of the record. A spectator's replay uses `view(None)`; a player who sat in the game
may ask for their own seat's views. Both go through the game contract's redaction (`State.view`)."""

from __future__ import annotations

from typing import Any

from ghostgames.storage.repository import StoredRecord


def seat_replay(stored: StoredRecord, seat: int | None) -> dict[str, Any]:
    steps: list[dict[str, Any]] = []
    seats: list[int | None] = [None, *(acting for acting, _ in stored.record.actions)]
    for acting, state in zip(seats, stored.record.states(), strict=False):
        steps.append({"seat": acting, "view": state.view(seat)})
    return {**stored.summary(), "viewer": seat, "steps": steps}


def public_replay(stored: StoredRecord) -> dict[str, Any]:
    return seat_replay(stored, None)
