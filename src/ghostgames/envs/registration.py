"""Gymnasium ids for the one-seat environments, so `gymnasium.make("ghostgames/Geister-v0")` works.

Registered when `ghostgames.envs` is imported (Gymnasium 1.x no longer finds plug-in environments by
itself); `gymnasium.make("ghostgames.envs:ghostgames/Geister-v0")` imports it on the way. Keyword
arguments to `make` reach `GhostGamesSolo` (opponents, seat, players, options, illegal, render_mode).
"""

from __future__ import annotations

ENTRY_POINT = "ghostgames.envs.solo:GhostGamesSolo"
IDS = {"ghostgames/Geister-v0": "geister", "ghostgames/Ghooost-v0": "ghooost", "ghostgames/TheLast-v0": "thelast"}


def register_envs() -> None:
    """Register every id once (importing again, or reloading, changes nothing)."""
    from gymnasium.envs.registration import register, registry

    for env_id, game in IDS.items():
        if env_id not in registry:
            register(env_id, entry_point=ENTRY_POINT, kwargs={"game": game})
