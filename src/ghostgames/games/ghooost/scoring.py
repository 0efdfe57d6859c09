"""Match scoring: Bouh! tokens for losers, points for the others, and when a match is decided.

Pure functions over lists, so the rules of scoring can be tested without playing a round.
"""

from __future__ import annotations

from ghostgames.rules.contract import Outcome, SeatResult

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
    others = [s for s in range(len(points)) if bouh[s] < MATCH_END_BOUH]
    if not others:
        return None
    best = max(points[s] for s in others)
    leaders = [s for s in others if points[s] == best]
    return leaders[0] if len(leaders) == 1 else None


def match_outcome(points: list[int], bouh: list[int], winner: int) -> Outcome:
    """The winner first; then the others by points, then those with two Bouh! by points (ties share)."""
    def key(seat: int) -> tuple[int, int, int]:
        return (0 if seat == winner else 1, 1 if bouh[seat] >= MATCH_END_BOUH else 0, -points[seat])

    order = sorted(range(len(points)), key=key)
    ranks = [0] * len(points)
    for place, seat in enumerate(order):
        previous = order[place - 1] if place else None
        ranks[seat] = ranks[previous] if previous is not None and key(previous) == key(seat) else place + 1
    return Outcome(
        tuple(
            SeatResult("win" if s == winner else "loss", ranks[s], float(points[s])) for s in range(len(points))
        ),
        f"seat {winner} wins the match with {points[winner]} points",
    )


def round_outcome(players: int, loser: int) -> Outcome:
    """A single round: the last player holding cards loses, everybody else wins."""
    return Outcome(
        tuple(SeatResult("loss", 2, 0.0) if s == loser else SeatResult("win", 1, 1.0) for s in range(players)),
        f"seat {loser} is the last holding cards",
    )
