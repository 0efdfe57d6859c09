"""A replay as a spectator sees it: one `view(None)` per step and who acted, never the seed, a setup or
any other secret of the record."""

from __future__ import annotations

from typing import Any

from ghostgames.storage.repository import StoredRecord


def public_replay(stored: StoredRecord) -> dict[str, Any]:
    steps: list[dict[str, Any]] = []
    seats: list[int | None] = [None, *(seat for seat, _ in stored.record.actions)]
    for seat, state in zip(seats, stored.record.states(), strict=False):
        steps.append({"seat": seat, "view": state.view(None)})
    return {**stored.summary(), "steps": steps}
