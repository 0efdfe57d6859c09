"""Where independent tasks run: in this process, in worker processes on this machine (`local`) or on the
nodes of a Ray cluster (`ray`). The commands hand over a task (a picklable function of one key) and the keys
(a game's number, say); whichever backend runs them, each key comes back once, with the task's result, as
soon as it is ready. Results are a pure function of the key, so they do not depend on the backend, the
number of workers or the order tasks finish in.

Ray is an optional extra (pip install 'ghostgames[ray]'); without it the local backend works as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ghostgames.executor.base import Executor, Task
from ghostgames.executor.local import LocalExecutor

BACKENDS = ("local", "ray")
INSTALL_RAY = "the ray backend needs Ray: pip install 'ghostgames[ray]' (or pip install 'ray==2.60.0')"

__all__ = ["BACKENDS", "INSTALL_RAY", "Executor", "LocalExecutor", "Task", "given_or_local", "make_executor"]


def make_executor(backend: str = "local", workers: int = 1, address: str | None = None,
                  modules: tuple[str, ...] = ()) -> Executor:
    """The executor a command's `--backend`, `--workers` and `--address` name. `workers` is the number of
    processes locally and the most tasks in flight at once on Ray (0: as many as the cluster has CPUs);
    `address` is a Ray cluster's (`auto`: the one `ray start` started here, or RAY_ADDRESS). `modules`
    (import names) are shipped to every Ray node, for plug-in bots given by import path.
    ValueError for an unknown backend or an address without Ray; ImportError saying how to install Ray."""
    if backend == "local":
        if address is not None:
            raise ValueError("--address names a Ray cluster: give it with --backend ray")
        return LocalExecutor(workers)
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError as err:
            raise ImportError(INSTALL_RAY) from err
        from ghostgames.executor.on_ray import RayExecutor

        return RayExecutor(address or "auto", workers, modules)
    raise ValueError(f"backend is one of {', '.join(BACKENDS)}, not {backend!r}")


@contextmanager
def given_or_local(executor: Executor | None, workers: int = 1) -> Iterator[Executor]:
    """The caller's `executor`, left open (it is the caller's to close), or else `workers` local processes,
    closed when the block ends: for the loops that take an optional executor."""
    if executor is not None:
        yield executor
    else:
        with LocalExecutor(workers) as local:
            yield local
