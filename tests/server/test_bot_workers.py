"""The bot worker processes are started, with the games and bots imported, before the server answers its
first request (review point 8: after a restart the first bot move took 7-14 s while they started)."""

from __future__ import annotations

from pathlib import Path

from tests.server.harness import ServerProcess

WORKERS = 2
# A compiled module that only importing the games brings in: mapped into a worker once it has loaded them.
LOADED_MARK = "numpy/_core/_multiarray_umath"


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def _bot_workers(pid: int) -> dict[int, str]:
    """The server's spawned pool workers (not multiprocessing's resource tracker), with their memory maps."""
    workers = {}
    for child in _children(pid):
        command = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        if "spawn_main" in command:
            workers[child] = Path(f"/proc/{child}/maps").read_text(errors="replace")
    return workers


def test_review_8_bot_workers_are_started_and_loaded_before_the_server_answers(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, env={"GHOSTGAMES_BOT_WORKERS": str(WORKERS)})
    server.start()  # returns at the first request the server answers
    try:
        assert server.process is not None
        workers = _bot_workers(server.process.pid)
        assert len(workers) == WORKERS, workers.keys()
        assert all(LOADED_MARK in maps for maps in workers.values())
        assert server.get("/api/games")  # and the server works as ever
    finally:
        server.stop()
