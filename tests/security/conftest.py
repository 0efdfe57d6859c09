"""The security tests reuse the server fixtures of tests/server."""

from tests.server.conftest import server

__all__ = ["server"]
