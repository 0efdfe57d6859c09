"""The processes a benchmark starts: `ghostgames serve` workers (or the bare echo server) on free loopback
ports, waited for until they answer, their resident memory, and stopped at the end."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

# The benchmark's own players act far faster than people; the per-connection limit would only measure
# itself, so the servers it starts get a high one (the limit has its own tests).
SERVER_ENV = {
    "GHOSTGAMES_RATE": "100000",
    "GHOSTGAMES_BURST": "100000",
    "GHOSTGAMES_CREATE_PER_PERSON": "100000",  # every table comes from one address
    "GHOSTGAMES_CREATE_PER_ADDRESS": "100000",
    "GHOSTGAMES_NAMES_PER_ADDRESS": "100000",  # every player is a guest from one address
    "GHOSTGAMES_LOGINS_PER_ADDRESS": "100000",
    "GHOSTGAMES_CONNECTIONS_PER_ADDRESS": "100000",  # and has its own connection
    "GHOSTGAMES_MAX_OPEN_TABLES": "100000",
    "GHOSTGAMES_GRACE": "120",
    "GHOSTGAMES_BOT_WORKERS": "1",
    "GHOSTGAMES_SECRET": "bench-secret",
    "GHOSTGAMES_ANALYSIS_WORKERS": "0",  # no analysis worker in the process tree whose CPU and memory are measured
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_bytes(pid: int) -> int:
    """Resident memory of a process and all its children (bot workers), from /proc."""
    total = 0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            with open(f"/proc/{current}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            continue
        pending.extend(int(c) for c in children)
    return total


# --- processes ------------------------------------------------------------------------------------
@dataclass
class Processes:
    """Server processes on loopback ports; stopped (and their temp dir removed) by `stop()`."""

    ports: list[int] = field(default_factory=list)
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        for port, proc, log in zip(self.ports, self.procs, self.logs, strict=True):
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"a server exited early:\n{log.read_text(errors='replace')[-3000:]}")
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"a server did not answer on port {port}") from None
                    time.sleep(0.1)

    def rss(self) -> int:
        return sum(rss_bytes(p.pid) for p in self.procs if p.poll() is None)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


def start_servers(workers: int, db: str | None, redis: str | None, directory: Path,
                  source: Path | None = None, ready_timeout: float = 60.0) -> Processes:
    """`source`: another version's src/ directory to run the servers from (a before/after comparison with
    the same load client); by default the installed one. A server that is not ready in `ready_timeout`
    seconds (a busy machine starts them slowly) stops them all."""
    url = db or f"sqlite:///{directory / 'bench.db'}"
    out = Processes()
    env = {**os.environ, **SERVER_ENV}
    if source is not None:
        if not (source / "ghostgames" / "__init__.py").is_file():
            raise ValueError(f"{source} holds no ghostgames package: give the src/ directory of a checkout")
        env["PYTHONPATH"] = str(source.resolve())
    for index in range(workers):
        port = free_port()
        command = [sys.executable, "-m", "ghostgames", "serve", "--host", "127.0.0.1", "--port", str(port),
                   "--db", url, "--log-level", "warning"]
        if redis:
            command += ["--redis", redis]
        log = directory / f"server{index}.log"
        with log.open("wb") as sink:
            out.procs.append(subprocess.Popen(command, env=env, stdout=sink, stderr=subprocess.STDOUT,
                                              cwd=directory))
        out.ports.append(port)
        out.logs.append(log)
        if index == 0:
            _ready_or_stop(out, ready_timeout)  # the first one creates the schema; the others find it
    _ready_or_stop(out, ready_timeout)
    return out


def _ready_or_stop(out: Processes, timeout: float) -> None:
    try:
        out.wait_ready(timeout)
    except RuntimeError:
        out.stop()
        raise


def start_echo(workers: int, directory: Path) -> Processes:
    out = Processes()
    for index in range(workers):
        port = free_port()
        log = directory / f"echo{index}.log"
        with log.open("wb") as sink:
            out.procs.append(subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "ghostgames.bench.echo:app", "--host", "127.0.0.1",
                 "--port", str(port), "--log-level", "warning"],
                stdout=sink, stderr=subprocess.STDOUT, cwd=directory))
        out.ports.append(port)
        out.logs.append(log)
    out.wait_ready()
    return out
