"""The statistics table people read, shared by `ghostgames tournament` and `ghostgames.evaluate`."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from ghostgames.tournament.stats import BotStats

COLUMNS = ("seat-games", "wins", "win rate (95% CI)", "draws", "mean score", "mean rank", "s/move")


def stats_table(rows: Sequence[tuple[str, BotStats]], title: str, first: str = "bot") -> Table:
    """One row per (label, statistics); the win rate with its Wilson 95% interval, in per cent."""
    table = Table(title=title)
    table.add_column(first, justify="left")
    for column in COLUMNS:
        table.add_column(column, justify="right")
    for label, s in rows:
        table.add_row(
            label, str(s.seats), str(s.wins),
            f"{100 * s.win_rate:.1f}% ({100 * s.win_low:.1f}-{100 * s.win_high:.1f})",
            str(s.draws), f"{s.mean_score:.2f}", f"{s.mean_rank:.2f}", f"{s.seconds_per_move:.3f}",
        )
    return table
