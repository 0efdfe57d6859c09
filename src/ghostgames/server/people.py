"""Guests, accounts and their tokens, over the repository."""

from __future__ import annotations

from datetime import timedelta

from ghostgames.server.auth import Identity, Tokens, check_name, hash_password, verify_password
from ghostgames.server.confusables import skeleton
from ghostgames.storage import NameConfusable, NameTaken, Repository
from ghostgames.tables import TableError

MIN_PASSWORD = 6


class People:
    def __init__(self, repo: Repository, secret: str, token_days: float) -> None:
        self.repo = repo
        self.tokens = Tokens(secret, token_days * 86400)
        self.free_after = timedelta(days=token_days)

    def fill_skeletons(self) -> int:
        """Names stored before skeletons existed get theirs, so new names are compared with them too."""
        return self.repo.fill_skeletons(skeleton)

    def token(self, identity: Identity) -> str:
        return self.tokens.issue(identity)

    def read_token(self, token: str) -> Identity | None:
        identity = self.tokens.read(token)
        if identity is None:
            return None
        user = self.repo.get_user(identity.name)
        if user is None or user.guest != identity.guest:
            return None  # the name was given up (an expired guest became an account)
        return Identity(user.name, user.guest)

    def guest(self, raw_name: str) -> Identity:
        name = check_name(raw_name)
        try:
            user = self.repo.claim_guest(name, self.free_after, skeleton(name))
        except NameConfusable as err:
            raise _looks_like(name, err.existing) from None
        except NameTaken:
            raise TableError("name_taken", f"the name {name!r} is taken; choose another", name=name) from None
        return Identity(user.name, True)

    def register(self, raw_name: str, password: str) -> Identity:
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
        return Identity(user.name, False)

    def login(self, raw_name: str, password: str) -> Identity:
        user = self.repo.get_user(str(raw_name).strip())
        account = user if user is not None and not user.guest else None
        matches = verify_password(account.password_hash if account else None, password)  # one hash either way
        if account is None or not matches:
            raise TableError("bad_login", "wrong name or password")
        return Identity(account.name, False)


def _looks_like(name: str, existing: str) -> TableError:
    return TableError(
        "name_confusable",
        f"the name {name!r} looks like {existing!r}, which is taken (letters from another script or width "
        "that look the same count as the same); choose a name that reads differently, e.g. add a word or digits",
        name=name, existing=existing,
    )
