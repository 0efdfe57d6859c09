"""A referee that speaks the Geister AI-competition protocol over TCP (asyncio).

The first player connects to port P and plays seat 0 (moves first); the second connects to P + 1 and
plays seat 1. The server pairs one connection from each port, plays one game with the rules engine as
the referee, sends both results, closes both connections and pairs the next two.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import socket
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any

from ghostgames.competition.frames import board_text, our_direction
from ghostgames.competition.messages import (
    DRAW,
    EOL,
    LOST,
    MOVE_QUESTION,
    NG,
    OK,
    OK_BLUE,
    OK_RED,
    SET_QUESTION,
    WON,
    BadMessage,
    parse_move,
    parse_set,
)
from ghostgames.games import get_game
from ghostgames.games.geister import GeisterState
from ghostgames.games.geister.board import START, square_name, step
from ghostgames.rules.contract import IllegalAction, Outcome
from ghostgames.rules.record import GameRecord

log = logging.getLogger("ghostgames.competition")

# The competition's rules: escape by an extra move off an exit corner, a draw after 300 plies, the
# player on port P moves first, every colour shown at the end.
OPTIONS: dict[str, Any] = {"exit": "escape", "max_plies": 300, "first": 0, "disclose": True}
LINE_LIMIT = 4096


@dataclass(frozen=True, slots=True)
class ServerSettings:
    budget: float = 600.0  # seconds each player may think in a whole game
    timeout: float = 10.0  # seconds for one answer
    ng_terminates: bool = True  # an illegal move loses (False: the player tries again)
    pause: float = 0.03  # seconds to wait after an acknowledgement before the next message


@dataclass(slots=True)
class GameResult:
    """One finished game: who played, who won (None: a draw) and why, and the record to replay."""

    number: int
    players: tuple[str, str]  # peer addresses of the first (port P) and the second player
    winner: int | None
    reason: str
    plies: int
    record: GameRecord
    budget_left: tuple[float, float]
    transcript: list[tuple[int, str, str]] = field(default_factory=list)  # (seat, "->" or "<-", message)

    def outcome(self) -> Outcome:
        """The end in the contract's terms (also for ends outside the rules: time, NG, disconnect)."""
        if self.winner is None:
            return Outcome.draw(2, self.reason)
        return Outcome.winner_takes_all(2, self.winner, self.reason)

    def result_for(self, seat: int) -> str:
        if self.winner is None:
            return "draw"
        return "win" if self.winner == seat else "loss"


class Forfeit(Exception):
    """The game ends at once because `loser` broke the protocol, ran out of time or went away."""

    def __init__(self, loser: int, reason: str) -> None:
        super().__init__(reason)
        self.loser = loser
        self.reason = reason


class Connection:
    """One player's TCP connection: lines it sent (None once it is gone) and sending whole messages."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        sock = writer.get_extra_info("socket")
        if sock is not None:  # each message goes out at once, not held back to be merged with the next
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = asyncio.Event()
        self._reading: asyncio.Task[None] | None = None
        self.setup: asyncio.Task[Setup] | None = None  # the SET phase, begun as the player connected
        self.early: list[tuple[float, str, str]] = []  # (time, "->" or "<-", message) of that phase

    def alive(self) -> bool:
        return not (self.closed.is_set() or self.reader.at_eof() or self.writer.is_closing())

    def start_reading(self) -> None:
        if self._reading is None:
            self._reading = asyncio.ensure_future(self._read_lines())

    async def _read_lines(self) -> None:
        try:
            while True:
                raw = await self.reader.readline()
                if not raw:
                    break
                text = raw.decode("ascii", errors="replace")
                if text.endswith("\n"):
                    text = text[:-1]
                    if text.endswith("\r"):
                        text = text[:-1]
                await self.lines.put(text)
        except (ConnectionError, OSError, ValueError, asyncio.LimitOverrunError):
            pass  # a broken or flooding connection counts as gone
        finally:
            self.closed.set()
            await self.lines.put(None)

    def discard_unasked(self) -> None:
        """Drop lines the player sent before being asked (they cannot be answers)."""
        while not self.lines.empty():
            if self.lines.get_nowait() is None:
                self.lines.put_nowait(None)
                return

    async def send(self, message: str) -> None:
        """One message, one write (some clients read one message per receive)."""
        self.writer.write((message + EOL).encode("ascii"))
        await self.writer.drain()

    def shut(self) -> None:
        """Stop reading and start closing, without waiting (safe to call more than once)."""
        if self._reading is not None:
            self._reading.cancel()
        self.writer.close()

    async def close(self) -> None:
        self.shut()
        if self._reading is not None and not self._reading.done():
            await asyncio.wait({self._reading})  # unlike awaiting it, never swallows our own cancellation
        await _wait_briefly(self.writer.wait_closed())


async def _wait_briefly(closing: Coroutine[Any, Any, None], seconds: float = 1.0) -> None:
    """Give a close up to `seconds`. (Not asyncio.wait_for: on Python 3.11 it can swallow the caller's
    cancellation when both happen at once, and then a stopping server would never stop.)"""
    task = asyncio.ensure_future(closing)
    try:
        await asyncio.wait({task}, timeout=seconds)
    finally:
        if not task.done():
            task.cancel()
        elif not task.cancelled():
            task.exception()  # a failed close is of no interest, but must be retrieved


@dataclass(frozen=True, slots=True)
class Setup:
    """A player's accepted `SET:`: the red ghosts, when it came and the whole seconds it cost."""

    red: frozenset[int]
    done_at: float
    seconds: int


async def ask_setup(conn: Connection, seat: int, settings: ServerSettings) -> Setup:
    """The SET phase of one player, run from the moment it is next in line, as the reference server
    runs it (one thread per player): `SET?`, then each answer acknowledged at once, `NG ` and `SET?`
    again for a bad one. A `SET:` sent before `SET?` is the answer. Raises Forfeit on time or hang-up."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    deadline = start + min(settings.timeout, settings.budget)

    async def send(message: str) -> None:
        conn.early.append((loop.time(), "->", message))
        try:
            await conn.send(message)
        except (ConnectionError, OSError) as err:
            raise Forfeit(seat, "disconnected") from err

    await send(SET_QUESTION)
    conn.start_reading()
    while True:
        try:
            line = await asyncio.wait_for(conn.lines.get(), max(0.0, deadline - loop.time()))
        except TimeoutError:
            raise Forfeit(seat, "time") from None
        if line is None:
            raise Forfeit(seat, "disconnected")
        conn.early.append((loop.time(), "<-", line))
        try:
            red = parse_set(line)
        except BadMessage:
            await send(NG)  # a bad SET is always answered NG and asked again
            await asyncio.sleep(settings.pause)
            await send(SET_QUESTION)
            continue
        done_at = loop.time()
        await send(OK)
        await asyncio.sleep(settings.pause)
        return Setup(red, done_at, int(done_at - start))


class Referee:
    """Plays one game between two connections with the rules engine deciding every move."""

    def __init__(
        self, number: int, players: tuple[Connection, Connection], settings: ServerSettings, seed: int
    ) -> None:
        self.number = number
        self.players = players
        self.settings = settings
        state = get_game("geister").new(2, OPTIONS, seed)
        assert isinstance(state, GeisterState)
        self.state = state
        self.record = GameRecord("geister", 2, dict(OPTIONS), seed)
        self.budget = [settings.budget, settings.budget]
        self.transcript: list[tuple[int, str, str]] = []
        # Per ghost, the acknowledgement of its last move on the board: the reference server repeats it
        # when that ghost then leaves the board (see `_ack`).
        self.last_ack = [OK] * 16

    async def play(self) -> GameResult:
        for conn in self.players:
            conn.start_reading()
        try:
            winner, reason = await self._play_to_the_end()
            for seat in (0, 1):
                result = DRAW if winner is None else (WON if winner == seat else LOST)
                board = board_text(self.state.pos, self.state.good, seat, reveal=True)
                with contextlib.suppress(Forfeit):
                    await self._send(seat, result + board)
        finally:
            for conn in self.players:
                conn.shut()
            for conn in self.players:
                await conn.close()
        return GameResult(
            self.number,
            (self.players[0].peer, self.players[1].peer),
            winner,
            reason,
            self.state.ply,
            self.record,
            (self.budget[0], self.budget[1]),
            self.transcript,
        )

    async def _play_to_the_end(self) -> tuple[int | None, str]:
        """The winner (None: a draw) and the reason."""
        try:
            await self._setups()
            while (outcome := self.state.outcome()) is None:
                await self._move(self.state.turn)
        except Forfeit as end:
            return 1 - end.loser, end.reason
        best = [s for s, r in enumerate(outcome.results) if r.result == "win"]
        return (best[0] if best else None), outcome.reason

    # --- one answer ---------------------------------------------------------------------------
    async def _send(self, seat: int, message: str) -> None:
        self.transcript.append((seat, "->", message))
        log.debug("game %d seat %d <- %r", self.number, seat, message)
        try:
            await self.players[seat].send(message)
        except (ConnectionError, OSError) as err:
            raise Forfeit(seat, "disconnected") from err

    async def _acknowledge(self, seat: int, ack: str) -> None:
        await self._send(seat, ack)
        await asyncio.sleep(self.settings.pause)

    async def _ask(self, seat: int, question: str, keep_early: bool = False) -> None:
        """Send a question. A question normally drops lines sent before it; with `keep_early` they stay
        and the first is the answer: a repeated question (after `NG `), since a client may already have
        sent its new try on seeing the `NG ` (`SET?` is asked by `ask_setup`, which keeps them too)."""
        conn = self.players[seat]
        if not keep_early:
            if conn.closed.is_set():
                raise Forfeit(seat, "disconnected")
            conn.discard_unasked()
        await self._send(seat, question)

    async def _answer(self, seat: int, deadline: float) -> str:
        """The mover's next line; forfeits on its timeout or disconnect, or the opponent's disconnect."""
        loop = asyncio.get_running_loop()
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise Forfeit(seat, "time")
        line_task = asyncio.ensure_future(self.players[seat].lines.get())
        gone_task = asyncio.ensure_future(self.players[1 - seat].closed.wait())
        try:
            done, _ = await asyncio.wait({line_task, gone_task}, timeout=remaining,
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (line_task, gone_task):
                if not task.done():
                    task.cancel()
        if line_task in done:
            line = line_task.result()
            if line is None:
                raise Forfeit(seat, "disconnected")
            self.transcript.append((seat, "<-", line))
            log.debug("game %d seat %d -> %r", self.number, seat, line)
            return line
        if gone_task in done:
            raise Forfeit(1 - seat, "disconnected")
        raise Forfeit(seat, "time")

    def _deadline(self, seat: int, start: float) -> float:
        return start + min(self.settings.timeout, self.budget[seat])

    def _charge(self, seat: int, start: float) -> None:
        """Whole seconds of the answer come off the budget."""
        elapsed = asyncio.get_running_loop().time() - start
        self.budget[seat] = max(0.0, self.budget[seat] - int(elapsed))

    # --- the two questions --------------------------------------------------------------------------
    async def _setups(self) -> None:
        """Both players' SET phases, begun as each connected (`ask_setup`), taken in the order they
        ended: a client that drives both connections from one thread may answer the second player's
        `SET?` first. The first forfeit (time, or a hang-up, also by a player already set up) ends it."""
        phases: list[asyncio.Future[Any]] = []
        for seat, conn in enumerate(self.players):
            # a Referee given connections nobody asked yet begins their phases here
            phases.append(conn.setup or _begin_setup(conn, seat, self.settings))
        gone = [asyncio.ensure_future(conn.closed.wait()) for conn in self.players]
        try:
            while not all(p.done() for p in phases):
                await asyncio.wait([*phases, *gone], return_when=asyncio.FIRST_COMPLETED)
                if any(p.done() and p.exception() is not None for p in phases):
                    break
                for seat, watch in enumerate(gone):
                    if watch.done() and phases[seat].done():
                        raise Forfeit(seat, "disconnected")  # hung up after its SET was accepted
        finally:
            for waiting in (*gone, *phases):
                waiting.cancel()  # the other player's phase when one forfeits; nothing once both are in
            await asyncio.wait([*gone, *phases])
            self._copy_early_transcript()
        failed = [p.exception() for p in phases if not p.cancelled() and p.exception() is not None]
        if failed:
            error = failed[0]
            assert error is not None
            raise error
        setups: list[tuple[Setup, int]] = [(p.result(), seat) for seat, p in enumerate(phases)]
        for setup, seat in sorted(setups, key=lambda pair: pair[0].done_at):
            text = "setup " + " ".join(square_name(START[seat][k]) for k in range(8) if k not in setup.red)
            self.state.apply(seat, text)
            self.record.actions.append((seat, text))
            self.budget[seat] = max(0.0, self.budget[seat] - setup.seconds)

    def _copy_early_transcript(self) -> None:
        """The SET phases' messages, in the order they happened, at the head of the game's transcript."""
        early = sorted((t, seat, way, message) for seat, conn in enumerate(self.players)
                       for t, way, message in conn.early)
        self.transcript[:0] = [(seat, way, message) for _, seat, way, message in early]

    async def _move(self, seat: int) -> None:
        start = asyncio.get_running_loop().time()
        deadline = self._deadline(seat, start)
        question = MOVE_QUESTION + board_text(self.state.pos, self.state.good, seat, reveal=False)
        await self._ask(seat, question)
        while True:
            line = await self._answer(seat, deadline)
            try:
                move = parse_move(line)
                origin = self.state.pos[seat * 8 + move.ghost]
                if origin < 0:
                    raise BadMessage("that ghost is no longer on the board")
                text = f"{square_name(origin)} {our_direction(move.direction, seat)}"
                events = self.state.apply(seat, text)
            except (BadMessage, IllegalAction) as err:
                self._forget_capture_if_blocked(seat, line)
                await self._acknowledge(seat, NG)
                if self.settings.ng_terminates:
                    raise Forfeit(seat, f"illegal move {line!r}: {err}") from None
                await self._ask(seat, question, keep_early=True)
                continue
            self.record.actions.append((seat, text))
            self._charge(seat, start)
            await self._acknowledge(seat, self._ack(seat * 8 + move.ghost, events[0].public))
            return

    def _ack(self, ghost: int, public: Mapping[str, Any]) -> str:
        """`OKR` / `OKB` for a capture of a red / blue ghost, else `OK `. A ghost that leaves the board
        gets the acknowledgement of its own last move on the board again: that is what the reference
        server sends (it keeps what each ghost last captured and does not clear it on an escape), so a
        blue ghost that takes a blue ghost on the corner and then leaves hears `OKB` twice."""
        if public.get("escaped"):
            return self.last_ack[ghost]
        colour = public.get("colour")
        ack = OK_BLUE if colour == "good" else OK_RED if colour == "bad" else OK
        self.last_ack[ghost] = ack
        return ack

    def _forget_capture_if_blocked(self, seat: int, line: str) -> None:
        """The reference server also forgets a ghost's last capture when a move of it is refused because
        its own ghost stands in the way (and only then), which shows in a later escape's acknowledgement."""
        try:
            move = parse_move(line)
        except BadMessage:
            return
        ghost = seat * 8 + move.ghost
        origin = self.state.pos[ghost]
        if origin < 0:
            return
        target = step(origin, our_direction(move.direction, seat))
        if target >= 0 and target in self.state.pos[seat * 8 : seat * 8 + 8]:
            self.last_ack[ghost] = OK


def _still_in_line(conn: Connection) -> bool:
    """A player waiting for an opponent keeps its place while connected and not out of time."""
    failed = conn.setup is not None and conn.setup.done() and (
        conn.setup.cancelled() or conn.setup.exception() is not None)
    return conn.alive() and not conn.closed.is_set() and not failed


def _begin_setup(conn: Connection, seat: int, settings: ServerSettings) -> asyncio.Task[Setup]:
    """Start `conn`'s SET phase as a task whose outcome is always retrieved when it ends, whoever awaits it or
    not: no "exception never retrieved" is then logged when a forfeited phase is collected (on Python 3.11 that
    log, formatted during another compile, breaks every later compile in the process)."""
    conn.setup = asyncio.ensure_future(ask_setup(conn, seat, settings))
    conn.setup.add_done_callback(_retrieve)
    return conn.setup


def _retrieve(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


async def _drop(conn: Connection) -> None:
    """Let go of a waiting player (hung up, out of time, or the server stops) without a game."""
    if conn.setup is not None and not conn.setup.done():
        conn.setup.cancel()
        await asyncio.wait({conn.setup})
    await conn.close()


class CompetitionServer:
    """Listens on two ports and plays game after game, one pair of connections per game."""

    def __init__(self, settings: ServerSettings, host: str = "127.0.0.1", port: int = 10000,
                 second_port: int | None = None) -> None:
        self.settings = settings
        self.host = host
        self.wanted_ports = (port, second_port if second_port is not None else (port + 1 if port else 0))
        self.ports: tuple[int, int] = (0, 0)
        self._waiting: tuple[asyncio.Queue[Connection], asyncio.Queue[Connection]] = (
            asyncio.Queue(), asyncio.Queue())
        self._listeners: list[asyncio.Server] = []
        self.games_played = 0

    async def start(self) -> None:
        for index, port in enumerate(self.wanted_ports):
            listener = await asyncio.start_server(self._accepter(index), self.host, port, limit=LINE_LIMIT)
            self._listeners.append(listener)
        self.ports = (self._port_of(self._listeners[0]), self._port_of(self._listeners[1]))

    @staticmethod
    def _port_of(listener: asyncio.Server) -> int:
        return int(listener.sockets[0].getsockname()[1])

    def _accepter(self, index: int) -> Callable[[asyncio.StreamReader, asyncio.StreamWriter], None]:
        def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            conn = Connection(reader, writer)
            log.info("player connected to port %d from %s", self.ports[index], conn.peer)
            self._waiting[index].put_nowait(conn)

        return accept

    async def _next_pair(self) -> tuple[Connection, Connection]:
        """A live connection from each port (ones that hung up while waiting are dropped). Each gets
        `SET?` as soon as it is next in line, before its opponent has connected, as on the reference
        server: a client that connects its two players from one thread and waits for `SET?` on the
        first before connecting the second would otherwise wait for ever."""
        chosen: list[Connection | None] = [None, None]
        getters: list[asyncio.Future[Connection] | None] = [None, None]  # both ports wait at once
        paired = False
        try:
            while True:
                for index in (0, 1):
                    current = chosen[index]
                    if current is not None and not _still_in_line(current):
                        await _drop(current)
                        chosen[index] = current = None
                    if current is None and getters[index] is None:
                        getters[index] = asyncio.ensure_future(self._waiting[index].get())
                first, second = chosen
                if first is not None and second is not None:
                    paired = True
                    return first, second
                watches = [asyncio.ensure_future(conn.closed.wait()) for conn in chosen if conn is not None]
                events: list[asyncio.Future[Any]] = [g for g in getters if g is not None]
                events += watches
                events += [conn.setup for conn in chosen if conn is not None and conn.setup is not None]
                try:
                    await asyncio.wait(events, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for watch in watches:
                        watch.cancel()
                for index, getter in enumerate(getters):
                    if getter is None or not getter.done():
                        continue
                    getters[index] = None
                    candidate = getter.result()
                    if candidate.alive():
                        _begin_setup(candidate, index, self.settings)
                        chosen[index] = candidate
                    else:
                        await candidate.close()
        finally:
            for getter in getters:
                if getter is None:
                    continue
                if getter.done() and not getter.cancelled():
                    await getter.result().close()  # taken from the queue as the server stopped
                getter.cancel()
            if not paired:
                for conn in chosen:
                    if conn is not None:
                        await _drop(conn)

    async def play_one(self) -> GameResult:
        players = await self._next_pair()
        self.games_played += 1
        seed = random.SystemRandom().randrange(2**63)
        return await Referee(self.games_played, players, self.settings, seed).play()

    async def serve(self, games: int | None = None,
                    on_result: Callable[[GameResult], None] | None = None) -> list[GameResult]:
        """Play `games` games (None: until cancelled); `on_result` sees each as soon as it ends."""
        results: list[GameResult] = []
        while games is None or len(results) < games:
            result = await self.play_one()
            results.append(result)
            if on_result is not None:
                on_result(result)
        return results

    async def close(self) -> None:
        for listener in self._listeners:
            listener.close()
        for queue in self._waiting:
            while not queue.empty():
                await queue.get_nowait().close()
        for listener in self._listeners:
            await _wait_briefly(listener.wait_closed())
