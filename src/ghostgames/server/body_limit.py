"""Request bodies have a size limit. Every body this API takes is a few hundred bytes (a name, a password,
a table's options), but the framework reads a body whole into memory before it looks at it: without a
limit, a few requests of a gigabyte each would take the server's memory."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ghostgames.server.http_errors import json_error

MAX_BODY = 64 * 1024  # bytes


def _too_large_text(limit: int) -> str:
    return f"the request body is larger than {limit} bytes, the most this server takes; send less"


class BodyLimit:
    """ASGI middleware: a body whose declared length is over the limit is refused before it is read (413
    `too_large`); one sent without a length is counted as it arrives and refused once it passes the limit."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.limit:
            response = json_error(413, "too_large", _too_large_text(self.limit), limit=self.limit,
                                  path=scope.get("path", ""))
            await response(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:  # answered as JSON by http_errors' handler
                    raise HTTPException(413, _too_large_text(self.limit))
            return message

        await self.app(scope, counted, send)
