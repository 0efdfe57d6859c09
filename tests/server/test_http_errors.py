"""Every HTTP error is the documented JSON error, and a hostile request never costs the keep-alive
connection it came on (review point 1)."""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest
from fastapi import FastAPI

from ghostgames.server.http_errors import install
from tests.server.harness import ServerProcess

HOSTILE = [
    ("GET", "/api/records/9223372036854775808/replay", 404),  # one past the largest 64-bit id
    ("GET", "/api/records/99999999999999999999999999999999/replay", 404),
    ("GET", "/api/records/-1/replay", 404),
    ("GET", "/api/records/abc/replay", 404),
    ("GET", "/api/records/%EF%BC%91/replay", 404),  # a full-width digit one: int() would read it
    ("GET", "/api/records/0/replay", 404),
    ("GET", "/api/records?limit=abc", 422),
    ("GET", "/api/records?limit=99999999999999999999999", 422),
    ("POST", "/api/login", 422),  # no body at all
    ("DELETE", "/api/games", 405),
    ("GET", "/api/no/such/thing", 404),
]


def _local_address(answer: httpx.Response) -> tuple[str, int]:
    """The client end of the TCP connection that carried `answer`: the same one means keep-alive held."""
    address = answer.extensions["network_stream"].get_extra_info("client_addr")
    return str(address[0]), int(address[1])


def _is_documented_error(answer: httpx.Response) -> bool:
    body = answer.json()
    return (answer.headers["content-type"].startswith("application/json") and set(body) == {"code", "message", "args"}
            and isinstance(body["code"], str) and isinstance(body["message"], str) and body["message"] != "")


def test_review_1_record_id_beyond_64_bits_gets_a_json_error(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.http_url, timeout=10) as client:
        first = client.get("/api/games")
        connection = _local_address(first)
        for method, path, status in HOSTILE:
            answer = client.request(method, path)
            assert answer.status_code == status, (path, answer.status_code, answer.text)
            assert _is_documented_error(answer), (path, answer.text)
            # the same connection answers the next request: nothing was reset
            after = client.get("/api/games")
            assert after.status_code == 200
            assert _local_address(answer) == _local_address(after) == connection, path
        wrong = client.get("/api/records/9223372036854775808/replay").json()
        assert wrong["code"] == "no_such_record" and "9223372036854775807" in wrong["message"]
        assert client.get("/api/records/18446744073709551616/replay").json()["code"] == "no_such_record"
    assert "Traceback" not in server.log()


def test_review_1_an_unexpected_exception_is_logged_and_answered_in_json(caplog: pytest.LogCaptureFixture) -> None:
    """The catch-all: a handler that fails in a way nobody foresaw still answers the documented shape, and
    the client's keep-alive connection goes on (an in-process app with one failing route)."""
    app = FastAPI()
    install(app)

    @app.get("/boom")
    async def boom() -> None:
        raise OverflowError("Python int too large to convert to SQLite INTEGER")

    @app.get("/fine")
    async def fine() -> dict[str, bool]:
        return {"ok": True}

    async def run() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=True)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return [await client.get("/boom"), await client.get("/fine")]

    with caplog.at_level(logging.ERROR, logger="ghostgames.server.http_errors"):
        failed, after = asyncio.run(run())
    assert failed.status_code == 500 and _is_documented_error(failed)
    assert failed.json()["code"] == "internal_error" and "SQLite" not in failed.text
    assert after.status_code == 200 and after.json() == {"ok": True}
    assert any("/boom failed" in record.getMessage() for record in caplog.records)
