"""A bot at a table remembers the earlier games there against the same people (tables/memory.py), and
learns from them only what its seat saw at each end."""

from __future__ import annotations

import random
from typing import Any

from ghostgames.bots import (
    BOTS,
    LEVELS,
    REMEMBERING,
    SeatKnowledge,
    choose_action,
    get_bot,
    remembers,
    tell_earlier_games,
)
from ghostgames.bots.geister.expert_memory import MemoryExpertBot, MemoryPolicy
from ghostgames.bots.geister.memory import SetupMemory, setup_seen
from ghostgames.games import get_game
from ghostgames.rules.contract import State
from ghostgames.tables import Context, Table, creation_event, parse_command
from ghostgames.tables.events import event_to_json
from ghostgames.tables.memory import REMEMBERED

GEISTER = get_game("geister")


def ctx() -> Context:
    seeds = iter(range(1000, 2000))
    return Context(now=0.0, new_seed=lambda: next(seeds))


def _do(table: Table, log: list[Any], user: str, text: str) -> None:
    for event in table.decide(user, parse_command(text), None, ctx()).events:
        table.apply(event, 0.0)
        log.append(event_to_json(event))


def _step(table: Table, log: list[Any], seat: int, text: str) -> None:
    """`seat` plays `text`: the bot if one sits there, else its person."""
    person = table.seats[seat].name
    if table.seats[seat].bot is not None:
        events = table.decide_bot(seat, text, "bot", ctx())
    else:
        events = table.decide(person, parse_command("/" + text), None, ctx()).events
    for event in events:
        table.apply(event, 0.0)
        log.append(event_to_json(event))


def _table_with_a_hard_bot() -> tuple[Table, list[Any]]:
    created = creation_event("t", "geister", 2, {"rated": True}, "60", "alice")
    table, log = Table(created), [created]
    _do(table, log, "alice", "/join 1")
    _do(table, log, "alice", "/bot add hard")
    return table, log


def _start(table: Table, log: list[Any], user: str) -> None:
    if table.status != "started":  # a rematch everybody agreed to starts by itself
        _do(table, log, user, "/start")


def _one_game(table: Table, log: list[Any], user: str, moves: int = 3) -> dict[str, Any] | None:
    """Start; both seats set up and move (`moves` own moves each, the setup counted) and the person resigns.
    Geister's rated minimum is 3 own moves: with fewer the game is aborted, and no bot remembers it."""
    _start(table, log, user)
    while table.state is not None and not table.state.is_over() and min(table.own_moves) < moves:
        seat = min(table.to_act(), key=lambda i: table.own_moves[i])
        _step(table, log, seat, table.state.legal_texts(seat)[0])
    final = table.state.to_json() if table.state is not None and table.state.is_over() else None
    if table.status == "started":
        _do(table, log, user, "/resign")
        assert table.state is not None
        final = table.state.to_json()
    assert table.status == "finished"
    return final


def test_the_bot_is_handed_the_earlier_games_against_the_same_person_and_a_rebuild_hands_the_same() -> None:
    table, log = _table_with_a_hard_bot()
    first = _one_game(table, log, "alice")
    _do(table, log, "alice", "/rematch")  # the bot accepts at once: the game starts
    assert table.remembered(1) == [first]
    assert table.remembered(0) == []  # a person's seat: nothing for a bot to remember there
    assert Table.from_events(log).remembered(1) == [first]
    second = _one_game(table, log, "alice")
    _do(table, log, "alice", "/rematch")
    assert table.remembered(1) == [first, second]
    _one_game(table, log, "alice")
    _do(table, log, "alice", "/leave")  # another person sits down: the bot starts afresh
    _do(table, log, "bob", "/join 1")
    _do(table, log, "bob", "/rematch")
    _start(table, log, "bob")
    assert table.remembered(1) == []
    _one_game(table, log, "bob")
    _do(table, log, "bob", "/bot remove 2")
    _do(table, log, "bob", "/bot add medium")  # another bot in the seat: it did not play those games
    _do(table, log, "bob", "/rematch")
    assert table.status == "started" and table.remembered(1) == []
    assert Table.from_events(log).remembered(1) == []


def test_games_resigned_at_once_or_rated_otherwise_teach_the_bot_nothing() -> None:
    """Otherwise a person could show the bot a setup for free (an aborted game, an unrated one) and then set
    up otherwise in a rated game."""
    table, log = _table_with_a_hard_bot()
    _one_game(table, log, "alice", moves=1)  # the setups alone, then a resignation: aborted for ratings
    _do(table, log, "alice", "/rematch")
    assert table.remembered(1) == []
    played = _one_game(table, log, "alice")
    _do(table, log, "alice", "/option rated off")
    _do(table, log, "alice", "/rematch")
    assert table.rated is False and table.remembered(1) == []  # the played game was rated, this one is not
    unrated = _one_game(table, log, "alice")
    _do(table, log, "alice", "/rematch")
    assert table.remembered(1) == [unrated]
    _one_game(table, log, "alice")
    _do(table, log, "alice", "/option rated on")
    _do(table, log, "alice", "/rematch")
    assert table.rated is True and table.remembered(1) == [played]


def test_a_table_keeps_only_its_last_games() -> None:
    table, log = _table_with_a_hard_bot()
    finals = []
    for _ in range(REMEMBERED + 3):
        finals.append(_one_game(table, log, "alice"))
        _do(table, log, "alice", "/rematch")
    assert table.remembered(1) == finals[-REMEMBERED:]


def _finished_game(seed: int, disclose: bool) -> State[Any]:
    state = GEISTER.new(2, {"disclose": disclose}, seed)
    bot, rng = get_bot("random"), random.Random(seed)
    while not state.is_over():
        for seat in sorted(state.to_act()):
            state.apply(seat, str(bot.choose(SeatKnowledge(state, seat), rng)))
    return state


def _hidden_colours_shuffled(state: State[Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The same final position with the colours `seat`'s view does not show dealt again among those ghosts."""
    final = state.to_json()
    hidden = [g["id"] for g in state.view(seat)["ghosts"] if g["colour"] is None]
    colours = [final["good"][g] for g in hidden]
    rng.shuffle(colours)
    for g, good in zip(hidden, colours, strict=True):
        final["good"][g] = good
    return final


def test_a_bot_learns_from_earlier_games_only_what_its_seat_saw() -> None:
    """Property over finished games (random play, with and without `disclose`): finals that differ only in
    colours the seat never saw teach the expert the same setups and give the same move."""
    rng = random.Random(5)
    now = GEISTER.new(2, {}, 99)
    now.apply(0, "setup b1 c1 d1 e1")
    now.apply(1, "setup b6 c6 d6 e6")
    differed = 0
    for case in range(12):
        seat = case % 2
        finals = [_finished_game(100 * case + k, disclose=k % 2 == 0) for k in range(3)]
        truth = [f.to_json() for f in finals]
        shuffled = [_hidden_colours_shuffled(f, seat, rng) for f in finals]
        differed += truth != shuffled
        for f, s in zip(truth, shuffled, strict=True):
            assert GEISTER.load(f).view(seat) == GEISTER.load(s).view(seat)
        told, shuffled_told = get_bot("expert:40"), get_bot("expert:40")
        tell_earlier_games(told, GEISTER, seat, truth)
        tell_earlier_games(shuffled_told, GEISTER, seat, shuffled)
        assert isinstance(told, MemoryExpertBot) and isinstance(shuffled_told, MemoryExpertBot)
        seen = [s for f in finals if (s := setup_seen(f.view(seat))) is not None]
        assert told.memory.setups == shuffled_told.memory.setups == seen
        if seat == 0:
            assert choose_action(now.to_json(), 0, "expert:40", case, truth) == choose_action(
                now.to_json(), 0, "expert:40", case, shuffled)
    assert differed >= 6  # the property was put to the test: hidden colours did move


def test_a_repeated_setup_changes_the_experts_reading_and_a_forgetting_bot_is_not_told() -> None:
    game = _finished_game(7, disclose=True)
    assert setup_seen(game.view(0)) is not None  # `disclose`: the end shows every colour
    final = game.to_json()
    told = get_bot("hard")
    tell_earlier_games(told, GEISTER, 0, [final, final])
    assert isinstance(told, MemoryExpertBot) and len(told.memory.setups) == 2 and told.memory.informative()
    now = GEISTER.new(2, {"first": 0}, 8)
    now.apply(0, "setup b1 c1 d1 e1")
    now.apply(1, "setup b6 c6 d6 e6")
    knowing = MemoryPolicy(SeatKnowledge(now, 0), told.memory).good_probability
    fresh = MemoryPolicy(SeatKnowledge(now, 0), SetupMemory()).good_probability
    assert knowing != fresh
    forgetting = get_bot("medium")
    assert not forgetting.remembers
    tell_earlier_games(forgetting, GEISTER, 0, [{"not": "a state"}])  # never read: a forgetting bot is not told


def test_the_server_asks_by_name_what_each_bot_says_it_remembers() -> None:
    """`remembers` answers without building a bot; every built-in name and level agrees with its class."""
    for name in [*BOTS, *LEVELS, "expert:50", "Hard"]:
        made = get_bot(name)
        for game in ("geister", "ghooost", "thelast"):
            assert remembers(name, game) == (game in made.remembers), (name, game)
    assert set(REMEMBERING) <= set(BOTS)
    assert remembers("hard", "geister") and not remembers("hard", "ghooost") and not remembers("medium", "geister")


def test_a_table_without_a_bot_keeps_no_game_for_memory() -> None:
    created = creation_event("t", "geister", 2, {"rated": True}, "60", "alice")
    table, log = Table(created), [created]
    _do(table, log, "alice", "/join 1")
    _do(table, log, "bob", "/join 2")
    assert _one_game(table, log, "alice") is not None
    assert table.status == "finished" and not table.finished_games


def test_only_a_game_of_chosen_setups_is_kept_for_a_bots_memory() -> None:
    """A dealt game shows no habit of a starting position: a table of The Last with a bot keeps nothing."""
    assert get_game("geister").chosen_setup
    assert not get_game("thelast").chosen_setup and not get_game("ghooost").chosen_setup
    created = creation_event("t", "thelast", 2, {"rated": True}, "60", "alice")
    table, log = Table(created), [created]
    _do(table, log, "alice", "/join 1")
    _do(table, log, "alice", "/bot add hard")
    assert _one_game(table, log, "alice") is not None
    assert min(table.own_moves) >= 2 and not table.finished_games  # played out, and still nothing kept
