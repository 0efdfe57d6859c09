"""A request body larger than any the API takes is refused with a JSON 413 before the server holds it in
memory, whether its length is declared or it comes in chunks; the connection stays usable."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator

import pytest

from ghostgames.server.body_limit import MAX_BODY
from tests.server.harness import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("body-limit")).start()
    yield process
    process.stop()


def _post(server: ServerProcess, body: bytes | Iterator[bytes], chunked: bool = False) -> tuple[int, dict[str, object]]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        headers = {"Content-Type": "application/json"}
        connection.request("POST", "/api/guest", body=body, headers=headers, encode_chunked=chunked)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def test_a_declared_length_over_the_limit_is_refused_before_reading(server: ServerProcess) -> None:
    body = json.dumps({"name": "x" * (MAX_BODY + 10)}).encode()
    status, answer = _post(server, body)
    assert status == 413 and answer["code"] == "too_large"
    assert f"larger than {MAX_BODY} bytes" in str(answer["message"])
    assert answer["args"] == {"limit": MAX_BODY, "path": "/api/guest"}


def test_a_chunked_body_is_counted_as_it_arrives(server: ServerProcess) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(MAX_BODY // 1024 + 2):
            yield b"y" * 1024
        yield b'"}'

    status, answer = _post(server, chunks(), chunked=True)
    assert status == 413 and answer["code"] == "too_large"


def test_bodies_under_the_limit_work_as_before(server: ServerProcess) -> None:
    status, answer = _post(server, json.dumps({"name": "Small Body"}).encode())
    assert status == 200 and answer["name"] == "Small Body"
    status, answer = _post(server, json.dumps({"name": "z" * 200}).encode())  # too long a name: its own error
    assert status == 422 and answer["code"] == "bad_request"
    assert server.alive()
