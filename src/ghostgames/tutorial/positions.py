"""Consistency checks for hand-built lesson positions, beyond what a game's `load` checks itself.

The Last's `load` already refuses cards that are not each in one place; Geister's takes any list of
squares, so a lesson could put two ghosts on one square or a good ghost on its own exit under `reach`
(a game that should have ended); Ghooost!'s takes any count of cards in any zone, so a lesson could hold
a 63rd card, a short hand before midnight or a cemetery no play makes. Each function returns the problems
it finds, in words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ghostgames.rules.contract import State


def geister(state: State[Any]) -> list[str]:
    from ghostgames.games.geister.board import EXITS, square_name
    from ghostgames.games.geister.state import CAPTURED, ESCAPED, GeisterState

    assert isinstance(state, GeisterState)
    problems: list[str] = []
    on_board = [p for p in state.pos if p >= 0]
    if len(on_board) != len(set(on_board)):
        problems.append("two ghosts share a square")
    if any(p < ESCAPED or p >= 36 for p in state.pos):
        problems.append("a ghost stands outside the board")
    for seat in (0, 1):
        mine = range(seat * 8, seat * 8 + 8)
        if state.set_up[seat]:
            colours = [state.good[g] for g in mine]
            if None in colours or sum(1 for c in colours if c) != 4:
                problems.append(f"seat {seat} must have 4 good and 4 bad ghosts")
                continue
        elif any(state.good[g] is not None for g in mine):
            problems.append(f"seat {seat} has colours before its setup")
        if state.outcome() is None and state.set_up[seat]:
            good_left = sum(1 for g in mine if state.good[g] and state.pos[g] != CAPTURED)
            bad_left = sum(1 for g in mine if not state.good[g] and state.pos[g] != CAPTURED)
            if good_left == 0 or bad_left == 0:
                problems.append(f"seat {seat} has lost all its good or all its bad ghosts: the game is over")
            if any(state.pos[g] == ESCAPED for g in mine):
                problems.append(f"a ghost of seat {seat} escaped: the game is over")
            if not state.escape:
                for g in mine:
                    if state.good[g] and state.pos[g] in EXITS[seat]:
                        problems.append(f"a good ghost of seat {seat} stands on its exit "
                                        f"{square_name(state.pos[g])} under 'reach': the game is over")
    if state.max_plies is not None and state.ply >= state.max_plies and state.outcome() is None:
        problems.append("the move limit is reached: the game is over")
    return problems


def ghooost(state: State[Any]) -> list[str]:
    from ghostgames.games.ghooost.cards import (
        ENTRY_KIND,
        FOLLOWS,
        HAND_SIZE,
        JACK,
        KINDS,
        KITTY,
        MANSION_SIZE,
        composition,
        entry_value,
    )
    from ghostgames.games.ghooost.state import GhooostState

    assert isinstance(state, GhooostState)
    problems: list[str] = []
    players = state.players
    held = [0] * KINDS
    for zone in [*state.mansions, state.crypt, [ENTRY_KIND[e] for e in state.cemetery]]:
        for kind in zone:
            held[kind] += 1
    for kind in range(KINDS):
        held[kind] += sum(hand[kind] for hand in state.hands) + state.discard[kind]
    held[KITTY] += state.kitty
    if held != composition(state.options.deck):
        problems.append("the cards of the deck are not each in exactly one place")
    for seat in range(players):
        if state.is_out[seat]:
            if state.sizes[seat] or state.mansions[seat]:
                problems.append(f"seat {seat} is out but holds cards")
        elif state.crypt and (state.sizes[seat] < HAND_SIZE or len(state.mansions[seat]) != MANSION_SIZE[players]):
            problems.append(f"before midnight seat {seat} must hold at least 4 cards and its whole mansion")
        elif not state.crypt and not state.sizes[seat] and not state.mansions[seat]:
            problems.append(f"seat {seat} has no cards left and should be out")
    values = [entry_value(e) for e in state.cemetery]
    run = 0
    for below, value in zip([0, *values], values, strict=False):
        run = run + 1 if value == below else 1
        if value == JACK or run >= 4:
            problems.append("a jack or four of a kind lies in the cemetery: it would have been cleared")
            break
        if value != below and not FOLLOWS[below][value]:
            problems.append(f"{value} lies on {below} in the cemetery, which no play allows")
            break
    return problems


CHECKS: dict[str, Callable[[State[Any]], list[str]]] = {"geister": geister, "ghooost": ghooost}


def position_problems(game: str, state: State[Any]) -> list[str]:
    check = CHECKS.get(game)
    return check(state) if check else []
