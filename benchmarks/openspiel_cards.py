"""Our card-game bots against OpenSpiel's own ISMCTS (`open_spiel.python.algorithms.ismcts.ISMCTSBot`, its code
untouched) at equal time per move, The Last or Ghooost!, 2-6 players, seats rotated, through our OpenSpiel
adapter (`ghostgames.spiel`).

    PYTHONPATH=src .venv/bin/python benchmarks/openspiel_cards.py --game thelast --players 4 \\
        --bots expert,ismcts,rules,openspiel --games 8 --seconds 0.2 --seed 0 --json out.json

`--bots` names one bot a seat: our bot names (`expert`, `ismcts`, `rules`, a level such as `hard`, a plug-in such as
`benchmarks.thelast_variants:expert_states`, which thinks the clock's seconds too; a name with
an iteration budget such as `ismcts:50` ignores the clock) or `openspiel`. Game g deals with seed + g and
seats bot i at seat (i + g) mod players, so over a multiple of `players` games every bot holds every seat.

Equal time, two ways:
- `--seconds S`: our search bots think S seconds a move; OpenSpiel's only budget is simulations, so before each
  of its moves it gets as many as it ran in S seconds over its last 20 moves (first measured on a warm-up game).
- `--simulations N`: OpenSpiel's bot gets N simulations a move, and ours think, move by move, the mean time of
  OpenSpiel's last 20 moves (the protocol of the first 2-player The Last table, docs/research/card-games-strength.md).
Both sides' mean seconds per decision (decisions with a choice: both skip a lone legal action) are in the
table, so the equality can be checked, and so is the machine's load.

`--duplicate`: each deal is played `players` times, once in every rotation (game g deals with seed + g // players;
the seats rotate as above), as duplicate bridge is, so that every bot holds every hand of every deal and the luck
of the cards cancels out of its mean. The intervals are then taken over deals (each bot's mean over its seats of a
deal is one value), never over seat-games, which are not independent; `--games` must be a multiple of `players`.
`--seatings` chooses the seatings of a duplicate run's deals. `rotations` (the default) keeps the order the bots
are named in, so that one bot always sits right after another; in The Last the seat after a weak player's is worth
points (docs/research/thelast-multiplayer.md, "The seating order"). `cycle`: each deal in the rotations of one cyclic
order of the bots, the deal of seed s taking the order number s mod their count (6 for four different bots, 12 for
five of which two are alike), so that a range of seeds as long as a multiple of that count seats every order alike,
at the cost of a plain duplicate run. `every`: each deal in every distinct seating (each cyclic order in each
rotation, 24 games a deal for four different bots).

OpenSpiel's evaluator: `random` (its `RandomRolloutEvaluator`, one rollout to the end) or `playout`
(`ghostgames.spiel.evaluator.GhooostPlayoutEvaluator`, our search's Ghooost! playout); the default is
`playout` for Ghooost! (uniform rollouts over a round of hundreds of turns leave it nearly blind) and
`random` for The Last. Statistics per bot over its seat-games: wins (a draw counts half in the share, 95%
Wilson interval), mean rank and mean score (The Last: penalty) with mean +- 1.96 standard errors.
`--tables FILE ...` prints the table of games already played (several files of one table together, e.g. two
seeds) without playing. Needs OpenSpiel (`pip install 'ghostgames[spiel]'`).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ghostgames.bots import Bot, SeatKnowledge, get_bot
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.spiel import register
from ghostgames.spiel.evaluator import GhooostPlayoutEvaluator
from ghostgames.tournament.seating import cyclic_orders
from ghostgames.tournament.stats import Z95, wilson_interval

OPENSPIEL = "openspiel"
RECENT = 20  # OpenSpiel's moves that set the pace
MIN_SIMULATIONS = 2  # ISMCTSBot's first simulation only expands its root: it needs a second to choose
SEAT_SEED = 7919  # the k-th OpenSpiel seat of a game draws from seed + k * SEAT_SEED


@dataclass
class Clock:
    """The shared pace: a target time (`seconds`) or a fixed OpenSpiel budget (`simulations`), and what
    OpenSpiel's bot spent on each move so far."""

    seconds: float | None
    simulations: int | None
    history: list[tuple[int, float]] = field(default_factory=list)  # OpenSpiel's (simulations, seconds)

    def ours(self) -> float:
        """Our bots' seconds for the next move."""
        if self.seconds is not None:
            return self.seconds
        recent = self.history[-RECENT:]
        return sum(s for _, s in recent) / len(recent)

    def theirs(self) -> int:
        """OpenSpiel's simulations for the next move."""
        if self.simulations is not None:
            return self.simulations
        assert self.seconds is not None
        recent = self.history[-RECENT:]
        rate = sum(n for n, _ in recent) / max(sum(s for _, s in recent), 1e-9)
        return max(MIN_SIMULATIONS, round(rate * self.seconds))


def load(game_name: str, players: int, max_turns: int) -> pyspiel.Game:
    register()
    if game_name == "ghooost":
        return pyspiel.load_game("ghostgames_ghooost", {"players": players, "max_turns": max_turns})
    return pyspiel.load_game("ghostgames_thelast", {"players": players})


def evaluator_for(kind: str, rng: np.random.RandomState, seed: int) -> Any:
    if kind == "playout":
        return GhooostPlayoutEvaluator(seed)
    return mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)


def deal(state: pyspiel.State, rng: np.random.RandomState) -> None:
    """Draw chance outcomes until a seat acts (the deal comes only at the start of a round)."""
    while state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probabilities)))


@dataclass
class Opponent:
    """One OpenSpiel seat: its random stream and evaluator last the game; the bot is made for each move with
    that move's simulations (ISMCTSBot forgets its tree between moves anyway)."""

    game: pyspiel.Game
    rng: np.random.RandomState
    evaluator: Any
    uct_c: float

    def step(self, state: pyspiel.State, simulations: int) -> int:
        bot = ismcts.ISMCTSBot(self.game, self.evaluator, self.uct_c, simulations, random_state=self.rng)
        return int(bot.step(state))


def warm_up(game: pyspiel.Game, clock: Clock, evaluator: str, uct_c: float, seed: int, moves: int = 6) -> None:
    """OpenSpiel's first pace: its moves with a choice at the start of a game (8 simulations each unless fixed)."""
    rng = np.random.RandomState(seed)
    opponent = Opponent(game, rng, evaluator_for(evaluator, rng, seed), uct_c)
    state = game.new_initial_state()
    deal(state, rng)
    timed = 0
    while not state.is_terminal() and timed < moves:
        simulations = clock.simulations or 8
        start = time.perf_counter()
        action = opponent.step(state, simulations)
        if len(state.legal_actions()) > 1:
            clock.history.append((simulations, time.perf_counter() - start))
            timed += 1
        state.apply_action(action)
        deal(state, rng)


def our_bot(name: str, clock: Clock) -> Bot:
    """The clock's seconds go to every bot; `get_bot` itself lets a name with an iteration budget (`expert:4000`)
    ignore them and gives them to a plug-in (`benchmarks.thelast_variants:expert_states`)."""
    return get_bot(name, clock.ours())


def rotations(order: tuple[str, ...]) -> list[list[str]]:
    """The order's bots a seat (in the order of play), bot i at seat (i + r) mod players for r = 0, 1, ..."""
    n = len(order)
    return [[order[(s - r) % n] for s in range(n)] for r in range(n)]


def deal_seatings(bots: list[str], kind: str, deal_seed: int) -> list[list[str]]:
    """The seatings a duplicate run plays the deal of `deal_seed` in (`--seatings`: rotations, cycle, every)."""
    if kind == "rotations":
        return rotations(tuple(bots))
    orders = cyclic_orders(bots)
    if kind == "cycle":
        return rotations(orders[deal_seed % len(orders)])
    return [list(s) for s in dict.fromkeys(tuple(s) for order in orders for s in rotations(order))]


def play(game: pyspiel.Game, seats: list[str], g: int, seed: int, clock: Clock, evaluator: str,
         uct_c: float) -> dict[str, Any]:
    """Game g: the deal of `seed` with `seats` (a bot a seat). Returns each seat's bot, result, rank and score, its
    seconds per decision with a choice, OpenSpiel's simulations and evaluator playouts, and the game's actions
    (OpenSpiel's indices after the deal: `deal(state, np.random.RandomState(seed))` then these replay it)."""
    players = game.num_players()
    chance = np.random.RandomState(seed)
    rng = random.Random(seed)
    opponents: dict[int, Opponent] = {}
    for k, seat in enumerate(s for s in range(players) if seats[s] == OPENSPIEL):
        stream = np.random.RandomState(seed + k * SEAT_SEED)
        opponents[seat] = Opponent(game, stream, evaluator_for(evaluator, stream, seed + k * SEAT_SEED), uct_c)
    seconds: list[list[float]] = [[] for _ in range(players)]
    simulations: list[list[int]] = [[] for _ in range(players)]
    iterations: list[list[int]] = [[] for _ in range(players)]
    actions: list[int] = []  # every action after the deal, so that the game replays from its seed
    state = game.new_initial_state()
    deal(state, chance)
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if seat in opponents:
            budget = clock.theirs()
            start = time.perf_counter()
            action = opponents[seat].step(state, budget)
            spent = time.perf_counter() - start
            if len(legal) > 1:
                clock.history.append((budget, spent))
                simulations[seat].append(budget)
        else:
            ours = our_bot(seats[seat], clock)
            start = time.perf_counter()
            choice = ours.choose(SeatKnowledge(state.inner, seat), rng)
            spent = time.perf_counter() - start
            action = state.get_game().game.action_index(choice, seat)
            if isinstance(ours, IsmctsBot) and len(legal) > 1:
                iterations[seat].append(ours.last_iterations)
        if action not in legal:
            raise AssertionError(f"seat {seat + 1} ({seats[seat]}) chose an illegal action {action}")
        if len(legal) > 1:
            seconds[seat].append(spent)
        actions.append(int(action))
        state.apply_action(action)
        deal(state, chance)
    outcome = state.inner.outcome()
    return {
        "game": g, "seed": seed, "seats": seats,
        "results": [{"result": r.result, "rank": r.rank, "score": r.score} for r in outcome.results],
        "seconds": seconds, "openspiel_simulations": simulations, "ours_iterations": iterations,
        "evaluator_playouts": {str(s + 1): getattr(o.evaluator, "playouts", None) for s, o in opponents.items()},
        "load": os.getloadavg()[0], "actions": actions,
    }


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and its 95% interval (mean +- 1.96 standard errors)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def deal_interval(rows: list[tuple[dict[str, Any], int]], key: str) -> tuple[float, float, float]:
    """A bot's mean of `key` ("rank", "score") over its seat-games `rows` with its 95% interval taken over
    deals: its mean on each deal (over the seats it held there) is one value. In a duplicate run every bot holds
    the same number of seats of each deal, so the mean is the seat-games' mean."""
    by_deal: dict[int, list[float]] = {}
    for game, seat in rows:
        by_deal.setdefault(int(game["seed"]), []).append(float(game["results"][seat][key]))
    return mean_interval([sum(v) / len(v) for v in by_deal.values()])


def summarize(bots: list[str], games: list[dict[str, Any]], by_deal: bool = False) -> list[dict[str, Any]]:
    """Each bot's figures; `by_deal` (a duplicate run): the rank's and score's intervals over deals."""
    out = []
    for bot in dict.fromkeys(bots):
        rows = [(game, seat) for game in games for seat, name in enumerate(game["seats"]) if name == bot]
        results = [game["results"][seat] for game, seat in rows]
        wins = sum(r["result"] == "win" for r in results)
        draws = sum(r["result"] == "draw" for r in results)
        low, high = wilson_interval(wins + 0.5 * draws, len(results))
        times = [t for game, seat in rows for t in game["seconds"][seat]]
        sims = [n for game, seat in rows for n in game["openspiel_simulations"][seat]]
        iters = [n for game, seat in rows for n in game["ours_iterations"][seat]]
        out.append({
            "bot": bot, "seat_games": len(results), "wins": wins, "draws": draws,
            "losses": len(results) - wins - draws, "share": (wins + 0.5 * draws) / len(results),
            "share95": [low, high],
            "rank": deal_interval(rows, "rank") if by_deal else mean_interval([float(r["rank"]) for r in results]),
            "score": deal_interval(rows, "score") if by_deal else mean_interval([float(r["score"]) for r in results]),
            "seconds_per_decision": sum(times) / max(len(times), 1), "decisions": len(times),
            "simulations_per_decision": sum(sims) / len(sims) if sims else None,
            "iterations_per_decision": sum(iters) / len(iters) if iters else None,
        })
    return out


def print_table(title: str, rows: list[dict[str, Any]], score_name: str) -> None:
    print(title)
    print(f"{'bot':14}{'seat-games':>11}{'W-D-L':>10}{'share (95%)':>20}{'mean rank (95%)':>22}"
          f"{score_name + ' (95%)':>24}{'s/decision':>12}{'sims|iters':>12}")
    for r in rows:
        rank, score = r["rank"], r["score"]
        budget = r["simulations_per_decision"] or r["iterations_per_decision"]
        print(f"{r['bot']:14}{r['seat_games']:>11}{r['wins']:>4}-{r['draws']}-{r['losses']:<3}"
              f"{r['share']:>8.0%} ({r['share95'][0]:.0%}-{r['share95'][1]:.0%})"
              f"{rank[0]:>9.2f} ({rank[1]:.2f}-{rank[2]:.2f})"
              f"{score[0]:>11.1f} ({score[1]:.1f}-{score[2]:.1f})"
              f"{r['seconds_per_decision']:>12.3f}{budget if budget is not None else 0:>12.0f}")


def reprint(files: list[Path]) -> None:
    """One table of the games in `files` (runs of the same bots, game and player count)."""
    runs = [json.loads(f.read_text()) for f in files]
    first = runs[0]["summary"]
    games = [g for run in runs for g in run["games"]]
    loads = [run["summary"]["load_mean"] for run in runs]
    duplicate = bool(first.get("duplicate"))
    deals = f", duplicate: intervals over {len({g['seed'] for g in games})} deals" if duplicate else ""
    print_table(f"{first['game']}, {first['players']} players, {len(games)} games from {len(files)} file(s){deals}"
                f", load {min(loads):.1f}-{max(loads):.1f}", summarize(first["bots"], games, duplicate),
                "penalty" if first["game"] == "thelast" else "score")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("thelast", "ghooost"), default="thelast")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", default="expert,openspiel", help="one a seat, comma-separated")
    parser.add_argument("--games", type=int, default=10)
    pace = parser.add_mutually_exclusive_group()
    pace.add_argument("--seconds", type=float, default=None, help="time per move for both sides")
    pace.add_argument("--simulations", type=int, default=None, help="OpenSpiel's fixed budget; ours follow its time")
    parser.add_argument("--evaluator", choices=("random", "playout"), default=None,
                        help="OpenSpiel's evaluator (default: playout for Ghooost!, random for The Last)")
    parser.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel ISMCTS exploration")
    parser.add_argument("--max-turns", type=int, default=1000, help="Ghooost!: a round's turn limit (a draw)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--duplicate", action="store_true", help="every deal in every rotation (intervals over deals)")
    parser.add_argument("--seatings", choices=("rotations", "cycle", "every"), default="rotations",
                        help="a duplicate run's seatings of each deal: the rotations of the order named, the rotations "
                        "of one cyclic order by the deal's seed, or every distinct seating")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--tables", type=Path, nargs="+", default=None, help="print these files' games as one table")
    args = parser.parse_args()
    if args.tables is not None:
        reprint(args.tables)
        return
    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) != args.players:
        parser.error(f"--bots names {len(bots)} bots for {args.players} players")
    per_deal = len(deal_seatings(bots, args.seatings, 0))
    if args.seatings != "rotations" and not args.duplicate:
        parser.error("--seatings chooses a duplicate run's seatings: add --duplicate")
    if args.duplicate and args.games % per_deal:
        parser.error(f"this duplicate run plays each deal {per_deal} times: --games must be a multiple of it")
    if args.seconds is None and args.simulations is None:
        args.seconds = 0.2
    evaluator = args.evaluator or ("playout" if args.game == "ghooost" else "random")

    game = load(args.game, args.players, args.max_turns)
    clock = Clock(args.seconds, args.simulations)
    warm = game.new_initial_state()
    deal(warm, np.random.RandomState(0))
    for name in set(bots) - {OPENSPIEL}:  # compile and import before the clock runs
        get_bot(name, 0.05).choose(SeatKnowledge(warm.inner, warm.current_player()), random.Random(0))
    if OPENSPIEL in bots:
        warm_up(game, clock, evaluator, args.uct_c, args.seed + 10_000)
    load_start = os.getloadavg()[0]
    games = []
    for g in range(args.games):
        if args.duplicate:
            deal_seed = args.seed + g // per_deal
            seats = deal_seatings(bots, args.seatings, deal_seed)[g % per_deal]
        else:
            deal_seed, seats = args.seed + g, rotations(tuple(bots))[g % args.players]
        games.append(play(game, seats, g, deal_seed, clock, evaluator, args.uct_c))
        print(f"game {g + 1}: {games[-1]['seats']} -> ranks {[r['rank'] for r in games[-1]['results']]}", flush=True)
    rows = summarize(bots, games, args.duplicate)
    loads = [load_start] + [g["load"] for g in games]
    summary = {
        "game": args.game, "players": args.players, "bots": bots, "games": len(games),
        "seconds": args.seconds, "openspiel_simulations_fixed": args.simulations, "evaluator": evaluator,
        "uct_c": args.uct_c, "max_turns": args.max_turns if args.game == "ghooost" else None, "seed": args.seed,
        "duplicate": args.duplicate, "seatings": args.seatings if args.duplicate else None,
        "load_mean": sum(loads) / len(loads), "load_max": max(loads), "bots_stats": rows,
    }
    pace_text = f"{args.seconds} s a move" if args.seconds is not None else f"OpenSpiel {args.simulations} sims"
    if args.duplicate:
        pace_text += f", duplicate: intervals over {len(games) // per_deal} deals"
    print_table(f"{args.game}, {args.players} players, {len(games)} games, {pace_text}, OpenSpiel evaluator "
                f"{evaluator}, load {summary['load_mean']:.1f} (max {summary['load_max']:.1f})", rows,
                "penalty" if args.game == "thelast" else "score")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"summary": summary, "games": games}, indent=1))


if __name__ == "__main__":
    main()
