"""Gymnasium ids for our environments, so `gymnasium.make("ghostgames/Geister-v0")` makes the one-seat
environment and `gymnasium.make_vec("ghostgames/Geister-v0", num_envs=64)` the batched one.

Registered when `ghostgames.envs` is imported (Gymnasium 1.x no longer finds plug-in environments by
itself); `gymnasium.make("ghostgames.envs:ghostgames/Geister-v0")` imports it on the way. Keyword
arguments to `make` reach `GhostGamesSolo` (opponents, seat, players, options, illegal, render_mode); those
to `make_vec` reach the game's batched environment (GeisterVectorEnv, GhooostVectorEnv, TheLastVectorEnv:
players, options, seed, opponent, learner_seat, ...). `make_vec(..., vectorization_mode="sync")` still
steps `num_envs` one-seat environments one after another, as Gymnasium does for any id.
"""

from __future__ import annotations

import importlib
from typing import Any

ENTRY_POINT = "ghostgames.envs.solo:GhostGamesSolo"
VECTOR_ENTRY_POINT = "ghostgames.envs.registration:make_vector"
IDS = {"ghostgames/Geister-v0": "geister", "ghostgames/Ghooost-v0": "ghooost", "ghostgames/TheLast-v0": "thelast"}
VECTORS = {"geister": "ghostgames.envs.vector:GeisterVectorEnv",
           "ghooost": "ghostgames.envs.ghooost_vector:GhooostVectorEnv",
           "thelast": "ghostgames.envs.thelast_vector:TheLastVectorEnv"}


def make_vector(num_envs: int, game: str, **kwargs: Any) -> Any:
    """`make_vec`'s entry point: the batched environment of `game` (the id's own keyword) with `num_envs`
    games and the caller's keywords."""
    module, _, name = VECTORS[game].partition(":")
    return getattr(importlib.import_module(module), name)(num_envs, **kwargs)


def register_envs() -> None:
    """Register every id once (importing again, or reloading, changes nothing)."""
    from gymnasium.envs.registration import register, registry

    for env_id, game in IDS.items():
        if env_id not in registry:
            register(env_id, entry_point=ENTRY_POINT, vector_entry_point=VECTOR_ENTRY_POINT, kwargs={"game": game})
