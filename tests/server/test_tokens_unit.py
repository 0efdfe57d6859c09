"""The rules for when a session token still counts (server/auth.py, server/people.py), without a server:
a token names one creation of a name, lives a fixed time from signing in, and ends at logout."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from itsdangerous import URLSafeTimedSerializer

from ghostgames.server.auth import Grant, Holder, TokenRefused, Tokens, check_grant
from ghostgames.server.people import People
from ghostgames.server.sessions import TOPIC, OpenSessions
from ghostgames.storage import Repository
from ghostgames.tables import TableError
from tests.security.tokens import migrate_from_0003_and_back

DAY = 86400.0
GRANT = Grant(user_id=7, name="Xena", guest=True, claimed=1_700_000_000_123_456, logouts=2, issued=1_700_000_000.5)
HOLDER = Holder(user_id=7, guest=True, claimed=1_700_000_000_123_456, logouts=2)


def refusal(grant: Grant, holder: Holder | None, now: float, lifetime: float = DAY) -> str | None:
    try:
        check_grant(grant, holder, now, lifetime)
    except TokenRefused as refused:
        assert "log in again" in refused.message  # every refusal says what works instead
        return refused.reason
    return None


def test_a_token_carries_its_grant_and_the_same_grant_gives_the_same_token() -> None:
    tokens = Tokens("secret", DAY)
    token = tokens.issue(GRANT)
    assert tokens.read(token) == GRANT
    assert tokens.issue(GRANT) == token  # nothing in it changes with the time it is signed at


def test_a_token_from_another_secret_an_altered_one_or_an_old_timed_one_is_unreadable() -> None:
    tokens = Tokens("secret", DAY)
    assert tokens.read(Tokens("other secret", DAY).issue(GRANT)) is None
    token = tokens.issue(GRANT)
    assert tokens.read(token[:-2] + ("AA" if not token.endswith("AA") else "BB")) is None
    old_kind = str(URLSafeTimedSerializer("secret", salt="ghostgames-session").dumps({"n": "Xena", "g": True}))
    assert tokens.read(old_kind) is None  # renewable forever; those are given up
    assert tokens.read("") is None and tokens.read("not.a.token") is None


def test_a_token_counts_for_the_creation_of_the_name_it_was_issued_to_only() -> None:
    now = GRANT.issued + 60
    assert refusal(GRANT, HOLDER, now) is None
    reclaimed = Holder(7, True, HOLDER.claimed + 1, 2)  # a new guest of the same name, a microsecond later
    turned_account = Holder(7, False, HOLDER.claimed, 2)
    another_row = Holder(8, True, HOLDER.claimed, 2)
    for holder in (reclaimed, turned_account, another_row, None):
        assert refusal(GRANT, holder, now) == "replaced", holder


def test_a_token_lives_a_fixed_time_from_signing_in() -> None:
    assert refusal(GRANT, HOLDER, GRANT.issued + DAY - 0.001) is None
    assert refusal(GRANT, HOLDER, GRANT.issued + DAY) == "expired"
    assert refusal(GRANT, HOLDER, GRANT.issued + 30 * DAY) == "expired"


def test_a_logout_since_the_token_was_issued_ends_it() -> None:
    assert refusal(GRANT, Holder(7, True, HOLDER.claimed, 3), GRANT.issued + 1) == "logged_out"


class Clock:
    """The real time, or a moment set by the test: a token of a 0.3-second session is read at a set moment of
    its life, so that a slow machine (a check run beside other work) cannot let it expire before it is read."""

    def __init__(self) -> None:
        self.at: float | None = None

    def __call__(self) -> float:
        return time.time() if self.at is None else self.at


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repository]:
    repository = Repository(f"sqlite:///{tmp_path / 'people.db'}")
    yield repository
    repository.close()


def test_a_guest_token_ends_when_the_name_is_free_and_never_counts_for_its_next_guest(repo: Repository) -> None:
    lifetime_days = 0.3 / DAY  # 0.3 s: the name is free for somebody else after that
    clock = Clock()
    people = People(repo, "secret", lifetime_days, clock)
    first = people.guest("Xena")
    assert first.issued == pytest.approx(first.claimed / 1e6)  # a guest's session starts with the claim
    old_token = people.token(first)
    clock.at = first.issued + 0.1
    assert people.read_token(old_token) == first
    clock.at = None
    time.sleep(0.4)
    second = people.guest("xena")  # the same name in other letters' case, a new guest
    assert second.claimed != first.claimed and second.user_id == first.user_id
    with pytest.raises(TableError) as refused:
        people.read_token(old_token)
    assert refused.value.code == "bad_token" and refused.value.args_["reason"] == "replaced"
    clock.at = second.issued + 0.1  # within the new guest's session, however long the lines above took
    assert people.read_token(people.token(second)).name == "xena"


def test_an_account_over_a_released_guest_name_refuses_the_guest_token(repo: Repository) -> None:
    clock = Clock()
    people = People(repo, "secret", 0.3 / DAY, clock)
    guest_token = people.token(people.guest("Yuri"))
    time.sleep(0.4)
    account = people.register("Yuri", "a long password")
    with pytest.raises(TableError) as refused:
        people.read_token(guest_token)
    assert refused.value.args_["reason"] == "replaced"
    clock.at = account.issued + 0.1
    assert people.read_token(people.token(account)).guest is False


def test_logging_out_refuses_every_token_issued_before_and_only_those(repo: Repository) -> None:
    people = People(repo, "secret", 7.0)
    people.register("Zoe", "a long password")
    phone = people.token(people.login("Zoe", "a long password"))
    laptop = people.token(people.login("Zoe", "a long password"))
    assert people.log_out(people.read_token(phone)) == 1
    for token in (phone, laptop):
        with pytest.raises(TableError) as refused:
            people.read_token(token)
        assert refused.value.args_["reason"] == "logged_out"
    again = people.login("Zoe", "a long password")
    assert again.logouts == 1 and people.read_token(people.token(again)) == again


def test_a_logout_with_a_token_of_an_earlier_creation_of_the_name_changes_nothing(repo: Repository) -> None:
    clock = Clock()
    people = People(repo, "secret", 0.3 / DAY, clock)
    first = people.guest("Vera")
    time.sleep(0.4)
    second = people.guest("Vera")
    assert people.log_out(first) is None
    clock.at = second.issued + 0.1
    assert people.read_token(people.token(second)) == second  # the new guest is still signed in


def test_migration_0004_counts_no_logouts_for_the_names_already_stored(tmp_path: Path) -> None:
    migrate_from_0003_and_back(f"sqlite:///{tmp_path / 'old.db'}")


class Connection:
    """A signed-in connection as server/sessions.py sees it."""

    def __init__(self, grant: Grant) -> None:
        self.grant: Grant | None = grant

    def logged_out(self) -> None:
        self.grant = None


def test_a_logout_ends_the_open_sessions_of_that_creation_of_the_name_issued_before_it() -> None:
    sessions = OpenSessions()
    before = Connection(GRANT)
    after = Connection(Grant(7, "Xena", True, GRANT.claimed, 3, GRANT.issued))  # signed in after that logout
    earlier_guest = Connection(Grant(7, "Xena", True, GRANT.claimed - 1, 2, GRANT.issued))
    other_name = Connection(Grant(8, "Yann", True, GRANT.claimed, 2, GRANT.issued))
    for connection in (before, after, earlier_guest, other_name):
        assert connection.grant is not None
        sessions.add(connection.grant.user_id, connection)
    assert sessions.end(7, GRANT.claimed, 3) == 1
    assert before.grant is None
    assert after.grant is not None and earlier_guest.grant is not None and other_name.grant is not None


def test_a_fan_out_message_of_another_shape_ends_nothing() -> None:
    sessions = OpenSessions()
    connection = Connection(GRANT)
    sessions.add(7, connection)
    for message in ({}, {"user": "7", "claimed": GRANT.claimed, "logouts": 3}, {"user": 7, "claimed": None}):
        asyncio.run(sessions.on_fanout(TOPIC, message))
    assert connection.grant == GRANT
    asyncio.run(sessions.on_fanout(TOPIC, {"user": 7, "claimed": GRANT.claimed, "logouts": 3}))
    assert connection.grant is None
