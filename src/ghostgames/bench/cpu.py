"""CPU time that processes spend over a measured window, read from /proc (Linux).

Latency swings with whatever else the machine runs; the CPU seconds a process spends per acknowledged action
do much less, so the server benchmark reports both. A process's time is `utime + stime` of all its threads
(/proc/<pid>/stat). Child processes are counted through the tree: the live descendants' own time plus the
`cutime + cstime` of every process in the tree (the time of children that already exited and were waited
for), so a PostgreSQL backend that ends inside the window still counts, in its postmaster's total.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

PROC = Path("/proc")
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
LOOPBACK = {"127.0.0.1", "localhost", "::1", ""}

Part = Literal["self", "children", "tree"]


@dataclass(frozen=True)
class ProcTimes:
    """One line of /proc/<pid>/stat, in clock ticks."""

    pid: int
    ppid: int
    own: int  # utime + stime: all threads of the process itself
    reaped: int  # cutime + cstime: children that exited and were waited for (and theirs)


@dataclass(frozen=True)
class Watched:
    """A process to account for: `self` its own time, `children` everything below it, `tree` both."""

    name: str
    pid: int
    part: Part = "tree"


def available() -> bool:
    return (PROC / "self" / "stat").exists()


def read_stat(pid: int) -> ProcTimes | None:
    """The times of one process; None when it is gone or unreadable."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # the command name may hold spaces and parentheses
    # fields[0] is field 3 (state) of proc(5): ppid is field 4, utime..cstime are fields 14..17
    return ProcTimes(pid=pid, ppid=int(fields[1]), own=int(fields[11]) + int(fields[12]),
                     reaped=int(fields[13]) + int(fields[14]))


def snapshot() -> dict[int, ProcTimes]:
    """Every process's times (one pass over /proc)."""
    table: dict[int, ProcTimes] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            times = read_stat(int(entry.name))
            if times is not None:
                table[times.pid] = times
    return table


def _descendants(root: int, table: Mapping[int, ProcTimes]) -> list[int]:
    children: dict[int, list[int]] = {}
    for times in table.values():
        children.setdefault(times.ppid, []).append(times.pid)
    found: list[int] = []
    pending = list(children.get(root, []))
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending.extend(children.get(pid, []))
    return found


def ticks_of(watched: Watched, table: Mapping[int, ProcTimes]) -> int:
    """Clock ticks spent so far by the watched part; 0 for a process that is gone."""
    root = table.get(watched.pid)
    if root is None:
        return 0
    total = 0
    if watched.part in ("self", "tree"):
        total += root.own
    if watched.part in ("children", "tree"):
        total += root.reaped
        for pid in _descendants(watched.pid, table):
            total += table[pid].own + table[pid].reaped
    return total


def machine_busy_ticks() -> int:
    """Ticks all CPUs spent on anything but idle and I/O wait since boot (/proc/stat), every process's."""
    with open(PROC / "stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal (guest time is already inside user and nice)
    return sum(values[:8]) - values[3] - values[4]


class CpuMeter:
    """CPU seconds of named processes between `start()` and `stop()`, plus the whole machine's."""

    MACHINE = "machine (every process)"

    def __init__(self, watched: Iterable[Watched]) -> None:
        self.watched = list(watched)
        self._before: dict[str, int] = {}

    def _read(self) -> dict[str, int]:
        table = snapshot()
        ticks = {w.name: ticks_of(w, table) for w in self.watched}
        ticks[self.MACHINE] = machine_busy_ticks()
        return ticks

    def start(self) -> None:
        self._before = self._read()

    def stop(self) -> dict[str, float]:
        """Seconds spent by each watched name (and the machine) since `start()`."""
        after = self._read()
        return {name: max(0, after[name] - self._before.get(name, after[name])) / TICKS for name in after}


def per_action_ms(seconds: Mapping[str, float], actions: int) -> dict[str, float]:
    """CPU milliseconds per acknowledged action for each name (0 when nothing was acknowledged)."""
    return {name: (spent * 1000 / actions if actions else 0.0) for name, spent in seconds.items()}


def listening_pids(port: int) -> set[int]:
    """Processes on this machine holding a TCP socket that listens on `port` (needs the right to read their
    /proc/<pid>/fd: our own processes, or root)."""
    inodes: set[str] = set()
    for table in ("tcp", "tcp6"):
        with contextlib.suppress(OSError), open(PROC / "net" / table) as lines:
            next(lines)
            for line in lines:
                fields = line.split()
                local, state, inode = fields[1], fields[3], fields[9]
                if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port:
                    inodes.add(f"socket:[{inode}]")
    found: set[int] = set()
    if not inodes:
        return found
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            for fd in (entry / "fd").iterdir():
                with contextlib.suppress(OSError):
                    if os.readlink(fd) in inodes:
                        found.add(int(entry.name))
                        break
    return found


def service_root(url: str, default_port: int) -> int | None:
    """The top process of a service this machine runs behind `url` (a PostgreSQL postmaster, a Redis
    server): the one holding its listening socket whose parent does not. None when the URL names another
    host or the process cannot be found."""
    parts = urlsplit(url)
    if (parts.hostname or "") not in LOOPBACK:
        return None
    pids = listening_pids(parts.port or default_port)
    table = {pid: read_stat(pid) for pid in pids}
    roots = sorted(pid for pid, times in table.items() if times is not None and times.ppid not in pids)
    return roots[0] if roots else None


def runqueue_wait_seconds(pid: int) -> float | None:
    """Seconds the process's main thread (a server's event loop) spent ready to run but waiting for a CPU,
    since it started (/proc/<pid>/schedstat); None where the kernel does not say. On a busy machine this,
    not our code, is where a round trip's time can go."""
    try:
        fields = (PROC / str(pid) / "schedstat").read_text().split()
    except OSError:
        return None
    return int(fields[1]) / 1e9 if len(fields) > 1 else None
