"""Every HTTP answer that is not a success is the documented JSON error `{"code", "message", "args"}`:
bad requests, unknown paths, wrong methods and, as a last net, any exception a handler did not expect."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)
HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}


def json_error(status: int, code: str, message: str, **args: Any) -> JSONResponse:
    return JSONResponse({"code": code, "message": message, "args": args}, status_code=status)


async def _bad_request(request: Request, exc: Exception) -> JSONResponse:
    """FastAPI's own 422 (a field missing or of the wrong type) in our shape, naming the first problem."""
    assert isinstance(exc, RequestValidationError)
    problems = [{"where": ".".join(str(part) for part in err.get("loc", ())), "problem": str(err.get("msg", ""))}
                for err in exc.errors()[:5]]
    first = problems[0] if problems else {"where": "", "problem": "the request is not valid"}
    return json_error(422, "bad_request", f"{first['where']}: {first['problem']}", problems=problems)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    code = HTTP_CODES.get(exc.status_code, "http_error")
    message = exc.detail if isinstance(exc.detail, str) else "the request was refused"
    if exc.status_code == 404:
        message = f"there is nothing at {request.url.path}; the API is listed at /api/docs"
    response = json_error(exc.status_code, code, message, path=request.url.path)
    for name, value in (exc.headers or {}).items():
        response.headers[name] = value
    return response


class CatchAll:
    """ASGI middleware: an exception no handler expected is logged and answered with a JSON 500, and is
    not raised further, so the server keeps the keep-alive connection open for the next request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception:
            log.exception("%s %s failed", scope.get("method"), scope.get("path"))
            if started:
                raise  # half an answer is out: only closing the connection can tell the client
            response = json_error(500, "internal_error", "something went wrong on the server; it was logged")
            await response(scope, receive, send)


def install(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _bad_request)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_middleware(CatchAll)
