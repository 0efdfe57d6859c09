"""The captures a Geister search bot made with the enemy's last bad ghost left, in chosen games of a
`ghostgames tournament --json` file, replayed game for game (the seeds of `tournament.runner.play_game`): the
ghost's true colour (read from the game afterwards, never by the bot), its steps to our corner, what the kinds
belief (`kinds.kind_belief`) and `expert`'s belief gave it, the kinds mixture's shares, and its kind features.

    python benchmarks/trace_kinds_captures.py benchmarks/results/issue39-kinds-runner3-1000.json --only 3,4,14,15
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.geister.belief import belief, model_shares
from ghostgames.bots.geister.kinds import KIND_FEATURES, kind_belief, kind_features, kind_models
from ghostgames.bots.geister.picture import exit_distance, read
from ghostgames.games import get_game
from ghostgames.rules.chance import derive_rng
from ghostgames.tournament.runner import TournamentSpec


def trace(spec: TournamentSpec, index: int) -> None:
    decisions = derive_rng(spec.seed, "tournament-bots", index)
    seats = spec.seating(index)
    me = seats.index(spec.bots[0])
    enemy = 1 - me
    bots = [get_bot(name) for name in seats]
    state = get_game(spec.game).new(2, spec.game_options(),
                                    seed=derive_rng(spec.seed, "tournament-game", index).randrange(2**63))
    while state.to_act():
        seat = min(state.to_act())
        rng = random.Random(decisions.randrange(2**63))
        view = None if state.setup_phase() else state.view(me)  # type: ignore[attr-defined]
        before = list(state.pos)  # type: ignore[attr-defined]
        state.apply(seat, bots[seat].choose(SeatKnowledge(state, seat), rng))
        if seat != me or view is None:
            continue
        picture, moves = read(view), list(view["moves"])
        taken = [g for g in range(enemy * 8, enemy * 8 + 8) if before[g] >= 0 > state.pos[g]]  # type: ignore[attr-defined]
        if not taken or picture.captured[enemy]["bad"] < 3:
            continue
        g = taken[0]
        kinds = kind_belief(picture, moves).good_probability()[g]
        old = belief(picture, moves).good_probability()[g]
        shares = model_shares(picture, moves, kind_models(), kind_features, KIND_FEATURES)
        x = dict(zip(KIND_FEATURES, kind_features(picture, moves)[g], strict=True))
        print(f"game {index}, ply {state.ply}: took ghost {g} ({'good' if state.good[g] else 'bad'}),"  # type: ignore[attr-defined]
              f" {exit_distance(before[g], enemy)} steps from our corner; kinds belief {kinds:.2f}, expert's {old:.2f};"
              f" shares {[round(v, 2) for v in shares]}")
        print("   ", {k: round(v, 2) for k, v in x.items() if v})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tournament", type=Path)
    parser.add_argument("--only", required=True, help="game indices, comma-separated")
    args = parser.parse_args()
    s = json.loads(args.tournament.read_text())["spec"]
    spec = TournamentSpec(s["game"], tuple(s["bots"]), s["games"], s["players"], None, s["seed"], s["options"])
    for index in (int(i) for i in args.only.split(",")):
        trace(spec, index)


if __name__ == "__main__":
    main()
