"""The tutorial's HTTP API on a real server: the courses, a lesson as its learner sees it, tries judged by
the rules and the lesson, "show me"; and, as a property over every lesson of every game, nothing in an
answer that the learner's own view does not hold (the position's hidden colours and cards stay on the
server)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from ghostgames.games import get_game
from ghostgames.tutorial import play
from ghostgames.tutorial.judge import replies
from ghostgames.tutorial.lessons import Lesson
from ghostgames.tutorial.validate import every_lesson
from tests.server.harness import ServerProcess
from tests.tutorial.tries import wrong_try

LESSONS = every_lesson()
IDS = [f"{lesson.game}/{lesson.id}" for lesson in LESSONS]


def test_the_courses_list_every_game_with_lessons_in_order(server: ServerProcess) -> None:
    courses = {c["game"]: c["lessons"] for c in server.get("/api/tutorial")["courses"]}
    assert [entry["id"] for entry in courses["geister"]][:2] == ["moving", "capturing"]
    assert [entry["number"] for entry in courses["geister"]] == list(range(1, len(courses["geister"]) + 1))
    assert "position" not in json.dumps(courses)


def test_a_lesson_names_its_place_in_the_course(server: ServerProcess) -> None:
    first = server.get("/api/tutorial/geister/moving")
    assert (first["number"], first["previous"], first["next"], first["seat"]) == (1, None, "capturing", 0)
    assert first["text"] == "tutorial.geister.moving"
    last = server.get("/api/tutorial/geister/move-limit")
    assert last["next"] is None and last["number"] == last["count"]


def test_unknown_games_and_lessons_are_404_with_what_there_is(server: ServerProcess) -> None:
    status, body = server.fetch("/api/tutorial/chess/moving")
    assert (status, body["code"]) == (404, "unknown_game")
    status, body = server.fetch("/api/tutorial/geister/flying")
    assert (status, body["code"]) == (404, "no_such_lesson")
    assert "moving" in body["args"]["lessons"]
    status, body = server.post("/api/tutorial/geister/flying/try", {"action": "b2 n"})
    assert (status, body["code"]) == (404, "no_such_lesson")
    status, body = server.post("/api/tutorial/geister/moving/try", {"action": "x" * 201})
    assert (status, body["code"]) == (422, "bad_request")


def test_a_refused_try_says_the_rule_and_the_lessons_hint_for_it(server: ServerProcess) -> None:
    status, body = server.post("/api/tutorial/geister/exit-escape/try", {"action": "a6 n"})
    assert status == 200
    assert (body["result"], body["code"]) == ("refused", "geister.escape_good_only")
    assert body["hint"] == "tutorial.geister.exit-escape.hint_escape_good_only"
    _, body = server.post("/api/tutorial/geister/moving/try", {"action": "fly away"})
    assert (body["result"], body["code"], body["hint"]) == ("refused", "unreadable", None)


def test_a_legal_try_that_misses_the_goal_gets_the_hint_and_no_position(server: ServerProcess) -> None:
    _, body = server.post("/api/tutorial/geister/moving/try", {"action": "c3 s"})
    assert body == {"result": "wrong", "action": "c3 s", "hint": "tutorial.geister.moving.hint"}
    # a try that ends the game is explained by the hint for that ending: the move limit's draw
    _, body = server.post("/api/tutorial/geister/move-limit/try", {"action": "b3 n"})
    assert body["hint"] == "tutorial.geister.move-limit.hint_ply_limit"


def test_any_action_that_meets_the_goal_counts_and_the_replies_follow(server: ServerProcess) -> None:
    for text in ("d2 n", "b2-b3", "c1c2"):  # the lesson asks for any step forward
        _, body = server.post("/api/tutorial/geister/moving/try", {"action": text})
        assert body["result"] == "done", text
        assert [step["seat"] for step in body["steps"]] == [0, 1]
        assert body["steps"][1]["events"][0]["move"] == "b5 s"
    _, body = server.post("/api/tutorial/geister/lose-bad/show", {})
    assert body["result"] == "done" and body["next"] == "bluffing"
    end = body["steps"][-1]["view"]["outcome"]
    assert end["code"] == "bad_captured" and end["results"][0]["result"] == "win"


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_no_answer_holds_more_than_the_learners_view(server: ServerProcess, lesson: Lesson) -> None:
    """The lesson page is exactly the game's view for the learner, and the same for every world the learner
    cannot tell apart from the position (so it cannot depend on a hidden part); "show me" and a wrong try
    carry the learner's views and events and nothing else."""
    base = f"/api/tutorial/{lesson.game}/{lesson.id}"
    page = server.get(base)
    state = lesson.state()
    assert page["view"] == state.view(lesson.seat)
    assert set(page) == {"game", "id", "number", "count", "text", "seat", "players", "next", "previous", "view"}
    for k in range(5):
        world = state.sample_world(lesson.seat, random.Random(k)).to_json()
        assert play.lesson_page(dataclasses.replace(lesson, position=world)) == page
    _, shown = server.post(base + "/show", {})
    assert shown["result"] == "done"
    after = lesson.state()
    events = after.apply(lesson.seat, lesson.show)
    first = shown["steps"][0]
    assert first == {"seat": lesson.seat, "action": str(get_game(lesson.game).parse_action(lesson.show)),
                     "events": [e.for_seat(lesson.seat) for e in events], "view": after.view(lesson.seat)}
    answered = replies(lesson, after)  # the same replies again, on the server's side of the line
    assert len(shown["steps"]) == 1 + len(answered)
    for step, (seat, action, reply_events) in zip(shown["steps"][1:], answered, strict=True):
        # the others' actions are told by their events; the learner's own forced one (a round's last card) by name
        assert step["seat"] == seat and step["action"] == (str(action) if seat == lesson.seat else None)
        assert step["events"] == [e.for_seat(lesson.seat) for e in reply_events]
    assert shown["steps"][-1]["view"] == after.view(lesson.seat)
    _, wrong = server.post(base + "/try", {"action": wrong_try(lesson)})
    assert wrong["result"] in ("wrong", "refused")
    assert set(wrong) <= {"result", "action", "hint", "code", "message", "args"}


def test_an_accounts_progress_is_stored_and_a_guests_is_not(server: ServerProcess) -> None:
    status, body = server.fetch("/api/tutorial/progress")
    assert (status, body["code"]) == (401, "auth_required")
    _, account = server.post("/api/register", {"name": "Learner", "password": "long enough"})
    token = account["token"]
    assert server.fetch("/api/tutorial/progress", token) == (200, {"progress": {}, "stored": True})
    status, body = server.post("/api/tutorial/progress", {"game": "geister", "lessons": ["moving", "bluffing"]}, token)
    assert (status, body) == (200, {"progress": {"geister": ["bluffing", "moving"]}, "stored": True})
    server.post("/api/tutorial/progress", {"game": "geister", "lessons": ["moving", "capturing"]}, token)
    _, body = server.fetch("/api/tutorial/progress", token)
    assert body["progress"] == {"geister": ["bluffing", "capturing", "moving"]}
    status, body = server.post("/api/tutorial/progress", {"game": "geister", "lessons": ["flying"]}, token)
    assert (status, body["code"]) == (404, "no_such_lesson")
    _, guest = server.post("/api/guest", {"name": "Visitor"})
    status, body = server.post("/api/tutorial/progress", {"game": "geister", "lessons": ["moving"]}, guest["token"])
    assert (status, body) == (200, {"progress": {}, "stored": False})
    assert server.fetch("/api/tutorial/progress", guest["token"])[1] == {"progress": {}, "stored": False}
