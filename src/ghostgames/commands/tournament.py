"""`ghostgames tournament`: bots play seat-rotated games across processes or a Ray cluster; a table, JSON,
a plot and a results file written as games end (which `--resume` continues)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console

from ghostgames.commands.backend import RunProgress, address_option, backend_option, open_executor
from ghostgames.rules.options import _coerce


def tournament(
    game: str = typer.Option(..., help="geister, ghooost or thelast"),
    bots: str = typer.Option(..., help="comma-separated bot names or levels, e.g. expert,rules or ismcts:400,random"),
    games: int = typer.Option(100, min=1, help="number of games"),
    players: int | None = typer.Option(None, help="players per game (default: the game's smallest count)"),
    workers: int = typer.Option(1, min=1, help="worker processes (with --backend ray: games in flight at once; "
                                               "default twice the cluster's CPUs)"),
    backend: str = backend_option(),
    address: str | None = address_option(),
    seconds_per_move: float | None = typer.Option(
        None, "--seconds-per-move", help="thinking time of search bots (default: their iteration budget)"
    ),
    seed: int = typer.Option(0, help="tournament seed: the same seed plays the same games"),
    seatings: str = typer.Option("rotations", help="rotations: the bots rotate over the seats in the order named; "
                                 "cycle (one bot a seat): every cyclic order of them in turn, each in its rotations, "
                                 "so that no bot always plays right after the same one (6 orders for 4 bots: "
                                 "a multiple of 24 games seats them all alike)"),
    option: list[str] = typer.Option([], help="game option as name=value (repeat); overrides the defaults"),
    json_file: Path | None = typer.Option(None, "--json", help="write the spec, statistics and games as JSON"),
    plot_file: Path | None = typer.Option(None, "--plot", help="draw the statistics as a PNG"),
    results_file: Path | None = typer.Option(None, "--results", help="append each game to this JSON-lines file "
                                                                   "as it ends (the spec on the first line)"),
    resume: Path | None = typer.Option(None, "--resume", help="continue the run in this results file: its "
                                                             "games are kept, the others played and added"),
) -> None:
    """Play bots against each other. Seats rotate every game (with --seatings cycle, so do the bots' orders);
    results are reproducible from the seed (exactly so when every search bot has an iteration budget, e.g.
    'ismcts:400')."""
    from ghostgames.bots import get_bot
    from ghostgames.games import get_game
    from ghostgames.tournament import GameResult, TournamentSpec, run_tournament, summarize
    from ghostgames.tournament.stream import ResultsFile, read_results
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
    spec = TournamentSpec(rules.name, names, games, count, seconds_per_move, seed, options, seatings)
    try:
        spec.seating(0)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--seatings") from None
    if resume is not None and results_file is not None and resume != results_file:
        raise typer.BadParameter("--resume already names the results file; give one of them", param_hint="--results")
    stream_to = resume or results_file
    finished: list[GameResult] = []
    if resume is not None and resume.exists():
        try:
            finished = read_results(resume, spec)
        except ValueError as err:
            raise typer.BadParameter(str(err), param_hint="--resume") from None
    console = Console()
    if not console.is_terminal:
        console = Console(width=120)  # a log file gets the whole table, not 80 squeezed columns
    if finished:
        console.print(f"{resume}: {len(finished)} games already played; playing the other {games - len(finished)}")
    executor = open_executor(backend, workers, address, names)
    stream = ResultsFile(stream_to, spec) if stream_to is not None else None
    try:
        with RunProgress(console, f"{rules.title} {' vs '.join(names)}", games, executor,
                         done=len([g for g in finished if g.index < games])) as bar:
            def ended(result: GameResult) -> None:
                if stream is not None:
                    stream.add(result)
                bar.advance()

            results = run_tournament(spec, workers, ended, executor, finished)
    finally:
        executor.close()
        if stream is not None:
            stream.close()
    stats = summarize(names, results)
    title = f"{rules.title}, {count} players, {games} games, seed {seed}"
    console.print(stats_table([(s.bot, s) for s in stats], title))
    if json_file:
        json_file.parent.mkdir(parents=True, exist_ok=True)
        json_file.write_text(json.dumps({
            "spec": spec.to_json(),
            "workers": workers,
            "backend": backend,
            "nodes": executor.nodes,
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
