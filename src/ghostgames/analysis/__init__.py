"""Post-game analysis from one seat's own knowledge (docs/analysis.md): `analyse(record, seat, budget)`
judges each of the seat's decisions by a search that sees only what the seat saw."""

from ghostgames.analysis.estimate import DEFAULT_BUDGET, Analysis, Decision, MoveEstimate, analyse, analyse_actions

__all__ = ["DEFAULT_BUDGET", "Analysis", "Decision", "MoveEstimate", "analyse", "analyse_actions"]
