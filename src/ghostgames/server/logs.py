"""Log lines never hold a session token: a token sent in a URL's query string (`/ws?token=…`, the old way,
or by mistake on any path), in a message that a debug log shows, or in an Authorization header is
replaced by `[redacted]` in every record of the server's loggers, uvicorn's access log included, before
any handler writes it."""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

# `token=…` in a query string (also as uvicorn's trace log shows a scope: query_string: b'token=…'), a
# `"token": "…"` in a JSON frame (debug logs show frames), and an Authorization header's credentials.
SECRETS = (
    re.compile(r"(\b(?:access_)?token=)[^&;\s\"'#]+", re.IGNORECASE),
    re.compile(r"(\"token\"\s*:\s*\")[^\"]+", re.IGNORECASE),
    re.compile(r"(\bbearer\s+)[^\s'\",]+", re.IGNORECASE),
)
LOGGERS = ("uvicorn.access", "uvicorn.error")  # the loggers that write request lines and handshakes


def redact(text: str) -> str:
    for pattern in SECRETS:
        text = pattern.sub(r"\1[redacted]", text)
    return text


PLAIN = (str, int, float, type(None))


class RedactTokens(logging.Filter):
    """Rewrites a record in place. Plain arguments are redacted one by one, keeping their shape (uvicorn's
    access formatter unpacks that tuple); a record with any other argument (a scope, a frame) is
    formatted first and the whole text redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and all(isinstance(arg, PLAIN) for arg in args) and isinstance(record.msg, str):
            record.msg = redact(record.msg)
            record.args = tuple(redact(arg) if isinstance(arg, str) else arg for arg in args)
        else:
            record.msg, record.args = redact(record.getMessage()), ()
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
