"""Replays are cheap (issue 31, hole 6): a long Ghooost! record, whose old replay sent the whole round log
at every step (53 MB for this 1,931-step game), comes in pages of bounded size that grow linearly with
the steps; the pages rebuild exactly the views the reader saw; pages are cached and built once however
many ask at once; replay requests are limited per address; every integer in their paths is bounded."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from ghostgames.bench.records import random_record
from ghostgames.rules.record import GameRecord
from ghostgames.server import replays as replays_module
from ghostgames.server.replays import ReplayCache, Replays
from ghostgames.storage import StoredRecord, save_record
from ghostgames.storage.replay import PAGE_STEPS, apply_delta, rebuild_views, seat_replay, view_delta
from ghostgames.tables.log import LogLine, action_is_public
from tests.server.harness import ServerProcess

LONG_OPTIONS = {"max_turns": 5000, "max_rounds": 100}  # the largest a table allows
PAGE_BYTES = 1_000_000  # no page may be larger than this
BYTES_PER_STEP = 1_500  # all pages of a replay together, per step (the old replay: ~27,700 here)


def long_record() -> GameRecord:
    """A 2-player Ghooost! round of random moves that lasts 1,930 actions: its log grows to ~2,000 entries."""
    record, _ = random_record("ghooost", 2, 0, LONG_OPTIONS)
    assert len(record.actions) == 1930
    return record


def all_pages(client: httpx.Client, path: str, headers: dict[str, str] | None = None) -> list[httpx.Response]:
    answers: list[httpx.Response] = []
    start: int | None = 0
    while start is not None:
        answer = client.get(path, params={"from": start}, headers=headers)
        assert answer.status_code == 200, answer.text
        answers.append(answer)
        start = answer.json()["next"]
    return answers


def check_bounded_and_exact(answers: list[httpx.Response], record: GameRecord, seat: int | None) -> None:
    """Each page is bounded, all of them grow linearly with the steps, and they rebuild every view."""
    steps = len(record.actions) + 1
    sizes = [len(answer.content) for answer in answers]
    assert max(sizes) < PAGE_BYTES, sizes
    assert sum(sizes) < BYTES_PER_STEP * steps, (sum(sizes), steps)
    assert len(answers) == -(-steps // PAGE_STEPS)
    views = [view for answer in answers for view in rebuild_views(answer.json())]
    assert views == [json.loads(json.dumps(state.view(seat))) for state in record.states()]


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server that allows three replay requests per address, then refills one every 20 s."""
    process = ServerProcess(tmp_path_factory.mktemp("limited"), env={"GHOSTGAMES_REPLAYS_PER_ADDRESS": "3"}).start()
    yield process
    process.stop()


def test_review_6_a_long_ghooost_replay_comes_in_bounded_pages_that_rebuild_every_view(server: ServerProcess) -> None:
    record = long_record()
    record_id = save_record(server.db_url, record, "table", ["bot A", "bot B"])
    with httpx.Client(base_url=server.http_url, timeout=60) as client:
        answers = all_pages(client, f"/api/records/{record_id}/replay")
        check_bounded_and_exact(answers, record, None)
        first = answers[0].json()
        assert first["total"] == 1931 and first["from"] == 0 and first["page"] == PAGE_STEPS
        assert "view" in first["steps"][0] and all("delta" in step for step in first["steps"][1:])
        # the cache answers the same page with the same bytes
        again = client.get(f"/api/records/{record_id}/replay", params={"from": 500})
        assert again.content == answers[1].content
        # a page may start anywhere and be shorter
        middle = client.get(f"/api/records/{record_id}/replay", params={"from": 1234, "count": 3}).json()
        assert middle["from"] == 1234 and len(middle["steps"]) == 3 and middle["next"] == 1237
        assert rebuild_views(middle)[2] == rebuild_views(answers[2].json())[1236 - 1000]
    assert "Traceback" not in server.log()


def test_review_9_replay_integers_are_bounded_and_named(server: ServerProcess) -> None:
    record, _ = random_record("thelast", 2, 5)
    record_id = save_record(server.db_url, record, "table", ["a", "b"])
    steps = len(record.actions) + 1
    with httpx.Client(base_url=server.http_url, timeout=30) as client:
        for path in ("/api/records/9223372036854775808/replay/0", "/api/records/18446744073709551616/replay/1",
                     "/api/records/-1/replay/0", "/api/records/abc/replay/0"):
            answer = client.get(path, headers={"Authorization": "Bearer x"})
            assert answer.status_code == 404, (path, answer.text)
            assert answer.json()["code"] == "no_such_record" and "9223372036854775807" in answer.json()["message"]
        for query in ("from=-1", "from=9223372036854775808", "count=0", f"count={PAGE_STEPS + 1}", "from=x"):
            for path in (f"/api/records/{record_id}/replay", f"/api/records/{record_id}/replay/0"):
                answer = client.get(f"{path}?{query}")
                assert answer.status_code == 422, (path, query, answer.text)
                assert answer.json()["code"] == "bad_request"
        answer = client.get(f"/api/records/{record_id}/replay/99")
        assert answer.status_code == 422 and "15" in answer.json()["message"]
        past = client.get(f"/api/records/{record_id}/replay", params={"from": steps})
        assert past.status_code == 404 and past.json()["code"] == "no_such_step"
        assert past.json()["args"]["total"] == steps and str(steps - 1) in past.json()["message"]
        assert client.get(f"/api/records/{record_id}/replay", params={"from": steps - 1}).status_code == 200
    assert "Traceback" not in server.log()


def test_review_6_replay_requests_are_limited_per_address(limited: ServerProcess) -> None:
    record, _ = random_record("geister", 2, 3, {})
    record_id = save_record(limited.db_url, record, "table", ["a", "b"])
    with httpx.Client(base_url=limited.http_url, timeout=30) as client:
        assert [client.get(f"/api/records/{record_id}/replay").status_code for _ in range(3)] == [200] * 3
        refused = client.get(f"/api/records/{record_id}/replay")
        assert refused.status_code == 429
        body = refused.json()
        assert set(body) == {"code", "message", "args"} and body["code"] == "replays_limited"
        assert int(refused.headers["Retry-After"]) == body["args"]["retry_after"] >= 1
        # the seat replay shares the limit, and is refused before any database work
        seat = client.get(f"/api/records/{record_id}/replay/0", headers={"Authorization": "Bearer x"})
        assert seat.status_code == 429 and seat.json()["code"] == "replays_limited"
        assert client.get("/api/games").status_code == 200  # other endpoints are not limited by it


# --- in-process pieces ---------------------------------------------------------------------------------

def stored(record: GameRecord, record_id: int = 1) -> StoredRecord:
    return StoredRecord(record_id, record, ["a", "b"], None, "table", None, datetime.now(UTC))


def test_a_delta_sets_appends_and_drops_and_rebuilds_the_next_view() -> None:
    before = {"log": [[None, "a"]], "turn": 0, "gone": 1, "same": [1, 2]}
    after = {"log": [[None, "a"], [0, "b"]], "turn": 1, "same": [1, 2], "new": True}
    delta = view_delta(before, after)
    assert delta == {"set": {"turn": 1, "new": True}, "append": {"log": [[0, "b"]]}, "drop": ["gone"]}
    assert apply_delta(before, delta) == after and before["log"] == [[None, "a"]]  # the first view is untouched
    assert view_delta(after, after) == {}
    shrunk = {**after, "log": [[None, "c"]]}  # a new round's log replaces the old one whole
    assert view_delta(after, shrunk) == {"set": {"log": [[None, "c"]]}}


def test_every_page_of_every_seat_rebuilds_the_views_it_covers() -> None:
    record, _ = random_record("ghooost", 3, 4, {})
    states = list(record.states())
    for seat in (None, 0, 2):
        for start, count in ((0, PAGE_STEPS), (5, 17), (len(states) - 1, 10)):
            page = json.loads(json.dumps(seat_replay(stored(record), seat, start, count)))
            views = rebuild_views(page)
            assert views == [json.loads(json.dumps(s.view(seat))) for s in states[start:start + count]]


@pytest.mark.parametrize("game", ["geister", "ghooost", "thelast"])
def test_each_step_tells_its_reader_what_the_live_log_told_them_about_its_action(game: str) -> None:
    """Issue 32, point 11: a step carries the action's events and, where the log showed it, its text, as
    the live log line for that reader (`LogLine.for_reader`); another seat's secret stays `null`."""
    record, _ = random_record(game, 2, 32, None)
    for seat in (None, 0, 1):
        page = json.loads(json.dumps(seat_replay(stored(record), seat, 0, PAGE_STEPS)))
        assert "events" not in page["steps"][0] and "action" not in page["steps"][0]
        state = record.new_state()
        for step, (acting, text) in zip(page["steps"][1:], record.actions, strict=False):
            events = state.apply(acting, text)
            public = action_is_public(text, events)
            line = (LogLine("action", "", {}, {}, tuple(events)) if public
                    else LogLine("action", "", {}, {acting: ("", {})}, tuple(events))).for_reader(seat)
            assert step["events"] == json.loads(json.dumps(line["events"]))
            assert step["action"] == (text if public or acting == seat else None)
    if game == "geister":  # the setups are secret: each seat reads only its own
        page = seat_replay(stored(record), None, 0, 3)
        assert [step.get("action") for step in page["steps"]] == [None, None, None]
        assert seat_replay(stored(record), 0, 0, 3)["steps"][1]["action"].startswith("setup ")


def test_the_cache_keeps_the_recent_pages_within_its_bytes() -> None:
    cache = ReplayCache(max_bytes=100)
    cache.put((1, None, 0, 500), b"a" * 20)
    cache.put((2, None, 0, 500), b"b" * 20)
    assert cache.get((1, None, 0, 500)) == b"a" * 20  # now the most recent
    for record_id in range(3, 7):
        cache.put((record_id, 0, 0, 500), b"c" * 20)
    assert cache.held <= 100 and cache.get((2, None, 0, 500)) is None and cache.get((1, None, 0, 500)) is not None
    cache.put((9, None, 0, 500), b"d" * 26)  # over a quarter of the cache: not kept
    assert cache.get((9, None, 0, 500)) is None


def test_eight_readers_of_one_page_wait_for_one_build_and_get_the_same_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    builds: list[int] = []

    def counted(stored: StoredRecord, seat: int | None, start: int, count: int) -> dict[str, Any]:
        builds.append(1)
        return seat_replay(stored, seat, start, count)

    monkeypatch.setattr(replays_module, "seat_replay", counted)
    record, _ = random_record("ghooost", 2, 1, {})

    async def read() -> list[bytes]:
        service = Replays(per_minute=60, cache_bytes=10_000_000)
        answers = await asyncio.gather(*(service.page(stored(record), None, 0, PAGE_STEPS) for _ in range(8)))
        later = await service.page(stored(record), None, 0, PAGE_STEPS)
        assert service.cache.hits == 1
        return [bytes(answer.body) for answer in [*answers, later]]

    bodies = asyncio.run(read())
    assert len(builds) == 1 and len(set(bodies)) == 1


def test_the_old_replay_of_the_long_record_breaks_the_bound_by_far() -> None:
    """The old replay of `long_record` (one whole view per step) was over 50 MB: the figure the tests
    above compare against is real (the old format computed here, not in the product code)."""
    record = long_record()
    old = sum(len(json.dumps({"seat": 0, "view": state.view(None)})) for state in record.states())
    assert old > 50_000_000 and old / (len(record.actions) + 1) > 10 * BYTES_PER_STEP
