"""What a finished game pays each seat in OpenSpiel: a zero-sum split of the losers' stakes.

Every loser pays 1 and the best-placed seats (the winners, or the drawn seats when nobody won) share what
the losers paid: with 2 players that is +1 / -1, and 0 each for a draw. Each game's own Outcome decides who
won, so a game's rules (The Last's lowest penalty, Ghooost!'s last seat holding cards, Geister's exits and
captures) decide the returns too. The Last can also pay minus each seat's penalty (general-sum), since its
penalties are what its players count.
"""

from __future__ import annotations

from ghostgames.rules.contract import Outcome


def win_returns(outcome: Outcome) -> list[float]:
    """The zero-sum split described above."""
    results = [r.result for r in outcome.results]
    losers = results.count("loss")
    best = "win" if "win" in results else "draw"
    share = losers / results.count(best) if best in results else 0.0
    return [share if r == best else -1.0 if r == "loss" else 0.0 for r in results]


def penalty_returns(outcome: Outcome) -> list[float]:
    """Minus each seat's total penalty (The Last keeps it as the seat's score)."""
    return [-r.score for r in outcome.results]
