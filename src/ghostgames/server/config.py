"""Server settings, from arguments or GHOSTGAMES_* environment variables (tests shorten the timers)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ghostgames.storage import DEFAULT_URL

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def _env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    return float(value) if value not in (None, "") else default


@dataclass(frozen=True, slots=True)
class ServerConfig:
    db_url: str = DEFAULT_URL
    redis_url: str | None = None  # several workers: Redis for fan-out, leases and presence
    secret: str | None = None  # None: made once and kept in the database
    grace_seconds: float = 60.0  # a disconnected person's seat is held this long
    token_days: float = 7.0  # session tokens expire after this
    bot_delay: float = 0.4  # a pause before a bot's move, so people can follow
    bot_workers: int = 2  # processes that think for bots
    max_message: int = 16 * 1024  # bytes per client message
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    # New tables (HTTP and WebSocket alike): a token bucket per person and one per address; each allows
    # a burst of that many tables, refilled at that many a minute. A person owns at most max_open_tables.
    create_per_person: float = 10.0
    create_per_address: float = 30.0
    max_open_tables: int = 10
    # New names (guests and accounts, each with a password hash that costs CPU on purpose) per address:
    # a burst of that many, refilled at that many an hour.
    names_per_address: float = 30.0
    logins_per_address: float = 30.0  # password logins, right or wrong: a burst of that many, then that many a minute
    connections_per_address: int = 100  # WebSocket connections open at once from one address
    # Replay pages (GET /api/records/{id}/replay and .../replay/{seat}) per address: a burst of that many,
    # refilled at that many a minute; encoded pages are cached per process up to replay_cache_mb.
    replays_per_address: float = 60.0
    replay_cache_mb: float = 32.0
    # A table out of play (open or finished) with no person seated and no connection watching closes after
    # idle_close seconds; a sweep looks every sweep_every seconds (from start, so rebuilt tables too).
    sweep_every: float = 30.0
    idle_close: float = 300.0
    lobby_flush: float = 0.25  # lobby listeners get the changes gathered over this long in one message
    clock_min: float = 5.0  # the shortest clock per move a table may choose (tests lower it)
    # At a table without a clock, the others may /claim against a player to move who stayed idle this long.
    idle_claim: float = 300.0
    # The clock of a table whose creator chose none (quick play too); None: each game's own default
    # (tables/settings.py DEFAULT_CLOCKS). Tests set a short one to see a stalling player time out.
    default_clock: str | None = None
    # Post-game analyses (server/analysis_api.py, docs/analysis.md): search iterations per decision (1000:
    # a typical Geister seat in about 10 s of one core), analysis worker processes `serve` starts beside
    # itself (0: run `ghostgames analyse-worker` elsewhere), seconds without progress before another worker
    # takes a job over, jobs waiting at most, and per address new asks (burst, refilled per hour) and
    # status reads (burst, refilled per minute).
    analysis_budget: int = 1000
    analysis_workers: int = 1
    analysis_stale: float = 120.0
    analysis_queue: int = 200
    analyses_per_address: float = 30.0
    analysis_reads_per_address: float = 120.0
    web_dir: Path = field(default=WEB_DIR)

    @classmethod
    def from_env(cls, **overrides: Any) -> ServerConfig:
        config = cls(
            db_url=os.environ.get("GHOSTGAMES_DB") or DEFAULT_URL,
            redis_url=os.environ.get("GHOSTGAMES_REDIS") or None,
            secret=os.environ.get("GHOSTGAMES_SECRET") or None,
            grace_seconds=_env_float("GHOSTGAMES_GRACE", 60.0),
            token_days=_env_float("GHOSTGAMES_TOKEN_DAYS", 7.0),
            bot_delay=_env_float("GHOSTGAMES_BOT_DELAY", 0.4),
            bot_workers=int(_env_float("GHOSTGAMES_BOT_WORKERS", 2)),
            max_message=int(_env_float("GHOSTGAMES_MAX_MESSAGE", 16 * 1024)),
            rate_per_second=_env_float("GHOSTGAMES_RATE", 20.0),
            rate_burst=_env_float("GHOSTGAMES_BURST", 40.0),
            create_per_person=_env_float("GHOSTGAMES_CREATE_PER_PERSON", 10.0),
            create_per_address=_env_float("GHOSTGAMES_CREATE_PER_ADDRESS", 30.0),
            max_open_tables=int(_env_float("GHOSTGAMES_MAX_OPEN_TABLES", 10)),
            names_per_address=_env_float("GHOSTGAMES_NAMES_PER_ADDRESS", 30.0),
            logins_per_address=_env_float("GHOSTGAMES_LOGINS_PER_ADDRESS", 30.0),
            connections_per_address=int(_env_float("GHOSTGAMES_CONNECTIONS_PER_ADDRESS", 100)),
            replays_per_address=_env_float("GHOSTGAMES_REPLAYS_PER_ADDRESS", 60.0),
            replay_cache_mb=_env_float("GHOSTGAMES_REPLAY_CACHE_MB", 32.0),
            sweep_every=_env_float("GHOSTGAMES_SWEEP_EVERY", 30.0),
            idle_close=_env_float("GHOSTGAMES_IDLE_CLOSE", 300.0),
            lobby_flush=_env_float("GHOSTGAMES_LOBBY_FLUSH", 0.25),
            clock_min=_env_float("GHOSTGAMES_CLOCK_MIN", 5.0),
            idle_claim=_env_float("GHOSTGAMES_IDLE_CLAIM", 300.0),
            default_clock=os.environ.get("GHOSTGAMES_DEFAULT_CLOCK") or None,
            analysis_budget=int(_env_float("GHOSTGAMES_ANALYSIS_BUDGET", 1000)),
            analysis_workers=int(_env_float("GHOSTGAMES_ANALYSIS_WORKERS", 1)),
            analysis_stale=_env_float("GHOSTGAMES_ANALYSIS_STALE", 120.0),
            analysis_queue=int(_env_float("GHOSTGAMES_ANALYSIS_QUEUE", 200)),
            analyses_per_address=_env_float("GHOSTGAMES_ANALYSES_PER_ADDRESS", 30.0),
            analysis_reads_per_address=_env_float("GHOSTGAMES_ANALYSIS_READS_PER_ADDRESS", 120.0),
            web_dir=Path(os.environ.get("GHOSTGAMES_WEB") or WEB_DIR),
        )
        return replace(config, **{k: v for k, v in overrides.items() if v is not None})
