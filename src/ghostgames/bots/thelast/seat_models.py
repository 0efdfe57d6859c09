"""A model of each other seat for the expert's opponent-aware playouts, fitted to the round's public moves by
Bayes' rule: which of `rules`, the learned logit (playout_policy.py) or uniform play explains the seat's
moves so far, starting from the shares the expert plays without evidence (fast_search.TheLastExpertPolicy:
`rules` 40%, the logit 40%, uniform 20%). The posterior shares become the seat's row of the playout mix.

The likelihood of a move needs the hand it was chosen from, which is hidden. It is taken over the cards the
seat is *known* to have held at the move (opponents.Move: the card played and the cards it played later,
unless a public swap brought them in): each model's probability of the move as if that were the whole hand.
So early moves, whose seat still holds unseen cards, weigh little (often every model gives 1), and a move
counts fully once the cards it could have played instead have all been seen. Under `rules` a move is 1 when
`rules` plays it from those cards and `slip` otherwise (`rules` itself never errs, but the known cards are a
part of the hand). A swap's card laid down is face down, so a swap is no evidence (a keep is). `temper`
scales the log-likelihoods: the moves are not independent given the model, and the known cards are a subset.
Only the view is read: the decision still depends only on what the seat can see.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.thelast.fast_rules import rules_action
from ghostgames.bots.thelast.opponents import Move, moves
from ghostgames.bots.thelast.playout_policy import learned_probability
from ghostgames.games.thelast import fast
from ghostgames.games.thelast.cards import COLOUR_OF
from ghostgames.games.thelast.encoding import KEEP_INDEX
from ghostgames.rules.contract import JSON

Floats = NDArray[np.float64]
MODELS = ("rules", "logit", "uniform")


def _row(move: Move, count: int) -> tuple[NDArray[np.int64], int] | None:
    """A compiled-core row of the move's decision with the known cards as the hand, and its action (None: no
    evidence, a swap)."""
    s = np.zeros(fast.FIELDS, dtype=np.int64)
    s[fast.COUNT] = count
    s[fast.ACTOR] = move.who
    s[fast.POINTS_CARD] = move.points
    hand = set(move.held)
    if move.kind == "swap":
        return None
    if move.kind == "keep":
        s[fast.PHASE] = fast.DECIDE
        action = KEEP_INDEX
    else:
        s[fast.PHASE] = fast.PLAY
        hand.add(move.card)
        s[fast.TRICK_N] = len(move.before)
        for k, card in enumerate(move.before):
            s[fast.TRICK_CARD + k] = card
            s[fast.TRICK_MASK] |= 1 << COLOUR_OF[card]
        action = move.card
    for card in hand:
        s[fast.HAND + move.who] |= 1 << card
    return s, action


def likelihoods(move: Move, count: int, tables: Floats, slip: float) -> tuple[float, float, float]:
    """(rules, logit, uniform) probabilities of the move from the cards known held."""
    made = _row(move, count)
    if made is None:
        return 1.0, 1.0, 1.0
    s, action = made
    legal = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    n = fast.legal_actions(s, legal)
    rules = 1.0 if rules_action(s) == action else slip
    return rules, learned_probability(s, tables, action), 1.0 / n


def posterior(view: JSON, prior: tuple[float, float, float], tables: Floats, slip: float = 0.05,
              temper: float = 1.0) -> dict[int, tuple[float, float, float]]:
    """Per seat of the view's table (the ghost left out), the posterior shares of (rules, logit, uniform)."""
    count = len(view["order"])
    logs = {p: [math.log(max(q, 1e-12)) for q in prior] for p in range(int(view["players"]))}
    for move in moves(view):
        for m, likelihood in enumerate(likelihoods(move, count, tables, slip)):
            logs[move.who][m] += temper * math.log(likelihood)
    out = {}
    for p, row in logs.items():
        top = max(row)
        weights = [math.exp(v - top) for v in row]
        total = sum(weights)
        out[p] = (weights[0] / total, weights[1] / total, weights[2] / total)
    return out
