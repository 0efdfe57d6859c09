"""The OpenSpiel game and state that wrap any of our games through the contract (rules/contract.py).

A state is first a run of chance nodes (the game's `Dealer`), then our own `State`, one seat at a time: when
several seats may act at once (Geister's two setups) the lowest seat goes first, and the other learns nothing
of it, so the game is the same. Action ids are the game's fixed action indices (`Game.action_index`).
A state remembers, for every transition, the events it made: each seat's information state is its
redacted share of them (`Event.for_seat`), so nothing a seat may not know reaches it.
"""

from __future__ import annotations

import json
import random
from typing import Any, NamedTuple

import pyspiel

from ghostgames.rules.contract import Event, Game, State
from ghostgames.spiel.chance import Dealer
from ghostgames.spiel.games import SpielGameSpec, our_game
from ghostgames.spiel.observer import SpielObserver


def game_type(spec: SpielGameSpec, params: dict[str, Any]) -> Any:
    """OpenSpiel's description of the game (zero-sum, or general-sum for The Last's penalty returns)."""
    utility = pyspiel.GameType.Utility
    return pyspiel.GameType(
        short_name=spec.short_name,
        long_name=spec.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility.GENERAL_SUM if spec.general_sum(params) else utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec.defaults,
    )


class Step(NamedTuple):
    """An event as plain data (Event.for_seat's redaction, without its read-only mappings)."""

    kind: str
    public: dict[str, Any]
    private: dict[int, dict[str, Any]]

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        data = {"kind": self.kind, **self.public}
        if seat is not None and seat in self.private:
            data.update(self.private[seat])
        return data


class SpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """One of our games with fixed parameters (players and options), as OpenSpiel loads it."""

    spec: SpielGameSpec

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.params: dict[str, Any] = {**self.spec.defaults, **(params or {})}
        self.players = int(self.params.get("players", self.spec.min_players))
        self.game: Game[Any, Any] = our_game(self.spec)
        self.dealer: Dealer = self.spec.dealer(self.game, self.players, self.params)
        low, high = self.spec.utility_range(self.players, self.params)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.game.action_count(self.players),
            max_chance_outcomes=self.dealer.max_outcomes,
            num_players=self.players,
            min_utility=low,
            max_utility=high,
            utility_sum=None if self.spec.general_sum(self.params) else 0.0,
            max_game_length=self.dealer.nodes + self.spec.decisions(self.players, self.params),
        )
        super().__init__(game_type(self.spec, self.params), info, self.params)

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SpielObserver:
        return SpielObserver(self.game, self.players, iig_obs_type, params)


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A position: the chance outcomes drawn so far, then our game's state and the events of each step."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self.drawn: list[int] = []
        self.inner: State[Any] | None = None
        self.steps: list[list[Step]] = []  # the events of the deal, then of each decision
        self._start_if_dealt()

    # OpenSpiel clones a Python state by pickling its attributes: so the game is asked of the base class
    # (`get_game`) rather than kept, and events are kept as plain data (Step).
    @property
    def spiel_game(self) -> SpielGame:
        game: SpielGame = self.get_game()
        return game

    def _record(self, events: list[Event]) -> None:
        self.steps.append([Step(e.kind, dict(e.public), {s: dict(p) for s, p in e.private.items()})
                           for e in events])

    def _start_if_dealt(self) -> None:
        if self.inner is None and len(self.drawn) == self.spiel_game.dealer.nodes:
            self.inner, events = self.spiel_game.dealer.start(self.drawn)
            self._record(events)

    # --- OpenSpiel's state interface -------------------------------------------------------------
    def current_player(self) -> int:
        if self.inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        seats = self.inner.to_act()
        return min(seats) if seats else int(pyspiel.PlayerId.TERMINAL)

    def _legal_actions(self, player: int) -> list[int]:
        if self.inner is None:
            return []
        game = self.spiel_game.game
        return sorted(game.action_index(action, player) for action in self.inner.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.spiel_game.dealer.outcomes(self.drawn)

    def _apply_action(self, action: int) -> None:
        if self.inner is None:
            self.drawn.append(int(action))
            self._start_if_dealt()
            return
        seat = self.current_player()
        self._record(self.inner.apply(seat, self.spiel_game.game.action_at(int(action), seat)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.spiel_game.dealer.describe(self.drawn, int(action))
        return str(self.spiel_game.game.action_at(int(action), player))

    def is_terminal(self) -> bool:
        return self.inner is not None and self.inner.is_over()

    def returns(self) -> list[float]:
        outcome = None if self.inner is None else self.inner.outcome()
        if outcome is None:
            return [0.0] * self.spiel_game.players
        return self.spiel_game.spec.returns(outcome, self.spiel_game.params)

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> SpielState:
        """A state `player` cannot tell from this one, its hidden parts dealt again (`State.sample_world`), as
        ISMCTS asks. Other seats' private events are dropped from it: they belonged to the true deal."""
        if self.inner is None:
            raise ValueError("no seat knows anything to sample from while the cards are dealt")
        world = SpielState(self.spiel_game)  # its `drawn` stays empty: the true deal is not the world's
        world.inner = self.inner.sample_world(player, random.Random(float(probability_sampler())))
        world.steps = [[Step(step.kind, step.public, {s: p for s, p in step.private.items() if s == player})
                        for step in events] for events in self.steps]
        return world

    def __str__(self) -> str:
        """Everything, secrets included (OpenSpiel's state string is the full state, for debugging)."""
        if self.inner is None:
            return f"dealing: {self.drawn}"
        return json.dumps(self.inner.to_json(), sort_keys=True)
