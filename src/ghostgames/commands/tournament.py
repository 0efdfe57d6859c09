"""`ghostgames tournament`: bots play seat-rotated games across processes; a table, JSON and a plot."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from ghostgames.rules.options import _coerce


def tournament(
    game: str = typer.Option(..., help="geister, ghooost or thelast"),
    bots: str = typer.Option(..., help="comma-separated bot names or levels, e.g. expert,rules or ismcts:400,random"),
    games: int = typer.Option(100, min=1, help="number of games"),
    players: int | None = typer.Option(None, help="players per game (default: the game's smallest count)"),
    workers: int = typer.Option(1, min=1, help="worker processes"),
    seconds_per_move: float | None = typer.Option(
        None, "--seconds-per-move", help="thinking time of search bots (default: their iteration budget)"
    ),
    seed: int = typer.Option(0, help="tournament seed: the same seed plays the same games"),
    option: list[str] = typer.Option([], help="game option as name=value (repeat); overrides the defaults"),
    json_file: Path | None = typer.Option(None, "--json", help="write the spec, statistics and games as JSON"),
    plot_file: Path | None = typer.Option(None, "--plot", help="draw the statistics as a PNG"),
) -> None:
    """Play bots against each other. Seats rotate every game; results are reproducible from the seed
    (exactly so when every search bot has an iteration budget, e.g. 'ismcts:400')."""
    from ghostgames.bots import get_bot
    from ghostgames.games import get_game
    from ghostgames.tournament import TournamentSpec, run_tournament, summarize
    from ghostgames.tournament.table import stats_table

    try:
        rules = get_game(game)
        names = tuple(n.strip() for n in bots.split(",") if n.strip())
        for name in names:
            get_bot(name)
    except KeyError as err:
        raise typer.BadParameter(str(err.args[0])) from None
    if not names:
        raise typer.BadParameter("name at least one bot")
    options = {}
    for item in option:
        key, sep, value = item.partition("=")
        if not sep:
            raise typer.BadParameter(f"--option takes name=value, not {item!r}")
        options[key.strip()] = _coerce(value)
    count = players or rules.min_players
    try:
        rules.options(count, options)
    except ValueError as err:
        raise typer.BadParameter(str(err)) from None
    spec = TournamentSpec(rules.name, names, games, count, seconds_per_move, seed, options)
    console = Console()
    if not console.is_terminal:
        console = Console(width=120)  # a log file gets the whole table, not 80 squeezed columns
    with Progress(
        TextColumn(f"{rules.title} {' vs '.join(names)}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), TimeRemainingColumn(), console=console, transient=False,
    ) as progress:
        task = progress.add_task("games", total=games)
        results = run_tournament(spec, workers, lambda _: progress.advance(task))
    stats = summarize(names, results)
    title = f"{rules.title}, {count} players, {games} games, seed {seed}"
    console.print(stats_table([(s.bot, s) for s in stats], title))
    if json_file:
        json_file.parent.mkdir(parents=True, exist_ok=True)
        json_file.write_text(json.dumps({
            "spec": spec.to_json(),
            "workers": workers,
            "stats": [s.to_json() for s in stats],
            "games": [r.to_json() for r in results],
        }, indent=1))
        console.print(f"wrote {json_file}")
    if plot_file:
        from ghostgames.tournament.plot import plot

        plot(stats, title, plot_file)
        console.print(f"wrote {plot_file}")


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament)
