"""Wrappers for learning code: a PettingZoo AEC environment with every seat an agent (`GhostGamesAEC`),
a Gymnasium environment where one seat plays against ghostgames bots (`GhostGamesSolo`), and many Geister
games stepped at once on the compiled core, a Gymnasium `VectorEnv` with compiled opponents
(`GeisterVectorEnv`, vector.py), and the same for the card games (`TheLastVectorEnv`, thelast_vector.py;
`GhooostVectorEnv`, ghooost_vector.py).

All three need the optional extra: pip install 'ghostgames[research]'. Observations are the game's fixed-shape
`encode(seat)` arrays (made from that seat's view only; with observation="info_state" the perfect-recall
`encode_info_state(seat)` arrays) plus an `action_mask` over the game's fixed action index space; rewards come
at the end: +1 win, -1 loss, 0 draw. Importing this package registers the Gymnasium ids `ghostgames/Geister-v0`,
`ghostgames/Ghooost-v0` and `ghostgames/TheLast-v0` (registration.py) when Gymnasium is installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ghostgames.envs.aec import GhostGamesAEC
    from ghostgames.envs.ghooost_vector import GhooostVectorEnv
    from ghostgames.envs.solo import GhostGamesSolo
    from ghostgames.envs.thelast_vector import TheLastVectorEnv
    from ghostgames.envs.vector import GeisterVectorEnv

__all__ = ["GeisterVectorEnv", "GhooostVectorEnv", "GhostGamesAEC", "GhostGamesSolo", "TheLastVectorEnv"]

try:
    from ghostgames.envs.registration import register_envs

    register_envs()
except ImportError:  # no gymnasium: the ids wait for the research extra
    pass


def __getattr__(name: str) -> Any:
    # Imported on first use, so that `import ghostgames.envs` names the missing extra clearly.
    try:
        if name == "GeisterVectorEnv":
            from ghostgames.envs.vector import GeisterVectorEnv

            return GeisterVectorEnv
        if name == "GhooostVectorEnv":
            from ghostgames.envs.ghooost_vector import GhooostVectorEnv

            return GhooostVectorEnv
        if name == "GhostGamesAEC":
            from ghostgames.envs.aec import GhostGamesAEC

            return GhostGamesAEC
        if name == "GhostGamesSolo":
            from ghostgames.envs.solo import GhostGamesSolo

            return GhostGamesSolo
        if name == "TheLastVectorEnv":
            from ghostgames.envs.thelast_vector import TheLastVectorEnv

            return TheLastVectorEnv
    except ImportError as err:
        raise ImportError(
            f"{name} needs gymnasium (GhostGamesAEC also pettingzoo; {err.name} is missing): "
            "pip install 'ghostgames[research]'"
        ) from err
    raise AttributeError(f"module 'ghostgames.envs' has no attribute {name!r}")
