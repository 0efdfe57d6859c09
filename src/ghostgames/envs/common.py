"""What both environments share: the spaces of a game, its observation for a seat, rewards, and what an
illegal action does."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from gymnasium import spaces

from ghostgames.games import get_game
from ghostgames.rules.contract import Game, IllegalAction, Outcome, State

IllegalPolicy = Literal["lose", "raise"]
RENDER_MODES = ["ansi", "human"]
# What an agent observes: the game's observation of the current view ("view", `State.encode`), or its
# information state with perfect recall ("info_state", `State.encode_info_state`; docs/learning.md).
ObservationKind = Literal["view", "info_state"]
# The reward of each result at the end of a game.
REWARD = {"win": 1.0, "loss": -1.0, "draw": 0.0}


@dataclass(frozen=True)
class Settings:
    """An environment's checked settings."""

    game: Game[Any, Any]
    players: int
    options: dict[str, Any]
    illegal: IllegalPolicy
    render_mode: str | None
    observation: ObservationKind = "view"


def check_settings(game: str, players: int | None, options: Mapping[str, Any] | None, illegal: str,
                   render_mode: str | None, observation: str = "view") -> Settings:
    """Refuse bad settings when the environment is made (not at its first reset), saying what works."""
    rules = get_game(game)
    count = rules.min_players if players is None else players
    rules.check_players(count)
    rules.options(count, options)
    if illegal not in ("lose", "raise"):
        raise ValueError("illegal is 'lose' (the offending seat loses the game, as in PettingZoo) or 'raise'")
    if render_mode not in [*RENDER_MODES, None]:
        raise ValueError("render_mode is None, 'ansi' (render() returns the text) or 'human' (it prints it)")
    if observation not in ("view", "info_state"):
        raise ValueError("observation is 'view' (the current view's encoding) or 'info_state' (perfect recall)")
    return Settings(rules, count, dict(options or {}), "lose" if illegal == "lose" else "raise", render_mode,
                    "view" if observation == "view" else "info_state")


def observation_space(game: Game[Any, Any], players: int, kind: ObservationKind = "view") -> spaces.Dict:
    """{"observation": {name: Box[0, 1]}, "action_mask": MultiBinary-like int8 Box}, as PettingZoo's
    classic games lay them out."""
    shapes = game.observation_shapes(players) if kind == "view" else game.info_state_shapes(players)
    arrays: dict[str, spaces.Space[Any]] = {
        name: spaces.Box(0.0, 1.0, shape, dtype=np.float32) for name, shape in shapes.items()
    }
    mask = spaces.Box(0, 1, (game.action_count(players),), dtype=np.int8)
    return spaces.Dict({"observation": spaces.Dict(arrays), "action_mask": mask})


def observe(state: State[Any], seat: int, kind: ObservationKind = "view") -> dict[str, Any]:
    arrays = state.encode(seat) if kind == "view" else state.encode_info_state(seat)
    return {"observation": arrays, "action_mask": state.legal_mask(seat).astype(np.int8)}


def render_text(state: State[Any], seat: int | None) -> str:
    """What `seat` sees (None: a spectator, who sees nothing secret) as text: Geister's board and status,
    the other games' view as indented JSON."""
    view = state.view(seat)
    if state.game.name == "geister":
        from ghostgames.games.geister.render import board_text, status_lines

        return board_text(view).plain + "\n".join(status_lines(view)) + "\n"
    return json.dumps(view, indent=1) + "\n"


def rewards(outcome: Outcome) -> list[float]:
    return [REWARD[result.result] for result in outcome.results]


def illegal_rewards(players: int, offender: int) -> list[float]:
    """An illegal action ends the game: the offender loses (-1), the others get 0, as PettingZoo's
    classic environments do."""
    return [-1.0 if seat == offender else 0.0 for seat in range(players)]


def decode(game: Game[Any, Any], state: State[Any], seat: int, action: int | np.integer[Any]) -> Any:
    """The game action for an index; IllegalAction when the index is not legal for `seat` now."""
    chosen = game.action_at(int(action), seat)
    if chosen not in state.legal_actions(seat):
        legal = ", ".join(str(a) for a in state.legal_actions(seat)[:8])
        raise IllegalAction(f"action {int(action)} ({chosen}) is not legal now; legal are e.g. {legal}")
    return chosen


def new_state(game: Game[Any, Any], players: int, options: Mapping[str, Any] | None, seed: int | None,
              rng: np.random.Generator) -> State[Any]:
    """A fresh game; without a seed, one drawn from the environment's generator (so reset(seed) repeats)."""
    return game.new(players, options, seed=int(rng.integers(2**63)) if seed is None else seed)

