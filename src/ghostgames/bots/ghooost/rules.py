"""Ghooost! by rules of thumb: shed the lowest ordinary cards, as many of a kind as you hold; keep the
1s, jacks, Miss Copies, Kitties and quartets for when they matter (a full cemetery that you would
otherwise have to take); with nothing to play, gamble before midnight and turn your mansion after.
An extra turn that may be declined (`done`, option replay `may`) is worth only a card it would shed anyway:
without one it ends the turn rather than spend a reserve card, gamble or take.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ghostgames.bots.base import SeatKnowledge
from ghostgames.games.ghooost.actions import Play, Simple
from ghostgames.games.ghooost.cards import JACK, KITTY, SCOOTY
from ghostgames.rules.contract import Action

BIG_CEMETERY = 3  # cards in the cemetery that make a reserve card worth spending


def choose(knowledge: SeatKnowledge, rng: random.Random) -> Action:
    legal = knowledge.legal_actions()
    view = knowledge.view()
    top, run = int(view["top"]), int(view["top_count"])
    plays = [a for a in legal if isinstance(a, Play)]
    simple = {a.kind: a for a in legal if isinstance(a, Simple)}
    ordinary = [p for p in plays if not _is_reserve(p, top, run)]
    if ordinary:
        return _shed(ordinary)
    if "done" in simple:  # nothing worth shedding: keep the reserve and risk no gamble
        return simple["done"]
    reserve = sorted((p for p in plays), key=lambda p: _reserve_rank(p, top, run))
    cemetery = len(view["cemetery"]) + int(view["kitty"])
    if reserve and (cemetery >= BIG_CEMETERY or "gamble" not in simple):
        return reserve[0]
    for kind in ("gamble", "turn"):
        if kind in simple:
            return simple[kind]
    if reserve:
        return reserve[0]
    return simple.get("take") or simple.get("pass") or rng.choice(legal)


def _completes_quartet(p: Play, top: int, run: int) -> bool:
    return p.size >= 4 or (p.value == top and run + p.size >= 4)


def _is_reserve(p: Play, top: int, run: int) -> bool:
    return p.value in (SCOOTY, JACK, KITTY) or p.copies > 0 or _completes_quartet(p, top, run)


def _shed(plays: Sequence[Play]) -> Play:
    """The lowest value (it leaves the most room to the others… and to us next time), all copies held."""
    return min(plays, key=lambda p: (p.value, -p.count))


def _reserve_rank(p: Play, top: int, run: int) -> tuple[int, int]:
    """Which reserve to spend first: a quartet (clears and replays), a jack (clears), a 1, Miss Copy help,
    Kitty last (it only skips a turn)."""
    if p.value != KITTY and _completes_quartet(p, top, run):
        order = 0
    elif p.value == JACK:
        order = 1
    elif p.value == SCOOTY:
        order = 2
    elif p.value != KITTY:
        order = 3
    else:
        order = 4
    return (order, -p.size)
