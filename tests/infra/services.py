"""Private PostgreSQL and Redis instances for tests and benchmarks.

Each instance lives in its own temporary directory, listens on a free loopback port and is stopped at the
end. Nothing touches a system-wide service. When a program is missing and we are root, Debian's packages
are installed (scripts/ensure-services.sh does the same from `make test`). PostgreSQL refuses to run as
root, so as root the server runs as the `postgres` user that Debian's package creates.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


class ServiceUnavailable(RuntimeError):
    """PostgreSQL or Redis cannot be installed or started here (the message says why)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServiceUnavailable(f"{what} exited with code {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return
        time.sleep(0.05)
    raise ServiceUnavailable(f"{what} did not listen on port {port} within {timeout} s")


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's bin directory (Debian puts it under /usr/lib/postgresql/N/bin)."""
    found = sorted(
        (Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin") if Path(p, "initdb").exists()),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1]
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def ensure_installed() -> None:
    """Install PostgreSQL and Redis from Debian's packages when they are missing (root only)."""
    if postgres_bin() is not None and shutil.which("redis-server"):
        return
    script = REPO / "scripts" / "ensure-services.sh"
    subprocess.run(["sh", str(script)], check=False, timeout=900)
    if postgres_bin() is None or not shutil.which("redis-server"):
        raise ServiceUnavailable(
            "PostgreSQL or Redis is not installed; as root run: apt-get install -y postgresql redis-server"
        )


def _run_as() -> str | None:
    """The user PostgreSQL runs as: None = ourselves; as root the `postgres` user."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "postgres"], check=True)
    return "postgres"


@dataclass
class Postgres:
    """A private PostgreSQL cluster: `url` is a SQLAlchemy URL for the psycopg driver."""

    port: int = 0
    directory: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="gg-pg-")))
    process: subprocess.Popen[bytes] | None = None
    database: str = "ghostgames"

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{self.database}"

    @property
    def plain_url(self) -> str:
        """The URL without a driver name (for psql and `ghostgames serve --db`)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{self.database}"

    def start(self) -> Postgres:
        bindir = postgres_bin()
        if bindir is None:
            raise ServiceUnavailable("PostgreSQL is not installed")
        user = _run_as()
        data = self.directory / "data"
        if user is not None:
            shutil.chown(self.directory, user)
        subprocess.run(
            [str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"],
            check=True,
            user=user,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=self.directory,
        )
        self.port = free_port()
        log = open(self.directory / "postgres.log", "wb")  # noqa: SIM115 - closed with the process
        self.process = subprocess.Popen(
            [
                str(bindir / "postgres"), "-D", str(data), "-p", str(self.port), "-h", "127.0.0.1",
                "-k", str(self.directory), "-c", "fsync=off", "-c", "synchronous_commit=off",
                "-c", "full_page_writes=off", "-c", "max_connections=200",
            ],
            user=user,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=self.directory,
        )  # fmt: skip
        log.close()
        wait_for_port(self.port, self.process, 30, "postgres")
        self._create_database()
        return self

    def _create_database(self) -> None:
        import psycopg

        deadline = time.monotonic() + 20
        while True:
            try:
                with psycopg.connect(
                    f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True
                ) as conn:
                    conn.execute(f'CREATE DATABASE "{self.database}"')
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def fresh_database(self, name: str) -> str:
        """A new empty database in this cluster; returns its plain URL."""
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # fast shutdown
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        shutil.rmtree(self.directory, ignore_errors=True)


@dataclass
class Redis:
    """A private Redis without persistence."""

    port: int = 0
    directory: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="gg-redis-")))
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        program = shutil.which("redis-server")
        if program is None:
            raise ServiceUnavailable("redis-server is not installed")
        self.port = free_port()
        self.process = subprocess.Popen(
            [
                program, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--daemonize", "no", "--dir", str(self.directory), "--logfile", str(self.directory / "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for_port(self.port, self.process, 15, "redis-server")
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        shutil.rmtree(self.directory, ignore_errors=True)
