"""Group commit: one writer thread takes every append waiting, of all tables, and stores them in one
transaction; each caller resumes (and its action is acknowledged) only after that transaction committed.

Before, each action handed its append to a pool thread of its own (`asyncio.to_thread`), where the
writers queued for SQLite's single write lock and committed one by one: per action a thread hop, a
transaction, a COMMIT, and the event loop waiting for the GIL behind those threads. Now the appends that
arrive while one transaction runs go together in the next, so the busier the server, the larger the batch
and the cheaper each action. Nothing is acknowledged earlier than before: a caller's future is resolved
from the committed transaction's result (docs/server.md, "Storage").
"""

from __future__ import annotations

import asyncio
import queue
import threading
from typing import Any

from ghostgames.storage import Append, Repository

MOST_PER_TRANSACTION = 500  # appends per transaction at most; the rest wait for the next one


class GroupCommit:
    """The appends of one server process, through one writer thread."""

    def __init__(self, repo: Repository, most: int = MOST_PER_TRANSACTION) -> None:
        self.repo = repo
        self.most = most
        # SimpleQueue: a put from the event loop is one C call (no Python-level lock, no notify); None = stop
        self._waiting: queue.SimpleQueue[tuple[Append, asyncio.Future[int | None]] | None] = queue.SimpleQueue()
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.transactions = 0  # how many transactions and appends so far (for tests and the curious)
        self.appends = 0

    async def append(self, append: Append) -> int | None:
        """Store `append` (as Repository.append does, SeqConflict included) once its transaction commits."""
        if self._stopping:
            raise RuntimeError("the server is stopping; nothing more is stored")
        if self._thread is None:
            self._start()
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._waiting.put((append, future))
        return await future

    def _start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._run, name="ghostgames-group-commit", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        loop = self._loop
        assert loop is not None
        stop = False
        while not stop:
            first = self._waiting.get()
            if first is None:
                return  # stopping, and everything asked for before is stored
            batch = [first]
            while len(batch) < self.most:
                try:
                    item = self._waiting.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            try:
                results = self.repo.append_many([append for append, _ in batch])
            except Exception as err:  # append_many reports per append; this is a last resort
                results = [err] * len(batch)
            self.transactions += 1
            self.appends += len(batch)
            try:
                loop.call_soon_threadsafe(_settle, batch, results)
            except RuntimeError:
                return  # the event loop is gone: nobody is waiting any more

    async def stop(self) -> None:
        """Store what is waiting, then end the writer thread."""
        self._stopping = True
        if self._thread is not None:
            self._waiting.put(None)
            await asyncio.to_thread(self._thread.join)


def _settle(batch: list[tuple[Append, asyncio.Future[int | None]]], results: list[Any]) -> None:
    for (_, future), result in zip(batch, results, strict=True):
        if future.done():
            continue  # the caller was cancelled; its append is stored all the same
        if isinstance(result, Exception):
            future.set_exception(result)
        else:
            future.set_result(result)
