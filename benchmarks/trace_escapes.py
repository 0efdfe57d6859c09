"""Replay the games a Geister search bot lost by an escape and print its last moves before it (issue 39).

    .venv/bin/python benchmarks/trace_escapes.py --bot expert:1000 --against runner --seed 1 --games 50 \
        [--only 0,3,7] [--last 6]
    .venv/bin/python benchmarks/trace_escapes.py --bot expert:1000 --games 50 --calibrate

With --calibrate it plays every game and, at each of the bot's moves, notes for each hidden enemy ghost
within three steps of its exit the belief's chance that it is good and its true colour (read from the game
after the fact, never by the bot), split by whether the enemy's last move brought that ghost forward (an
arrival) or not (a ghost parked there), and whether the enemy had its last bad ghost left.

At each of the bot's last `--last` moves before the enemy's good ghost left: the escaping ghost (where it
stood, the belief's chance that it is good), our ghosts nearest its exit corner, the capture guard's
answers and the race guard's races and allowed moves, and the search's root (the most visited moves with
their visits and mean reward) and the move it chose. The games are `ghostgames tournament`'s, game for game
(`tournament.runner.play_game` with the same spec), so a trace is of the game the tournament file records.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

from ghostgames.bots import get_bot
from ghostgames.bots.base import Bot, SeatKnowledge
from ghostgames.bots.geister.expert import BeliefPolicy, arrived
from ghostgames.bots.geister.picture import distance, exit_distance
from ghostgames.games.geister import fast
from ghostgames.games.geister.actions import Move
from ghostgames.games.geister.board import EXITS, square_name
from ghostgames.games.geister.state import GeisterState
from ghostgames.rules.contract import Action
from ghostgames.tournament.runner import TournamentSpec, play_game


class Tracing:
    """Wraps a search bot: keeps, at every move it makes, what its guard and search saw."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.log: list[dict[str, Any]] = []
        self.name = getattr(bot, "name", "bot")

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action:
        bot: Any = self.bot
        legal = knowledge.legal_actions()
        entry: dict[str, Any] = {"ply": len(knowledge.view()["moves"]), "legal": legal}
        if isinstance(legal[0], Move) and len(legal) > 1:
            policy = bot.policy(knowledge)
            if isinstance(policy, BeliefPolicy):
                entry["policy"] = policy
                entry["answers"] = policy.answers(list(legal))
                entry["races"] = policy.races()
                entry["blocks"] = policy.blocks(list(legal)) if not entry["answers"] else []
                entry["allowed"] = policy.allowed(list(legal)) or legal
        bot.last_tree = None
        action: Action = bot.choose(knowledge, rng)
        entry["action"] = action
        entry["tree"] = getattr(bot, "last_tree", None)
        self.log.append(entry)
        return action

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)


def describe(entry: dict[str, Any], runner: int, seat: int, final_square: int) -> str:
    p = entry.get("policy")
    lines = [f"  ply {entry['ply']}: chose {entry['action']}"]
    if p is None:
        return lines[0] + " (forced / setup)"
    pic = p.picture
    sq = pic.square[runner]
    corner = min(EXITS[pic.enemy], key=lambda c: distance(final_square, c))
    chance = p.good_probability.get(runner, 1.0)
    lines[0] += (f" | runner g{runner} on {square_name(sq) if sq >= 0 else '-'} ({distance(sq, corner)} to "
                 f"{square_name(corner)}), P(good)={chance:.2f}")
    mine = sorted(pic.ghosts(pic.me), key=lambda g: distance(pic.square[g], corner))[:3]
    taken = pic.captured[pic.enemy]
    lost = pic.captured[pic.me]
    lines.append(f"    taken by us: {taken['good']} good {taken['bad']} bad; ours taken: {lost['good']} good "
                 f"{lost['bad']} bad")
    lines.append("    ours near the corner: " + ", ".join(
        f"{square_name(pic.square[g])}({'G' if pic.colour[g] == 1 else 'B'},{distance(pic.square[g], corner)})"
        for g in mine))
    others = sorted(((g, p.good_probability.get(g, 1.0)) for g in pic.ghosts(pic.enemy) if g != runner),
                    key=lambda t: min(distance(pic.square[t[0]], c) for c in EXITS[pic.enemy]))[:3]
    lines.append("    other enemies near exits: " + ", ".join(
        f"{square_name(pic.square[g])}:{c:.2f}" for g, c in others))
    races = ", ".join(f"{square_name(r)}->{square_name(c)}:{s}" for r, c, s in entry["races"])
    lines.append(f"    answers={[str(m) for m in entry['answers']]} races=[{races}] "
                 f"blocks={len(entry['blocks'])}/{len(entry['legal'])} allowed={len(entry['allowed'])}")
    tree = entry["tree"]
    if tree is not None:
        stats = tree.root_children()
        names = {fast.code_of(m): str(m) for m in entry["legal"] if isinstance(m, Move)}
        top = sorted(stats.items(), key=lambda kv: -kv[1][0])[:4]
        lines.append("    search: " + "; ".join(
            f"{names.get(code, code)}: {v} visits, {r / max(v, 1):.2f}" for code, (v, _, r) in top))
    return "\n".join(lines)


def at_each_move(spec: TournamentSpec, games: list[int], bot: str,
                 visit: Callable[[Any, BeliefPolicy], None]) -> None:
    """Play the games `games` of `spec` and call `visit(state, policy)` at each move of `bot` while the game goes
    on: the true state (for the colours, after the fact) and the expert's `BeliefPolicy` on the seat's knowledge."""
    for index in games:
        seat = spec.seating(index).index(bot)

        def watch(state: Any, seat: int = seat) -> None:
            if state.turn == seat and state.playing:
                visit(state, BeliefPolicy(SeatKnowledge(state, seat)))

        play_game(spec, index, watch=watch)


def calibrate(spec: TournamentSpec, games: list[int], bot: str) -> None:
    """Print, by steps from the exit, the belief's mean chance and the true share of good ghosts among the
    arrivals and the parked ghosts (see the module's doc); one row per (our move, ghost)."""
    rows: list[tuple[int, bool, float, bool, bool]] = []  # steps, arrival, chance, good, last bad left

    def note(state: Any, policy: BeliefPolicy) -> None:
        pic = policy.picture
        came = arrived(pic, list(policy.knowledge.view()["moves"]))
        for g, chance in policy.good_probability.items():
            steps = exit_distance(pic.square[g], pic.enemy)
            if steps <= 3:
                rows.append((steps, g == came, chance, bool(state.good[g]), pic.captured[pic.enemy]["bad"] >= 3))

    at_each_move(spec, games, bot, note)
    print("steps | kind    | rows | belief's mean chance | truly good | rows with the last bad ghost left (good), "
          "the belief's mean there")
    for steps in range(4):
        for kind in (True, False):
            sel = [r for r in rows if r[0] == steps and r[1] == kind]
            if sel:
                last = [r for r in sel if r[4]]
                print(f"{steps:5} | {'arrival' if kind else 'parked ':7} | {len(sel):4} | "
                      f"{sum(r[2] for r in sel) / len(sel):20.2f} | {sum(r[3] for r in sel) / len(sel):10.2f} | "
                      f"{len(last)} ({sum(r[3] for r in last)}), "
                      f"{sum(r[2] for r in last) / max(len(last), 1):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="expert:1000")
    parser.add_argument("--against", default="runner")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--only", default="")
    parser.add_argument("--last", type=int, default=6)
    parser.add_argument("--calibrate", action="store_true", help="the belief near our exits against the truth")
    args = parser.parse_args()
    spec = TournamentSpec(game="geister", bots=(args.bot, args.against), games=args.games, players=2, seed=args.seed,
                          options={"exit": "escape"})
    only = [int(i) for i in args.only.split(",") if i] or list(range(args.games))
    tracers: list[Tracing] = []

    def make(seconds: float | None) -> Any:
        tracer = Tracing(get_bot(args.bot, seconds))
        tracers.append(tracer)
        return tracer

    if args.calibrate:
        calibrate(spec, only, args.bot)
        return
    for index in only:
        tracers.clear()
        states: list[GeisterState] = []

        def keep(state: Any, into: list[GeisterState] = states) -> None:
            into.append(state.clone())

        result = play_game(spec, index, watch=keep, makers={args.bot: make})
        seat = result.seats.index(args.bot)
        if result.results[seat]["result"] != "loss" or "escaped" not in result.reason:
            print(f"game {index}: {result.results[seat]['result']} ({result.reason})")
            continue
        last = states[-1]
        enemy = 1 - seat
        runner = next(g for g in range(enemy * 8, enemy * 8 + 8) if last.pos[g] >= 0
                      and last.pos[g] in EXITS[enemy] and last.good[g])
        print(f"game {index}: lost, {result.reason} at ply {result.actions}; escaper g{runner} "
              f"(enemy {'moves first' if spec.seating(index).index(args.against) == 0 else 'second'})")
        for entry in tracers[0].log[-args.last:]:
            print(describe(entry, runner, seat, last.pos[runner]))


if __name__ == "__main__":
    main()
