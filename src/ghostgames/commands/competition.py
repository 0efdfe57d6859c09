"""`ghostgames geister-server` and `ghostgames geister-client`: the Geister AI-competition protocol."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console

if TYPE_CHECKING:
    from ghostgames.bots.geister.memory import SetupMemory

console = Console()


def geister_server(
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(10000, help="the first player connects here, the second to PORT+1"),
    games: int | None = typer.Option(None, help="stop after this many games (default: run until Ctrl-C)"),
    budget: float = typer.Option(600.0, help="seconds each player may think in a whole game"),
    timeout: float = typer.Option(10.0, help="seconds for one answer"),
    no_ng_terminate: bool = typer.Option(False, "--no-ng-terminate",
                                         help="an illegal move is refused and tried again instead of losing"),
    pause_ms: float = typer.Option(30.0, help="milliseconds to wait after an acknowledgement"),
    records: Path = typer.Option(Path("geister-records.jsonl"), help="append each finished game here (JSON lines)"),
    db: str | None = typer.Option(None, help="also store each game in this database for replay in the browser, "
                                  "e.g. sqlite:///ghostgames.db (the default of 'ghostgames serve')"),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="print every message"),
) -> None:
    """Referee Geister games in the AI-competition protocol, game after game, and print the results."""
    from ghostgames.competition.results import append_jsonl, outcome_words, results_table, save_to_database
    from ghostgames.competition.server import CompetitionServer, GameResult, ServerSettings

    settings = ServerSettings(budget=budget, timeout=timeout, ng_terminates=not no_ng_terminate,
                              pause=pause_ms / 1000.0)
    finished: list[GameResult] = []

    def on_result(result: GameResult) -> None:
        finished.append(result)
        if verbose:
            for seat, arrow, message in result.transcript:
                console.print(f"  seat {seat} {arrow} {message!r}", highlight=False)
        console.print(f"game {result.number}: {outcome_words(result)} ({result.reason}, {result.plies} plies)")
        try:  # a full disk or a database away must not stop the games; say so loudly instead
            append_jsonl(records, result)
            if db:
                console.print(f"  stored as record {save_to_database(db, result)} in the database")
        except Exception as err:
            console.print(f"[red]  could not store game {result.number}: {err}[/red]")

    async def run() -> None:
        server = CompetitionServer(settings, host, port)
        await server.start()
        console.print(f"Geister competition server: first player on {host}:{server.ports[0]}, "
                      f"second on {host}:{server.ports[1]}; records go to {records}")
        try:
            await server.serve(games, on_result)
        finally:
            await server.close()

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        console.print("stopped")
    console.print(results_table(finished))


def geister_client(
    host: str = typer.Option("127.0.0.1", help="the server's address"),
    port: int = typer.Option(10000, help="10000 plays first, 10001 second (on a standard server)"),
    bot: str = typer.Option("easy", help="a bot name or level: easy, medium, hard, random, …"),
    games: int = typer.Option(1, help="games to play in a row"),
    seconds: float | None = typer.Option(None, help="thinking time per move for bots that take one"),
    seed: int | None = typer.Option(None, help="seed of the bot's randomness"),
    wait: float = typer.Option(30.0, help="seconds to keep trying when the server refuses or drops a "
                               "connection before a game starts (servers do between games)"),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="print every message"),
    memory: Path | None = typer.Option(None, help="a JSON file of the opponent's setups seen, for a bot that "
                                       "remembers them (hard, expert): read first if it exists, written after "
                                       "every game; one file per opponent"),
) -> None:
    """Let one of our bots play on a server speaking the Geister AI-competition protocol. One bot plays all the
    games and is told how each ended, so a bot that remembers (hard, expert) reads the opponent better as they go."""
    from rich.table import Table

    from ghostgames.bots import get_bot
    from ghostgames.bots.geister.memory import SetupMemory
    from ghostgames.competition.client import ClientGame, ServerGone, play_games

    try:
        player = get_bot(bot, seconds)
    except KeyError as err:
        raise typer.BadParameter(str(err.args[0])) from None
    held = getattr(player, "memory", None)
    if memory is not None:
        if not isinstance(held, SetupMemory):
            raise typer.BadParameter(f"--memory needs a bot that remembers setups (hard, expert or expert-memory), "
                                     f"not {bot}")
        if memory.exists():
            for setup in _remembered(memory).setups:
                held.add(setup)

    results: list[ClientGame] = []

    def on_game(number: int, game: ClientGame) -> None:
        results.append(game)
        if memory is not None and isinstance(held, SetupMemory):
            memory.write_text(json.dumps(held.to_json()))
        console.print(f"game {number}: {game.result} after {game.moves} moves of ours"
                      + (f", {game.refused} refused" if game.refused else ""))

    def show(arrow: str, message: str) -> None:
        console.print(f"  {arrow} {message!r}", highlight=False)

    gone: ServerGone | None = None
    try:
        play_games(host, port, player, games, seconds=seconds, seed=seed, connect_wait=wait, on_game=on_game,
                   show=show if verbose else None)
    except ServerGone as err:
        gone = err
    table = Table(title=f"{bot} on {host}:{port}")
    for column in ("games", "won", "lost", "draw", "disconnected"):
        table.add_column(column, justify="right")
    table.add_row(str(len(results)), *(str(sum(g.result == r for g in results))
                                       for r in ("won", "lost", "draw", "disconnected")))
    console.print(table)
    if gone is not None:
        console.print(f"[red]stopped after {len(results)} of {games} games: {gone}[/red]", highlight=False)
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("geister-server")(geister_server)
    app.command("geister-client")(geister_client)


def _remembered(path: Path) -> SetupMemory:
    """The setups an earlier run wrote to `path`, or a clear error saying what the file must hold."""
    from ghostgames.bots.geister.memory import SetupMemory

    try:
        return SetupMemory(json.loads(path.read_text()))
    except (OSError, UnicodeDecodeError, ValueError, TypeError) as err:
        raise typer.BadParameter(f"{path} is not a memory file: {err}. It must be a JSON list of setups, each "
                                 "the opponent's four good ghosts' numbers 0-7, e.g. [[0, 1, 5, 6]] (or delete it "
                                 "to start afresh)") from None
