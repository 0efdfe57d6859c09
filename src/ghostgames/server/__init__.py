"""The table server: an ASGI app (FastAPI) with an HTTP JSON API, one WebSocket protocol
(docs/protocol.md) and the static web client; `create_app(config)` builds it."""

from ghostgames.server.app import create_app
from ghostgames.server.config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
