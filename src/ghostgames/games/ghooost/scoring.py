"""Match scoring: Bouh! tokens for losers, points for the others, and when a match is decided.

Pure functions over lists, so the rules of scoring can be tested without playing a round.
"""

from __future__ import annotations

from ghostgames.games.ghooost.reasons import ROUND_LOSER
from ghostgames.rules.contract import Outcome, ResultKind, SeatResult
from ghostgames.rules.reasons import Reason

MATCH_END_BOUH = 2  # a match ends when somebody holds this many Bouh! tokens


def round_points(players: int, out_order: list[int], loser: int) -> list[int]:
    """Points of one finished round: +1 for every player who got rid of their cards, +1 more for the
    first out and +2 more for the last out (the one just before the loser). The loser gets none."""
    points = [0] * players
    for seat in out_order:
        points[seat] += 1
    if out_order:
        points[out_order[0]] += 1
        points[out_order[-1]] += 2
    points[loser] = 0
    return points


def match_winner(points: list[int], bouh: list[int]) -> int | None:
    """The match winner once decided: somebody holds a second Bouh! and one player leads the others
    (those with fewer than two) alone. None while the match goes on (no second Bouh! yet, or a tie)."""
    if max(bouh) < MATCH_END_BOUH:
        return None
    first = leaders(points, bouh)
    return first[0] if len(first) == 1 else None


def leaders(points: list[int], bouh: list[int]) -> list[int]:
    """The players with most points among those with fewer than two Bouh! (among all, if nobody has fewer)."""
    others = [s for s in range(len(points)) if bouh[s] < MATCH_END_BOUH] or list(range(len(points)))
    best = max(points[s] for s in others)
    return [s for s in others if points[s] == best]


def match_outcome(points: list[int], bouh: list[int], winners: list[int], reason: Reason, /, **args: int) -> Outcome:
    """The winner (or the tied leaders, as a draw, when the round limit ends an undecided match) first; then
    the others by points, then those with two Bouh! by points (ties share a rank)."""
    top = set(winners)

    def key(seat: int) -> tuple[int, int, int]:
        return (0 if seat in top else 1, 1 if bouh[seat] >= MATCH_END_BOUH else 0, -points[seat])

    order = sorted(range(len(points)), key=key)
    ranks = [0] * len(points)
    for place, seat in enumerate(order):
        previous = order[place - 1] if place else None
        ranks[seat] = ranks[previous] if previous is not None and key(previous) == key(seat) else place + 1
    top_result: ResultKind = "win" if len(winners) == 1 else "draw"
    return Outcome.because(
        tuple(
            SeatResult(top_result if s in top else "loss", ranks[s], float(points[s])) for s in range(len(points))
        ),
        reason,
        **args,
    )


def round_outcome(players: int, loser: int) -> Outcome:
    """A single round: the last player holding cards loses, everybody else wins."""
    return Outcome.because(
        tuple(SeatResult("loss", 2, 0.0) if s == loser else SeatResult("win", 1, 1.0) for s in range(players)),
        ROUND_LOSER,
        seat=loser,
    )
