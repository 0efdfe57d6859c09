"""The tournament as a picture: win rate with its 95% interval, draws, and mean rank per bot."""

from __future__ import annotations

from pathlib import Path

from ghostgames.tournament.stats import BotStats


def plot(stats: list[BotStats], title: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [s.bot for s in stats]
    xs = list(range(len(stats)))
    fig, (left, right) = plt.subplots(1, 2, figsize=(4 + 1.6 * len(stats), 4))
    rates = [100 * s.win_rate for s in stats]
    errors = [
        [100 * (s.win_rate - s.win_low) for s in stats],
        [100 * (s.win_high - s.win_rate) for s in stats],
    ]
    left.bar(xs, rates, yerr=errors, capsize=6, color="#4c72b0", label="wins")
    left.bar(xs, [100 * s.draws / s.seats if s.seats else 0 for s in stats], bottom=rates, color="#c0c0c0",
             label="draws")
    left.set_xticks(xs, names)
    left.set_ylim(0, 100)
    left.set_ylabel("% of seat-games (95% Wilson interval)")
    left.legend(loc="upper right", fontsize="small")
    right.bar(xs, [s.mean_rank for s in stats], color="#dd8452")
    right.set_xticks(xs, names)
    right.set_ylabel("mean rank (1 = best)")
    fig.suptitle(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
