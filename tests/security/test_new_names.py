"""New names are limited per address (a guest name holds its name for days, an account costs a slow
password hash), and a login for a name without an account does the same work as a wrong password."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from ghostgames.server import auth
from ghostgames.server.people import People
from ghostgames.server.ratelimit import new_names, sign_ins
from ghostgames.storage import Repository
from ghostgames.tables import TableError
from tests.security.test_login_throttle import FakeClock
from tests.server.harness import Client, ServerProcess


def test_one_address_gets_a_burst_of_new_names_over_http_and_websocket_then_a_clear_refusal(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, env={"GHOSTGAMES_NAMES_PER_ADDRESS": "3"}).start()
    try:
        status, _ = server.post("/api/register", {"name": "Keeper", "password": "keeper-password"})
        assert status == 200
        status, _ = server.post("/api/guest", {"name": "Guest One"})
        assert status == 200

        async def over_the_websocket() -> tuple[dict[str, object], dict[str, object]]:
            async with await Client.connect(server) as first, await Client.connect(server) as second:
                taken = await first.request({"type": "hello", "guest": "Guest Two"})  # the third: allowed
                refused = await second.request({"type": "hello", "guest": "Guest Three"})
                return taken, refused

        taken, refused = asyncio.run(over_the_websocket())
        assert taken["type"] == "welcome" and taken["user"] == {"name": "Guest Two", "guest": True}
        assert refused["type"] == "error" and refused["code"] == "names_limited"
        assert "try again in" in str(refused["message"])

        for path, body in (("/api/guest", {"name": "Guest Four"}),
                           ("/api/register", {"name": "Second Account", "password": "another-password"})):
            status, answer = server.post(path, body)
            assert status == 429 and answer["code"] == "names_limited"
            retry = answer["args"]["retry_after"]
            assert retry >= 1 and f"try again in {retry} s" in answer["message"]
        # signing in is never limited this way
        status, signed_in = server.post("/api/login", {"name": "Keeper", "password": "keeper-password"})
        assert status == 200 and signed_in["name"] == "Keeper"
    finally:
        server.stop()


def test_the_limit_refills_over_the_hour_and_counts_each_address_apart() -> None:
    clock = FakeClock()
    names = new_names(per_hour=2, clock=clock)
    names.take("10.0.0.1")
    names.take("10.0.0.1")
    with pytest.raises(TableError) as refused:
        names.take("10.0.0.1")
    assert refused.value.code == "names_limited" and refused.value.args_["retry_after"] == 1800
    names.take("10.0.0.2")  # another address has its own burst
    clock.now += 1800  # half an hour brings back one of two an hour
    names.take("10.0.0.1")
    with pytest.raises(TableError):
        names.take("10.0.0.1")


class CountingHasher:
    """The real argon2 hasher, counting how many passwords it checked."""

    def __init__(self, real: auth.PasswordHasher) -> None:
        self.real = real
        self.verified = 0

    def hash(self, password: str) -> str:
        return self.real.hash(password)

    def verify(self, stored: str, password: str) -> bool:
        self.verified += 1
        return self.real.verify(stored, password)


def test_a_login_checks_one_hash_whether_or_not_the_name_has_an_account(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The time of a refusal must not tell which names have accounts: a name with no account, a guest
    name and a wrong password each cost one argon2 check."""
    hasher = CountingHasher(auth._hasher)
    monkeypatch.setattr(auth, "_hasher", hasher)
    repo = Repository(f"sqlite:///{tmp_path / 'people.db'}")
    try:
        people = People(repo, "secret", 7.0)
        people.register("Account", "right-password")
        people.guest("Visitor")
        for name, password in (("Nobody", "any-password"), ("Visitor", "any-password"),
                               ("Account", "wrong-password"), ("Account", "right-password")):
            before = hasher.verified
            try:
                people.login(name, password)
                signed_in = True
            except TableError as err:
                assert err.code == "bad_login"
                signed_in = False
            assert hasher.verified - before == 1, name
            assert signed_in == (password == "right-password")
    finally:
        repo.close()


def test_sign_ins_per_address_are_limited_right_passwords_too(tmp_path: Path) -> None:
    """The wrong-password throttle let an address with an account of its own log in as fast as the CPU
    could hash; every password login now counts against its address."""
    server = ServerProcess(tmp_path, env={"GHOSTGAMES_LOGINS_PER_ADDRESS": "3"}).start()
    try:
        assert server.post("/api/register", {"name": "Hasher", "password": "hasher-password"})[0] == 200
        statuses = [server.post("/api/login", {"name": "Hasher", "password": "hasher-password"})[0]
                    for _ in range(3)]
        assert statuses == [200, 200, 200]
        status, refused = server.post("/api/login", {"name": "Hasher", "password": "hasher-password"})
        assert status == 429 and refused["code"] == "too_many_tries"
        retry = refused["args"]["retry_after"]
        assert 1 <= retry <= 20 and f"sign-ins from your address in a short time; try again in {retry} s" in \
            refused["message"]
    finally:
        server.stop()


def test_sign_ins_refill_at_their_rate() -> None:
    clock = FakeClock()
    logins = sign_ins(per_minute=6, clock=clock)
    for _ in range(6):
        logins.take("10.0.0.1")
    with pytest.raises(TableError) as refused:
        logins.take("10.0.0.1")
    assert refused.value.code == "too_many_tries" and refused.value.args_["retry_after"] == 10
    clock.now += 10
    logins.take("10.0.0.1")
