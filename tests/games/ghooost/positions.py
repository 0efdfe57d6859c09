"""Build exact Ghooost! positions for scenario tests through `game.load`, with cards written as people
type them ("7 7 X K"); the discard gets whatever is left of the deck, so the 62 cards always add up."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ghostgames.games import get_game
from ghostgames.games.ghooost.cards import COPY_BASE, KINDS, KITTY, MISS_COPY, composition
from ghostgames.games.ghooost.state import GhooostState

GAME = get_game("ghooost")


def kind(word: str) -> int:
    return {"K": KITTY, "X": MISS_COPY}.get(word.upper(), 0) or int(word)


def kinds(text: str) -> list[int]:
    return [kind(w) for w in text.split()]


def counts(text: str) -> list[int]:
    vector = [0] * KINDS
    for k in kinds(text):
        vector[k] += 1
    return vector


def entries(text: str) -> list[int]:
    """Cemetery entries bottom to top; 'X=7' is a Miss Copy that copied a 7."""
    return [COPY_BASE + int(w[2:]) if w.upper().startswith("X=") else int(w) for w in text.split()]


def build(
    hands: Sequence[str],
    *,
    mansions: Sequence[str] | None = None,
    crypt: str = "",
    cemetery: str = "",
    kitty: int = 0,
    turn: int = 0,
    known: Sequence[str] | None = None,
    out: Sequence[int] = (),
    direction: int = 1,
    options: dict[str, Any] | None = None,
    points: Sequence[int] | None = None,
    bouh: Sequence[int] | None = None,
    turns: int = 0,
    round_no: int = 0,
    seed: int = 7,
) -> GhooostState:
    """A position; mansions default to one spare card each (so nobody is out by accident); the crypt is
    written bottom to top (its top card is the last)."""
    players = len(hands)
    options = {"deck": "tarot", **(options or {})}
    used = [0] * KINDS
    if mansions is None:
        spare = counts(" ".join([*hands, crypt]))
        for entry in entries(cemetery):
            spare[MISS_COPY if entry > COPY_BASE else entry] += 1
        free = [k for k in range(14, 0, -1) if spare[k] == 0]
        mansions = [str(free[s % len(free)]) for s in range(players)]
    mansion_texts = list(mansions)
    for text in [*hands, *mansion_texts, crypt]:
        for k in kinds(text):
            used[k] += 1
    for entry in entries(cemetery):
        used[MISS_COPY if entry > COPY_BASE else entry] += 1
    used[KITTY] += kitty
    left = [have - use for have, use in zip(composition(options["deck"]), used, strict=True)]
    assert min(left[1:]) >= 0, f"more cards than the deck holds: {left}"
    left[0] = 0
    data = {
        "game": "ghooost",
        "players": players,
        "options": options,
        "seed": seed,
        "round": round_no,
        "first": turn,
        "turn": turn,
        "direction": direction,
        "hands": [counts(h) for h in hands],
        "known": [counts(k) for k in known] if known is not None else [[0] * KINDS for _ in hands],
        "mansions": [kinds(m) for m in mansion_texts],
        "crypt": kinds(crypt),
        "cemetery": entries(cemetery),
        "kitty": kitty,
        "discard": left,
        "out_order": list(out),
        "turns": turns,
        "points": list(points) if points is not None else [0] * players,
        "bouh": list(bouh) if bouh is not None else [0] * players,
    }
    state = GAME.load(data)
    assert isinstance(state, GhooostState)
    return state


def where_cards_are(state: GhooostState) -> list[int]:
    """Cards of each kind over every zone; equals the deck's composition when nothing is lost or doubled."""
    total = [0] * KINDS
    for s in range(state.players):
        for k in range(KINDS):
            total[k] += state.hands[s][k]
        for k in state.mansions[s]:
            total[k] += 1
    for k in state.crypt:
        total[k] += 1
    for entry in state.cemetery:
        total[MISS_COPY if entry > COPY_BASE else entry] += 1
    total[KITTY] += state.kitty
    for k in range(KINDS):
        total[k] += state.discard[k]
    return total


def hand_of(state: GhooostState, seat: int) -> str:
    return " ".join(state.view(seat)["hand"])
