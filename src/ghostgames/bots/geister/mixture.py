"""`mixture`: a sparring partner that plays one of several styles a game, so a search cannot tune itself to one.

The styles are `rush` (hand-written exit rusher), `runner` (the learned policy), `charge` and the search at a small
budget (`expert-v4`: the expert of the day mixture was made, fixed). A bot is asked one decision at a time, with a
fresh generator each time, and may be rebuilt between moves (the table server does), so it cannot remember which
style it drew. It writes the style into its own setup instead: every one of the 70 setups belongs to one style
(`style_of`), and the setup decision draws a style, then asks that style for setups until one of that style's own
comes up. Later decisions read the setup back from the seat's view (its own ghosts' colours, which it always knows)
and play that style. A style whose setups do not fall in its class within `TRIES` draws (the learned `runner`
always sets up the same way) gets a setup of its class at random: each style plays a quarter of the games.
"""

from __future__ import annotations

import random
import zlib
from itertools import combinations
from typing import Any

from ghostgames.bots.base import SeatKnowledge
from ghostgames.games.geister.actions import Setup
from ghostgames.games.geister.board import START
from ghostgames.rules.contract import Action

STYLES = ("rush", "runner", "charge", "expert-v4:400")  # bot names; the search at its default budget, quick
# to play, pinned to the expert `mixture` was measured with (RacePolicy), so the sparring partner and the
# recipes that play it (geister-info) do not change when `expert` does
TRIES = 64


def style_of(good: tuple[int, ...]) -> str:
    """The style a setup (good ghosts' start numbers 0-7, sorted) stands for: a fixed, well-mixed split of
    the 70 setups into nearly equal classes (a checksum, so neighbouring setups land in different ones)."""
    return STYLES[zlib.crc32(bytes(good)) % len(STYLES)]


def own_style(view: dict[str, Any], seat: int) -> str | None:
    """The style the seat's own setup names (its good ghosts' start numbers), or None before it set up."""
    good = tuple(sorted(int(g["id"]) - 8 * seat for g in view["ghosts"]
                        if g["owner"] == seat and g["colour"] == "good"))
    return style_of(good) if len(good) == 4 else None


def choose(knowledge: SeatKnowledge, rng: random.Random) -> Action:
    from ghostgames.bots import get_bot  # the registry imports the styles, so not at module level

    seat = knowledge.seat
    style = own_style(knowledge.view(), seat)
    if style is not None:
        return get_bot(style).choose(knowledge, rng)
    wanted = rng.choice(STYLES)
    bot = get_bot(wanted)
    for _ in range(TRIES):
        setup = bot.choose(knowledge, random.Random(rng.getrandbits(64)))
        if isinstance(setup, Setup) and style_of(setup_numbers(setup, seat)) == wanted:
            return setup
    ours = [good for good in combinations(range(8), 4) if style_of(good) == wanted]
    return Setup(frozenset(START[seat][k] for k in rng.choice(ours)))


def setup_numbers(setup: Setup, seat: int) -> tuple[int, ...]:
    """The start numbers (0-7, board.START order) of the good ghosts a setup names, sorted."""
    return tuple(sorted(START[seat].index(square) for square in setup.good))
