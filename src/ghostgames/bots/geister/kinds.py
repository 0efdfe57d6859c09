"""Public habits that may tell one kind of runner's good ghosts from its bad ones, beyond belief.FEATURES.

The belief's `FEATURES` count what a ghost did over the whole game. A learned runner (a PPO policy) plays
in ways those counts blur: which ghost set off first and how steadily it has walked since, whether it was
the one moved last, whether its own ghosts escort it, and what it does once three of its bad ghosts are
taken (its last bad ghost is then a bluff or a decoy, and the runners differ in which). `KIND_FEATURES`
names them; `kind_features` gives each hidden enemy ghost its `FEATURES` followed by these, from the
seat's picture and the public move list only (the start square of a ghost is public: ghost k of a seat
starts on START[seat][k]).

`kind_models` mixes one model per learned runner, fitted over these by `ghostgames train geister-kinds`
(KINDS_FILE), with belief.MODELS; `kind_belief` reads it. Leave one runner out, the order in which the ghosts
set off is what carries (the first ghost moved is bad in all three networks), but in the mixture the runners'
models are not trusted enough within a game to pay in play: `expert-kinds` reads it and is not kept
(docs/research/geister-belief.md, "Telling the kinds of runner apart").
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ghostgames.bots.geister.belief import FEATURES, MODELS, Belief, Model, Models, _walk, belief, features
from ghostgames.bots.geister.picture import Picture, exit_distance
from ghostgames.games.geister.board import NEIGHBOURS, OFF_BOARD

EXTRA = (
    "first_rank",  # the order in which its side's ghosts first moved, 0 for the first, over 7 (1: never moved)
    "moved_first",  # 1 if it was the first of its side to move
    "last_moved",  # 1 if its owner's last move moved it
    "streak",  # how many of its owner's last moves in a row moved it (at most 4), over 4
    "pace",  # its steps towards its exits over all its moves (0 if it never moved)
    "escorts",  # its own ghosts standing next to it now
    "lead",  # 1 if no other hidden ghost of its owner is nearer to their exits
    "start_front",  # 1 if it started on the front row
    "start_inner",  # 1 if it started on one of the two middle columns
    "last_bad",  # 1 if three of its owner's bad ghosts are taken: the same for every ghost, so it weighs nothing
    "last_bad_forward",  # last_bad times its steps towards its exits
    "last_bad_distance",  # last_bad times its steps still to an exit
    "last_bad_last_moved",  # last_bad times last_moved
    "last_bad_lead",  # last_bad times lead
)
KIND_FEATURES = FEATURES + EXTRA


@dataclass
class _Order:
    first: int = -1  # the place of its first move among its side's first moves, -1 if it never moved
    streak: int = 0  # its owner's latest moves in a row that moved it


def _orders(picture: Picture, moves: list[str]) -> tuple[list[_Order], int]:
    """Per ghost of the enemy, when it first moved and its current streak; and the ghost moved last (-1)."""
    enemy = picture.enemy
    orders = [_Order() for _ in range(16)]
    started, last = 0, -1
    for _, move, board in _walk(moves):
        ghost = board[move.origin]
        if ghost >> 3 != enemy:
            continue
        if orders[ghost].first < 0:
            orders[ghost].first, started = started, started + 1
        orders[ghost].streak = orders[ghost].streak + 1 if ghost == last else 1
        if last >= 0 and last != ghost:
            orders[last].streak = 0
        last = ghost if move.target != OFF_BOARD else -1
    return orders, last


def kind_features(picture: Picture, moves: list[str]) -> dict[int, list[float]]:
    """The feature vector (in `KIND_FEATURES` order) of every hidden enemy ghost on the board."""
    p = picture
    base = features(p, moves)
    orders, last = _orders(p, moves)
    enemy = p.enemy
    hidden = list(base)
    nearest = min((exit_distance(p.square[g], enemy) for g in hidden), default=0)
    last_bad = 1.0 if p.captured[enemy]["bad"] >= 3 else 0.0
    out: dict[int, list[float]] = {}
    for g in hidden:
        square, order, x = p.square[g], orders[g], base[g]
        index = g & 7
        lead = 1.0 if exit_distance(square, enemy) == nearest else 0.0
        moved = x[0] + x[1] + x[2]  # forward, backward, sideways (captures are counted among them)
        was_last = 1.0 if g == last else 0.0
        out[g] = [
            *x,
            order.first / 7 if order.first >= 0 else 1.0,
            1.0 if order.first == 0 else 0.0,
            was_last,
            min(order.streak, 4) / 4,
            x[0] / moved if moved else 0.0,
            float(sum(1 for _, near in NEIGHBOURS[square] if p.board[near] >= 0 and p.board[near] >> 3 == enemy)),
            lead,
            1.0 if index < 4 else 0.0,
            1.0 if index % 4 in (1, 2) else 0.0,
            last_bad,
            last_bad * x[0],
            last_bad * x[7],
            last_bad * was_last,
            last_bad * lead,
        ]
    return out


# One weight set per learned runner, fitted by `ghostgames train geister-kinds` (learn/geister/kinds_fit.py) and
# shipped beside this file, with how often each moves the ghost it moved last.
KINDS_FILE = "kinds-weights.json"


def load_kinds(path: Path | None = None) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    """The weight sets of `path` (by default the package's KINDS_FILE) by runner, and their repeat rates."""
    source = path if path is not None else resources.files("ghostgames.bots.geister") / KINDS_FILE
    held = json.loads(source.read_text())
    if tuple(held["features"]) != KIND_FEATURES:
        raise ValueError(f"{path or KINDS_FILE} was fitted on other features; fit it again")
    weights = {name: {f: float(w[f]) for f in KIND_FEATURES} for name, w in held["weights"].items()}
    return weights, {name: float(r) for name, r in held["repeats"].items()}


def padded(weights: dict[str, float]) -> dict[str, float]:
    """A belief.FEATURES weight set read over KIND_FEATURES: the extra features weigh nothing, so the scores
    are the same numbers."""
    return {f: weights.get(f, 0.0) for f in KIND_FEATURES}


def kinds_mixture(weights: dict[str, dict[str, float]], repeats: dict[str, float], share: float = 0.1) -> Models:
    """belief.MODELS (charge's runner, the simple bots, search bots) read over KIND_FEATURES and one model per
    learned runner in `weights` (its repeat rate rounded to two decimals), the runners sharing `share` of the
    prior, taken from the search bots' (a tenth, as belief.LEARNED_MODELS takes it)."""
    charge, simple, searching = MODELS
    learned = tuple(Model(share / len(weights), w, round(repeats[name], 2)) for name, w in weights.items())
    return (charge._replace(weights=padded(charge.weights)), simple._replace(weights=padded(simple.weights)),
            searching._replace(share=searching.share - share, weights=padded(searching.weights)), *learned)


@functools.cache
def kind_models(path: Path | None = None, share: float = 0.1) -> Models:
    """`kinds_mixture` of the weight sets in `path` (by default the shipped KINDS_FILE), the learned runners
    sharing `share` of the prior."""
    return kinds_mixture(*load_kinds(path), share)


def kind_belief(picture: Picture, moves: list[str], models: Models | None = None, over: bool = False) -> Belief:
    """belief.belief over KIND_FEATURES: the mixture of `models` (None: the shipped `kind_models()`), shares by
    Bayes' rule."""
    return belief(picture, moves, models if models is not None else kind_models(), over, kind_features, KIND_FEATURES)
