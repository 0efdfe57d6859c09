"""The one interface between the commands and the machines that run their games."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Iterator
from types import TracebackType
from typing import Any, TypeVar

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")
Task = Callable[[Any], Any]  # a picklable function of one key (a module-level function or a functools.partial)


class Executor(ABC):
    """Runs `task(key)` for many keys; `run` yields (key, result) as results are ready, each key exactly
    once however often a lost worker made a task run again. `nodes` says how many machines have returned
    results so far (for the progress bar)."""

    name: str = ""

    def __init__(self) -> None:
        self.node_ids: set[str] = set()

    @abstractmethod
    def run(self, task: Callable[[K], R], keys: Iterable[K]) -> Iterator[tuple[K, R]]:
        """(key, task(key)) for every distinct key, in the order they finish."""

    @property
    def nodes(self) -> int:
        return len(self.node_ids)

    def describe(self) -> str:
        """A few words for the progress bar: the backend and the nodes in use."""
        return f"{self.name}, {self.nodes} node{'s' if self.nodes != 1 else ''}"

    @abstractmethod
    def close(self) -> None:
        """Let go of processes or the cluster connection (idempotent)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
