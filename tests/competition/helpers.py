"""A real competition server on free loopback ports in a background thread, and a scripted player that
checks the wire format byte for byte."""

from __future__ import annotations

import asyncio
import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from ghostgames.competition.server import CompetitionServer, GameResult, ServerSettings

FAST = ServerSettings(budget=600.0, timeout=10.0, ng_terminates=True, pause=0.001)
START_BOARD = "14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u"


class ServerThread:
    """`CompetitionServer` running game after game until the test ends."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.results: list[GameResult] = []
        self.ports: tuple[int, int] = (0, 0)
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._task: asyncio.Task[list[GameResult]] | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._main())

    async def _main(self) -> None:
        server = CompetitionServer(self.settings, "127.0.0.1", 0, 0)
        await server.start()
        self.ports = server.ports
        self._task = asyncio.ensure_future(server.serve(None, self.results.append))
        self._ready.set()
        try:
            await self._task
        except asyncio.CancelledError:
            pass
        finally:
            await server.close()

    def start(self) -> None:
        self._thread.start()
        assert self._ready.wait(10), "the server did not start"

    def stop(self) -> None:
        if self._task is not None:
            self._loop.call_soon_threadsafe(self._task.cancel)
        self._thread.join(10)
        assert not self._thread.is_alive(), "the server did not stop"

    def wait_results(self, count: int, seconds: float = 20.0) -> list[GameResult]:
        give_up = time.monotonic() + seconds
        while len(self.results) < count:
            assert time.monotonic() < give_up, f"only {len(self.results)} of {count} games finished"
            time.sleep(0.01)
        return list(self.results)


@contextmanager
def running_server(settings: ServerSettings = FAST) -> Iterator[ServerThread]:
    server = ServerThread(settings)
    server.start()
    try:
        yield server
    finally:
        server.stop()


class Player:
    """A scripted client: every message it receives must end in CR LF."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buffer = b""
        self.received: list[str] = []

    def send(self, message: str) -> None:
        self.sock.sendall(message.encode("ascii") + b"\r\n")

    def receive(self) -> str:
        while b"\r\n" not in self.buffer:
            data = self.sock.recv(4096)
            assert data, f"the server hung up; got so far {self.received}"
            self.buffer += data
        raw, _, self.buffer = self.buffer.partition(b"\r\n")
        message = raw.decode("ascii")
        self.received.append(message)
        return message

    def hung_up(self) -> bool:
        """True once the server has closed the connection (after everything was read)."""
        return self.buffer == b"" and self.sock.recv(4096) == b""

    def close(self) -> None:
        self.sock.close()


def connect_pair(server: ServerThread) -> tuple[Player, Player]:
    return Player(server.ports[0]), Player(server.ports[1])


def set_up(first: Player, second: Player, first_set: str = "SET:ABCD", second_set: str = "SET:ABCD") -> None:
    for player, answer in ((first, first_set), (second, second_set)):
        assert player.receive() == "SET?"
        player.send(answer)
        assert player.receive() == "OK "


def move(player: Player, answer: str) -> tuple[str, str]:
    """Read the `MOV?` question, answer it; return (the board asked with, the acknowledgement)."""
    question = player.receive()
    assert question.startswith("MOV?"), question
    player.send(answer)
    return question[4:], player.receive()


def alternate(first: Player, second: Player, first_moves: list[str], second_moves: list[str]) -> list[str]:
    """Play the two scripts in turn (first, second, first, …); every move must be accepted."""
    acks = []
    for i in range(max(len(first_moves), len(second_moves))):
        for player, script in ((first, first_moves), (second, second_moves)):
            if i < len(script):
                _, ack = move(player, script[i])
                assert ack in ("OK ", "OKR", "OKB"), (script[i], ack)
                acks.append(ack)
    return acks


def shuffle(letter: str, there: str, back: str, count: int) -> list[str]:
    """`count` moves of one ghost to and fro: a player marking time."""
    return [f"MOV:{letter},{there if i % 2 == 0 else back}" for i in range(count)]


def free_port_pair() -> int:
    """A port P with P and P + 1 both free right now (for the commands, which use P and P + 1)."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port >= 65535:
            continue
        try:
            with socket.socket() as a, socket.socket() as b:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + 1))
            return port
        except OSError:
            continue
    raise RuntimeError("no two neighbouring free ports")


FINAL_BOARD = "14R24R34R44R15B25B35B45B41r31r21r11r40b30b20b10b"


class ScriptedServer:
    """A competition server reduced to a script, one step per connection, the way servers out there
    behave between games: "game" plays a one-move game that the client wins, "half" asks SET? and
    hangs up after the answer, "reset" accepts and resets the connection (TCP RST), "close" accepts and
    closes it without a word, "refuse" stops listening for a moment so connections are refused. After
    the script the server stops listening for good."""

    def __init__(self, script: list[str]) -> None:
        self.script = list(script)
        self.accepted = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.listener.close()
        self._thread.join(10)

    def _run(self) -> None:
        for step in self.script:
            if step == "refuse":
                self.listener.close()
                time.sleep(0.3)
                self.listener = socket.create_server(("127.0.0.1", self.port))
                continue
            conn, _ = self.listener.accept()
            self.accepted += 1
            with conn:
                conn.settimeout(10)
                if step == "reset":
                    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                elif step in ("game", "half"):
                    self._play(conn, step == "half")
        self.listener.close()

    @staticmethod
    def _play(conn: socket.socket, half: bool) -> None:
        reader = conn.makefile("rb")
        conn.sendall(b"SET?\r\n")
        assert reader.readline().startswith(b"SET:")
        if half:
            return
        conn.sendall(b"OK \r\n")
        conn.sendall(f"MOV?{START_BOARD}\r\n".encode())
        assert reader.readline().startswith(b"MOV:")
        conn.sendall(b"OK \r\n")
        conn.sendall(f"WON:{FINAL_BOARD}\r\n".encode())
