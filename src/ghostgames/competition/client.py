"""A client that lets one of our bots play on any server speaking the Geister competition protocol.

One TCP connection per game: connect, answer `SET?` and every `MOV?`, read the `WON:` / `LST:` /
`DRW:` line, hang up; then connect again for the next game. Plain blocking sockets: a client only ever
waits for the server or thinks, never both.

Between games a server may refuse a connection, or accept it and drop it at once (the reference server
does while it still winds up the last game). Such a connection is not a game: the client tries again
with a growing pause, and gives up (`ServerGone`) only when no game has started for a while.
"""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ghostgames.bots import get_bot
from ghostgames.bots.base import Bot
from ghostgames.competition.messages import (
    ACKS,
    DRAW,
    EOL,
    LOST,
    MOVE_QUESTION,
    SET_QUESTION,
    WON,
    MessageSplitter,
)
from ghostgames.competition.mirror import Mirror

RESULT_WORDS = {WON: "won", LOST: "lost", DRAW: "draw"}
FIRST_RETRY = 0.1  # seconds before trying again after a connection that started no game
LONGEST_RETRY = 2.0  # the pause doubles up to this


@dataclass(slots=True)
class ClientGame:
    """How one game went for us: won / lost / draw, or `disconnected` if the server hung up early."""

    result: str
    final_board: str = ""
    moves: int = 0
    refused: int = 0  # answers the server called NG
    transcript: list[tuple[str, str]] = field(default_factory=list)  # ("<-" server / "->" us, message)

    @property
    def started(self) -> bool:
        """Whether the server said anything at all: a connection dropped before that was no game."""
        return any(direction == "<-" for direction, _ in self.transcript)


class ServerGone(ConnectionError):
    """No game could start: every connection was refused or dropped before the server said a word."""


def connect(host: str, port: int, wait: float) -> socket.socket:
    """Connect, retrying for up to `wait` seconds while the server is not listening yet."""
    give_up = time.monotonic() + wait
    while True:
        try:
            sock = socket.create_connection((host, port), timeout=max(wait, 5.0))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return sock
        except (ConnectionRefusedError, TimeoutError):
            if time.monotonic() >= give_up:
                raise
            time.sleep(0.1)


def play_game(host: str, port: int, bot: Bot, rng: random.Random, *, connect_wait: float = 10.0,
              read_timeout: float | None = None, show: Callable[[str, str], None] | None = None) -> ClientGame:
    """Play one game on `host:port` with `bot`; `show(direction, message)` sees every message. At the end the
    bot gets our seat's final knowledge (`Bot.game_over`; the final board shows the opponent's colours)."""
    mirror = Mirror(bot, rng)
    game = ClientGame("disconnected")
    splitter = MessageSplitter()
    with connect(host, port, connect_wait) as sock:
        sock.settimeout(read_timeout)

        def note(direction: str, message: str) -> None:
            game.transcript.append((direction, message))
            if show is not None:
                show(direction, message)

        def send(message: str) -> bool:
            note("->", message)
            try:
                sock.sendall((message + EOL).encode("ascii"))
            except OSError:  # the server went away: the game ends as `disconnected`
                return False
            return True

        while True:
            try:
                data = sock.recv(4096)
            except (ConnectionError, OSError):
                return game
            if not data:
                return game
            for message in splitter.feed(data.decode("ascii", errors="replace")):
                note("<-", message)
                head = message[:4]
                if head == SET_QUESTION:
                    if not send(mirror.set_answer()):
                        return game
                elif head == MOVE_QUESTION:
                    if not send(mirror.move_answer(message[4:])):
                        return game
                elif message[:3] in ACKS or message.strip() in ("OK", "NG"):
                    if message.startswith("NG"):
                        game.refused += 1
                    mirror.acknowledged(message)
                    game.moves = mirror.moves_made
                elif head in RESULT_WORDS:
                    game.result = RESULT_WORDS[head]
                    game.final_board = message[4:]
                    try:
                        final = mirror.final_knowledge(game.final_board, game.result)
                    except ValueError:  # a board we cannot read: the bot learns nothing from this game
                        return game
                    bot.game_over(final)
                    return game


def play_games(host: str, port: int, bot_name: str | Bot, games: int, *, seconds: float | None = None,
               seed: int | None = None, connect_wait: float = 10.0, read_timeout: float | None = None,
               on_game: Callable[[int, ClientGame], None] | None = None,
               show: Callable[[str, str], None] | None = None) -> list[ClientGame]:
    """`games` games in a row, a fresh connection each. A connection refused, reset or closed before the
    server said anything is no game: it is tried again, with pauses from FIRST_RETRY doubling up to
    LONGEST_RETRY, for up to `connect_wait` seconds; then `ServerGone` (the games so far went to
    `on_game`). One bot (`bot_name`'s, or `bot_name` itself when it is a bot) plays every game, told how each
    ended (`Bot.game_over`, with our seat's final knowledge): a bot that remembers reads the opponent on this port
    from its earlier games."""
    bot = bot_name if isinstance(bot_name, Bot) else get_bot(bot_name, seconds)
    base = seed if seed is not None else random.SystemRandom().randrange(2**63)
    results: list[ClientGame] = []
    for number in range(1, games + 1):
        give_up = time.monotonic() + connect_wait
        pause = FIRST_RETRY
        tries = 0
        while True:
            tries += 1
            try:  # the same seed on every try: a game that starts late is the game it would have been
                game = play_game(host, port, bot, random.Random(f"{base}:{number}"),
                                 connect_wait=0.0, read_timeout=read_timeout, show=show)
            except OSError as err:
                problem = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
            else:
                if game.started:
                    break
                problem = "the server closed the connection before the game started"
            if time.monotonic() + pause > give_up:
                raise ServerGone(f"no game {number} on {host}:{port}: {tries} tries in {connect_wait:g} s, none "
                                 f"started a game (last: {problem}); is the server running?")
            time.sleep(pause)
            pause = min(2 * pause, LONGEST_RETRY)
        results.append(game)
        if on_game is not None:
            on_game(number, game)
    return results
