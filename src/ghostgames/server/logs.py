"""Log lines never hold a session token: a token sent in a URL's query string (`/ws?token=…`, the old way,
or by mistake on any path) is replaced by `[redacted]` in every record of the server's loggers,
uvicorn's access log included, before any handler writes it."""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

TOKEN_IN_QUERY = re.compile(r"([?&;](?:token|access_token)=)[^&;\s\"'#]*", re.IGNORECASE)
LOGGERS = ("uvicorn.access", "uvicorn.error")  # the loggers that write request lines and handshakes


def redact(text: str) -> str:
    return TOKEN_IN_QUERY.sub(r"\1[redacted]", text)


def _clean(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactTokens(logging.Filter):
    """Rewrites the message and its arguments in place (keeping their shape: uvicorn's access formatter
    unpacks the argument tuple)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _clean(arg) for key, arg in record.args.items()}
        return True


def uvicorn_log_config() -> dict[str, Any]:
    """uvicorn's own logging setup with the filter on each handler too, so any record they write is clean."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_tokens"] = {"()": RedactTokens}
    for handler in config["handlers"].values():
        handler["filters"] = [*handler.get("filters", []), "redact_tokens"]
    return config


def install() -> None:
    """Put the filter on the loggers that may see a URL (once, however many apps are made)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, RedactTokens) for existing in logger.filters):
            logger.addFilter(RedactTokens())
