"""Guests, accounts and their tokens, over the repository."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from ghostgames.server.auth import (
    Grant,
    Holder,
    TokenRefused,
    Tokens,
    check_grant,
    check_name,
    hash_password,
    verify_password,
)
from ghostgames.server.confusables import skeleton
from ghostgames.storage import NameConfusable, NameTaken, Repository, User
from ghostgames.tables import TableError

MIN_PASSWORD = 6
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def micros(moment: datetime) -> int:
    """A stored time as whole microseconds since the epoch: exact, so two claims of a name never compare equal."""
    return (moment - EPOCH) // timedelta(microseconds=1)


def holder_of(user: User) -> Holder:
    return Holder(user.id, user.guest, micros(user.created_at), user.logouts)


def bad_token(reason: str, message: str) -> TableError:
    return TableError("bad_token", message, reason=reason)


class People:
    def __init__(self, repo: Repository, secret: str, token_days: float,
                 clock: Callable[[], float] = time.time) -> None:
        """`clock`: seconds since the epoch, for the start of an account's session and the expiry check (a test
        can read a token at a moment of its choosing instead of racing a short lifetime)."""
        self.repo = repo
        self.clock = clock
        self.tokens = Tokens(secret, token_days * 86400)
        self.free_after = timedelta(days=token_days)

    def fill_skeletons(self) -> int:
        """Names stored before skeletons existed get theirs, so new names are compared with them too."""
        return self.repo.fill_skeletons(skeleton)

    def sign_in(self, user: User) -> Grant:
        """A new session for `user`: its lifetime starts now (a guest's at the claim, so the token ends
        exactly when the name is free for somebody else)."""
        claimed = micros(user.created_at)
        start = claimed / 1e6 if user.guest else self.clock()
        return Grant(user.id, user.name, user.guest, claimed, user.logouts, round(start, 6))

    def token(self, grant: Grant) -> str:
        return self.tokens.issue(grant)

    def read_token(self, token: str) -> Grant:
        """The session a token stands for, checked against the name as stored now; TableError `bad_token`
        with a sentence saying why and what works otherwise."""
        grant = self.tokens.read(token)
        if grant is None:
            raise bad_token("invalid", "this session token is not one this server issued (or it was cut short); "
                                       "log in again with your password, or choose a guest name")
        user = self.repo.get_user(grant.name)
        try:
            check_grant(grant, None if user is None else holder_of(user), self.clock(), self.tokens.lifetime)
        except TokenRefused as refused:
            raise bad_token(refused.reason, refused.message) from None
        return grant

    def expires(self, grant: Grant) -> float:
        """When the session ends (seconds since the epoch), whatever happens meanwhile."""
        return grant.issued + self.tokens.lifetime

    def log_out(self, grant: Grant) -> int | None:
        """End every session of this holder of the name: the stored count of logouts goes up, so every
        server process refuses the tokens issued before. The new count, or None if the name was re-created."""
        return self.repo.log_out(grant.user_id, EPOCH + timedelta(microseconds=grant.claimed))

    def guest(self, raw_name: str) -> Grant:
        name = check_name(raw_name)
        try:
            user = self.repo.claim_guest(name, self.free_after, skeleton(name))
        except NameConfusable as err:
            raise _looks_like(name, err.existing) from None
        except NameTaken:
            raise TableError("name_taken", f"the name {name!r} is taken; choose another", name=name) from None
        return self.sign_in(user)

    def register(self, raw_name: str, password: str) -> Grant:
        name = check_name(raw_name)
        if len(password) < MIN_PASSWORD:
            raise TableError("bad_password", f"a password has at least {MIN_PASSWORD} characters",
                             min=MIN_PASSWORD)
        try:
            user = self.repo.create_account(name, hash_password(password), self.free_after, skeleton(name))
        except NameConfusable as err:
            raise _looks_like(name, err.existing) from None
        except NameTaken:
            raise TableError("name_taken", f"the name {name!r} is taken; choose another", name=name) from None
        return self.sign_in(user)

    def login(self, raw_name: str, password: str) -> Grant:
        user = self.repo.get_user(str(raw_name).strip())
        account = user if user is not None and not user.guest else None
        matches = verify_password(account.password_hash if account else None, password)  # one hash either way
        if account is None or not matches:
            raise TableError("bad_login", "wrong name or password")
        return self.sign_in(account)


def _looks_like(name: str, existing: str) -> TableError:
    return TableError(
        "name_confusable",
        f"the name {name!r} looks like {existing!r}, which is taken (letters from another script or width "
        "that look the same count as the same); choose a name that reads differently, e.g. add a word or digits",
        name=name, existing=existing,
    )
