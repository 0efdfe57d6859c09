"""What knowing the others' hands is worth decision by decision, and how much of it a belief read from their moves
gives back: The Last at a recorded table (docs/research/thelast-multiplayer.md, "What the others' hands are worth
decision by decision at 4 players").

The belief calibration (`thelast_belief_calibration.py`) scored a belief by how well it places every unseen card;
a card that decides nothing counts there as much as one that decides the trick. This scores it by the decisions
instead. At each recorded decision of the observing seat (the expert's, with a choice), the expert's search runs
three times from the same position, on the same iteration budget, with its own kernel, playouts and reward:

- U: on worlds the seat deduces (`sample_world`), every world alike (today's expert);
- T: on the same worlds drawn by their weight under the belief T of the calibration (the likelihood of the others'
  moves of the round under the search's own playout mix, to the power `--power`);
- O: on the true hands and face-down piles of every seat (only the points pile, hidden from everyone, dealt
  afresh in each world): the oracle of "How much the others' cards are worth at 4 players".

A fourth search, the referee, is the oracle again on other random streams and a larger budget: its mean reward
of each root action prices every arm's choice. An arm's regret is the referee's best mean less its mean for the
arm's choice (in the search's reward, 0 to 1: half the share of the others beaten, half a logistic of the penalty
against the others' mean over 8 points). O's own regret is what search noise costs; U - O is what not knowing the
hands costs this search, and (U - T) / (U - O) the share of it the belief gives back.

    D=$(ls benchmarks/results/thelast4-belief-data-seed*.json); export PYTHONPATH=src:.
    .venv/bin/python benchmarks/thelast_decision_regret.py --data $D --shard 0/2 --json r0.json
    .venv/bin/python benchmarks/thelast_decision_regret.py --report r0.json r1.json

The games are the calibration's held-out half (every block of it, or the first `--blocks`).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
from benchmarks.openspiel_cards import load
from benchmarks.thelast_belief_calibration import (
    SEARCH_MIX,
    Floats,
    Game,
    Ints,
    halves,
    move_terms,
    positions,
    read_games,
    sharded,
    start_row,
    weigh,
    world_actions,
)

from ghostgames.bots.budget import Budget
from ghostgames.bots.fast_tree import ACTION, FIRST, SIBLING, VISITS, Tree, root_codes
from ghostgames.bots.thelast.fast_search import (
    CHUNK,
    OPPONENTS,
    POOL,
    REUSE,
    SEATS,
    TheLastExpertPolicy,
    iterate,
    shipped_tables,
)
from ghostgames.bots.thelast.playout_policy import K, shipped_weights
from ghostgames.games.thelast import fast
from ghostgames.games.thelast.encoding import action_index
from ghostgames.games.thelast.state import PLAY, TheLastState
from ghostgames.jit import new_streams

ARMS = ("U", "T", "O")
EXPERT = TheLastExpertPolicy  # its settings: the reward's rank share and scale, the playouts' mix
EXPLORATION = 0.5  # the expert's (search_bots.expert)
KINDS = ("lead", "follow", "last", "keep or swap")


def expert_mix() -> Floats:
    """The expert's OPPONENTS playout shares per seat at 4-5 players (`rules`, its logit; the rest uniform), read
    from the policy so that the measure follows the expert."""
    mix = np.zeros((SEATS, 2), dtype=np.float64)
    mix[:, 0], mix[:, 1] = EXPERT.opponent_rules, EXPERT.opponent_learned
    return mix


def true_row(state: TheLastState, rng: random.Random) -> Ints:
    """The true state as a compiled row, the points pile redrawn from the pile and the spare cards (which of
    them lie in the pile, in which order, no seat knows)."""
    row = fast.from_state(state)
    unseen = list(state.points) + list(state.spare)
    rng.shuffle(unseen)
    size = len(state.points)
    for k in range(size):
        row[fast.POINTS + k] = unseen[k]
    spare = 0
    for card in unseen[size:]:
        spare |= 1 << card
    row[fast.SPARE] = spare
    return row


def search(rows: Ints, weights: Floats | None, seat: int, root_actions: Ints, iterations: int,
           rng: random.Random) -> tuple[dict[int, int], dict[int, float]]:
    """The expert's kernel for `iterations` on worlds drawn from `rows` (by `weights`, or all alike), `POOL` a
    chunk as the expert draws them; the root's visits and mean reward by action code."""
    stream = new_streams(rng, 1)
    draw = np.random.default_rng(rng.getrandbits(63))
    p = None if weights is None else weights / weights.sum()
    tables, mix = shipped_tables(), expert_mix()

    def run_chunk(tree: Tree, count: int) -> None:
        pool = rows[draw.choice(len(rows), size=min(POOL, count), p=p)]
        iterate(pool, count, root_actions, EXPLORATION, tree.nodes, tree.reward, tree.size, stream, OPPONENTS,
                EXPERT.rank_weight, EXPERT.penalty_scale, tables, mix)

    tree = Tree(seat, CHUNK + 1)
    tree.grow(Budget(iterations=iterations), POOL * REUSE, run_chunk)
    means: dict[int, float] = {}
    child = int(tree.nodes[0, FIRST])
    while child >= 0:
        n = int(tree.nodes[child, VISITS])
        means[int(tree.nodes[child, ACTION])] = float(tree.reward[child]) / n if n else 0.0
        child = int(tree.nodes[child, SIBLING])
    return tree.root_visits(), means


def most_visited(visits: dict[int, int], codes: Ints) -> int:
    """The expert's choice (`Tree.most_visited`'s rule: the most visited root action, the lowest code among equals)."""
    return max(sorted(int(c) for c in codes), key=lambda c: visits.get(c, 0))


def kind_of(state: TheLastState) -> str:
    if state.phase != PLAY:
        return "keep or swap"
    if not state.trick_cards:
        return "lead"
    return "last" if len(state.trick_cards) == state.players - 1 else "follow"


def measure(game: Game, spiel_game: Any, worlds: int, iterations: int, referee: int, power: float,
            rng: random.Random, observer: str = "expert") -> list[dict[str, Any]]:
    """One row per decision of the game's `observer` (a bot's name) that has a choice: its trick, kind, every
    arm's choice and regret under the referee, and the belief's effective share of the worlds."""
    before = positions(game, spiel_game)
    weights, own = shipped_weights(), np.zeros((len(game.seats), K))
    s_mix = np.array([(*SEARCH_MIX, 0.0)] * len(game.seats))
    out, actors = np.empty((64, 4)), np.empty(64, dtype=np.int64)
    rows = []
    for t, state in enumerate(before[:-1]):
        obs = state.actor
        if game.seats[obs] != observer or len(state.legal_actions(obs)) < 2:
            continue
        _, codes = root_codes(state.legal_actions(obs), action_index)
        deduced = np.empty((worlds, fast.FIELDS), dtype=np.int64)
        loglik = np.full(worlds, -np.inf)
        for w in range(worlds):
            world = state.sample_world(obs, rng)
            deduced[w] = fast.from_state(world)
            m = move_terms(start_row(world), world_actions(world, game.actions[:t], before[:t], obs), obs, weights,
                           own, out, actors)
            if m >= 0:
                with np.errstate(divide="ignore"):
                    loglik[w] = float(np.log((out[:m] * s_mix[actors[:m]]).sum(axis=1)).sum())
        belief, _ = weigh(power * loglik)
        oracle = np.array([true_row(state, rng) for _ in range(worlds)])
        choices = {}
        for arm, arm_rows, arm_weights in (("U", deduced, None), ("T", deduced, belief), ("O", oracle, None)):
            visits, _ = search(arm_rows, arm_weights, obs, codes, iterations, rng)
            choices[arm] = most_visited(visits, codes)
        ref_visits, ref_means = search(np.array([true_row(state, rng) for _ in range(worlds)]), None, obs, codes,
                                       referee, rng)
        best = max(ref_means.values())
        rows.append({"t": t, "trick": len(state.tricks) + 1, "kind": kind_of(state), "actions": len(codes),
                     "choices": choices, "regret": {arm: best - ref_means.get(c, 0.0) for arm, c in choices.items()},
                     "ess": float(belief.sum() ** 2 / (belief ** 2).sum() / worlds),
                     "referee_visits": {str(k): v for k, v in ref_visits.items()}})
    return rows


def interval(values: Floats, resamples: int = 2000, seed: int = 0) -> tuple[float, float, float]:
    """Mean and 95% bootstrap interval (the unit: whatever `values` rows are, here games)."""
    draw = np.random.default_rng(seed)
    means = np.array([values[draw.integers(0, len(values), len(values))].mean() for _ in range(resamples)])
    return float(values.mean()), float(np.quantile(means, 0.025)), float(np.quantile(means, 0.975))


def recovery(per_game: list[dict[str, float]], resamples: int = 2000, seed: int = 0) -> tuple[float, float, float]:
    """(U - T) / (U - O) over the games' summed regrets, with a 95% bootstrap interval over games."""
    u, t, o = (np.array([g[a] for g in per_game]) for a in ARMS)
    draw = np.random.default_rng(seed)
    picks = [draw.integers(0, len(u), len(u)) for _ in range(resamples)]
    values = np.array([(u[i].sum() - t[i].sum()) / (u[i].sum() - o[i].sum()) for i in picks])
    return (float((u.sum() - t.sum()) / (u.sum() - o.sum())), float(np.quantile(values, 0.025)),
            float(np.quantile(values, 0.975)))


def report(files: list[Path]) -> dict[str, Any]:
    """Every arm's mean regret a decision, the differences and the belief's share, overall, by trick and by kind
    (intervals over games); printed and returned."""
    games = [g for path in files for g in json.loads(path.read_text())["games"]]
    decisions = [d for g in games for d in g["rows"]]

    def table(groups: dict[str, list[list[dict[str, Any]]]]) -> dict[str, Any]:
        out = {}
        for name, by_game in groups.items():
            by_game = [rows for rows in by_game if rows]
            sums = [{a: sum(d["regret"][a] for d in rows) for a in ARMS} for rows in by_game]
            count = sum(len(rows) for rows in by_game)
            if count == 0:
                continue
            per = {a: np.array([s[a] for s in sums]) * len(by_game) / count for a in ARMS}
            cell = {"decisions": count, **{a: interval(per[a]) for a in ARMS},
                    "U-O": interval(per["U"] - per["O"]), "U-T": interval(per["U"] - per["T"]),
                    "recovery": recovery(sums)}
            out[name] = cell
            print(f"{name:14} {count:6}  " + "  ".join(f"{a} {cell[a][0]:.4f}" for a in ARMS)
                  + "  U-O {:+.4f} ({:+.4f}..{:+.4f})".format(*cell["U-O"])
                  + "  U-T {:+.4f} ({:+.4f}..{:+.4f})".format(*cell["U-T"])
                  + "  T gives back {:+.1%} ({:+.1%}..{:+.1%})".format(*cell["recovery"]))
        return out

    print(f"{len(games)} games, {len(decisions)} decisions; mean regret a decision (reward units, 95% over games)")
    summary: dict[str, Any] = {"games": len(games), "decisions": len(decisions),
                               "settings": json.loads(files[0].read_text())["summary"]}
    summary["all"] = table({"all": [g["rows"] for g in games]})["all"]
    tricks = sorted({d["trick"] for d in decisions})
    summary["by_trick"] = table({f"trick {k}": [[d for d in g["rows"] if d["trick"] == k] for g in games]
                                 for k in tricks})
    summary["by_kind"] = table({kind: [[d for d in g["rows"] if d["kind"] == kind] for g in games] for kind in KINDS})
    agree = {a: float(np.mean([d["choices"][a] == d["choices"]["O"] for d in decisions])) for a in ("U", "T")}
    summary["same_choice_as_O"] = agree
    summary["ess"] = float(np.mean([d["ess"] for d in decisions]))
    print(f"same choice as O: U {agree['U']:.1%}, T {agree['T']:.1%}; the belief's ESS / worlds {summary['ess']:.2f}")
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, nargs="+", default=None, help="openspiel_cards.py files of the table")
    parser.add_argument("--blocks", type=int, default=None, help="only the first N held-out blocks (files)")
    parser.add_argument("--worlds", type=int, default=512, help="worlds drawn for each arm at each decision")
    parser.add_argument("--iterations", type=int, default=16384, help="each arm's search")
    parser.add_argument("--referee", type=int, default=65536, help="the referee's search")
    parser.add_argument("--power", type=float, default=0.3, help="T's power (chosen on the training games)")
    parser.add_argument("--shard", default="0/1", help="K/N: measure games K, K+N, ... of the set")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--report", type=Path, nargs="+", default=None, help="print these measured files as one table")
    args = parser.parse_args()
    if args.report is not None:
        summary = report(args.report)
        if args.json is not None:
            args.json.write_text(json.dumps(summary, indent=1))
        return
    if args.data is None:
        parser.error("--data names the games to measure")
    blocks = read_games(args.data)
    shard, games = sharded([g for block in halves(blocks)[1][:args.blocks] for g in block], args.shard)
    spiel_game = load("thelast", 4, 0)
    rng = random.Random(args.seed * 1000 + shard)
    rows = []
    for i, game in enumerate(games):
        rows.append({"seed": game.seed, "seats": game.seats,
                     "rows": measure(game, spiel_game, args.worlds, args.iterations, args.referee, args.power, rng)})
        print(f"{i + 1} of {len(games)} games", flush=True)
        if args.json is not None:  # written as it goes (atomically), so that a stopped run keeps its games
            summary = {k: v for k, v in vars(args).items() if k not in ("data", "json", "report")}
            tmp = args.json.with_suffix(".tmp")
            tmp.write_text(json.dumps({"summary": {**summary, "data": [str(p) for p in args.data]}, "games": rows}))
            tmp.replace(args.json)


if __name__ == "__main__":
    main()
