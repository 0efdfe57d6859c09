"""How a command runs its games: the options every command that plays many games shares (`--backend`,
`--address`, `--workers`), the executor they name, and the one progress bar of a run (games a second and
the nodes in use). The commands never know which backend runs them."""

from __future__ import annotations

import time
from collections.abc import Iterable

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from ghostgames.executor import BACKENDS, Executor, make_executor

BACKEND_HELP = "where the games run: local (processes on this machine) or ray (a Ray cluster: docs/distributed.md)"
ADDRESS_HELP = ("the Ray cluster to use with --backend ray: auto (the one `ray start` started on this machine, or "
                "RAY_ADDRESS) or HOST:PORT of its head")


def backend_option() -> str:
    return typer.Option("local", "--backend", help=BACKEND_HELP)  # type: ignore[no-any-return]


def address_option() -> str | None:
    return typer.Option(None, "--address", help=ADDRESS_HELP)  # type: ignore[no-any-return]


def open_executor(backend: str, workers: int, address: str | None, bots: Iterable[str] = ()) -> Executor:
    """The executor the options name; a clear usage error for a bad backend, an address without Ray, or Ray
    not installed. Bots named by import path have their top-level package shipped to every Ray node."""
    from ghostgames.bots.plugins import is_import_path

    if backend not in BACKENDS:
        raise typer.BadParameter(f"one of {', '.join(BACKENDS)}, not {backend!r}", param_hint="--backend")
    modules = tuple(sorted({name.partition(":")[0].split(".")[0] for name in bots if is_import_path(name)}))
    try:
        return make_executor(backend, workers if backend == "local" or workers > 1 else 0, address,
                             _shippable(modules))
    except ImportError as err:
        raise typer.BadParameter(str(err), param_hint="--backend") from None
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--address") from None
    except ConnectionError as err:
        raise typer.BadParameter(f"no Ray cluster at {address or 'auto'}: {err}", param_hint="--address") from None


def _shippable(modules: tuple[str, ...]) -> tuple[str, ...]:
    """The packages (folders) among `modules` that are not installed ones: Ray copies those to the nodes;
    installed packages must be installed on every node (docs/distributed.md)."""
    import importlib
    import sysconfig

    site = sysconfig.get_paths()["purelib"]
    out = []
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        where = getattr(module, "__file__", None) or ""
        if hasattr(module, "__path__") and not where.startswith(site):
            out.append(name)
    return tuple(out)


class RateColumn(ProgressColumn):
    """Finished items a second, e.g. `3.2 games/s`."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.2f} {self.unit}/s" if speed else f"- {self.unit}/s", style="progress.data.speed")


class WhereColumn(ProgressColumn):
    """Where the run's games are played (`local, 2 processes`, `ray, 2 of 3 nodes`), asked of the executor
    at most every 2 s (a cluster answers with a round trip)."""

    def __init__(self, executor: Executor) -> None:
        super().__init__()
        self.executor = executor
        self._text = executor.describe()
        self._told = time.monotonic()

    def render(self, task: Task) -> Text:
        now = time.monotonic()
        if now - self._told > 2.0:
            self._told = now
            self._text = self.executor.describe()
        return Text(self._text)


class RunProgress:
    """One bar for the whole run: done of total, items a second, elapsed and remaining time, and where it
    runs; `advance()` after each item."""

    def __init__(self, console: Console, label: str, total: int, executor: Executor, unit: str = "games",
                 done: int = 0) -> None:
        self.progress = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), RateColumn(unit),
                                 TimeElapsedColumn(), TimeRemainingColumn(), WhereColumn(executor), console=console)
        self.task = self.progress.add_task(label, total=total, completed=done)

    def __enter__(self) -> RunProgress:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(None, None, None)

    def advance(self, *_: object) -> None:
        self.progress.update(self.task, advance=1)
