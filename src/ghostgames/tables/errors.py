"""One error type for everything a table refuses: a stable code (clients translate by it), English
words, and the arguments a translation needs."""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """A refused command. `code` is a stable identifier listed in docs/protocol.md."""

    def __init__(self, code: str, message: str, **args: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.args_ = args

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "args": dict(self.args_)}
