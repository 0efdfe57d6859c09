"""The Ray backend: each key a Ray task, on whichever node of the cluster has a free CPU.

Faults: a task whose worker or node dies is run again by Ray (`max_retries`), and, should Ray give up, once
more by us under the same key; since each key is yielded only once and a task's result depends on its key
alone, a lost node loses no game and counts none twice. The task itself is put in the object store once, so
a large closure (a model's weights) travels to each node once, not with every key."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any, TypeVar

import ray
from ray import exceptions

from ghostgames.executor.base import Executor

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")

RETRIES = 5  # Ray's own retries of a task whose worker or node died
RESUBMITS = 3  # ours, after Ray's
LOST = (exceptions.WorkerCrashedError, exceptions.NodeDiedError, exceptions.ObjectLostError,
        exceptions.OwnerDiedError, exceptions.RaySystemError)


def _call(task: Callable[[Any], Any], key: Any) -> tuple[str, Any]:
    return ray.get_runtime_context().get_node_id(), task(key)


class RayExecutor(Executor):
    name = "ray"

    def __init__(self, address: str = "auto", workers: int = 0, modules: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.workers = workers
        self._owned = not ray.is_initialized()
        if self._owned:
            runtime_env = {"py_modules": [_module(name) for name in modules]} if modules else None
            ray.init(address=address, runtime_env=runtime_env, log_to_driver=False, logging_level=logging.WARNING,
                     configure_logging=True)
        self._remote = ray.remote(max_retries=RETRIES, num_cpus=1)(_call)

    def in_flight(self) -> int:
        """Tasks submitted at once: --workers if given, else twice the cluster's CPUs (enough to keep every
        node busy, few enough that a long run does not queue all its games up front)."""
        if self.workers > 0:
            return self.workers
        return max(1, 2 * int(ray.cluster_resources().get("CPU", 1)))

    def run(self, task: Callable[[K], R], keys: Iterable[K]) -> Iterator[tuple[K, R]]:
        todo = deque(dict.fromkeys(keys))
        task_ref = ray.put(task)
        pending: dict[Any, K] = {}
        tries: dict[K, int] = {}
        done: set[K] = set()
        width = self.in_flight()
        try:
            while todo or pending:
                while todo and len(pending) < width:
                    key = todo.popleft()
                    pending[self._remote.remote(task_ref, key)] = key
                ready, _ = ray.wait(list(pending), num_returns=1)
                key = pending.pop(ready[0])
                try:
                    node, result = ray.get(ready[0])
                except exceptions.RayTaskError as err:  # the task itself failed: that is the caller's error
                    raise err.as_instanceof_cause() from None
                except LOST:
                    tries[key] = tries.get(key, 0) + 1
                    if tries[key] > RESUBMITS:
                        raise
                    todo.appendleft(key)
                    continue
                if key in done:
                    continue
                done.add(key)
                self.node_ids.add(node)
                yield key, result
        finally:
            for ref in pending:
                ray.cancel(ref)

    def describe(self) -> str:
        alive = len([node for node in ray.nodes() if node.get("Alive")])
        return f"ray, {self.nodes} of {alive} node{'s' if alive != 1 else ''}"

    def close(self) -> None:
        if self._owned and ray.is_initialized():
            ray.shutdown()


def _module(name: str) -> Any:
    """The imported module of that name (Ray packs and ships its folder)."""
    import importlib

    return importlib.import_module(name)
