"""What the enemy's moves reveal: a belief over the colours of its hidden ghosts, from public history only.

Each hidden enemy ghost gets a score, a weighted sum of what it did in public (`FEATURES`: steps towards
its exits, captures, moves that ended next to our ghosts, never moving, ...). The belief is the
distribution over the colourings that are still possible (exactly as many good ghosts among the hidden
ones as the captures leave, and under `reach` a ghost on its owner's exit with the game going on is bad),
each colouring weighted by exp(sum of the scores of the ghosts it calls good). That is a conditional
logit: the weights were fitted by maximising the likelihood of the true colourings in games between our
bots (`ghostgames train geister-belief`), so the scores need no intercept and the count constraint is exact.

Simple bots and search bots give their ghosts opposite habits (a search bot sends bad ghosts ahead and
keeps good ones back; `charge` marches a good one at the exit), so the belief mixes models of three kinds
of player (`MODELS`): a runner (read with `RUNNER_WEIGHTS`, fitted on games of `charge`), the other
simple bots (`WEIGHTS`, fitted on games between the simple bots) and search bots (`SEARCH_WEIGHTS`,
fitted on games between search bots). A fourth set, the learned runners (`LEARNED_WEIGHTS`, fitted on games
of the PPO `runner` and `rush` against our bots), is fitted and packaged too; mixed in, it was measured and not
kept (docs/research/geister-belief.md, "The learned runners").
How much each is trusted starts at its share and follows Bayes' rule (`model_shares`): every enemy move
is weighed by how often such a player moves the same ghost again, and every enemy ghost we took by the
chance the model gave, just before, to the colour it showed. Against `charge` the runner model leads
within a few moves.

Everything here reads a seat's `view()` (positions, revealed colours, the public move list), so the belief
is a function of what the seat knows and nothing else.
"""

from __future__ import annotations

import bisect
import copy
import json
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from itertools import accumulate, combinations
from pathlib import Path
from typing import Any, NamedTuple

from ghostgames.bots.geister.picture import GOOD, UNKNOWN, Picture, exit_distance, read
from ghostgames.games.geister.actions import Move, parse_action
from ghostgames.games.geister.board import EXITS, NEIGHBOURS, OFF_BOARD, SIZE, START
from ghostgames.rules.contract import IllegalAction

FEATURES = (
    "forward",  # steps that brought it closer to its owner's exits
    "backward",  # steps away from them
    "sideways",  # steps that kept the distance
    "captures",  # enemy (our) ghosts it took
    "exposed",  # moves that ended next to one of our ghosts (a good ghost seldom offers itself)
    "fled",  # moves from next to our ghost to a square none of ours touches
    "never_moved",  # 1 if it has not moved at all
    "distance",  # steps it still needs to reach one of its exits
    "attacked",  # 1 if one of our ghosts stands next to it now
    "share",  # its part of all the moves its owner made (0..1)
)

# The three weight sets, fitted by `ghostgames train geister-belief --games 1600 --search-games 240 --seed 1`
# (a snapshot every 3 plies, conditional logit with L2 0.01; learn/geister/belief_fit.py;
# docs/research/geister-belief.md) and shipped beside this file. WEIGHTS: games between rules, charge,
# defender and expert-v1:40; held-out per-ghost log-loss 0.543 there (uniform: 0.662). SEARCH_WEIGHTS: games
# between expert:20000 and expert-v1:900; 0.283 there (uniform 0.596, WEIGHTS 0.430). RUNNER_WEIGHTS: the
# simple games where `charge` plays both seats. LEARNED_WEIGHTS (added 5 December 2026, the same command with
# --runner-games 400 --runner-iterations 1000): the seat facing the learned `runner` or `rush` in games
# against rules, defender, charge and expert:1000 (docs/research/geister-belief.md, "The learned runners").
WEIGHTS_FILE = "belief-weights.json"


def load_weights(path: Path | None = None) -> dict[str, dict[str, float]]:
    """The weight sets ("simple", "search", "runner", "learned") in `path`, by default the package's WEIGHTS_FILE."""
    source = path if path is not None else resources.files("ghostgames.bots.geister") / WEIGHTS_FILE
    held = json.loads(source.read_text())
    if tuple(held["features"]) != FEATURES:
        raise ValueError(f"{path or WEIGHTS_FILE} was fitted on other features; fit it again")
    return {name: {f: float(w[f]) for f in FEATURES} for name, w in held["weights"].items()}


_SHIPPED = load_weights()
WEIGHTS: dict[str, float] = _SHIPPED["simple"]
SEARCH_WEIGHTS: dict[str, float] = _SHIPPED["search"]
RUNNER_WEIGHTS: dict[str, float] = _SHIPPED["runner"]
LEARNED_WEIGHTS: dict[str, float] = _SHIPPED["learned"]


class Model(NamedTuple):
    """One kind of player the enemy may be."""

    share: float  # how much the belief trusts this model before the game
    weights: dict[str, float]  # how such a player's ghosts' habits tell their colours
    repeats: float = 0.5  # how often such a player moves the ghost it moved last (when it is still there)


Models = tuple[Model, ...]
# Three kinds of player: a runner that marches one ghost at an exit (`charge` moved the same ghost again
# 99.8% of the time; 0.95 here, so that one other move does not rule the model out), the other simple bots
# (0.56) and search bots (0.38), counted by benchmarks/repeat_rate.py. Each is read with the weights fitted
# on its own kind's games (RUNNER_WEIGHTS: the simple games where `charge` plays both seats). `hard` meets
# search players most: their model leads until the enemy's play says otherwise (screened against `charge`
# and the expert before this change: docs/research/geister-belief.md).
MODELS: Models = (Model(0.1, RUNNER_WEIGHTS, 0.95), Model(0.1, WEIGHTS, 0.56), Model(0.8, SEARCH_WEIGHTS, 0.38))


@dataclass
class _Record:
    moves: int = 0
    forward: int = 0
    backward: int = 0
    sideways: int = 0
    captures: int = 0
    exposed: int = 0
    fled: int = 0


def _touches(board: list[int], square: int, owner: int) -> bool:
    """Whether a ghost of `owner` stands next to `square`."""
    return any(board[near] >= 0 and board[near] >> 3 == owner for _, near in NEIGHBOURS[square])


def _walk(moves: list[str]) -> Iterator[tuple[int, Move, list[int]]]:
    """The moves of the public move list that can be followed from the start squares: each with its place
    in the list and the board just before it (a ghost id or -1 per square; read it, do not change it)."""
    board = [-1] * (SIZE * SIZE)
    for g in range(16):
        board[START[g >> 3][g & 7]] = g
    for i, text in enumerate(moves):
        try:
            move = parse_action(" ".join(text.split()[:2]))
        except IllegalAction:
            continue  # a history we cannot follow only makes the belief less sharp
        if not isinstance(move, Move) or board[move.origin] < 0:
            continue
        yield i, move, board
        ghost = board[move.origin]
        board[move.origin] = -1
        if move.target != OFF_BOARD:
            board[move.target] = ghost


def _replay(moves: list[str]) -> list[_Record]:
    """Follow the public move list from the start squares and count what every ghost did."""
    records = [_Record() for _ in range(16)]
    for _, move, board in _walk(moves):
        ghost = board[move.origin]
        owner, other = ghost >> 3, 1 - (ghost >> 3)
        record = records[ghost]
        record.moves += 1
        if move.target == OFF_BOARD:
            continue
        before, after = exit_distance(move.origin, owner), exit_distance(move.target, owner)
        if after < before:
            record.forward += 1
        elif after > before:
            record.backward += 1
        else:
            record.sideways += 1
        if board[move.target] >= 0:
            record.captures += 1
        # the origin, next to the target, holds the mover itself: the board before the move will do
        if _touches(board, move.target, other):
            record.exposed += 1
        elif _touches(board, move.origin, other):
            record.fled += 1
    return records


def features(picture: Picture, moves: list[str]) -> dict[int, list[float]]:
    """The feature vector (in `FEATURES` order) of every hidden enemy ghost on the board."""
    p = picture
    records = _replay(moves)
    enemy = p.enemy
    total = sum(records[g].moves for g in range(enemy * 8, enemy * 8 + 8))
    out: dict[int, list[float]] = {}
    for g in p.hidden_enemies():
        r = records[g]
        square = p.square[g]
        out[g] = [
            float(r.forward),
            float(r.backward),
            float(r.sideways),
            float(r.captures),
            float(r.exposed),
            float(r.fled),
            1.0 if r.moves == 0 else 0.0,
            float(exit_distance(square, enemy)),
            1.0 if p.attacked_by(square, p.me) else 0.0,
            r.moves / total if total else 0.0,
        ]
    return out


def certainly_bad(picture: Picture, ghost: int, over: bool = False) -> bool:
    """RULES.md: under `reach`, a ghost on one of the exits its owner plays towards, with the game going
    on, is bad (a good one would have won by stepping there)."""
    return not picture.escape and not over and picture.square[ghost] in EXITS[ghost >> 3]


class Belief:
    """A distribution over the colourings of the hidden enemy ghosts that are still possible."""

    def __init__(self, hidden: list[int], goods: int, readings: list[tuple[float, dict[int, float]]],
                 bad: frozenset[int]) -> None:
        """`readings`: (share, score of each hidden ghost) per model; the belief is their mixture."""
        self.hidden = hidden
        self.goods = goods
        candidates = [g for g in hidden if g not in bad]
        need = min(goods, len(candidates))
        self.colourings: list[frozenset[int]] = [frozenset(c) for c in combinations(candidates, need)]
        if not self.colourings:
            self.colourings = [frozenset()]
        self.probabilities = [0.0] * len(self.colourings)
        for share, scores in readings:
            logits = [sum(scores.get(g, 0.0) for g in c) for c in self.colourings]
            top = max(logits)
            weights = [math.exp(v - top) for v in logits]
            total = sum(weights)
            for i, w in enumerate(weights):
                self.probabilities[i] += share * w / total
        self._cumulative = list(accumulate(self.probabilities))

    def good_probability(self) -> dict[int, float]:
        """Per hidden ghost, the chance that it is good."""
        marginal = dict.fromkeys(self.hidden, 0.0)
        for colouring, p in zip(self.colourings, self.probabilities, strict=True):
            for g in colouring:
                marginal[g] += p
        return marginal

    def times(self, factors: list[float]) -> Belief:
        """This belief with each colouring's chance multiplied by its factor and renormalised (a prior from
        outside the game, as bots/geister/expert_memory.py's memory of the setups); itself if all are 0."""
        weights = [p * f for p, f in zip(self.probabilities, factors, strict=True)]
        total = sum(weights)
        if total <= 0.0:
            return self
        out = copy.copy(self)
        out.probabilities = [w / total for w in weights]
        out._cumulative = list(accumulate(out.probabilities))
        return out

    def sample(self, rng: random.Random) -> frozenset[int]:
        """The hidden ghosts that are good in one colouring drawn from the belief."""
        index = bisect.bisect_left(self._cumulative, rng.random() * self._cumulative[-1])
        return self.colourings[min(index, len(self.colourings) - 1)]


def _before_our_captures(picture: Picture, moves: list[str]) -> list[tuple[Picture, list[str], int]]:
    """For every enemy ghost our seat took: the picture just before, the moves until then, the ghost."""
    me = picture.me
    taken: list[int] = []  # ghosts taken so far, either side's
    out = []
    for i, move, board in _walk(moves):
        victim = -1 if move.target == OFF_BOARD else board[move.target]
        if victim < 0:
            continue
        if board[move.origin] >> 3 == me and picture.colour[victim] != UNKNOWN:
            square = [-1] * 16
            for sq, g in enumerate(board):
                if g >= 0:
                    square[g] = sq
            colour = [picture.colour[g] if g >> 3 == me or g in taken else UNKNOWN for g in range(16)]
            captured = [{"good": 0, "bad": 0}, {"good": 0, "bad": 0}]
            for g in taken:
                captured[g >> 3]["good" if picture.colour[g] == GOOD else "bad"] += 1
            then = Picture(me, picture.escape, list(board), square, colour, captured)
            out.append((then, moves[:i], victim))
        taken.append(victim)
    return out


def enemy_repeats(picture: Picture, moves: list[str]) -> tuple[int, int]:
    """How many of the enemy's moves moved the ghost it had moved last, and how many another one (moves
    whose last ghost was taken meanwhile do not count)."""
    last, same, other = -1, 0, 0
    for _, move, board in _walk(moves):
        ghost = board[move.origin]
        if ghost >> 3 == picture.enemy:
            if last >= 0 and last in board:
                same, other = same + (ghost == last), other + (ghost != last)
            last = ghost
    return same, other


Featurize = Callable[[Picture, list[str]], dict[int, list[float]]]


def model_shares(picture: Picture, moves: list[str], models: Models, featurize: Featurize = features,
                 names: tuple[str, ...] = FEATURES) -> list[float]:
    """How much to trust each model of the enemy now (Bayes' rule over the models): its share before the
    game, times the chance it gave, just before we took each enemy ghost, to the colour that ghost turned
    out to have, times the chance that such a player moves the same ghost again as often as this one did.
    Against a bot that plays like the games a model was fitted on, that model soon leads. (`featurize`,
    `names`: the features the models' weights read, belief.FEATURES by default; kinds.py reads more.)"""
    logs = [math.log(model.share) if model.share > 0 else -math.inf for model in models]
    same, other = enemy_repeats(picture, moves)
    for k, model in enumerate(models):
        logs[k] += same * math.log(model.repeats) + other * math.log(1.0 - model.repeats)
    for then, until, ghost in _before_our_captures(picture, moves):
        good = picture.colour[ghost] == GOOD
        for k, model in enumerate(models):
            chance = belief(then, until, model.weights, featurize=featurize,
                            names=names).good_probability().get(ghost, 0.5)
            logs[k] += math.log(min(max(chance if good else 1.0 - chance, 1e-3), 1.0))
    top = max(logs)
    shares = [math.exp(v - top) for v in logs]
    total = sum(shares)
    return [share / total for share in shares]


def belief(picture: Picture, moves: list[str], models: Models | dict[str, float] | None = None,
           over: bool = False, featurize: Featurize = features, names: tuple[str, ...] = FEATURES) -> Belief:
    """The belief of `picture`'s seat about the enemy's hidden colours (`moves`: the view's move list).
    `models`: the models of the enemy to mix, each trusted as `model_shares` says (None: MODELS); or one
    set of weights alone. `featurize` gives each hidden ghost its features, named by `names`, which every
    model's weights hold."""
    if models is None:
        models = MODELS
    if isinstance(models, dict):
        models = (Model(1.0, models),)
    elif len(models) > 1:
        shares = model_shares(picture, moves, models, featurize, names)
        models = tuple(m._replace(share=s) for m, s in zip(models, shares, strict=True))
    enemy = picture.enemy
    hidden = picture.hidden_enemies()
    revealed_good = sum(1 for g in range(enemy * 8, enemy * 8 + 8) if picture.colour[g] == GOOD)
    seen = featurize(picture, moves)
    readings = []
    for model in models:
        w = [model.weights[name] for name in names]
        readings.append((model.share, {g: sum(a * b for a, b in zip(w, x, strict=True)) for g, x in seen.items()}))
    bad = frozenset(g for g in hidden if certainly_bad(picture, g, over))
    return Belief(hidden, 4 - revealed_good, readings, bad)


def belief_of_view(view: dict[str, Any], models: Models | dict[str, float] | None = None) -> Belief:
    return belief(read(view), list(view["moves"]), models, over=view.get("outcome") is not None)
