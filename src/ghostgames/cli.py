"""The `ghostgames` command. Each area keeps its commands in `ghostgames.commands.<area>`, which
defines `register(app)`; this file only puts them together."""

from __future__ import annotations

import importlib
import importlib.util

import typer

app = typer.Typer(
    help="ghostgames: play Ghooost!, Geister and The Last; run the table server; bench and test bots.",
    no_args_is_help=True,
    add_completion=False,
)

# One module per area; a module missing from this install is simply left out.
COMMAND_MODULES = ("play", "bench", "serve", "tournament", "competition", "ratings", "train", "analyse")


def _register_all() -> None:
    for name in COMMAND_MODULES:
        module_name = f"ghostgames.commands.{name}"
        if importlib.util.find_spec(module_name) is not None:
            importlib.import_module(module_name).register(app)


_register_all()


def main() -> None:
    app()
