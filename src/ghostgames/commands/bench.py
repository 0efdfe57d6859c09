"""`ghostgames bench …`: benchmarks that print a table and write JSON."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from ghostgames.bench import engine as engine_bench

bench_app = typer.Typer(help="Measure speed: 'engine' (rules) and, where installed, 'server' (load).",
                        no_args_is_help=True)


@bench_app.command("engine")
def bench_engine(
    game: str = typer.Option("geister", help="geister, ghooost or thelast"),
    players: list[int] = typer.Option([], help="player counts (repeat the option); default: the game's smallest"),
    seconds: float = typer.Option(5.0, help="seconds per player count"),
    seed: int = typer.Option(0, help="seed of the random players"),
    engine: list[str] = typer.Option(["python"], help="python (the reference rules) or fast (the compiled core "
                                                      "of geister, ghooost or thelast); repeat it to measure both "
                                                      "side by side"),
    batch: int | None = typer.Option(None, help="fast engine: step this many games together (the vector "
                                                "environment, random legal actions from the masks)"),
    threads: int | None = typer.Option(None, help="fast engine with --batch: cores to use (default: all)"),
    runs: int = typer.Option(1, help="runs of each engine, taken in turns; the summary gives the median"),
    json_file: Path | None = typer.Option(None, "--json", help="write the figures here as JSON"),
) -> None:
    """Play uniformly random complete games in one process and print games/s and actions/s."""
    from ghostgames.games import get_game

    try:
        rules = get_game(game)
    except KeyError as err:
        raise typer.BadParameter(str(err.args[0])) from None
    if runs < 1:
        raise typer.BadParameter("--runs is at least 1")
    if (batch is not None or threads is not None) and "fast" not in engine:
        raise typer.BadParameter("--batch and --threads go with --engine fast (python plays one game at a time)")
    counts = players or [rules.min_players]
    results: list[engine_bench.EngineResult] = []
    try:
        for n in counts:
            for _ in range(runs):
                for name in engine:
                    fast = name == "fast"
                    results.append(engine_bench.run(rules.name, n, seconds, seed, engine=name,
                                                    batch=batch if fast else None, threads=threads if fast else None))
    except ValueError as err:
        raise typer.BadParameter(str(err)) from None
    # Seconds and actions per game are in the JSON; the table keeps to 80 columns.
    several = len(counts) > 1
    title = f"{rules.title}{'' if several else f', {counts[0]} players'}: random complete games, one process"
    table = Table(title=title)
    columns = ["engine", "batch", *(["players"] if several else []), "games", "games/s", "best second",
               "actions/s", "load"]
    for column in columns:
        table.add_column(column, justify="right")
    for r in results:
        table.add_row(r.engine, str(r.batch or "-"), *([str(r.players)] if several else []), str(r.games),
                      f"{r.games_per_second:,.0f}", f"{r.best_second_games:,}", f"{r.actions_per_second:,.0f}",
                      f"{r.load_1min:.2f}")
    console = Console()
    console.print(table)
    for n in counts:
        runs_of = {name: [r for r in results if r.engine == name and r.players == n] for name in dict.fromkeys(engine)}
        medians = {name: engine_bench.median_rate(rs) for name, rs in runs_of.items()}
        line = ", ".join(f"{name} {rate:,.0f} games/s ({engine_bench.median_rate(runs_of[name], 'actions'):,.0f} "
                         f"actions/s, {engine_bench.median_rate(runs_of[name], 'cpu'):,.0f} per CPU second)"
                         for name, rate in medians.items())
        if len(medians) > 1:
            base = next(iter(medians.values()))
            line += "; " + ", ".join(f"{name} {rate / base:.1f}x {next(iter(medians))}"
                                     for name, rate in list(medians.items())[1:])
        console.print(f"{n} players, median of {runs} run(s): {line}")
    for r in results:
        if r.warmup_seconds > 3.0:
            console.print(f"the {r.engine} engine took {r.warmup_seconds:.1f} s to start (numba compiles it on its "
                          "first use on a machine and caches it)")
    if json_file:
        engine_bench.write_json(results, json_file)
        console.print(f"wrote {json_file}")


@bench_app.command("server")
def bench_server(
    tables: int = typer.Option(50, help="concurrent tables (two player connections each)"),
    seconds: float = typer.Option(10.0, help="seconds of play to measure"),
    workers: int = typer.Option(1, help="server processes (more than one needs --db postgresql://… and --redis)"),
    db: str | None = typer.Option(None, help="database URL (default: a temporary SQLite file)"),
    redis: str | None = typer.Option(None, help="Redis URL for fan-out between workers"),
    think: float = typer.Option(0.0, help="mean seconds a player waits before each action (0: as fast as the "
                                           "server answers, which measures the most it can do)"),
    echo: bool = typer.Option(True, help="also time a bare WebSocket echo server with the same client"),
    json_file: Path | None = typer.Option(None, "--json", help="write the figures here as JSON"),
    server_src: Path | None = typer.Option(None, help="run the servers from this src/ directory (another "
                                                      "version, for a before/after comparison)"),
) -> None:
    """Play N concurrent Geister tables of scripted players over real WebSockets against servers it starts;
    print actions/s, round trips, errors, server memory, the CPU ms per action of each process (workers, their
    bot workers, PostgreSQL and Redis on this machine, the load client), and the rate of a bare echo server."""
    from ghostgames.bench import server, server_figures

    try:
        result = server.run(tables, seconds, workers, db, redis, echo, think, server_src)
    except ValueError as err:
        raise typer.BadParameter(str(err)) from None
    table = Table(title=f"Server load: {tables} Geister tables, {workers} worker(s), {seconds:g} s")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for name, value in server_figures.summary_rows(result):
        table.add_row(name, value)
    Console().print(table)
    if json_file:
        server_figures.write_json(result, json_file)
        Console().print(f"wrote {json_file}")


def register(app: typer.Typer) -> None:
    app.add_typer(bench_app, name="bench")
