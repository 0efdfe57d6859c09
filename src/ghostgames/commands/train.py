"""`ghostgames train`: learn the Geister value by self-play (`geister`) and train it further on the search's own
games (`geister-search`), fit the playout policy to the search's moves (`geister-playout`), a value of what a
seat knows to the search's games against runners (`geister-info`) and the belief's weights to games between
bots (`geister-belief`), train the `runner` sparring partner by PPO (`geister-runner`), and fit The Last's
playout logit (`thelast-playout`); write the weights and an account of the run. The learning itself lives in
`ghostgames.learn`."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ghostgames.commands.backend import RateColumn, WhereColumn, address_option, backend_option, open_executor

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ghostgames.executor import Executor
    from ghostgames.learn.geister.positions import Part, Positions


def _written(console: Console, out: Path, result: dict[str, Any], json_file: Path | None) -> None:
    """Say where the weights went, and write the run's account to `json_file` if asked."""
    console.print(f"wrote {out} in {result['seconds']} s")
    if json_file:
        json_file.parent.mkdir(parents=True, exist_ok=True)
        json_file.write_text(json.dumps(result, indent=1))
        console.print(f"wrote {json_file}")


def _finish(console: Console, out: Path, report: dict[str, Any], json_file: Path | None, started: float,
            recipe: str | None = None) -> None:
    """Every command's last step: put the recipe (if it has one) and the seconds the run took in its account,
    then say where the weights went and write the account."""
    if recipe is not None:
        report["recipe"] = recipe
    report["seconds"] = round(time.perf_counter() - started, 1)
    _written(console, out, report, json_file)


def _held_out(console: Console, title: str, first: str, scores: Mapping[str, Mapping[str, float]],
              loss: str = "log-loss") -> None:
    """Print how each evaluation (or set of weights) did on the held-out games, a row each: its log-loss and,
    where it was measured, its accuracy. A table with accuracies right-aligns its names too."""
    accuracy = all("accuracy" in score for score in scores.values())
    table = Table(title=title)
    table.add_column(first, justify="right" if accuracy else "left")
    for column in [loss, "accuracy"] if accuracy else [loss]:
        table.add_column(column, justify="right")
    for name, score in scores.items():
        cells = [f"{score['log_loss']:.4f}"]
        if accuracy:
            cells.append(f"{100 * score['accuracy']:.1f}%")
        table.add_row(name, *cells)
    console.print(table)


def _progress(console: Console, executor: Executor) -> Progress:
    """The run's bar: each step in turn (the games, then the fit), with games a second and where they run."""
    return Progress(TextColumn("{task.description:<34}"), BarColumn(), MofNCompleteColumn(), RateColumn("games"),
                    TimeElapsedColumn(), WhereColumn(executor), console=console)


def _parts(games: str) -> list[Part]:
    """The recipe of --games, every bot in it known; else a clear error."""
    from ghostgames.bots import get_bot
    from ghostgames.learn.geister.positions import parse_parts

    try:
        parts = parse_parts(games)
        for part in parts:
            for bot in part.bots:
                get_bot(bot)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--games") from None
    except KeyError as err:
        raise typer.BadParameter(str(err.args[0]), param_hint="--games") from None
    return parts


def _recipe(parts: list[Part], seed: int) -> str:
    return f"{','.join(map(str, parts))} seed {seed}"


def _check_npz(**paths: Path | None) -> None:
    """Each named file option (out=..., data=...) must be numpy's archive: a clear error otherwise."""
    for name, path in paths.items():
        if path is not None and path.suffix != ".npz":
            raise typer.BadParameter(f"{path} should end in .npz (numpy's archive)", param_hint=f"--{name}")


def _positions(parts: list[Part], seed: int, data: Path | None, executor: Executor, console: Console,
               progress: Progress) -> Positions:
    """The recipe's positions: read from `data` when it holds the same games, else played (and kept there)."""
    import numpy as np

    from ghostgames.learn.geister.positions import Positions

    recipe = _recipe(parts, seed)
    if data is not None and data.exists():
        with np.load(data) as held:
            if str(held["recipe"]) == recipe:
                console.print(f"read the positions of {recipe} from {data}")
                return Positions(held["rows"], held["results"], held["games"])
            console.print(f"{data} holds other games ({held['recipe']}); playing {recipe}")
    task = progress.add_task("games of the search", total=sum(part.games for part in parts))
    positions = Positions.collect(parts, seed, done=lambda _: progress.advance(task), executor=executor)
    if data is not None:
        data.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(data, rows=positions.rows, results=positions.results, games=positions.games,
                            recipe=np.array(recipe))
    return positions


train_app = typer.Typer(help="Train a learned evaluation: 'geister' (the value of a position, by self-play), "
                             "'geister-search' (that value trained further on the search's own games), "
                             "'geister-playout' (a playout policy fitted to the search's moves), "
                             "'geister-info' (a value of what a seat knows, from games against runners), "
                             "'geister-runner' (the `runner` sparring partner, by PPO), "
                             "'geister-belief' (the weights the belief reads the enemy's ghosts with), "
                             "'thelast-playout' (The Last's playout policy fitted to the expert's moves).",
                        no_args_is_help=True)


@train_app.command("geister")
def train_geister(
    out: Path = typer.Option(..., help="write the weights here (.npz; the shipped ones are "
                                       "src/ghostgames/bots/geister/value-weights.npz)"),
    seed: int = typer.Option(1, help="the same seed gives the same weights on the same machine"),
    games: int = typer.Option(100_000, min=1, help="self-play games in all (a few positions kept from each)"),
    checkpoints: int = typer.Option(4, min=1, help="rounds of self-play and fit, each ending in a checkpoint"),
    eval_games: int = typer.Option(100, min=1, help="games against each opponent at every checkpoint"),
    opponents: str = typer.Option("random,charge,rules", help="comma-separated bots the checkpoints play"),
    hidden: int = typer.Option(32, min=0, help="hidden units of the model (0: logistic regression)"),
    epochs: float = typer.Option(2.0, min=0.01, help="passes over the data so far in every round"),
    keep: int = typer.Option(4, min=1, help="positions kept from every self-play game"),
    guided: float = typer.Option(0.2, min=0.0, max=1.0, help="share of the games of rounds 2.. that the value "
                                                           "trained so far plays (the rest: the playout policy)"),
    compare_games: int = typer.Option(2_000, min=0, help="held-out games on which the value is compared with "
                                                         "the hand evaluation at the end (0: skip)"),
    plot_file: Path | None = typer.Option(None, "--plot", help="draw the learning curve as a PNG"),
    json_file: Path | None = typer.Option(None, "--json", help="write the spec, the curve and the comparison"),
    workers: int = typer.Option(1, min=1, help="rollout workers that play the self-play and checkpoint games "
                                               "(processes; with --backend ray: tasks in flight)"),
    backend: str = backend_option(),
    address: str | None = address_option(),
) -> None:
    """Learn P(seat 0 wins) of a Geister position from self-play games of the playout policy; at every
    checkpoint the `value` bot with the weights so far plays fixed games against fixed opponents."""
    from ghostgames.bots import get_bot
    from ghostgames.learn.geister import value_training

    names = tuple(n.strip() for n in opponents.split(",") if n.strip())
    try:
        for name in names:
            get_bot(name)
    except KeyError as err:
        raise typer.BadParameter(str(err.args[0]), param_hint="--opponents") from None
    if out.suffix != ".npz":
        raise typer.BadParameter(f"{out} should end in .npz (numpy's archive, what GeisterValue.load reads)",
                                 param_hint="--out")
    spec = value_training.TrainSpec(seed=seed, games=games, checkpoints=checkpoints, keep=keep, hidden=hidden,
                              epochs=epochs, guided=guided, eval_games=eval_games, opponents=names)
    console = Console()
    started = time.perf_counter()
    executor = open_executor(backend, workers, address, names)
    with executor, Progress(TextColumn("{task.description:<34}"), BarColumn(), MofNCompleteColumn(),
                            TimeElapsedColumn(), WhereColumn(executor), console=console) as progress:
        task = progress.add_task("held-out positions", total=value_training.steps(spec))
        begun = [False]

        def report(what: str) -> None:
            progress.update(task, description=what, advance=1 if begun[0] else 0)
            begun[0] = True

        model, result = value_training.train(spec, report, executor)
        progress.update(task, advance=1)
        if compare_games:
            progress.update(task, description="comparing with the hand evaluation")
            result["comparison"] = value_training.compare_with_hand(model, seed, compare_games, keep, executor)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    table = Table(title=f"Geister value, seed {seed}: the value bot's win rate at each checkpoint")
    for column in ("self-play games", "held-out log-loss", *names):
        table.add_column(column, justify="right")
    for point in result["curve"]:
        table.add_row(str(point["games"]), f"{point['heldout_loss']:.4f}",
                      *(f"{100 * point['win_rate'][n]['win_rate']:.0f}%" for n in names))
    console.print(table)
    if "comparison" in result:
        c = result["comparison"]
        console.print(f"held-out positions ({c['positions']}): log-loss / accuracy  learned "
                      f"{c['learned']['log_loss']:.4f} / {100 * c['learned']['accuracy']:.1f}%,  hand "
                      f"{c['hand']['log_loss']:.4f} / {100 * c['hand']['accuracy']:.1f}%,  hand recalibrated "
                      f"{c['hand_calibrated']['log_loss']:.4f}")
    _finish(console, out, result, json_file, started)
    if plot_file:
        plot_file.parent.mkdir(parents=True, exist_ok=True)
        value_training.plot_curve(result, str(plot_file))
        console.print(f"wrote {plot_file}")


# The research recipe of the search-trained value (an hour on two cores; the packaged search-value-weights.npz
# is a smaller one, bots/geister/weights.json) and below the packaged playout-weights.npz's. Both are played
# by `expert-hand`, the expert of 3 December 2026 with the hand playout, kept unchanged so that they play the
# same games (a game's seeds depend on the run's seed and its number only).
SEARCH_RECIPE = "expert-hand:4000=1600,expert-hand:25000=800"


@train_app.command("geister-search")
def train_geister_search(
    out: Path = typer.Option(..., help="write the weights here (.npz; the packaged ones, made by a smaller "
                                       "recipe: src/ghostgames/bots/geister/weights.json)"),
    games: str = typer.Option(SEARCH_RECIPE, help="BOT=GAMES,...: games in which the bot plays both seats "
                                                  "(escape and reach in turn), numbered on across the parts"),
    seed: int = typer.Option(1, help="the same seed gives the same games and weights on the same machine"),
    start: Path | None = typer.Option(None, help="weights to start from (default: the packaged self-play ones)"),
    data: Path | None = typer.Option(None, help="keep the games' positions in this .npz; a file of the same "
                                                "games and seed is read instead of playing them again"),
    workers: int = typer.Option(1, min=1, help="processes that play the games (with --backend ray: games in flight)"),
    backend: str = backend_option(),
    address: str | None = address_option(),
    epochs: int = typer.Option(2, min=1, help="passes over the training positions"),
    rate: float = typer.Option(0.0005, min=1e-6, help="Adam's step size"),
    held_every: int = typer.Option(5, min=2, help="hold every k-th game out of the fit, to measure it"),
    json_file: Path | None = typer.Option(None, "--json", help="write the recipe, the measures and the setups"),
) -> None:
    """Train the learned value further on positions of games the search plays against itself, so that it
    knows how a game goes on under good play; the expert scores its setups with these weights."""
    from ghostgames.bots.geister import setups
    from ghostgames.bots.geister.value import GeisterValue
    from ghostgames.learn.geister import value_training

    parts = _parts(games)
    _check_npz(out=out, data=data)
    console = Console()
    started = time.perf_counter()
    executor = open_executor(backend, workers, address, [part.bot for part in parts])
    with executor, _progress(console, executor) as progress:
        positions = _positions(parts, seed, data, executor, console, progress)
        progress.add_task("fitting (and the hand evaluation)", total=None)
        spec = value_training.FineTuneSpec(held_every, epochs, rate, seed=seed)
        model, report = value_training.fine_tune(GeisterValue.load(start), positions.rows, positions.results,
                                                 positions.games, spec)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    _held_out(console, f"held out: {report['held_positions']} positions, of one game in {held_every}", "evaluation",
              {name.replace("_", " "): report[name] for name in ("constant", "hand", "hand_calibrated", "start",
                                                                 "trained")})
    report["setups"] = {}
    for rule, escape in (("escape", True), ("reach", False)):
        values = setups.setup_values(model, escape)
        gain = setups.predicted_gain(values)
        report["setups"][rule] = {"best": list(setups.best_setups(values)), "predicted_gain": gain}
        console.print(f"{rule}: the best quarter of the setups, by these weights, is worth {100 * gain:+.1f} "
                      f"points against a uniform setup")
    _finish(console, out, report, json_file, started, _recipe(parts, seed))


# The search against the sparring partners that run, and against itself (docs/research/geister-learned-value.md)
INFO_RECIPE = ("expert-v4:1000+runner=300,expert-v4:1000+rush=150,expert-v4:1000+mixture=150,"
               "expert-v4:1000=100")  # the expert the shipped value was fitted on (RacePolicy)


@train_app.command("geister-info")
def train_geister_info(
    out: Path = typer.Option(..., help="write the weights here (.npz; the packaged ones: "
                                       "src/ghostgames/bots/geister/weights.json)"),
    games: str = typer.Option(INFO_RECIPE, help="BOT=GAMES or BOT+OPPONENT=GAMES,...: the games whose positions "
                                                "it learns from (escape and reach in turn, seats alternating)"),
    seed: int = typer.Option(2, help="the same seed gives the same games and weights on the same machine"),
    data: Path | None = typer.Option(None, help="keep the games' positions in this .npz; a file of the same "
                                                "games and seed is read instead of playing them again"),
    workers: int = typer.Option(1, min=1, help="processes that play the games (with --backend ray: games in flight)"),
    backend: str = backend_option(),
    address: str | None = address_option(),
    hidden: int = typer.Option(32, min=1, help="hidden units"),
    epochs: int = typer.Option(1, min=1, help="passes over the training examples"),
    held_every: int = typer.Option(5, min=2, help="hold every k-th game out of the fit, to measure it"),
    json_file: Path | None = typer.Option(None, "--json", help="write the recipe and the measures"),
) -> None:
    """Fit the information-state value (what a seat knows, never the enemy's hidden colours) to positions of
    the search's games against the sparring partners that run; `expert-learned` ends its playouts on it."""
    from ghostgames.learn.geister import info_value_fit

    parts = _parts(games)
    _check_npz(out=out, data=data)
    console = Console()
    started = time.perf_counter()
    executor = open_executor(backend, workers, address, sorted({bot for part in parts for bot in part.bots}))
    with executor, _progress(console, executor) as progress:
        positions = _positions(parts, seed, data, executor, console, progress)
        progress.add_task("fitting (and the hand evaluation)", total=None)
        spec = info_value_fit.InfoFitSpec(hidden, epochs, held_every=held_every, seed=seed)
        model, report = info_value_fit.fit(positions.rows, positions.results, positions.games, spec)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    _held_out(console, f"held out: {report['held_examples']} examples (both seats), of one game in {held_every}",
              "evaluation", {name: report[name] for name in ("constant", "hand", "trained")})
    _finish(console, out, report, json_file, started, _recipe(parts, seed))


PLAYOUT_RECIPE = "expert-hand:20000=400"  # see SEARCH_RECIPE


@train_app.command("geister-playout")
def train_geister_playout(
    out: Path = typer.Option(..., help="write the policy here (.npz)"),
    games: str = typer.Option(PLAYOUT_RECIPE, help="BOT=GAMES,...: games in which the bot plays both seats "
                                                   "(escape and reach in turn), numbered on across the parts"),
    seed: int = typer.Option(7, help="the same seed gives the same games and weights on the same machine"),
    data: Path | None = typer.Option(None, help="keep the games' positions in this .npz (the same file as "
                                                "geister-search's --data for the same games and seed)"),
    workers: int = typer.Option(1, min=1, help="processes that play the games (with --backend ray: games in flight)"),
    backend: str = backend_option(),
    address: str | None = address_option(),
    held_every: int = typer.Option(5, min=2, help="hold every k-th game out of the fit, to measure it"),
    plot_file: Path | None = typer.Option(None, "--plot", help="draw the learning curve as a PNG: the held-out "
                                                              "log-loss of fits on more and more games"),
    json_file: Path | None = typer.Option(None, "--json", help="write the recipe, the weights and the measures"),
) -> None:
    """Fit the expert's learned playout policy to the moves the search made in games against itself: how
    likely each move is, from a few facts about it that the mover knows (bots/geister/playout_policy.py)."""
    import numpy as np

    from ghostgames.bots.geister.playout_policy import FEATURES, PlayoutPolicy
    from ghostgames.bots.geister.search import GeisterPolicy
    from ghostgames.learn.geister.playout_fit import Decisions, plot_curve

    parts = _parts(games)
    _check_npz(out=out, data=data)
    console = Console()
    started = time.perf_counter()
    executor = open_executor(backend, workers, address, [part.bot for part in parts])
    with executor, _progress(console, executor) as progress:
        positions = _positions(parts, seed, data, executor, console, progress)
        progress.add_task("fitting", total=None)
        decisions = Decisions.from_games(positions.rows, positions.games)
        held = decisions.games % held_every == held_every - 1
        train, test = decisions.subset(~held), decisions.subset(held)
        weights = train.fit()
        curve = train.learning_curve(test, weights)
    out.parent.mkdir(parents=True, exist_ok=True)
    PlayoutPolicy(weights).save(out)
    losses = {"uniform": test.log_loss(np.zeros(len(FEATURES))),
              "hand playout": test.hand_log_loss(GeisterPolicy.heuristic.hunt, GeisterPolicy.heuristic.push),
              "learned": test.log_loss(weights)}
    _held_out(console, f"held out: {len(test)} moves, of one game in {held_every}", "playout policy",
              {name: {"log_loss": loss} for name, loss in losses.items()}, "log-loss of the search's moves")
    weight_table = Table(title="weights (log-odds a move gains by each feature)")
    weight_table.add_column("feature")
    weight_table.add_column("weight", justify="right")
    for name, w in zip(FEATURES, weights, strict=True):
        weight_table.add_row(name, f"{w:+.3f}")
    console.print(weight_table)
    console.print("learning curve (held-out log-loss): " + ", ".join(
        f"{point['games']:.0f} games {point['log_loss']:.4f}" for point in curve))
    report: dict[str, Any] = {"recipe": _recipe(parts, seed), "decisions": len(decisions),
                              "held_out": len(test), "log_loss": losses,
                              "weights": dict(zip(FEATURES, map(float, weights), strict=True)),
                              "curve": curve}
    if plot_file:
        plot_file.parent.mkdir(parents=True, exist_ok=True)
        plot_curve(curve, losses, len(test), plot_file)
        console.print(f"learning curve: {plot_file}")
    _finish(console, out, report, json_file, started)


@train_app.command("geister-belief")
def train_geister_belief(
    out: Path = typer.Option(..., help="write the weights here (.json; the packaged ones are "
                                       "src/ghostgames/bots/geister/belief-weights.json)"),
    games: int = typer.Option(1600, min=40, help="games between the simple bots (one in ten has `charge` on both "
                                                 "seats: the runner model's)"),
    search_games: int = typer.Option(240, min=4, help="games between search bots"),
    seed: int = typer.Option(1, help="the same seed gives the same games and weights on the same machine"),
    l2: float = typer.Option(0.01, min=0.0, help="the fit's L2 penalty"),
    search_iterations: int = typer.Option(20_000, min=1, help="the expert's iterations a move in the search games"),
    runner_games: int = typer.Option(400, min=8, help="games of the learned `runner` and `rush` against our bots "
                                                      "(the learned-runner model's)"),
    runner_iterations: int = typer.Option(1000, min=1, help="the expert's iterations a move in the runners' games"),
    workers: int = typer.Option(1, min=1, help="processes that play the games (with --backend ray: games in flight)"),
    backend: str = backend_option(),
    address: str | None = address_option(),
    json_file: Path | None = typer.Option(None, "--json", help="write the recipe, the weights and the held-out "
                                                               "scores"),
) -> None:
    """Fit the weights the Geister belief reads the enemy's hidden ghosts with (one set per kind of player:
    simple bots, search bots, `charge`'s runner, the learned runners) to games between bots
    (learn/geister/belief_fit.py)."""
    from ghostgames.learn.geister.belief_fit import BeliefFitSpec, fit_weights, save_weights, snapshots

    if out.suffix != ".json":
        raise typer.BadParameter(f"{out} should end in .json (what belief.load_weights reads)", param_hint="--out")
    spec = BeliefFitSpec(games, search_games, seed, l2, search_iterations, runner_games, runner_iterations)
    console = Console()
    started = time.perf_counter()
    executor = open_executor(backend, workers, address)
    with executor, _progress(console, executor) as progress:
        task = progress.add_task("games between bots", total=games + search_games + runner_games)
        snaps = snapshots(spec, done=lambda: progress.advance(task), executor=executor)
        progress.add_task("fitting", total=None)
        fitted, report = fit_weights(spec, snaps)
    out.parent.mkdir(parents=True, exist_ok=True)
    save_weights(out, fitted, spec)
    for part, scores in report["held_out"].items():
        _held_out(console, f"held out: the last quarter of the games of {part} ({scores['ghosts']} ghost-snapshots)",
                  "weights", {name: score for name, score in scores.items() if name != "ghosts"})
    _finish(console, out, report, json_file, started, spec.recipe())


@train_app.command("geister-runner")
def train_geister_runner(
    out: Path = typer.Option(..., help="write the policy here (.npz; the packaged one is "
                                       "src/ghostgames/bots/geister/runner-weights.npz)"),
    seed: int = typer.Option(1, help="the same seed gives the same weights, bit for bit, on the same machine"),
    updates: int = typer.Option(600, min=1, help="PPO updates (each: 64 steps of 16 games per opponent)"),
    json_file: Path | None = typer.Option(None, "--json", help="write the recipe and the learning curve"),
) -> None:
    """Train the `runner` sparring partner by PPO against random, charge, rules, defender and a frozen copy of
    itself (learn/geister/runner_training.py); needs torch (the `torch` extra)."""
    try:
        from ghostgames.learn.geister.runner_training import RunnerSpec, train
    except ImportError as err:
        raise typer.BadParameter(f"training the runner needs torch: pip install -e '.[torch]' ({err})",
                                 param_hint="geister-runner") from None
    _check_npz(out=out)
    spec = RunnerSpec(seed=seed, updates=updates)
    console = Console()
    started = time.perf_counter()
    with Progress(TextColumn("{task.description:<44}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console) as progress:
        task = progress.add_task("PPO updates", total=updates)

        def report(update: int, results: dict[str, float]) -> None:
            shown = " ".join(f"{name} {result:+.2f}" for name, result in results.items())
            progress.update(task, completed=update, description=f"mean result: {shown}")

        policy, result = train(spec, report)
    out.parent.mkdir(parents=True, exist_ok=True)
    policy.save(out, recipe=spec.recipe())
    table = Table(title=f"runner, seed {seed}: mean result of its last 400 training games (+1 won, -1 lost)")
    table.add_column("opponent")
    table.add_column("mean result", justify="right")
    for name, value in result["curve"][-1]["mean_result"].items():
        table.add_row(name, f"{value:+.2f}")
    console.print(table)
    _finish(console, out, result, json_file, started)


def register(app: typer.Typer) -> None:
    app.add_typer(train_app, name="train")


@train_app.command("thelast-playout")
def train_thelast_playout(
    out: Path = typer.Option(..., help="write the weights here (.json; the packaged ones are "
                                       "src/ghostgames/bots/thelast/playout-weights.json)"),
    games: int = typer.Option(60, min=4, help="games of the expert's search in every seat (3, 4, 5, 2 players in "
                                               "turn)"),
    seed: int = typer.Option(1, help="the same seed gives the same games and weights on the same machine"),
    l2: float = typer.Option(1.0, min=0.0, help="the fit's L2 penalty"),
    iterations: int = typer.Option(500, min=1, help="the expert's iterations a move in the games"),
    json_file: Path | None = typer.Option(None, "--json", help="write the recipe, the weights and the held-out "
                                                               "log-loss"),
) -> None:
    """Fit The Last's learned playout policy to the expert's moves (learn/thelast/playout_fit.py)."""
    from ghostgames.learn.thelast.playout_fit import PlayoutFitSpec, run, write

    if out.suffix != ".json":
        raise typer.BadParameter(f"{out} should end in .json (what playout_policy reads)", param_hint="--out")
    console = Console()
    started = time.perf_counter()
    with console.status(f"playing {games} games"):
        report = run(PlayoutFitSpec(games, seed, l2, iterations))
    out.parent.mkdir(parents=True, exist_ok=True)
    write(report, out)
    console.print(f"held-out log-loss: {report.get('held_out_log_loss')}")
    _finish(console, out, report, json_file, started)
