"""Names, signed session tokens (itsdangerous) with the rules for when one still counts, and password
hashes (argon2)."""

from __future__ import annotations

import contextlib
import functools
import re
import unicodedata
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, URLSafeSerializer

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
    # " bot" and " bot 2" endings are how bots are labelled at a table (tables/seat.py, Seat.label)
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


@dataclass(frozen=True, slots=True)
class Grant:
    """What a session token says. `user_id` and `claimed` (the name's claim time, in microseconds since
    the epoch) name one creation of the name: a later guest of the same name, or a guest name turned
    account, is someone else. `logouts` is how often the holder had logged out when the token was issued:
    logging out again ends it. `issued` is when the holder signed in (seconds since the epoch); the token
    lives a fixed time from then, however often it is shown again."""

    user_id: int
    name: str
    guest: bool
    claimed: int
    logouts: int
    issued: float

    @property
    def identity(self) -> Identity:
        return Identity(self.name, self.guest)


@dataclass(frozen=True, slots=True)
class Holder:
    """The name as the database has it now: which creation of it, and how often its holder logged out."""

    user_id: int
    guest: bool
    claimed: int
    logouts: int


class TokenRefused(Exception):
    """Why a well-signed token no longer speaks for anybody; `reason` is a stable word, the message a
    sentence saying what works instead."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


SIGN_IN_AGAIN = "log in again with your password, or choose a guest name"


def check_grant(grant: Grant, holder: Holder | None, now: float, lifetime: float) -> None:
    """Raise TokenRefused unless `grant` still speaks for the name's current holder at `now`.

    The order matters for the message only: a token that outlived its name is told so, not that it expired."""
    if holder is None or holder.user_id != grant.user_id or holder.claimed != grant.claimed \
            or holder.guest != grant.guest:
        raise TokenRefused("replaced", f"the name {grant.name!r} was given up and is not the one this token was "
                                       f"issued for; {SIGN_IN_AGAIN}")
    if now >= grant.issued + lifetime:
        raise TokenRefused("expired", f"this session ended: a session lasts {_span(lifetime)} from signing in "
                                      f"(a guest's from taking the name); {SIGN_IN_AGAIN}")
    if holder.logouts != grant.logouts:
        raise TokenRefused("logged_out", f"this session was logged out; {SIGN_IN_AGAIN}")


def _span(seconds: float) -> str:
    """A lifetime in words: days when it is a day or more, seconds otherwise (tests use seconds)."""
    days = seconds / 86400
    if days >= 1:
        return f"{days:g} days" if days != 1 else "1 day"
    return f"{seconds:g} s"


class Tokens:
    """Signed session tokens that carry a Grant. The signature holds no time stamp: the same grant always
    gives the same token, so handing a token back (the WebSocket `welcome`) renews nothing."""

    def __init__(self, secret: str, lifetime: float) -> None:
        # the salt differs from the earlier time-stamped tokens', so those are refused as unreadable
        self._serializer = URLSafeSerializer(secret, salt="ghostgames-session-grant")
        self.lifetime = lifetime

    def issue(self, grant: Grant) -> str:
        return str(self._serializer.dumps({"u": grant.user_id, "n": grant.name, "g": grant.guest,
                                           "c": grant.claimed, "o": grant.logouts, "i": grant.issued}))

    def read(self, token: str) -> Grant | None:
        """The grant a token carries, or None when it is not one this server signed (or is malformed)."""
        try:
            data = self._serializer.loads(token)
        except (BadSignature, ValueError, TypeError):
            return None
        if not isinstance(data, dict):
            return None
        fields = (data.get("u"), data.get("n"), data.get("g"), data.get("c"), data.get("o"), data.get("i"))
        user_id, name, guest, claimed, logouts, issued = fields
        if not (isinstance(user_id, int) and isinstance(name, str) and isinstance(guest, bool)
                and isinstance(claimed, int) and isinstance(logouts, int)
                and isinstance(issued, (int, float)) and not isinstance(issued, bool)):
            return None
        return Grant(user_id, name, guest, claimed, logouts, float(issued))
