"""The fair-play rules as pure checks (ghostgames/tables/fair_play.py), and what a table says about them before a
game: own moves are counted from the table's events, nonstandard settings make a table unrated."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostgames.games import get_game
from ghostgames.tables import Context, Table, TableError, creation_event, fair_play, parse_command
from ghostgames.tables.commands import GameAction
from ghostgames.tables.events import OptionSet, Played, TableEvent, TakenOver
from ghostgames.tables.fair_play import (
    NONSTANDARD,
    PAIR,
    PAIR_LIMIT,
    PAIR_WINDOW,
    STANDARD,
    TOO_FEW_MOVES,
    PairHistory,
    Problem,
    Verdict,
    judge,
    moves_problems,
    rated_pairs,
    settings_problems,
)

START = datetime(2026, 1, 1, tzinfo=UTC)


def test_every_game_has_a_standard_and_its_defaults_are_standard() -> None:
    """Quick play and a table made with no options play the defaults: they must count."""
    for name, standard in STANDARD.items():
        game = get_game(name)
        assert standard.min_own_moves >= 1
        for players in range(game.min_players, game.max_players + 1):
            assert settings_problems(name, players, {}) == []
            defaults = {k: v["default"] for k, v in game.options_schema().items() if not v["vote"]}
            assert settings_problems(name, players, defaults) == []


@given(st.integers(min_value=1, max_value=1000))
def test_a_geister_ply_cap_is_standard_from_300_on(cap: int) -> None:
    problems = settings_problems("geister", 2, {"max_plies": cap, "exit": "escape", "first": 1})
    if cap >= 300:
        assert problems == []
    else:
        (problem,) = problems
        assert problem.code == NONSTANDARD
        assert problem.args == {"option": "max_plies", "value": cap, "at_least": 300,
                                "standard": "max_plies none or at least 300"}
        assert problem.message == (f"max_plies {cap} is not a standard setting; rated games use "
                                   "max_plies none or at least 300")


def test_ghooost_caps_below_their_defaults_and_a_single_round_among_three_are_not_standard() -> None:
    codes = {p.args["option"] for p in settings_problems("ghooost", 4, {"max_turns": 200, "max_rounds": 1,
                                                                         "match": False})}
    assert codes == {"max_turns", "max_rounds", "match"}
    assert settings_problems("ghooost", 2, {"match": False}) == []  # with two a match is one round anyway
    assert settings_problems("ghooost", 6, {"max_turns": 5000, "match": True, "deck": "original"}) == []
    assert settings_problems("thelast", 5, {"rounds": 100}) == []
    assert [p.args["option"] for p in settings_problems("chess", 2, {})] == ["game"]


@given(st.lists(st.integers(min_value=0, max_value=6), min_size=2, max_size=6),
       st.sampled_from(sorted(STANDARD)))
def test_a_game_is_aborted_exactly_when_some_seat_made_too_few_of_its_own_moves(own: list[int], game: str) -> None:
    needed = STANDARD[game].min_own_moves
    problems = moves_problems(game, own)
    assert [p.args["seat"] for p in problems] == [seat for seat, moves in enumerate(own) if moves < needed]
    assert all(p.code == TOO_FEW_MOVES and p.args["needed"] == needed for p in problems)
    verdict = judge(game, len(own), {}, own, {})
    assert verdict.counts == all(moves >= needed for moves in own)
    assert verdict.aborted == (not verdict.counts)
    assert Verdict.from_json(verdict.to_json()) == verdict


def test_the_pairs_watched_are_the_rated_players_with_a_person_among_them() -> None:
    assert rated_pairs(["bob", "ann"]) == [("ann", "bob")]
    assert rated_pairs(["ann", "bot:hard", "bot:easy"]) == [("ann", "bot:easy"), ("ann", "bot:hard")]
    assert rated_pairs(["ann", "bot:hard", "bot:hard"]) == []  # the twice-seated bot keeps its rating
    assert rated_pairs(["bot:easy", "bot:hard"]) == []


def test_the_pair_rule_stops_at_the_limit_and_says_why() -> None:
    pair = ("ann", "bob")
    assert judge("geister", 2, {}, [3, 3], {pair: PAIR_LIMIT - 1}).counts
    verdict = judge("geister", 2, {}, [3, 3], {pair: PAIR_LIMIT})
    (problem,) = verdict.problems
    assert problem.code == PAIR and problem.args == {"players": ["ann", "bob"], "games": PAIR_LIMIT, "hours": 24}
    assert not verdict.aborted and "ann and bob already had 5 rated games in 24 hours" in problem.message
    # an aborted game is not asked about the pair: it never uses up the pair's limit
    aborted = judge("geister", 2, {}, [0, 3], {pair: PAIR_LIMIT})
    assert [p.code for p in aborted.problems] == [TOO_FEW_MOVES]
    assert Problem.from_json(problem.to_json()) == problem


@settings(max_examples=60)
@given(st.lists(st.integers(min_value=0, max_value=3 * 24 * 60), min_size=1, max_size=40))
def test_a_pair_never_has_more_than_the_limit_counted_in_any_window_and_only_the_limit_stops_it(
        minutes: list[int]) -> None:
    """Games of one pair judged in storage order: in every window of PAIR_WINDOW at most PAIR_LIMIT count,
    and a game that does not count had PAIR_LIMIT counted in the window before it."""
    history, pair, counted = PairHistory(), ("ann", "bob"), []
    for offset in sorted(minutes):
        when = START + timedelta(minutes=offset)
        before = history.counted_before("geister", [pair], when)
        assert before[pair] == sum(1 for t in counted if when - PAIR_WINDOW < t)  # counted so far: all earlier
        verdict = judge("geister", 2, {}, [5, 5], before)
        if verdict.counts:
            history.add("geister", [pair], when)
            counted.append(when)
        else:
            assert before[pair] == PAIR_LIMIT
    for when in counted:
        assert sum(1 for t in counted if when - PAIR_WINDOW < t <= when) <= PAIR_LIMIT
    assert history.counted_before("ghooost", [pair], START) == {pair: 0}  # each game its own limit


def ctx() -> Context:
    return Context(now=0.0, new_seed=lambda: 7)


def run(table: Table, user: str, text: str) -> list[TableEvent]:
    events = table.decide(user, parse_command(text), None, ctx()).events
    for event in events:
        table.apply(event, 0.0)
    return events


def test_a_table_with_nonstandard_settings_is_unrated_unless_asked_and_then_says_what_would_work() -> None:
    assert Table(creation_event("t1", "geister", 2, {"max_plies": 1}, None, "ann")).rated is False
    assert Table(creation_event("t2", "geister", 2, {"max_plies": 300}, None, "ann")).rated is True
    with pytest.raises(TableError) as err:
        creation_event("t3", "geister", 2, {"max_plies": 1, "rated": "on"}, None, "ann")
    assert err.value.code == "bad_option" and err.value.args_["name"] == "rated"
    assert err.value.message == ("rated Geister games use the standard settings (max_plies none or at least 300), "
                                 "not max_plies 1: set rated off to play these settings unrated, or change them")


def test_setting_a_nonstandard_option_turns_rated_off_with_a_line_that_says_why() -> None:
    table = Table(creation_event("t1", "geister", 2, {}, None, "ann"))
    run(table, "ann", "/join")
    assert table.rated is True
    events = run(table, "ann", "/option max_plies 1")
    assert [type(e) for e in events] == [OptionSet, OptionSet] and table.rated is False
    line = table.history[-1]["line"]
    assert line["text"].startswith("option rated is now off: max_plies 1 is not a standard setting")
    assert line["args"]["because"][0]["code"] == NONSTANDARD
    with pytest.raises(TableError) as err:
        run(table, "ann", "/option rated on")
    assert "not max_plies 1" in err.value.message
    run(table, "ann", "/option max_plies none")
    run(table, "ann", "/option rated on")
    assert table.rated is True
    assert [type(e) for e in run(table, "ann", "/option max_plies 400")] == [OptionSet] and table.rated is True
    listing = table.decide("ann", parse_command("/option rated"), None, ctx()).reply
    assert listing is not None and "settings are standard: max_plies none or at least 300" in listing.text
    assert Table.from_events([creation_event("t1", "geister", 2, {}, None, "ann")]).rated is True


def test_own_moves_count_a_persons_and_a_seated_bots_moves_but_not_a_takeover_or_a_clock_turn() -> None:
    table = Table(creation_event("t1", "geister", 2, {}, None, "ann"))
    run(table, "ann", "/join")
    run(table, "ann", "/bot add easy")
    run(table, "ann", "/start")
    assert table.state is not None
    hers = 0  # ann's turns so far
    while not table.state.is_over() and hers < 6:
        seat = min(table.to_act())
        text = table.state.legal_texts(seat)[0]
        if table.seats[seat].bot is not None:
            events = table.decide_bot(seat, text, "bot", ctx())
        elif hers < 3:
            events = table.decide("ann", GameAction(text), None, ctx()).events
        else:  # ann's clock ran out once, then she left: a bot moves for her
            events = [Played(seat, text, "clock" if hers == 3 else "bot")]
            if hers == 4:
                events.insert(0, TakenOver(seat, "left"))
        if table.seats[seat].bot is None:
            hers += 1
        assert table.own_moves_after(events) == [
            table.own_moves[i] + sum(1 for e in events if isinstance(e, Played) and e.seat == i
                                     and (e.by == "player" or table.seats[i].bot is not None))
            for i in range(2)]
        for event in events:
            table.apply(event, 0.0)
    ann = next(s.index for s in table.seats if s.name == "ann")
    assert table.own_moves[ann] == 3  # her setup and two moves; the clock's turn and the bot's are not hers
    assert table.own_moves[1 - ann] == sum(1 for s, _ in table.actions if s == 1 - ann)  # the seated bot's own
    assert fair_play.moves_in_actions(2, table.actions)[ann] > table.own_moves[ann]
