"""An analysis as a table for the terminal: move numbers and seats counted from 1, as people count."""

from __future__ import annotations

from ghostgames.analysis.estimate import Analysis


def table(analysis: Analysis) -> str:
    head = f"{'move':>4}  {'played':<22} {'label':<10} {'before':>6} {'after':>6}  best"
    lines = [f"{analysis.game}, seat {analysis.seat + 1}, {analysis.budget} iterations per decision", head]
    for d in analysis.decisions:
        mark = "  (missed win)" if d.missed_win else ""
        best = "" if d.best == d.played else d.best
        lines.append(f"{d.ply + 1:>4}  {d.played:<22} {d.label:<10} {d.position:>6.2f} {d.after:>6.2f}  {best}{mark}")
    counts = analysis.counts()
    accuracy = analysis.accuracy()
    summary = ", ".join(f"{counts[name]} {name.replace('_', ' ')}" for name in counts if counts[name])
    lines.append(f"accuracy {accuracy:.1f}" if accuracy is not None else "no decision to judge")
    if summary:
        lines.append("labels: " + summary)
    return "\n".join(lines)
