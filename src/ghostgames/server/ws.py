"""The one WebSocket endpoint: read a frame, check size and rate, read it as a message, act, answer.
Every problem becomes an error message; the connection stays open and usable."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from ghostgames.server import messages as m
from ghostgames.server.connection import Connection, encode
from ghostgames.server.people import People
from ghostgames.server.ratelimit import PerAddress, TokenBucket
from ghostgames.tables import TableError

log = logging.getLogger(__name__)
PROTOCOL = 1
URL_TOKEN_DEPRECATED = ("the token in the WebSocket URL (?token=) is read for one more release only: it lands "
                        "in access logs; send it in the first message, {\"type\": \"hello\", \"token\": ...}")


async def websocket_endpoint(websocket: WebSocket) -> None:
    state = websocket.app.state
    address = websocket.client.host if websocket.client else None
    await websocket.accept()
    try:
        state.open_connections.open(address)
    except TableError as err:  # said in a message, which a browser can read, unlike a refused upgrade
        await websocket.send_text(encode({"type": "error", **err.to_json()}))
        await websocket.close(code=1008, reason="too many connections from this address")
        return
    try:
        await _serve(websocket, address)
    finally:
        state.open_connections.close(address)


async def _serve(websocket: WebSocket, address: str | None) -> None:
    """One connection, from its first message to its end."""
    state = websocket.app.state
    config = state.config
    conn = Connection(websocket, TokenBucket(config.rate_per_second, config.rate_burst))
    conn.address = address
    writer = asyncio.create_task(conn.writer())
    session = Session(conn, state.hub, state.people, state.new_names)
    token, deprecated = _upgrade_token(websocket)
    if token:
        await session.hello(m.Hello(type="hello", token=token), deprecated=deprecated)
    try:
        while not conn.closed:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                data = frame.get("bytes") or b""
                session.refuse(TableError("bad_message", "send JSON text frames, not binary ones",
                                          reason="binary frame"), size=len(data))
                continue
            await session.receive(text)
    except WebSocketDisconnect:
        pass
    finally:
        state.hub.disconnect(conn)
        conn.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, timeout=1.0)


def _upgrade_token(websocket: WebSocket) -> tuple[str | None, str | None]:
    """A token sent with the upgrade request, and a deprecation note when it came in the URL.

    The place for the token is the first message (`hello`); a client that cannot send one may use an
    `Authorization: Bearer` header. `?token=` (the URL, which lands in access logs) is read for one more
    release; the warning logged for it never holds the token."""
    header = websocket.headers.get("authorization", "")
    if header.lower().startswith("bearer ") and header[7:].strip():
        return header[7:].strip(), None
    token = websocket.query_params.get("token")
    if not token:
        return None, None
    log.warning("a client sent its session token in the WebSocket URL (/ws?token=...); send it in the first "
                "message (hello) instead: the URL form goes away in the next release")
    return token, URL_TOKEN_DEPRECATED


class Session:
    """What one connection says and how the server answers it."""

    def __init__(self, conn: Connection, hub: Any, people: People, new_names: PerAddress) -> None:
        self.conn = conn
        self.hub = hub
        self.people = people
        self.new_names = new_names

    def refuse(self, error: TableError, size: int = 0, msg_id: Any = None, table: str | None = None) -> None:
        message: dict[str, Any] = {"type": "error", **error.to_json()}
        if msg_id is not None:
            message["id"] = msg_id
        if table is not None:
            message["table"] = table
            known = self.hub.tables.get(table)
            if known is not None:
                message["fresh"] = self.hub.table_message(known, self.conn)
        self.conn.send(message)

    async def receive(self, text: str) -> None:
        config = self.hub.config
        size = len(text.encode("utf-8", "replace"))
        if size > config.max_message:
            self.refuse(TableError("too_large", f"a message may have {config.max_message} bytes, not {size}",
                                   size=size, limit=config.max_message))
            return
        if not self.conn.bucket.take(time.monotonic()):
            retry = self.conn.bucket.retry_in()
            self.refuse(TableError("rate_limited", f"too many messages; wait {retry} s", retry_in=retry),
                        msg_id=m.message_id(text))
            return
        try:
            message = m.read_message(text)
        except TableError as err:
            self.refuse(err, msg_id=m.message_id(text))
            return
        table = getattr(message, "table", None)
        try:
            await self.dispatch(message)
        except TableError as err:
            self.refuse(err, msg_id=message.id, table=table)
        except Exception:
            log.exception("message %s failed", message.type)
            self.refuse(TableError("internal_error", "something went wrong on the server"), msg_id=message.id,
                        table=table)

    async def dispatch(self, message: m.ClientMessage) -> None:
        conn, hub = self.conn, self.hub
        if isinstance(message, m.Ping):
            conn.send({"type": "pong", "id": message.id})
        elif isinstance(message, m.Hello):
            await self.hello(message)
        elif isinstance(message, m.Lobby):
            conn.send({**hub.lobby_listen(conn), "id": message.id})
        elif isinstance(message, m.Unlobby):
            hub.lobby.discard(conn)
        elif isinstance(message, m.Create):
            table = await hub.create(conn.user, message.game, message.seats, message.options, message.clock,
                                     conn.address)
            conn.send({"type": "ack", "id": message.id, "table": table.id, "version": table.version})
            hub.watch(conn, table.id)
            if message.join:
                decision = await hub.command(conn, table.id, "/join 1", None)  # the first seat, typed from 1
                assert not decision.reply
        elif isinstance(message, m.Watch):
            await hub.load(message.table)
            hub.watch(conn, message.table, message.id)
        elif isinstance(message, m.Unwatch):
            hub.unwatch(conn, message.table)
        elif isinstance(message, (m.Command, m.Action)):
            if isinstance(message, m.Command):
                decision = await hub.command(conn, message.table, message.text, message.version)
            else:
                decision = await hub.action(conn, message.table, message.action, message.version)
            if decision.reply is not None:
                conn.send({"type": "reply", "id": message.id, "table": message.table, "code": decision.reply.code,
                           "text": decision.reply.text, "args": decision.reply.args})
            else:
                table = hub.tables.get(message.table)
                conn.send({"type": "ack", "id": message.id, "table": message.table,
                           "version": table.version if table is not None else None})

    async def hello(self, message: m.Hello, deprecated: str | None = None) -> None:
        """Who this connection speaks for: a token, a new guest name, or nobody (watch only)."""
        identity = None
        try:
            if message.token:
                identity = await asyncio.to_thread(self.people.read_token, message.token)
                if identity is None:
                    raise TableError("bad_token", "the session token is invalid or has expired")
            elif message.guest is not None:
                self.new_names.take(self.conn.address)
                identity = await asyncio.to_thread(self.people.guest, message.guest)
        except TableError as err:
            self.refuse(err, msg_id=message.id)
        if message.batch:
            self.conn.batch = True
        batch = {"batch": True} if self.conn.batch else {}
        if identity is None:
            self.conn.send({"type": "welcome", "id": message.id, "protocol": PROTOCOL, "user": None, "token": None,
                            **batch})
            return
        self._become(identity.name, identity.guest)
        welcome = {"type": "welcome", "id": message.id, "protocol": PROTOCOL,
                   "user": {"name": identity.name, "guest": identity.guest}, "token": self.people.token(identity),
                   **batch}
        if deprecated:
            welcome["deprecated"] = deprecated
        self.conn.send(welcome)

    def _become(self, name: str, guest: bool) -> None:
        """Switch the connection's identity; its watched tables see the change in presence."""
        watched = list(self.conn.watching)
        for table_id in watched:
            self.hub.unwatch(self.conn, table_id)
        self.conn.user, self.conn.guest = name, guest
        for table_id in watched:
            if table_id in self.hub.tables:
                self.hub.watch(self.conn, table_id)
