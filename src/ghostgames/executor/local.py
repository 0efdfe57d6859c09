"""The local backend: the tasks in this process (one worker) or in a pool of processes on this machine."""

from __future__ import annotations

import socket
from collections.abc import Callable, Hashable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from typing import TypeVar

from ghostgames.executor.base import Executor

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")


class LocalExecutor(Executor):
    name = "local"

    def __init__(self, workers: int = 1) -> None:
        super().__init__()
        self.workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None

    def run(self, task: Callable[[K], R], keys: Iterable[K]) -> Iterator[tuple[K, R]]:
        self.node_ids.add(socket.gethostname())
        todo = list(dict.fromkeys(keys))
        if self.workers == 1:
            for key in todo:
                yield key, task(key)
            return
        if self._pool is None:  # kept between runs: the workers' compiled kernels stay loaded
            self._pool = ProcessPoolExecutor(max_workers=self.workers)
        futures: dict[Future[R], K] = {self._pool.submit(task, key): key for key in todo}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            for future in futures:
                future.cancel()

    def describe(self) -> str:
        return f"local, {self.workers} process{'es' if self.workers != 1 else ''}"

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None
