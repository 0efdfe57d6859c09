"""`ghostgames serve`: the table server (HTTP API, WebSocket, web client) under uvicorn."""

from __future__ import annotations

import typer

WS_MAX_FRAME = 1024 * 1024  # frames above this are refused by the WebSocket layer (close 1009)


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: str = typer.Option("127.0.0.1", help="address to listen on"),
        port: int = typer.Option(8000, help="port to listen on"),
        db: str | None = typer.Option(None, help="database URL (default: SQLite file ghostgames.db here; "
                                                 "postgresql://… works too; env GHOSTGAMES_DB)"),
        grace: float | None = typer.Option(None, help="seconds a disconnected player's seat is held (default 60)"),
        bot_delay: float | None = typer.Option(None, help="seconds a bot waits before moving (default 0.4)"),
        redis: str | None = typer.Option(None, help="Redis URL (redis://host:6379/0): run several workers on one "
                                                    "PostgreSQL database; env GHOSTGAMES_REDIS"),
        analysis_workers: int | None = typer.Option(None, min=0, help="analysis worker processes to start beside "
                                                    "the server (default 1; 0: run `ghostgames analyse-worker` "
                                                    "yourself; env GHOSTGAMES_ANALYSIS_WORKERS)"),
        log_level: str = typer.Option("info", help="uvicorn log level"),
        plugin_bots: bool = typer.Option(False, "--plugin-bots", help="offer installed plug-in bots at /bot add "
                                         "(they run their package's code; env GHOSTGAMES_PLUGIN_BOTS=1)"),
    ) -> None:
        """Run the table server; open the printed address in a browser."""
        import os

        import uvicorn

        from ghostgames.bots import plugins

        if plugin_bots:  # through the environment, so the spawned bot workers see it too
            os.environ[plugins.ENV_SERVER] = "1"

        from ghostgames.server import ServerConfig, create_app
        from ghostgames.server.logs import uvicorn_log_config

        config = ServerConfig.from_env(db_url=db, grace_seconds=grace, bot_delay=bot_delay, redis_url=redis,
                                       analysis_workers=analysis_workers)
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
        typer.echo(f"ghostgames table server: http://{shown}:{port}/  (API docs: http://{shown}:{port}/api/docs)")
        typer.echo(f"database: {config.db_url}")
        if config.redis_url:
            typer.echo(f"redis: {config.redis_url} (fan-out, leases and presence shared with other workers)")
        uvicorn.run(create_app(config), host=host, port=port, ws_max_size=WS_MAX_FRAME, log_level=log_level,
                    ws_ping_interval=20, ws_ping_timeout=20, log_config=uvicorn_log_config())
