"""Play a tournament's games in order and append each to a JSON-lines file as it ends, so that a run cut
short (a shared machine, a deadline) still leaves every finished game. Game i is exactly game i of
`ghostgames tournament` with the same bots, seed and options (both call `play_game(spec, i)`).

    .venv/bin/python benchmarks/stream_tournament.py --bots expert:400,charge --games 400 --seed 1 \\
        --out /tmp/expert400-charge.jsonl
    .venv/bin/python benchmarks/how_games_end.py /tmp/expert400-charge.jsonl

An existing file is continued: the games it holds are not played again. Its first line must name the same
run (bots, seed, options and, from leaf_tournament.py, the same leaf options; only `--games` may grow), or
nothing is played. `--start N` begins at game N, so two processes can share a long run (e.g. games 0-29 and
30-59 into two files; how_games_end.py reads both).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ghostgames.rules.options import _coerce
from ghostgames.tournament import TournamentSpec
from ghostgames.tournament.runner import play_game


def run_of(first_line: dict[str, Any]) -> dict[str, Any]:
    """What a file's first line says of the run that wrote it, but for the number of games: game i does not
    depend on it, so a file may be continued by a run with more (or fewer) games."""
    spec = {k: v for k, v in first_line.get("spec", {}).items() if k != "games"}
    return {"spec": spec, "leaf": first_line.get("leaf")}


def main(leaf: dict[str, object] | None = None) -> None:
    """Run the games; `leaf` (leaf_tournament.py's options) is written into the file's first line with the
    spec, so that the file says which weights and playouts its candidate bots used."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="geister")
    parser.add_argument("--bots", required=True, help="comma-separated, e.g. expert:400,charge")
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="the first game to play (from 0)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--option", action="append", default=[], help="name=value, e.g. exit=reach (repeat)")
    args = parser.parse_args()
    options = {key: _coerce(value) for key, _, value in (item.partition("=") for item in args.option)}
    spec = TournamentSpec(args.game, tuple(args.bots.split(",")), args.games, args.players, None, args.seed, options)
    header: dict[str, Any] = {"spec": spec.to_json()}
    if leaf:
        header["leaf"] = leaf
    header = json.loads(json.dumps(header))  # as the file will hold it (lists, not tuples), to compare
    done = set()
    if args.out.exists():
        rows = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
        if rows and run_of(rows[0]) != run_of(header):
            raise SystemExit(f"{args.out} holds games of another run ({json.dumps(rows[0])}); this run is "
                             f"{json.dumps(header)}. Give another --out, or the same bots, seed and options.")
        done = {row["index"] for row in rows if "index" in row}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a") as out:
        if out.tell() == 0:
            out.write(json.dumps(header) + "\n")
        for index in range(args.start, args.games):
            if index in done:
                continue
            out.write(json.dumps(play_game(spec, index).to_json()) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
