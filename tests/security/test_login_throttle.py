"""Password guessing is throttled per name and per address (review point 7: after 30 wrong passwords
the right one still worked at once)."""

from __future__ import annotations

from pathlib import Path

from ghostgames.server.throttle import LoginThrottle, ThrottleRules
from tests.server.harness import ServerProcess


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_review_7_wrong_passwords_lock_the_name_and_the_right_one_waits_too(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path).start()
    try:
        status, _ = server.post("/api/register", {"name": "Guarded", "password": "right-password"})
        assert status == 200
        answers = [server.post("/api/login", {"name": "Guarded", "password": f"wrong-{n}"}) for n in range(5)]
        assert [status for status, _ in answers[:4]] == [401] * 4
        status, locked = answers[4]  # the fifth wrong one starts the lock
        assert status == 429 and locked["code"] == "too_many_tries"
        retry = locked["args"]["retry_after"]
        assert 0 < retry <= 30 and f"try again in {retry} s" in locked["message"]
        status, right = server.post("/api/login", {"name": "Guarded", "password": "right-password"})
        assert status == 429 and right["code"] == "too_many_tries"  # the right password waits as well
        status, _ = server.post("/api/login", {"name": " gUARDED ", "password": "right-password"})
        assert status == 429  # the same name, however it is typed
        # another name from the same address is not locked by Guarded's count
        server.post("/api/register", {"name": "Neighbour", "password": "neighbour-pw"})
        status, _ = server.post("/api/login", {"name": "Neighbour", "password": "neighbour-pw"})
        assert status == 200
        # one address guessing at many names is locked after 20 wrong tries
        results = [server.post("/api/login", {"name": f"nobody{n}", "password": "guess-guess"})[0] for n in range(20)]
        assert results[:14] == [401] * 14 and results[-1] == 429
        status, _ = server.post("/api/login", {"name": "Neighbour", "password": "neighbour-pw"})
        assert status == 429
    finally:
        server.stop()


def test_review_7_the_lock_doubles_with_each_further_wrong_try_and_ends() -> None:
    clock = FakeClock()
    throttle = LoginThrottle(ThrottleRules(), clock=clock)
    for _ in range(4):
        assert throttle.failed("Bob", "10.0.0.1") == 0
    assert throttle.wait("Bob", "10.0.0.1") == 0
    assert throttle.failed("Bob", "10.0.0.1") == 30
    clock.now += 10
    assert throttle.wait("bob", "10.0.0.9") == 20  # the name is locked from any address
    clock.now += 20
    assert throttle.wait("Bob", "10.0.0.1") == 0
    assert throttle.failed("Bob", "10.0.0.1") == 60
    clock.now += 60
    assert throttle.failed("Bob", "10.0.0.1") == 120
    for _ in range(10):
        clock.now += 900
        locked = throttle.failed("Bob", "10.0.0.1")
    assert locked == 900  # the cap
    clock.now += 900
    throttle.succeeded("Bob")  # a right password forgets the name's count
    assert throttle.wait("Bob", "10.0.0.2") == 0
    clock.now += 3601  # and an hour without a wrong try forgets everything
    assert throttle.failed("Carol", "10.0.0.1") == 0
