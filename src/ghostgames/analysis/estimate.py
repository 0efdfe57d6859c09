"""The analysis of a game for one seat: at each of its decisions, what a search from exactly that seat's
knowledge at that moment thinks of the position, of the move played and of the best move it found.

What an estimate means: the seat's expected reward in [0, 1] as the game's search policy scores a finished
game (bots/<game>/search.py), averaged over worlds the seat cannot tell from the truth:
- Geister: the chance of winning, a draw counting half.
- Ghooost!: the share of the other players the seat finishes ahead of (ties half); with two players, the
  chance of not being the one left to say Bouh!. Playouts cut short are scored by the cards each seat
  still holds.
- The Last: half the rank share (as Ghooost!), half a score of the penalty against the others' mean
  (0.5 at an equal penalty, towards 1 for a much smaller one).

Secrecy: the search gets a `SeatKnowledge` of the state and its rng is seeded from the seat's own view, so
the analysis is a function of what the seat saw and did, never of the hidden parts
(tests/analysis/test_analysis.py checks it over re-dealt worlds). A spectator's analysis (seat None) judges
every seat's decisions from the public view (`PublicKnowledge`): worlds dealt by the game's public sampler
(`State.sample_world(None, ...)`) from the position as a spectator knows it after watching the move
(`State.revealed_by`: the cards of a play were in the hand), and only the moves a spectator sees (not a
Geister setup, not the card a swap of The Last lays face down).

Ghooost! in a match also gets the seat's expected match points (analysis/match.py).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ghostgames.analysis import judge, match
from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.budget import Budget
from ghostgames.bots.ismcts import IsmctsBot, Node
from ghostgames.bots.search_bots import policy_of
from ghostgames.rules.chance import derive_rng
from ghostgames.rules.contract import JSON, Action, State
from ghostgames.rules.record import GameRecord

# Games whose State offers the public sampler and `revealed_by` a spectator's analysis needs (all of them).
SPECTATOR_GAMES = frozenset({"geister", "ghooost", "thelast"})
DEFAULT_BUDGET = 2000  # search iterations per decision
TOP_MOVES = 3


class PublicKnowledge(SeatKnowledge):
    """A spectator's knowledge posing as the seat to move, made from `State.revealed_by` (the position as
    a spectator knows it once it has seen the move): the public view, and worlds dealt by the public
    sampler, in each of which the move watched is legal."""

    __slots__ = ()

    def view(self) -> JSON:
        return self._state.view(None)

    def legal_actions(self) -> list[Action]:
        raise TypeError("a spectator does not know which moves the seat had (its hand is hidden)")

    def sample_world(self, rng: random.Random) -> State[Any]:
        return self._state.sample_world(None, rng)


@dataclass(frozen=True, slots=True)
class MoveEstimate:
    move: str
    estimate: float
    visits: int


@dataclass(frozen=True, slots=True)
class Decision:
    """One judged decision. `ply` counts the record's actions from 0 (people see it +1)."""

    ply: int
    seat: int
    played: str
    position: float  # the estimate before the move: that of the best move found
    after: float  # the estimate of the move played
    best: str
    drop: float
    noise: float  # how large a drop must be to be more than sampling noise (judge.noise)
    label: str
    missed_win: bool
    top: tuple[MoveEstimate, ...]
    # Ghooost! in a match: the seat's expected match points at the end of the round being played, after
    # the move played and after the best move (analysis/match.py); None in every other game.
    match_points: float | None = None
    best_match_points: float | None = None


@dataclass(frozen=True, slots=True)
class Analysis:
    game: str
    seat: int | None  # None: a spectator's analysis, every seat's decisions
    budget: int
    decisions: tuple[Decision, ...] = field(default_factory=tuple)

    def accuracy(self) -> dict[int, float]:
        """Each judged seat's accuracy (judge.accuracy)."""
        seats = sorted({d.seat for d in self.decisions})
        return {s: judge.accuracy([d.drop for d in self.decisions if d.seat == s]) or 0.0 for s in seats}

    def counts(self) -> dict[str, int]:
        """How many decisions got each label, and how many wins were missed."""
        out = {name: sum(1 for d in self.decisions if d.label == name) for name in judge.LABELS}
        out["missed_win"] = sum(1 for d in self.decisions if d.missed_win)
        return out

    def to_json(self) -> JSON:
        return {
            "game": self.game,
            "seat": self.seat,
            "budget": self.budget,
            "accuracy": {str(s): a for s, a in self.accuracy().items()},
            "counts": self.counts(),
            "decisions": [asdict(d) for d in self.decisions],
        }


def analyse(record: GameRecord, seat: int | None, budget: int = DEFAULT_BUDGET, kind: str = "expert") -> Analysis:
    """`seat`'s decisions in `record` (counted from 0; None: a spectator's analysis of every seat), each
    searched for `budget` iterations with the game's `kind` of search policy (bots/search_bots.py; a
    spectator's search uses the plain one, since the expert's belief reads a seat's own view)."""
    return analyse_actions(record.new_state(), record.actions, seat, budget, kind)


def analyse_actions(start: State[Any], actions: Sequence[tuple[int, str]], seat: int | None,
                    budget: int = DEFAULT_BUDGET, kind: str = "expert") -> Analysis:
    """As `analyse`, from a starting state and the actions played from it (`start` is not changed)."""
    if seat is None and start.game.name not in SPECTATOR_GAMES:
        raise ValueError(f"a spectator's analysis is not available for {start.game.name} yet")
    if seat is not None and not 0 <= seat < start.players:
        raise ValueError(f"seat {seat + 1} is not at this {start.players}-player game")
    state = start.clone()
    decisions = []
    for ply, (actor, text) in enumerate(actions):
        if judged(state, actor, text, seat):
            decisions.append(judge_decision(state, actor, text, ply, budget, kind, spectator=seat is None))
        state.apply(actor, text)
    return Analysis(start.game.name, seat, budget, tuple(decisions))


def judged(state: State[Any], actor: int, played: str, reader: int | None) -> bool:
    """Whether `reader` (None: a spectator) gets `actor`'s decision judged: a seat its own decisions with a
    choice; a spectator every move it sees (it cannot tell a forced move in a card game, whose hands it
    does not see; such a move comes out best)."""
    if reader is None:
        return state.revealed_by(actor, state.game.parse_action(played)) is not None
    return actor == reader and len(state.legal_actions(actor)) > 1


def judge_decision(state: State[Any], seat: int, played: str, ply: int, budget: int,
                   kind: str = "expert", spectator: bool = False) -> Decision:
    """Search `state` from `seat`'s knowledge (the public one for a spectator) and judge `seat`'s move
    `played` there."""
    action = state.game.parse_action(played)
    knowledge: SeatKnowledge
    if spectator:
        revealed = state.revealed_by(seat, action)
        if revealed is None:
            raise ValueError(f"a spectator does not see which move seat {seat + 1} made at move {ply + 1}")
        knowledge = PublicKnowledge(revealed, seat)
    else:
        knowledge = SeatKnowledge(state, seat)
        action = next((a for a in knowledge.legal_actions() if a == action), action)
    seed = (ply, "analysis", state.game.name, seat, spectator, _digest(knowledge.view()))
    rng = derive_rng(*seed)
    policy = policy_of("plain" if spectator else kind, state.game.name)(knowledge)
    bot = IsmctsBot(Budget(iterations=budget), lambda k: policy)
    root = bot.search(seat, policy, rng)
    floor = max(4, budget // 4)  # the move played gets at least this many samples, to be judged fairly
    have = root.children[action].visits if action in root.children else 0
    if have < floor:
        bot.search_more(root, seat, policy, rng, action, floor - have)
    decision = _judged(root, action, ply, seat, budget)
    if match.applies(knowledge):
        playouts = match.playouts(budget)
        points = match.expected_points(knowledge, policy, action, playouts, derive_rng(*seed, "match points"))
        best = state.game.parse_action(decision.best)
        best_points = points if best == action else match.expected_points(
            knowledge, policy, best, playouts, derive_rng(*seed, "match points", decision.best))
        decision = replace(decision, match_points=points, best_match_points=best_points)
    return decision


def _judged(root: Node, played: Action, ply: int, seat: int, budget: int) -> Decision:
    stats = {a: (c.reward / c.visits, c.visits) for a, c in root.children.items() if c.visits > 0}
    enough = max(2, budget // 20)  # a best move needs this many samples (a lucky one-sample mean is not)
    trusted = [a for a, (_, n) in stats.items() if n >= enough] or list(stats)
    best = max(trusted, key=lambda a: (stats[a][0], stats[a][1], str(a)))
    best_mean, best_n = stats[best]
    mean, n = stats[played]
    drop = max(0.0, best_mean - mean)
    margin = judge.noise(best_mean, best_n, mean, n)
    is_best = played == best
    top = sorted(stats, key=lambda a: (-stats[a][1], -stats[a][0], str(a)))[:TOP_MOVES]
    return Decision(
        ply=ply, seat=seat, played=str(played), position=best_mean, after=mean, best=str(best),
        drop=0.0 if is_best else drop, noise=margin, label=judge.label(drop, margin, is_best),
        missed_win=not is_best and judge.missed_win(best_mean, drop, margin),
        top=tuple(MoveEstimate(str(a), stats[a][0], stats[a][1]) for a in top),
    )


def _digest(view: JSON) -> str:
    """A short fingerprint of a view: the rng of a decision is seeded from what the seat sees there."""
    text = json.dumps(view, sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
