"""Geister in a terminal: the board as Rich text, drawn from one seat's view (never from the state)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ghostgames.games.geister.board import FILES, SIZE

# What a ghost looks like: own/known good, own/known bad, unknown enemy.
_GLYPH = {("good", True): ("G", "bold green"), ("bad", True): ("B", "bold red")}


def board_text(view: dict[str, Any]) -> Text:
    """Rows 6 to 1 top-down; exits marked with '>' / '<'; letters: G good, B bad, ? unknown enemy.
    Lower case marks the enemy's ghosts whose colour is known."""
    seat = view["seat"]
    by_square = {g["square"]: g for g in view["ghosts"] if g["square"]}
    exits = {sq: owner for owner, squares in enumerate(view["exits"]) for sq in squares}
    text = Text()
    text.append("    " + "  ".join(FILES) + "\n", style="dim")
    for row in range(SIZE, 0, -1):
        text.append(f" {row} ", style="dim")
        for col in range(SIZE):
            square = f"{FILES[col]}{row}"
            ghost = by_square.get(square)
            if ghost is None:
                mark = "." if square not in exits else ("^" if exits[square] == (seat or 0) else "v")
                text.append(f" {mark} ", style="dim")
                continue
            mine = ghost["owner"] == seat
            if ghost["colour"] is None:
                text.append(" ? ", style="bold magenta")
            else:
                letter, style = _GLYPH[(ghost["colour"], True)]
                text.append(f" {letter if mine else letter.lower()} ", style=style if mine else "italic " + style)
        text.append(f" {row}\n", style="dim")
    text.append("    " + "  ".join(FILES) + "\n", style="dim")
    return text


def status_lines(view: dict[str, Any]) -> list[str]:
    lost = view["captured"]
    lines = [
        f"move {view['ply']}"
        + (f" of {view['options']['max_plies']}" if view["options"].get("max_plies") else "")
        + f" | exit rule: {view['options']['exit']}",
        f"seat 0 has lost {lost[0]['good']} good, {lost[0]['bad']} bad; "
        f"seat 1 has lost {lost[1]['good']} good, {lost[1]['bad']} bad",
    ]
    if view["moves"]:
        lines.append("last moves: " + ", ".join(view["moves"][-6:]))
    return lines
