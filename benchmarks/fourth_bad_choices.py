"""What else a Geister search bot could have done when it took the enemy's fourth bad ghost (issue 39,
`runner-3`): replays the games of a `ghostgames tournament --json` file that the bot lost by taking all four
bad ones, game for game as `trace_fourth_bad.py` does, and at every capture made with the enemy's last bad
ghost left, notes how the move was chosen (forced, the guard's only answer, or searched among the moves the
guard allowed, with the root's visits and mean reward), where the taken ghost stood, and whether one of our
ghosts could instead have stepped on to the corner the ghost was walking to (a block; the ghost's colour, and
how many of our bad ghosts the enemy had taken: a fourth would lose the game for it). Colours are read from
the game afterwards, never by the bot.

    python benchmarks/fourth_bad_choices.py benchmarks/results/issue39-corner-hard-runner-3-seed15.json \
        --json benchmarks/results/issue39-corner-hard-runner-3-seed15-choices.json

`--bot` replays the games with another bot in that seat (the same seeds), `--games` names the games to replay.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from benchmarks.trace_fourth_bad import lost_by_four_bad

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.geister.fast_search import FastExpertBot
from ghostgames.bots.geister.picture import distance, exit_distance
from ghostgames.games import get_game
from ghostgames.games.geister import fast
from ghostgames.games.geister.actions import Move
from ghostgames.games.geister.board import EXITS
from ghostgames.games.geister.state import GeisterState
from ghostgames.rules.chance import derive_rng
from ghostgames.tournament.runner import TournamentSpec


def decision(bot: Any, state: GeisterState, seat: int) -> dict[str, Any]:
    """How `bot`'s policy meets this position before it chooses: forced or not, the moves it allows."""
    knowledge = SeatKnowledge(state, seat)
    legal = knowledge.legal_actions()
    policy = bot.policy(knowledge)
    forced = policy.forced(legal, random.Random(0))
    allowed = policy.allowed(legal) or legal
    return {"forced": forced is not None, "allowed": [str(m) for m in allowed]}


def blocks(state: GeisterState, me: int, corner: int) -> list[dict[str, Any]]:
    """Our moves on to `corner` (one of the enemy's exits), with the colour of the ghost that makes them."""
    out = []
    for m in state.legal_actions(me):
        if isinstance(m, Move) and m.target == corner:
            out.append({"move": str(m), "good": bool(state.good[state.board[m.origin]])})
    return out


def replay(spec: TournamentSpec, index: int, instead: str | None = None) -> tuple[list[dict[str, Any]], str]:
    """Game `index` replayed (with `instead` in the seat of the first bot of `spec`, if given): every capture of that
    seat's bot with the enemy's last bad ghost left, and how the game ended for it."""
    decisions = derive_rng(spec.seed, "tournament-bots", index)
    seats = spec.seating(index)
    me = seats.index(spec.bots[0])
    if instead is not None:
        seats[me] = instead
    enemy = 1 - me
    theirs = range(8 * enemy, 8 * enemy + 8)
    ours = range(8 * me, 8 * me + 8)
    bots = [get_bot(name) for name in seats]
    state = get_game(spec.game).new(2, spec.game_options(),
                                    seed=derive_rng(spec.seed, "tournament-game", index).randrange(2**63))
    assert isinstance(state, GeisterState)
    found: list[dict[str, Any]] = []
    while state.to_act():
        seat = min(state.to_act())
        rng = random.Random(decisions.randrange(2**63))
        bad_left = sum(1 for g in theirs if state.pos[g] >= 0 and state.good[g] is False)
        looked = decision(bots[seat], state, seat) if seat == me and bad_left == 1 and state.ply > 16 else None
        before, ply = list(state.pos), state.ply
        legal_then = [m for m in state.legal_actions(seat) if isinstance(m, Move)]
        could_block = {corner: blocks(state, me, corner) for corner in EXITS[enemy]} if looked else {}
        bot = bots[seat]
        tree_before = bot.last_tree if isinstance(bot, FastExpertBot) else None
        state.apply(seat, bot.choose(SeatKnowledge(state, seat), rng))
        searched = isinstance(bot, FastExpertBot) and bot.last_tree is not tree_before
        if looked is None:
            continue
        for g in theirs:
            if not before[g] >= 0 > state.pos[g]:
                continue
            corner = min(EXITS[enemy], key=lambda e: distance(before[g], e))
            found.append({
                "ply": ply, "good": bool(state.good[g]), "to_exit": exit_distance(before[g], enemy),
                "our_bad_taken": sum(1 for o in ours if state.pos[o] < 0 and state.good[o] is False),
                "keepers": sorted((distance(before[o], corner), bool(state.good[o])) for o in ours if before[o] >= 0),
                "blocks": could_block[corner],
                **looked,
                "root": root_stats(bot, legal_then) if searched else None,
            })
    outcome = state.outcome()
    assert outcome is not None
    return found, f"{outcome.results[me].result}: {outcome.reason}"


def root_stats(bot: FastExpertBot, moves: list[Move]) -> dict[str, tuple[int, float]]:
    """The last search's root: move -> (visits, mean reward for the searching seat)."""
    assert bot.last_tree is not None
    names = {fast.code_of(m): str(m) for m in moves}
    return {names.get(code, str(code)): (visits, round(reward / visits, 3) if visits else 0.0)
            for code, (visits, _avail, reward) in bot.last_tree.root_children().items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tournament", type=Path)
    parser.add_argument("--bot", help="replay with this bot in the first bot's seat (the same decisions' seeds)")
    parser.add_argument("--games", help="replay these games (indices, comma-separated) instead of the lost ones")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    spec, lost = lost_by_four_bad(args.tournament)
    bot = spec.bots[0]
    if args.games:
        lost = [int(i) for i in args.games.split(",")]
    games, ends = {}, {}
    for index in lost:
        games[index], ends[index] = replay(spec, index, args.bot)
        print(index, ends[index], json.dumps(games[index]), flush=True)
    if args.json:
        args.json.write_text(json.dumps({"tournament": str(args.tournament), "bot": args.bot or bot, "games": games,
                                         "ends": ends}, indent=1) + "\n")


if __name__ == "__main__":
    main()
