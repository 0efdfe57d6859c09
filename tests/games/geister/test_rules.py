"""One test per rule sentence of the Geister section of shared/RULES.md, in its order."""

from __future__ import annotations

import random

import pytest

from ghostgames.games import get_game
from ghostgames.games.geister.board import square_name
from ghostgames.rules import GameRecord, IllegalAction, OptionError
from tests.games.geister.positions import position, start_squares

GAME = get_game("geister")

# Four bad ghosts each, far from the action, used to fill positions.
SEAT0_BAD_CORNER = {"a1": (0, "bad"), "b1": (0, "bad"), "a2": (0, "bad"), "b2": (0, "bad")}
SEAT1_BAD_CORNER = {"e6": (1, "bad"), "f5": (1, "bad"), "e5": (1, "bad"), "d6": (1, "bad")}


def fresh(options: dict[str, object] | None = None, seed: int = 5):  # type: ignore[no-untyped-def]
    return GAME.new(2, options or {}, seed=seed)


def set_up_both(state, good0=("b1", "c1", "d1", "e1"), good1=("b6", "c6", "d6", "e6")):  # type: ignore[no-untyped-def]
    state.apply(0, "setup " + " ".join(good0))
    state.apply(1, "setup " + " ".join(good1))
    return state


# --- 6x6 board; each player has 4 good and 4 bad ghosts ----------------------------------------------------
def test_board_is_6x6_and_each_player_has_4_good_and_4_bad_ghosts() -> None:
    state = set_up_both(fresh())
    view = state.view(0)
    squares = {g["square"] for g in view["ghosts"]}
    assert all(s[0] in "abcdef" and s[1] in "123456" for s in squares)
    for seat in (0, 1):
        colours = [g["colour"] for g in state.view(seat)["ghosts"] if g["owner"] == seat]
        assert colours.count("good") == 4 and colours.count("bad") == 4
    with pytest.raises(IllegalAction):
        GAME.parse_action("g1 n")
    with pytest.raises(IllegalAction):
        GAME.parse_action("a7 s")


# --- Setup: simultaneous, secret, on the middle four squares of the two nearest rows ------------------------
def test_setup_is_simultaneous_both_seats_act_at_once() -> None:
    state = fresh()
    assert state.to_act() == frozenset({0, 1})
    state.apply(1, "setup b5 c5 d5 e5")
    assert state.to_act() == frozenset({0})
    state.apply(0, "setup b2 c2 d2 e2")
    assert len(state.to_act()) == 1


def test_setup_squares_are_the_middle_four_of_the_two_nearest_rows() -> None:
    assert sorted(start_squares(0)) == sorted(["b1", "c1", "d1", "e1", "b2", "c2", "d2", "e2"])
    assert sorted(start_squares(1)) == sorted(["b5", "c5", "d5", "e5", "b6", "c6", "d6", "e6"])
    state = fresh()
    with pytest.raises(IllegalAction, match="not one of your start squares"):
        state.apply(0, "setup a1 c1 d1 e1")
    with pytest.raises(IllegalAction, match="are not your start squares"):
        state.apply(1, "setup b1 c1 d1 e1")
    assert len(state.legal_actions(0)) == 70  # choose 4 of 8


def test_review_12_a_setup_on_wrong_squares_names_them_and_the_squares_that_work() -> None:
    state = fresh()
    with pytest.raises(IllegalAction) as err:
        state.apply(0, "setup b5 c5 d5 e5")
    assert err.value.reason.startswith("b5, c5, d5 and e5 are not your start squares (they are your opponent's)")
    assert "you start on b1, c1, d1, e1, b2, c2, d2, e2" in err.value.reason
    assert "'setup b1 c1 d1 e1'" in err.value.reason
    with pytest.raises(IllegalAction) as err:
        state.apply(1, "setup a6 b6 c6 d6")
    assert err.value.reason.startswith("a6 is not one of your start squares; you start on b5, c5, d5, e5, b6")
    assert "opponent" not in err.value.reason
    assert state.set_up == [False, False]


def test_setup_is_secret_the_opponent_sees_only_a_ghost() -> None:
    state = set_up_both(fresh())
    for seat in (0, 1):
        for ghost in state.view(seat)["ghosts"]:
            if ghost["owner"] != seat:
                assert ghost["colour"] is None
    for ghost in state.view(None)["ghosts"]:
        assert ghost["colour"] is None
    # the setup event tells the other seat that a setup happened, not what it was
    other = fresh()
    event = other.apply(0, "setup b1 c1 d1 e1")[0]
    assert event.for_seat(1) == {"kind": "setup", "seat": 0}
    assert event.for_seat(0)["good"] == ["b1", "c1", "d1", "e1"]


def test_no_move_before_both_setups() -> None:
    state = fresh()
    state.apply(0, "setup b1 c1 d1 e1")
    with pytest.raises(IllegalAction):
        state.apply(0, "b2 n")


# --- Move: one own ghost, one square orthogonally, never onto an own ghost; capture reveals ---------------
def test_move_one_square_orthogonally() -> None:
    state = position({"c3": (0, "good"), **SEAT0_BAD_CORNER, "f6": (1, "good"), **SEAT1_BAD_CORNER})
    legal = set(map(str, state.legal_actions(0)))
    assert {"c3 n", "c3 e", "c3 s", "c3 w"} <= legal
    for bad in ("c3 c5", "c3-d4", "c3 b4"):
        with pytest.raises(IllegalAction):
            state.apply(0, bad)
    state.apply(0, "c3 n")
    assert state.view(0)["ghosts"][0]["square"] == "c4"


def test_move_never_onto_an_own_ghost() -> None:
    state = position({"c3": (0, "good"), "c4": (0, "good"), **SEAT0_BAD_CORNER, "f6": (1, "good"),
                      **SEAT1_BAD_CORNER})
    assert "c3 n" not in set(map(str, state.legal_actions(0)))
    with pytest.raises(IllegalAction, match="your own ghost"):
        state.apply(0, "c3 n")


def test_move_only_own_ghosts_and_only_in_turn() -> None:
    state = position({"c3": (0, "good"), **SEAT0_BAD_CORNER, "f6": (1, "good"), **SEAT1_BAD_CORNER})
    with pytest.raises(IllegalAction, match="no ghost"):
        state.apply(0, "f6 s")
    with pytest.raises(IllegalAction, match="not seat 1's turn"):
        state.apply(1, "f6 s")


def test_moving_onto_an_enemy_ghost_captures_it_and_shows_its_colour_to_both() -> None:
    state = position({"c3": (0, "good"), **SEAT0_BAD_CORNER, "c4": (1, "bad"), "f6": (1, "good"),
                      "e6": (1, "bad"), "f5": (1, "bad"), "e5": (1, "bad")})
    enemy_id = next(g["id"] for g in state.view(0)["ghosts"] if g["square"] == "c4")
    assert state.view(0)["ghosts"][enemy_id]["colour"] is None
    events = state.apply(0, "c3 n")
    assert events[0].public["colour"] == "bad"
    for seat in (0, 1, None):
        ghost = state.view(seat)["ghosts"][enemy_id]
        assert ghost["status"] == "captured" and ghost["colour"] == "bad"
    assert state.view(None)["captured"][1] == {"good": 3, "bad": 1}


# --- Exits: the two corner squares of the far row ------------------------------------------------------------
def test_exits_are_the_two_corners_of_the_far_row() -> None:
    view = fresh().view(0)
    assert view["exits"] == [["a6", "f6"], ["a1", "f1"]]


# --- Option exit=reach (default): a good ghost moving onto an exit wins at once ---------------------------
def test_reach_a_good_ghost_stepping_onto_an_exit_wins_at_once() -> None:
    assert fresh().view(0)["options"]["exit"] == "reach"
    state = position({"a5": (0, "good"), **SEAT0_BAD_CORNER, "f1": (1, "good"), **SEAT1_BAD_CORNER})
    state.apply(0, "a5 n")
    outcome = state.outcome()
    assert outcome is not None and outcome.results[0].result == "win" and "exit" in outcome.reason


def test_reach_a_bad_ghost_on_an_exit_does_not_win() -> None:
    state = position({"a5": (0, "bad"), "b1": (0, "bad"), "a2": (0, "bad"), "b2": (0, "bad"), "c1": (0, "good"),
                      "f6": (1, "good"), **SEAT1_BAD_CORNER})
    state.apply(0, "a5 n")
    assert state.outcome() is None


def test_reach_an_enemy_exit_is_not_an_exit_for_you() -> None:
    state = position({"a2": (0, "good"), "b1": (0, "bad"), "c2": (0, "bad"), "b2": (0, "bad"), "d2": (0, "bad"),
                      "f6": (1, "good"), **SEAT1_BAD_CORNER})
    state.apply(0, "a2 s")  # a1 is seat 1's exit
    assert state.outcome() is None


# --- Option exit=escape: a good ghost on an exit corner uses a move to leave the board --------------------
def test_escape_a_good_ghost_on_an_exit_corner_leaves_with_a_move_and_wins() -> None:
    for square, direction in (("a6", "n"), ("a6", "w"), ("f6", "n"), ("f6", "e")):
        state = position({square: (0, "good"), **SEAT0_BAD_CORNER, "c4": (1, "good"), **SEAT1_BAD_CORNER},
                         options={"exit": "escape"})
        assert state.outcome() is None  # standing there has not won yet
        assert f"{square} {direction}" in set(map(str, state.legal_actions(0)))
        events = state.apply(0, f"{square} {direction}")
        assert events[0].public.get("escaped") is True
        outcome = state.outcome()
        assert outcome is not None and outcome.results[0].result == "win" and "escaped" in outcome.reason
        escaped = state.view(1)["ghosts"][0]
        assert escaped["status"] == "escaped" and escaped["colour"] == "good"


def test_escape_stepping_onto_the_exit_does_not_win_by_itself() -> None:
    state = position({"a5": (0, "good"), **SEAT0_BAD_CORNER, "c4": (1, "good"), **SEAT1_BAD_CORNER},
                     options={"exit": "escape"})
    state.apply(0, "a5 n")
    assert state.outcome() is None


def test_escape_a_bad_ghost_may_not_leave() -> None:
    state = position({"a6": (0, "bad"), "b1": (0, "bad"), "a2": (0, "bad"), "b2": (0, "bad"), "c1": (0, "good"),
                      "c4": (1, "good"), **SEAT1_BAD_CORNER}, options={"exit": "escape"})
    assert "a6 n" not in set(map(str, state.legal_actions(0)))
    with pytest.raises(IllegalAction, match="only a good ghost"):
        state.apply(0, "a6 n")


def test_escape_seat_1_leaves_by_its_own_corners_and_out_is_an_alias() -> None:
    state = position({"c3": (0, "good"), **SEAT0_BAD_CORNER, "f1": (1, "good"), **SEAT1_BAD_CORNER},
                     turn=1, options={"exit": "escape"})
    assert GAME.parse_action("f1 out") == GAME.parse_action("f1 s")
    state.apply(1, "f1 out")
    outcome = state.outcome()
    assert outcome is not None and outcome.results[1].result == "win"


def test_escape_is_not_allowed_under_reach() -> None:
    state = position({"a6": (0, "bad"), "b1": (0, "bad"), "a2": (0, "bad"), "b2": (0, "bad"), "c1": (0, "good"),
                      "c4": (1, "good"), **SEAT1_BAD_CORNER})
    with pytest.raises(IllegalAction, match="reach"):
        state.apply(0, "a6 n")


# --- Game end by captures ------------------------------------------------------------------------------------
def test_capturing_all_four_enemy_good_ghosts_wins() -> None:
    state = position({"c3": (0, "good"), **SEAT0_BAD_CORNER, "c4": (1, "good"), **SEAT1_BAD_CORNER})
    state.apply(0, "c3 n")
    outcome = state.outcome()
    assert outcome is not None and outcome.results[0].result == "win" and "good" in outcome.reason


def test_capturing_all_four_enemy_bad_ghosts_loses() -> None:
    state = position({"c3": (0, "good"), **SEAT0_BAD_CORNER, "c4": (1, "bad"), "f6": (1, "good"),
                      "e6": (1, "good"), "f5": (1, "good"), "e5": (1, "good")})
    state.apply(0, "c3 n")
    outcome = state.outcome()
    assert outcome is not None and outcome.results[0].result == "loss" and outcome.results[1].result == "win"
    assert "bad" in outcome.reason


def test_review_11_capturing_the_fourth_bad_ghost_on_an_exit_loses() -> None:
    """Under `reach` one move can land a good ghost on an exit and take the fourth bad ghost: the capture
    decides, so the mover loses."""
    state = position({"a5": (0, "good"), **SEAT0_BAD_CORNER, "a6": (1, "bad"), "d6": (1, "good"),
                      "e6": (1, "good"), "f5": (1, "good"), "e5": (1, "good")})
    assert state.view(0)["captured"][1] == {"good": 0, "bad": 3}
    events = state.apply(0, "a5 n")
    outcome = state.outcome()
    assert outcome is not None and outcome.results[0].result == "loss" and outcome.results[1].result == "win"
    assert outcome.reason == "captured all four bad ghosts"
    assert [e.kind for e in events] == ["move", "end"] and events[0].public["colour"] == "bad"


def test_review_11_capturing_the_fourth_good_ghost_on_an_exit_wins_by_the_capture() -> None:
    state = position({"a5": (0, "good"), **SEAT0_BAD_CORNER, "a6": (1, "good"), **SEAT1_BAD_CORNER})
    state.apply(0, "a5 n")
    outcome = state.outcome()
    assert outcome is not None and outcome.results[0].result == "win"
    assert outcome.reason == "captured all four good ghosts"


def test_review_11_a_capture_that_decides_nothing_leaves_the_exit_win() -> None:
    state = position({"a5": (0, "good"), **SEAT0_BAD_CORNER, "a6": (1, "bad"), "f1": (1, "good"),
                      "e6": (1, "bad"), "f5": (1, "bad"), "e5": (1, "good")})
    state.apply(0, "a5 n")
    outcome = state.outcome()
    assert outcome is not None and outcome.results[0].result == "win"
    assert outcome.reason == "a good ghost reached an exit"


def test_after_the_end_nobody_may_act() -> None:
    state = position({"a5": (0, "good"), **SEAT0_BAD_CORNER, "f1": (1, "good"), **SEAT1_BAD_CORNER})
    state.apply(0, "a5 n")
    assert state.to_act() == frozenset()
    with pytest.raises(IllegalAction, match="over"):
        state.apply(1, "f1 n")


# --- Option disclose -----------------------------------------------------------------------------------------
def _finish(options: dict[str, object]):  # type: ignore[no-untyped-def]
    state = position({"a5": (0, "good"), **SEAT0_BAD_CORNER, "f1": (1, "good"), **SEAT1_BAD_CORNER},
                     options=options)
    state.apply(0, "a5 n")
    return state


def test_disclose_shows_the_remaining_ghosts_to_both_at_the_end() -> None:
    state = _finish({"disclose": True})
    for seat in (0, 1, None):
        assert all(g["colour"] is not None for g in state.view(seat)["ghosts"])


def test_without_disclose_hidden_colours_stay_hidden_forever_in_replays_too() -> None:
    state = _finish({"disclose": False})
    hidden = [g for g in state.view(0)["ghosts"] if g["owner"] == 1 and g["status"] == "board"]
    assert hidden and all(g["colour"] is None for g in hidden)
    # a replay shows each step through view(None): no remaining colour ever appears
    record = GameRecord("geister", 2, {"max_plies": 40}, 9)
    rng = random.Random(9)
    live = record.new_state()
    while live.to_act():
        seat = min(live.to_act())
        action = rng.choice(live.legal_actions(seat))
        live.apply(seat, action)
        record.actions.append((seat, str(action)))
    for step in record.states():
        for ghost in step.view(None)["ghosts"]:
            if ghost["status"] == "board":
                assert ghost["colour"] is None


def test_disclose_is_a_vote_option() -> None:
    assert GAME.options_schema()["disclose"]["vote"] is True
    assert GAME.options_schema()["exit"]["vote"] is False


# --- Option max_plies ------------------------------------------------------------------------------------------
def test_max_plies_default_is_none_and_reaching_it_is_a_draw() -> None:
    assert fresh().view(0)["options"]["max_plies"] is None
    state = set_up_both(fresh({"max_plies": 2}))
    first = state.view(0)["turn"]
    state.apply(first, state.legal_actions(first)[0])
    assert state.outcome() is None
    second = 1 - first
    state.apply(second, state.legal_actions(second)[0])
    outcome = state.outcome()
    assert outcome is not None and all(r.result == "draw" for r in outcome.results)


def test_max_plies_300_counts_both_sides() -> None:
    """Quiet moves only (no capture, never onto an exit): the game cannot end early, so it must stop as a
    draw after exactly 300 moves, 150 per side."""
    rng = random.Random(4)
    state = set_up_both(fresh({"max_plies": 300}))
    exits = {sq for side in state.view(None)["exits"] for sq in side}
    moves_by_seat = [0, 0]
    while state.to_act():
        seat = min(state.to_act())
        legal = state.legal_actions(seat)
        quiet = [a for a in legal if state.board[a.target] < 0 and square_name(a.target) not in exits]
        state.apply(seat, rng.choice(quiet))
        moves_by_seat[seat] += 1
    outcome = state.outcome()
    assert outcome is not None and all(r.result == "draw" for r in outcome.results)
    assert moves_by_seat == [150, 150] and state.view(None)["ply"] == 300


def test_options_are_checked_with_a_clear_error() -> None:
    with pytest.raises(OptionError, match="'reach' or 'escape'"):
        GAME.new(2, {"exit": "fly"})
    with pytest.raises(OptionError, match="options are"):
        GAME.new(2, {"speed": 3})
    with pytest.raises(ValueError, match="2 to 2 players"):
        GAME.new(3)


# --- Who starts: random unless the table says otherwise ----------------------------------------------------
def test_who_starts_is_random_from_the_seed_unless_set() -> None:
    firsts = {set_up_both(fresh(seed=s)).view(None)["turn"] for s in range(30)}
    assert firsts == {0, 1}
    assert set_up_both(fresh(seed=3)).view(None)["turn"] == set_up_both(fresh(seed=3)).view(None)["turn"]
    for first in (0, 1):
        assert {set_up_both(fresh({"first": first}, seed=s)).view(None)["turn"] for s in range(10)} == {first}
