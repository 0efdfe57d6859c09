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
from ghostgames.server.auth import Grant
from ghostgames.server.connection import Connection, encode
from ghostgames.server.people import People, bad_token
from ghostgames.server.ratelimit import PerAddress, TokenBucket
from ghostgames.server.sessions import OpenSessions, log_out
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
    session = Session(conn, state.hub, state.people, state.new_names, state.sessions)
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
        session.close()
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

    def __init__(self, conn: Connection, hub: Any, people: People, new_names: PerAddress,
                 sessions: OpenSessions) -> None:
        self.conn = conn
        self.hub = hub
        self.people = people
        self.new_names = new_names
        self.sessions = sessions
        self.grant: Grant | None = None  # the session this connection speaks for; None: it only watches
        self._expiry: asyncio.TimerHandle | None = None

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
        elif isinstance(message, m.Logout):
            await self.logout(message)
        elif isinstance(message, m.Lobby):
            conn.send({**hub.lobby.listen(conn), "id": message.id})
        elif isinstance(message, m.Unlobby):
            hub.lobby.leave(conn)
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
        """Who this connection speaks for: a token, a new guest name, or nobody (watch only).

        A token shown again is handed back as it is: its lifetime runs from signing in, not from the last
        connection, so reconnecting never extends it."""
        grant, token = None, None
        try:
            if message.token:
                grant = await asyncio.to_thread(self.people.read_token, message.token)
                token = message.token
            elif message.guest is not None:
                self.new_names.take(self.conn.address)
                grant = await asyncio.to_thread(self.people.guest, message.guest)
                token = self.people.token(grant)
        except TableError as err:
            self.refuse(err, msg_id=message.id)
        if message.batch:
            self.conn.batch = True
        batch = {"batch": True} if self.conn.batch else {}
        if grant is None:
            self._end_session()  # the welcome says "nobody", and so it is
            self.conn.send({"type": "welcome", "id": message.id, "protocol": PROTOCOL, "user": None, "token": None,
                            **batch})
            return
        self._start_session(grant)
        welcome = {"type": "welcome", "id": message.id, "protocol": PROTOCOL,
                   "user": {"name": grant.name, "guest": grant.guest}, "token": token, **batch}
        if deprecated:
            welcome["deprecated"] = deprecated
        self.conn.send(welcome)

    async def logout(self, message: m.Logout) -> None:
        """End this connection's session (and every other of its name, people.py) and go on watching as
        nobody; the welcome that answers says so, as after a `hello` without a token."""
        grant = self.grant
        if grant is None:
            raise TableError("auth_required", "this connection is not signed in, so there is nothing to log out of")
        self._end_session()
        await log_out(self.people, self.sessions, self.hub.fanout, grant)
        batch = {"batch": True} if self.conn.batch else {}
        self.conn.send({"type": "welcome", "id": message.id, "protocol": PROTOCOL, "user": None, "token": None,
                        **batch})

    def _start_session(self, grant: Grant) -> None:
        """Speak for `grant`'s name until its lifetime ends; then the connection only watches. A guest
        name is free for somebody else from that moment, so an open connection must not outlive it."""
        self._forget_grant()
        self.grant = grant
        self.sessions.add(grant.user_id, self)
        self._become(grant.name, grant.guest)
        loop = asyncio.get_running_loop()
        self._expiry = loop.call_later(max(0.0, self.people.expires(grant) - time.time()), self._expired)

    def _expired(self) -> None:
        self._expiry = None
        self._end_session()
        self.refuse(bad_token("expired", "this session ended: its lifetime from signing in is over; this "
                                         "connection now only watches; log in again with your password, or "
                                         "choose a guest name"))

    def logged_out(self) -> None:
        """The name's holder logged out on another connection or over HTTP (server/sessions.py)."""
        self._end_session()
        self.refuse(bad_token("logged_out", "this session was logged out; this connection now only watches; "
                                            "log in again with your password, or choose a guest name"))

    def _end_session(self) -> None:
        """Stop speaking for a name (if the connection did): from now on it only watches."""
        self._forget_grant()
        if self.conn.user is not None:
            self._become(None, True)

    def close(self) -> None:
        """The connection is gone: nothing is left to end."""
        self._forget_grant()

    def _forget_grant(self) -> None:
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        if self.grant is not None:
            self.sessions.discard(self.grant.user_id, self)
            self.grant = None

    def _become(self, name: str | None, guest: bool) -> None:
        """Switch the connection's identity; its watched tables see the change in presence."""
        watched = list(self.conn.watching)
        for table_id in watched:
            self.hub.unwatch(self.conn, table_id)
        self.conn.user, self.conn.guest = name, guest
        for table_id in watched:
            if table_id in self.hub.tables:
                self.hub.watch(self.conn, table_id)
