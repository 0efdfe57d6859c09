"""`ghostgames ratings rebuild`: fold every rated record again from nothing and say whether the result
equals the ratings the server kept live."""

from __future__ import annotations

import os

import typer

from ghostgames.storage import DEFAULT_URL, Repository


def register(app: typer.Typer) -> None:
    ratings = typer.Typer(help="Player ratings per game (Weng-Lin), folded from the stored game records.",
                          no_args_is_help=True)
    app.add_typer(ratings, name="ratings")

    @ratings.command("rebuild")
    def rebuild(
        db: str | None = typer.Option(None, help="database URL (default: $GHOSTGAMES_DB or ghostgames.db here)"),
    ) -> None:
        """Recompute every rating from the rated records, in the order they were stored, judging each by the
        fair-play rules again."""
        repo = Repository(db or os.environ.get("GHOSTGAMES_DB") or DEFAULT_URL)
        try:
            live = repo.ratings_snapshot()
            folded = repo.rebuild_ratings()
            rebuilt = repo.ratings_snapshot()
        finally:
            repo.close()
        same = rebuilt == live
        judged = len(rebuilt["verdicts"])  # every rated record; those failing fair play do not count
        typer.echo(f"folded {folded} of {judged} rated records: {len(rebuilt['ratings'])} ratings, "
                   f"{len(rebuilt['changes'])} changes; "
                   + ("identical to the live ratings" if same else "DIFFERENT from the live ratings (now replaced)"))
        if not same:
            raise typer.Exit(1)
