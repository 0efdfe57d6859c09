"""`ghostgames play geister`: a person against a bot in the terminal."""

from __future__ import annotations

import random
import sys

import typer
from rich.console import Console

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.games import get_game
from ghostgames.rules import IllegalAction, OptionError

play_app = typer.Typer(help="Play a game in the terminal against a bot.", no_args_is_help=True)

COMMANDS_HELP = """Type an action, or one of: help (the rules and action forms), legal (what you may do now),
random (a random legal action for you), quit."""


@play_app.command("geister")
def play_geister(
    seat: int = typer.Option(0, help="your seat: 0 (starts on b1-e2) or 1 (starts on b5-e6)"),
    bot: str = typer.Option("random", help="the opponent: random, or a level easy/medium/hard"),
    exit_rule: str = typer.Option("reach", "--exit", help="reach or escape"),
    max_plies: int | None = typer.Option(None, help="moves before a draw (none: no limit)"),
    seed: int | None = typer.Option(None, help="seed for a game you can replay exactly"),
) -> None:
    """Geister against a bot: set up in secret, then move one ghost a turn."""
    console = Console()
    from ghostgames.games.geister.render import board_text, status_lines

    game = get_game("geister")
    try:
        state = game.new(2, {"exit": exit_rule, "max_plies": max_plies}, seed=seed)
        opponent = get_bot(bot)
    except (OptionError, KeyError, ValueError) as err:
        console.print(f"[red]{err}[/red]")
        raise typer.Exit(2) from None
    if seat not in (0, 1):
        console.print("[red]--seat is 0 or 1[/red]")
        raise typer.Exit(2)
    rng = random.Random(seed)
    console.print(game.help_text())
    console.print(COMMANDS_HELP)
    while state.outcome() is None:
        acting = state.to_act()
        if 1 - seat in acting:
            action = opponent.choose(SeatKnowledge(state, 1 - seat), rng)
            events = state.apply(1 - seat, action)
            # Print what the bot did as the public log says it, never the action itself (a setup is secret).
            for event in events:
                public = event.for_seat(seat)
                if "move" in public:
                    console.print(f"[cyan]bot:[/cyan] {public['move']}")
            continue
        view = state.view(seat)
        console.print(board_text(view))
        for line in status_lines(view):
            console.print(line)
        prompt = "your setup" if view["phase"] == "setup" else "your move"
        console.print(f"{prompt}> ", end="")
        line = sys.stdin.readline()
        if not line:
            console.print("\nend of input: game left unfinished")
            raise typer.Exit(1)
        text = line.strip()
        if text in ("quit", "exit"):
            console.print("bye")
            return
        if text == "help":
            console.print(game.help_text())
            console.print(COMMANDS_HELP)
            continue
        if text == "legal":
            console.print(", ".join(view["legal"]))
            continue
        if text == "random":
            text = str(rng.choice(state.legal_actions(seat)))
            console.print(f"you play {text}")
        try:
            state.apply(seat, text)
        except IllegalAction as err:
            console.print(f"[red]{err.reason}[/red] (type 'help' or 'legal')")
    view = state.view(seat)
    console.print(board_text(view))
    outcome = view["outcome"]
    result = outcome["results"][seat]["result"]
    console.print(f"[bold]You {'win' if result == 'win' else 'lose' if result == 'loss' else 'draw'}[/bold]: "
                  f"{outcome['reason']}.")


def register(app: typer.Typer) -> None:
    app.add_typer(play_app, name="play")
