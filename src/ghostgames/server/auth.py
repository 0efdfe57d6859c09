"""Names, signed expiring session tokens (itsdangerous) and password hashes (argon2)."""

from __future__ import annotations

import contextlib
import functools
import re
import unicodedata
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, URLSafeTimedSerializer

from ghostgames.tables import TableError

MAX_NAME = 24
_hasher = PasswordHasher()


@dataclass(frozen=True, slots=True)
class Identity:
    name: str
    guest: bool


def check_name(raw: object) -> str:
    """A name people can read: 1-24 letters, digits, spaces, _ - . (any script), not all spaces."""
    name = unicodedata.normalize("NFC", str(raw)).strip() if isinstance(raw, str) else ""
    ok = 0 < len(name) <= MAX_NAME and all(ch.isalnum() or ch in " _-." for ch in name)
    # " bot" and " bot 2" endings are how bots are labelled at a table (tables/table.py, Seat.label)
    if not ok or re.search(r" bot( \d+)?$", name.lower()) or "  " in name:
        raise TableError("bad_name", "a name has 1 to 24 letters, digits, spaces, '_', '-' or '.'", name=str(raw)[:40])
    return name


def hash_password(password: str) -> str:
    return _hasher.hash(password)


@functools.cache
def _stand_in_hash() -> str:
    return _hasher.hash("a password no account has")


def verify_password(stored_hash: str | None, password: str) -> bool:
    """Whether `password` matches. With no hash (no such account, or a guest) a stand-in is checked all
    the same and False returned, so the time taken does not tell which names have accounts."""
    if stored_hash is None:
        with contextlib.suppress(VerificationError):
            _hasher.verify(_stand_in_hash(), password)
        return False
    try:
        return _hasher.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False


class Tokens:
    """Signed session tokens that carry the name and expire after `max_age` seconds."""

    def __init__(self, secret: str, max_age: float) -> None:
        self._serializer = URLSafeTimedSerializer(secret, salt="ghostgames-session")
        self.max_age = max_age

    def issue(self, identity: Identity) -> str:
        return str(self._serializer.dumps({"n": identity.name, "g": identity.guest}))

    def read(self, token: str) -> Identity | None:
        try:
            data = self._serializer.loads(token, max_age=int(self.max_age))
        except (BadSignature, ValueError, TypeError):
            return None
        if not isinstance(data, dict) or not isinstance(data.get("n"), str):
            return None
        return Identity(data["n"], bool(data.get("g")))
