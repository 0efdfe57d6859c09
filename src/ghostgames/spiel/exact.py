"""A small variant's whole game tree, written out once so that OpenSpiel's exact methods run in C++.

CFR and exploitability visit every node of the tree, CFR once per iteration. Through the Python adapter a
node costs about half a millisecond (a state is cloned by pickling it), so even The Last with hands of 2 (a
few hundred thousand nodes) would take minutes per pass. Instead the tree is walked once here with our own
states (their fast `clone`) and written in Gambit's EFG text, which OpenSpiel loads as a C++ game
(`pyspiel.load_efg_game`): the same players, chances, information sets, actions and returns, so its CFR,
`exploitability` and `nash_conv` run on it at C++ speed. For each information set one of our states is kept,
so that a bot can be asked there what it would play (`ghostgames.spiel.botpolicy`).

A seat's information set is its perfect recall: the seat and its share of every event so far
(`Event.for_seat`), which is what the adapter's information-state string holds too. Every action, of chance
or of a seat, is named by its position at its node ("0", "1", ...): OpenSpiel numbers an EFG game's actions
by their names in order of first appearance, so action j of any node is the EFG game's action j.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyspiel

from ghostgames.rules.contract import Event, Game, State
from ghostgames.spiel.adapter import SpielGame


@dataclass(frozen=True)
class InfoSet:
    """One information set of the tree: whose it is, its actions (our action indices, in the order of the EFG
    game's actions 0, 1, ...) and, where there is a choice, one of our states in it (a forced move needs
    none, and keeping a state for each would cost a gigabyte on the smallest variant)."""

    seat: int
    actions: tuple[int, ...]
    state: State[Any] | None


@dataclass(frozen=True)
class ExactGame:
    """The tree as an OpenSpiel C++ game, and our information sets keyed by its information-state strings."""

    game: pyspiel.Game
    infosets: dict[str, InfoSet]
    nodes: int
    ours: Game[Any, Any]  # our game, to read actions as indices


def exact_game(spiel_game: SpielGame) -> ExactGame:
    """Walk every deal and every play of `spiel_game` once and load the tree as an EFG game."""
    walk = _Walk(spiel_game)
    walk.deal([])
    players = " ".join(f'"seat {seat + 1}"' for seat in range(spiel_game.players))
    text = "\n".join([f'EFG 2 R "{spiel_game.spec.short_name}" {{ {players} }} ""', *walk.lines, ""])
    game = pyspiel.load_efg_game(text)
    infosets = {_infoset_string(seat, number): info for (seat, number), info in walk.infosets.items()}
    return ExactGame(game, infosets, len(walk.lines), spiel_game.game)


def _infoset_string(seat: int, number: int) -> str:
    # OpenSpiel 2.0's information-state string of an EFG information set: "player-player-number-name", the
    # name ours ("i" + number); tests/spiel/test_exact.py checks it against the game's own strings.
    return f"{seat}-{seat}-{number}-i{number}"


class _Walk:
    """The depth-first walk: the chance of the deal (the adapter's Dealer), then our state's actions."""

    def __init__(self, spiel_game: SpielGame) -> None:
        self.spiel_game = spiel_game
        self.dealer = spiel_game.dealer
        self.our_game = spiel_game.game
        self.lines: list[str] = []
        self.chance_nodes = 0
        self.numbers: list[dict[str, int]] = [{} for _ in range(spiel_game.players)]  # per seat: key -> number
        self.infosets: dict[tuple[int, int], InfoSet] = {}
        self.outcomes: dict[tuple[float, ...], int] = {}

    def deal(self, drawn: list[int]) -> None:
        if len(drawn) == self.dealer.nodes:
            state, events = self.dealer.start(drawn)
            self.play(state, self._seen(["" for _ in range(self.spiel_game.players)], events))
            return
        outcomes = self.dealer.outcomes(drawn)
        self.chance_nodes += 1
        choices = " ".join(f'"{i}" {p!r}' for i, (_, p) in enumerate(outcomes))
        self.lines.append(f'c "" {self.chance_nodes} "" {{ {choices} }} 0')
        for outcome, _ in outcomes:
            self.deal([*drawn, outcome])

    def play(self, state: State[Any], seen: list[str]) -> None:
        outcome = state.outcome()
        if outcome is not None:
            returns = tuple(self.spiel_game.spec.returns(outcome, self.spiel_game.params))
            number = self.outcomes.setdefault(returns, len(self.outcomes) + 1)
            self.lines.append(f't "" {number} "" {{ {" ".join(repr(r) for r in returns)} }}')
            return
        seat = min(state.to_act())
        game = self.our_game
        actions = sorted((game.action_index(a, seat), a) for a in state.legal_actions(seat))
        known = self.numbers[seat]
        if seen[seat] not in known:
            known[seen[seat]] = len(known) + 1
            self.infosets[(seat, len(known))] = InfoSet(seat, tuple(i for i, _ in actions),
                                                        state.clone() if len(actions) > 1 else None)
        number = known[seen[seat]]
        names = " ".join(f'"{i}"' for i in range(len(actions)))
        self.lines.append(f'p "" {seat + 1} {number} "i{number}" {{ {names} }} 0')
        for _, action in actions:
            child = state.clone()
            self.play(child, self._seen(seen, child.apply(seat, action)))

    @staticmethod
    def _seen(seen: list[str], events: list[Event]) -> list[str]:
        """Each seat's record, extended by its share of `events`."""
        return [mine + repr([e.for_seat(seat) for e in events]) + "\n"
                for seat, mine in enumerate(seen)]
