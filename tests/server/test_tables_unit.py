"""The table domain without a server: the one parser, clocks as arithmetic, votes, and a table rebuilt
from its events equal to the live one."""

from __future__ import annotations

import pytest

from ghostgames.games import GAMES, get_game
from ghostgames.server.lobby import games_list
from ghostgames.tables import Clocks, ClockSpec, Context, Table, TableError, creation_event, parse_command
from ghostgames.tables.commands import BotAdd, BotRemove, Chat, GameAction, Help, Join, SetOption
from ghostgames.tables.events import Closed, TableEvent, event_to_json


def ctx(now: float = 0.0) -> Context:
    seeds = iter(range(1000, 2000))
    return Context(now=now, new_seed=lambda: next(seeds))


def test_one_parser_reads_commands_actions_and_chat() -> None:
    assert parse_command("hello there") == Chat("hello there")
    assert parse_command("/join") == Join(None)
    assert parse_command("/join 2") == Join(1)  # typed from 1, an index from 0
    assert parse_command("/option disclose") == SetOption("disclose", None)
    assert parse_command("/option clock 300+5") == SetOption("clock", "300+5")
    assert parse_command("/bot add") == BotAdd("easy")
    assert parse_command("/bot add Hard") == BotAdd("hard")
    assert parse_command("/bot remove 1") == BotRemove(0)
    assert parse_command("/help join") == Help("join")
    assert parse_command("/play 7 7 X") == GameAction("play 7 7 X")
    assert parse_command("/move b2 n") == GameAction("b2 n")
    assert parse_command("/b2 n") == GameAction("b2 n")
    assert parse_command("/setup b1 c1 d2 e2") == GameAction("setup b1 c1 d2 e2")
    for bad in ("/join x", "/join 0", "/join 1 2", "/bot", "/bot dance", "/start now", "   "):
        with pytest.raises(TableError) as err:
            parse_command(bad)
        assert err.value.code == "bad_argument"


def test_clock_specs_and_bank_arithmetic() -> None:
    assert ClockSpec.parse("none").mode == "none"
    assert ClockSpec.parse(30) == ClockSpec("move", 30.0)
    assert ClockSpec.parse("300+5") == ClockSpec("bank", 300.0, 5.0)
    assert str(ClockSpec.parse("300+5")) == "300+5"
    for bad in ("soon", "-3", "inf", "nan", "0+5", True):
        with pytest.raises(ValueError):
            ClockSpec.parse(bad)
    clocks = Clocks(ClockSpec("bank", 10.0, 2.0), 2)
    clocks.sync(frozenset({0}), now=100.0)
    assert clocks.deadline(0) == 110.0 and clocks.deadline(1) is None
    assert clocks.bank_after(0, now=104.0) == 8.0
    clocks.acted(0, 8.0)
    clocks.sync(frozenset({1}), now=104.0)
    assert clocks.expired(113.9, {1}) == [] and clocks.expired(114.0, {1}) == [1]


def _table(game: str = "geister", seats: int = 2, options: dict[str, object] | None = None) -> tuple[Table, list]:
    created = creation_event("t", game, seats, options, None, "alice")
    return Table(created), [created]


def _do(table: Table, log: list, user: str, text: str, context: Context | None = None) -> None:
    decision = table.decide(user, parse_command(text), None, context or ctx())
    for event in decision.events:
        table.apply(event, 0.0)
        log.append(event_to_json(event))  # as stored


def test_a_vote_is_on_only_when_every_seated_player_voted_for_it() -> None:
    table, log = _table()
    _do(table, log, "alice", "/join")
    _do(table, log, "bob", "/join")
    _do(table, log, "alice", "/option disclose")
    assert table.effective_options()["disclose"] is False
    _do(table, log, "bob", "/option disclose on")
    assert table.effective_options()["disclose"] is True
    _do(table, log, "bob", "/option disclose off")
    assert table.effective_options()["disclose"] is False
    _do(table, log, "bob", "/leave")
    _do(table, log, "alice", "/bot add")
    assert table.effective_options()["disclose"] is True  # bots agree


def test_a_table_rebuilt_from_its_events_equals_the_live_table() -> None:
    table, log = _table("ghooost", 3, {"max_turns": 50})
    _do(table, log, "alice", "/join")
    _do(table, log, "bob", "/join")
    _do(table, log, "alice", "/bot add")
    _do(table, log, "alice", "hello")
    _do(table, log, "alice", "/start")
    for _ in range(20):
        to_act = sorted(table.to_act())
        if not to_act:
            break
        seat = to_act[0]
        text = table.state.legal_texts(seat)[0]  # type: ignore[union-attr]
        if table.seats[seat].bot is not None:
            events = table.decide_bot(seat, text, "bot", ctx())
        else:
            events = table.decide(table.seats[seat].name, GameAction(text), None, ctx()).events
        for event in events:
            table.apply(event, 0.0)
            log.append(event_to_json(event))  # as stored
    rebuilt = Table.from_events(log)
    assert rebuilt.summary(0.0) == table.summary(0.0)
    assert rebuilt.state is not None and table.state is not None
    assert rebuilt.state.to_json() == table.state.to_json()
    assert list(rebuilt.history) == list(table.history)


def test_options_are_checked_when_set_and_votes_are_never_a_creators_setting() -> None:
    with pytest.raises(TableError) as err:
        creation_event("t", "geister", 2, {"exit": "sideways"}, None, "alice")
    assert err.value.code == "bad_option" and "escape" in err.value.message
    created = creation_event("t", "geister", 2, {"disclose": True, "exit": "escape"}, "30", "alice")
    assert created["settings"] == {"exit": "escape"} and created["clock"] == "30"
    table, log = _table()
    _do(table, log, "alice", "/join")
    _do(table, log, "alice", "/option max_plies 40")
    assert table.settings == {"max_plies": 40}
    _do(table, log, "alice", "/option max_plies none")
    assert table.settings == {}


def test_an_unknown_option_names_every_option_the_table_has_whether_set_or_asked_about() -> None:
    """Setting and showing share one check: both list the game's options and the table's clock and rated."""
    table, log = _table()
    _do(table, log, "alice", "/join")
    for typed in ("/option speed 3", "/option speed"):
        with pytest.raises(TableError) as err:
            table.decide("alice", parse_command(typed), None, ctx())
        assert err.value.code == "bad_option"
        named = err.value.message.split("its options are: ")[1].split(", ")
        assert {"clock", "rated", "exit", "max_plies", "disclose", "first"} <= set(named)
    listed = next(g for g in games_list() if g["name"] == "geister")
    assert set(named) == {*listed["options"], *listed["table_options"]}  # what the games list offers


def test_rated_and_votes_read_the_same_on_and_off_words() -> None:
    table, log = _table()
    _do(table, log, "alice", "/join")
    _do(table, log, "alice", "/option rated No")
    assert table.rated is False
    _do(table, log, "alice", "/option rated yes")
    assert table.rated is True
    _do(table, log, "alice", "/option disclose off")
    assert table.votes["disclose"] == set()
    _do(table, log, "alice", "/option disclose TRUE")
    assert table.votes["disclose"] == {0}
    for typed, words in (("/option rated maybe", "rated is on or off"), ("/option disclose maybe", "vote on or off")):
        with pytest.raises(TableError) as err:
            table.decide("alice", parse_command(typed), None, ctx())
        assert err.value.code == "bad_option" and words in err.value.message


def test_an_action_text_is_shown_to_others_only_when_the_game_tells_it_in_public() -> None:
    from ghostgames.games import get_game
    from ghostgames.tables.log import action_is_public

    state = get_game("geister").new(2, {"first": 0}, 5)
    setup = state.apply(0, "setup b1 c1 d1 e1")
    assert not action_is_public("setup b1 c1 d1 e1", setup)
    state.apply(1, "setup b6 c6 d6 e6")
    assert action_is_public("b2 n", state.apply(0, "b2 n"))
    last = get_game("thelast").new(2, {}, 5)
    seat = sorted(last.to_act())[0]
    text = last.legal_texts(seat)[0]
    assert action_is_public(text, last.apply(seat, text))


def test_a_rematch_empties_the_seats_of_people_who_left_and_waits_for_them_to_be_filled() -> None:
    table, log = _table("thelast", 3)
    for user in ("alice", "bob", "carol"):
        _do(table, log, user, "/join")
    _do(table, log, "alice", "/start")
    _do(table, log, "carol", "/leave")
    assert table.seats[2].takeover == "left" and table.seats[2].bot_level() == "easy"
    _do(table, log, "alice", "/resign")  # three players: a bot finishes Alice's seat
    assert table.seats[0].takeover == "resigned" and table.status == "started"
    while table.status == "started":
        seat = sorted(table.to_act())[0]
        text = table.state.legal_texts(seat)[0]  # type: ignore[union-attr]
        if table.seats[seat].bot_level() is not None:
            events = table.decide_bot(seat, text, "bot", ctx())
        else:
            events = table.decide(table.seats[seat].name, GameAction(text), None, ctx()).events
        for event in events:
            table.apply(event, 0.0)
    assert table.result is not None and table.result["takeovers"] == {"0": "resigned", "2": "left"}
    _do(table, log, "bob", "/rematch")
    assert table.status == "finished" and table.rematch_asked == {1}  # Alice (resigned, still seated) accepts
    _do(table, log, "alice", "/rematch")
    assert table.status == "open" and table.round == 2
    assert [s.name for s in table.seats] == ["alice", "bob", None]
    _do(table, log, "dave", "/join")
    _do(table, log, "bob", "/start")
    assert table.status == "started" and table.round == 2


def test_a_table_closes_only_out_of_play_and_stays_closed_when_rebuilt() -> None:
    created = creation_event("t1", "thelast", 2, {"rated": False}, "none", "Ann")
    table = Table(created)
    events = [created]

    def step(new: list[TableEvent]) -> None:
        for event in new:
            table.apply(event, 0.0)
            events.append(event_to_json(event))

    step(table.decide("Ann", Join(None), None, ctx()).events)
    assert table.decide_close("idle") == []  # a person sits at the open table: their grace period frees it
    step(table.decide("Ann", BotAdd("random"), None, ctx()).events)
    step(table.decide("Ann", parse_command("/start"), None, ctx()).events)
    assert table.status == "started" and table.decide_close("idle") == []  # a running game never closes
    step(table.decide("Ann", parse_command("/resign"), None, ctx()).events)
    assert table.status == "finished"
    closing = table.decide_close("nobody sat or watched for 300 s")
    assert closing == [Closed("nobody sat or watched for 300 s")]
    step(closing)
    assert table.status == "closed" and table.summary(0.0)["status"] == "closed"
    assert table.decide_close("again") == []
    assert Table.from_events(events).status == "closed"
    with pytest.raises(TableError) as err:
        table.decide("Bob", Join(None), None, ctx())
    assert err.value.code == "wrong_status"


def test_seat_of_follows_every_join_leave_and_rematch_in_any_case() -> None:
    """seat_of is answered from an index made again after each event: it must say what a scan would."""
    table, log = _table("thelast", 3)
    assert table.seat_of("Alice") is None
    _do(table, log, "alice", "/join")
    _do(table, log, "Bob", "/join 3")
    seat = table.seat_of("ALICE")
    assert seat is not None and seat.index == 0
    seat = table.seat_of("bob")
    assert seat is not None and seat.index == 2
    _do(table, log, "alice", "/leave")
    assert table.seat_of("alice") is None
    _do(table, log, "alice", "/join 2")
    seat = table.seat_of("alice")
    assert seat is not None and seat.index == 1
    _do(table, log, "carol", "/join")
    _do(table, log, "alice", "/start")
    _do(table, log, "carol", "/leave")  # during a game: a bot takes the seat over, carol still owns it
    seat = table.seat_of("carol")
    assert seat is not None and seat.index == 0 and seat.takeover == "left"
    for name in ("alice", "bob", "carol", "dave", None):
        expected = next((s for s in table.seats if name and s.name and s.name.lower() == name.lower()), None)
        assert table.seat_of(name) is expected


def test_a_view_is_made_once_per_version_and_seat_and_never_shown_to_another_seat() -> None:
    table, log = _table("geister", 2)
    _do(table, log, "alice", "/join")
    _do(table, log, "bob", "/join")
    _do(table, log, "alice", "/start")
    assert table.state is not None
    first = {seat: table.view_for(seat) for seat in (0, 1, None)}
    for seat in (0, 1, None):
        assert table.view_for(seat) is first[seat]  # the same dict at the same version
        assert first[seat] == table.state.view(seat)  # and what the game itself says the seat sees
    assert first[0] != first[1]
    version = table.version
    _do(table, log, "alice", "/" + table.state.legal_texts(0)[0])  # seat 1 places its ghosts
    assert table.version == version + 1
    assert table.view_for(0) is not first[0] and table.view_for(0) == table.state.view(0)
    assert table.view_for(1) == table.state.view(1) and table.view_for(None) == table.state.view(None)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_mistyped_move_is_told_what_is_wrong_by_the_verbs_its_game_declares(game: str) -> None:
    """A table knows no game's words: each game declares the verbs its actions begin with (Game.verbs), so a
    new game adds them in its own files. A declared verb with unreadable arguments is a bad argument (with
    the game's help); a word no game here knows is an unknown command."""
    table, _ = _table(game, get_game(game).min_players)
    verbs = get_game(game).verbs
    assert verbs, game
    for verb in verbs:
        with pytest.raises(TableError) as err:
            table.decide("alice", parse_command(f"/{verb} 99 zz"), None, ctx())
        assert err.value.code == "bad_argument" and err.value.args_["usage"] == get_game(game).help_text()
    others = {verb for name in GAMES if name != game for verb in get_game(name).verbs} - set(verbs)
    for word in [*sorted(others), "dance"]:
        with pytest.raises(TableError) as err:
            table.decide("alice", parse_command(f"/{word} 99 zz"), None, ctx())
        assert err.value.code == "unknown_command", (game, word)
