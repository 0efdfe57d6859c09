"""The ASGI app: /api (HTTP JSON + OpenAPI), /ws (the WebSocket), everything else the web client."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from ghostgames.server.api import router
from ghostgames.server.body_limit import BodyLimit
from ghostgames.server.bots import BotRunner
from ghostgames.server.config import ServerConfig
from ghostgames.server.fanout import Fanout, LocalFanout
from ghostgames.server.heap import settle_after_start
from ghostgames.server.http_errors import install as install_http_errors
from ghostgames.server.hub import Hub
from ghostgames.server.logs import install as redact_tokens_in_logs
from ghostgames.server.people import People
from ghostgames.server.players_api import router as players_router
from ghostgames.server.quickplay import router as quick_router
from ghostgames.server.ratelimit import OpenConnections, new_names, sign_ins
from ghostgames.server.replays import Replays
from ghostgames.server.sessions import TOPIC as SESSIONS_TOPIC
from ghostgames.server.sessions import OpenSessions
from ghostgames.server.shared import RedisFanout, RedisLeases, RedisPresence
from ghostgames.server.throttle import LoginThrottle
from ghostgames.server.tutorial_api import router as tutorial_router
from ghostgames.server.ws import websocket_endpoint
from ghostgames.storage import Repository

log = logging.getLogger(__name__)
PLACEHOLDER = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ghostgames</title></head>
<body><h1>ghostgames</h1><p>The table server runs. The web client is not installed here yet;
the API is at <a href="/api/docs">/api/docs</a> and the WebSocket at <code>/ws</code>.</p></body></html>"""


def _has_client(web_dir: Path) -> bool:
    return (web_dir / "index.html").is_file()


def create_app(config: ServerConfig | None = None, fanout: Fanout | None = None) -> FastAPI:
    config = config or ServerConfig.from_env()
    redact_tokens_in_logs()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        repo = await asyncio.to_thread(Repository, config.db_url)
        secret = config.secret if config.secret else await asyncio.to_thread(repo.secret)
        bots = BotRunner(config.bot_workers)
        hub = Hub(config, repo, fanout or LocalFanout(), bots)
        if config.redis_url and fanout is None:
            shared_fanout = RedisFanout(config.redis_url)
            hub.fanout = shared_fanout
            hub.share(RedisLeases(shared_fanout.redis, hub.worker), RedisPresence(shared_fanout.redis, hub.worker))
        app.state.config = config
        app.state.repo = repo
        app.state.people = People(repo, secret, config.token_days)
        await asyncio.to_thread(app.state.people.fill_skeletons)
        app.state.login_throttle = LoginThrottle()
        app.state.new_names = new_names(config.names_per_address)
        app.state.sign_ins = sign_ins(config.logins_per_address)
        app.state.open_connections = OpenConnections(config.connections_per_address)
        app.state.replays = Replays(config.replays_per_address, int(config.replay_cache_mb * 1024 * 1024))
        app.state.hub = hub
        app.state.sessions = OpenSessions()
        await hub.fanout.subscribe(SESSIONS_TOPIC, app.state.sessions.on_fanout)
        await bots.warm_up()  # the first bot move must not wait for a process to start and import
        await hub.start()
        settle_after_start()  # the full garbage collections were the 2,000-table tail (server/heap.py)
        try:
            yield
        finally:
            await hub.stop()
            await hub.fanout.close()
            bots.close()
            await repo.close_async()
            repo.close()

    app = FastAPI(title="ghostgames", version="1", docs_url="/api/docs", openapi_url="/api/openapi.json",
                  redoc_url=None, lifespan=lifespan)
    app.add_middleware(BodyLimit)  # inside CatchAll, which install_http_errors adds
    install_http_errors(app)
    app.include_router(router)
    app.include_router(players_router)
    app.include_router(quick_router)
    app.include_router(tutorial_router)
    app.add_api_websocket_route("/ws", websocket_endpoint)

    async def client_page() -> Response:
        """The web client's one page: it reads the address (a table, a player, a leaderboard, a replay)."""
        if _has_client(config.web_dir):
            return FileResponse(config.web_dir / "index.html")
        return HTMLResponse(PLACEHOLDER)

    for path in ("/table/{table_id}", "/player/{name}", "/ratings/{game}", "/replay/{record_id}", "/learn/{game}",
                 "/learn/{game}/{lesson_id}"):
        app.add_api_route(path, client_page, methods=["GET"], include_in_schema=False)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        """Browsers ask for /favicon.ico on pages that name no icon: the one icon there is, an SVG."""
        icon = config.web_dir / "favicon.svg"
        if icon.exists():
            return FileResponse(icon, media_type="image/svg+xml")
        return Response(status_code=404)

    if _has_client(config.web_dir):
        app.mount("/", StaticFiles(directory=config.web_dir, html=True), name="web")
    else:
        @app.get("/", include_in_schema=False)
        async def placeholder() -> HTMLResponse:
            return HTMLResponse(PLACEHOLDER)

    return app
