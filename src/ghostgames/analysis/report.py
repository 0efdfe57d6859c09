"""An analysis as a table for the terminal: move numbers and seats counted from 1, as people count."""

from __future__ import annotations

from ghostgames.analysis.estimate import Analysis


def table(analysis: Analysis) -> str:
    reader = "a spectator" if analysis.seat is None else f"seat {analysis.seat + 1}"
    head = f"{'move':>4} {'seat':>4}  {'played':<22} {'label':<10} {'before':>6} {'after':>6}  best"
    lines = [f"{analysis.game}, {reader}, {analysis.budget} iterations per decision", head]
    for d in analysis.decisions:
        mark = "  (missed win)" if d.missed_win else ""
        best = "" if d.best == d.played else d.best
        points = ""
        if d.match_points is not None:  # Ghooost! in a match: expected match points after the move
            points = f"  points {d.match_points:.1f}"
            if d.best != d.played and d.best_match_points is not None:
                points += f" (best {d.best_match_points:.1f})"
        lines.append(f"{d.ply + 1:>4} {d.seat + 1:>4}  {d.played:<22} {d.label:<10} {d.position:>6.2f} "
                     f"{d.after:>6.2f}  {best}{mark}{points}")
    counts = analysis.counts()
    accuracy = analysis.accuracy()
    summary = ", ".join(f"{counts[name]} {name.replace('_', ' ')}" for name in counts if counts[name])
    if accuracy:
        lines.append("accuracy: " + ", ".join(f"seat {s + 1} {a:.1f}" for s, a in accuracy.items()))
    else:
        lines.append("no decision to judge")
    if summary:
        lines.append("labels: " + summary)
    return "\n".join(lines)
