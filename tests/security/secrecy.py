"""A generic secrecy check for any game behind the contract.

The idea: a reader (a seat, or a spectator) may know only what is the same in every world it cannot tell
apart from the real one. `sample_world(seat)` deals such worlds. So, at every position of random games:

1. views: `view(seat)` is identical in the real state and in every sampled world; `view(None)` too, in
   worlds sampled for any seat (a spectator knows less than every seat);
2. hidden facts: the per-game list of secrets computed from the full state (the seed, other hands, the
   crypt, unrevealed colours...) appears in no view that may not hold it: this catches a game whose
   `sample_world` forgets to re-deal something;
3. events and log lines: when a seat acts, a reader who ends up seeing the same view must have been told
   the same things. For the real action and for other actions the actor could have taken (in the real
   state and in sampled worlds), whatever leads to the same new view for a reader must give that reader
   the same `Event.for_seat` list and the same log text (the server's `action_is_public` decides whether
   an action's text is shown). Anything else would tell the reader which world it is in.

Secrets that the reader legitimately learns (a captured ghost's colour) show up in its new view too, so
they never make the check fail.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ghostgames.games import get_game
from ghostgames.rules.contract import State
from ghostgames.tables.log import action_is_public


class ViewFacts:
    """A view and its JSON text: a list equal to a secret one shows up as that list's JSON inside it."""

    def __init__(self, view: dict[str, Any], text: str) -> None:
        self.view = view
        self.text = text

    def holds_list(self, target: list[Any]) -> bool:
        return dumps(target) in self.text


Check = Callable[[ViewFacts], bool]
Secrets = Callable[[State[Any], int | None], list[tuple[str, Check]]]


def dumps(data: Any) -> str:
    # Views and events are built in a fixed key order, so no sorting is needed to compare them.
    return json.dumps(data, separators=(",", ":"))


@dataclass
class Tally:
    positions: int = 0
    views_compared: int = 0
    worlds_that_differ: int = 0  # proof that sample_world really re-dealt something (the check bites)
    event_groups: int = 0
    secrets_checked: int = 0
    actions_tried: int = 0
    problems: list[str] = field(default_factory=list)

    def fail(self, text: str) -> None:
        if len(self.problems) < 20:
            self.problems.append(text)


def random_walk(
    game_name: str, players: int, options: dict[str, Any], seed: int
) -> Iterator[tuple[State[Any], int, Any]]:
    """(state, seat, action) before each action of one random game; every state is the live one."""
    state = get_game(game_name).new(players, options, seed=seed)
    rng = random.Random(seed)
    while True:
        acting = sorted(state.to_act())
        if not acting:
            yield state, -1, None
            return
        seat = rng.choice(acting)
        action = rng.choice(state.legal_actions(seat))
        yield state, seat, action
        state.apply(seat, action)


def _without_seed(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "seed"}


@dataclass(frozen=True)
class Observation:
    """What one reader gets from one action: its new view (as an exact key) and what it is told."""

    choice: str
    view: bytes
    told: str  # events for this reader + the action text if the log shows it to this reader
    public: str  # the same for a spectator
    secret: bool  # the log hides this action's text from the other seats


def _canonical(data: Any) -> Any:
    """Lists of plain values sorted: the order of cards a seat draws at once is its own to know."""
    if isinstance(data, dict):
        return {k: _canonical(v) for k, v in data.items()}
    if isinstance(data, list):
        items = [_canonical(v) for v in data]
        try:
            return sorted(items)
        except TypeError:
            return items
    return data


def _observation(state: State[Any], actor: int, action: Any, reader: int | None) -> Observation:
    after = state.clone()
    events = after.apply(actor, action)
    text = str(action)
    public = action_is_public(text, events)
    told = dumps(_canonical({"events": [e.for_seat(reader) for e in events], "action": text if public or
                             reader == actor else None}))
    public_told = dumps(_canonical({"events": [e.for_seat(None) for e in events], "action": text if public
                                    else None}))
    # pickle is a fast exact key: equal bytes mean equal views (the other way round is not needed)
    return Observation(text, pickle.dumps(after.view(reader)), told, public_told, not public)


def _same_told(groups: dict[Any, Observation], key: Any, seen: Observation, tally: Tally, why: str) -> None:
    first = groups.setdefault(key, seen)
    if first.told != seen.told:
        tally.fail(f"{why}: {first.choice!r} tells {first.told}, {seen.choice!r} tells {seen.told}")


def check_position(
    state: State[Any],
    actor: int,
    action: Any,
    rng: random.Random,
    tally: Tally,
    secrets: Secrets,
    worlds: int,
    alternatives: int,
    label: str,
    events: bool = True,
) -> None:
    players = state.players
    readers: list[int | None] = [*range(players), None]
    real_views = {reader: state.view(reader) for reader in readers}
    seed_text = str(getattr(state, "seed", ""))
    real_json = _without_seed(state.to_json())
    sampled: dict[int, list[State[Any]]] = {}
    for seat in range(players):
        sampled[seat] = [state.sample_world(seat, rng) for _ in range(worlds)]
        for world in sampled[seat]:
            if _without_seed(world.to_json()) != real_json:
                tally.worlds_that_differ += 1
            for reader in (seat, None):
                tally.views_compared += 1
                if world.view(reader) != real_views[reader]:
                    tally.fail(f"{label}: view({reader}) differs in a world sampled for seat {seat}")
    for reader in readers:
        facts = ViewFacts(real_views[reader], dumps(real_views[reader]))
        if len(seed_text) > 6 and seed_text in facts.text:
            tally.fail(f"{label}: the seed is in view({reader})")
        for name, holds in secrets(state, reader):
            tally.secrets_checked += 1
            if holds(facts):
                tally.fail(f"{label}: view({reader}) holds the secret {name}")
    if action is None or not events:
        return
    for reader in readers:
        # Worlds the reader cannot tell from the real one; a spectator borrows those of the other seats.
        pool = [w for s in range(players) if s != actor for w in sampled[s]] if reader is None else sampled[reader]
        # 1. the real action in worlds the reader cannot tell apart: same new view -> told the same;
        # 2. any action: same new view and same public news -> the reader's private news is the same;
        # 3. actions whose text the log keeps secret: same new view -> told the same.
        strict: dict[bytes, Observation] = {}
        private: dict[tuple[bytes, str], Observation] = {}
        secret: dict[bytes, Observation] = {}
        for world in [state, *pool]:
            legal_texts = set(map(str, world.legal_actions(actor)))
            real_here = world is state or str(action) in legal_texts
            if reader == actor and not real_here:
                tally.fail(f"{label}: seat {actor}'s own action is not legal in a world sampled for it")
                continue
            choices = [action] if real_here else []
            if reader != actor:
                legal = world.legal_actions(actor)
                choices += rng.sample(legal, min(alternatives, len(legal)))
            for number, choice in enumerate(choices):
                tally.actions_tried += 1
                seen = _observation(world, actor, choice, reader)
                if len(seed_text) > 6 and seed_text in seen.told:
                    tally.fail(f"{label}: the seed is in what reader {reader} is told")
                why = f"{label}: reader {reader}, seat {actor} acting, same view after"
                if number == 0 and real_here:
                    _same_told(strict, seen.view, seen, tally, why + " the real action")
                _same_told(private, (seen.view, seen.public), seen, tally, why + " the same public news")
                if seen.secret and reader != actor:
                    _same_told(secret, seen.view, seen, tally, why + " a secret action")
        tally.event_groups += len(private)


def run(
    game_name: str,
    configs: list[tuple[int, dict[str, Any]]],
    positions: int,
    secrets: Secrets,
    seed: int = 1,
    worlds: int = 2,
    alternatives: int = 2,
    events_every: int = 1,
) -> Tally:
    """Walk random games of every config in turn until `positions` positions were checked (the event
    check runs at every `events_every`-th position, the view and secret checks at all of them)."""
    tally = Tally()
    rng = random.Random(seed)
    game_seed = seed * 1_000_003
    while tally.positions < positions:
        for players, options in configs:
            game_seed += 1
            for state, actor, action in random_walk(game_name, players, options, game_seed):
                label = f"{game_name} players={players} options={options} seed={game_seed} ply={tally.positions}"
                events = tally.positions % events_every == 0
                check_position(state, actor, action, rng, tally, secrets, worlds, alternatives, label, events)
                tally.positions += 1
                if tally.positions >= positions:
                    return tally
    return tally
