"""No game stalls for ever, and a rematch starts only under settings everybody agreed to: the table logic
alone, with the time given in each Context (no server, no real clock)."""

from __future__ import annotations

from typing import Any

import pytest

from ghostgames.tables import Context, Table, TableError, creation_event, parse_command
from ghostgames.tables.commands import Claim, help_text
from ghostgames.tables.events import Claimed, Finished, OptionSet, RematchAsked, TableEvent, TakenOver, event_to_json
from ghostgames.tables.settings import DEFAULT_CLOCKS

THRESHOLD = 300.0


def ctx(now: float = 0.0) -> Context:
    seeds = iter(range(1000, 2000))
    return Context(now=now, new_seed=lambda: next(seeds), idle_claim=THRESHOLD)


class Run:
    """A table and its event log; every decision is applied at the time it was decided."""

    def __init__(self, game: str, seats: int, options: dict[str, Any] | None, clock: object) -> None:
        created = creation_event("t", game, seats, options, clock, "alice")
        self.table = Table(created)
        self.log: list[dict[str, Any]] = [created]  # as stored

    def do(self, user: str, text: str, now: float = 0.0) -> list[TableEvent]:
        events = self.table.decide(user, parse_command(text), None, ctx(now)).events
        for event in events:
            self.table.apply(event, now)
            self.log.append(event_to_json(event))
        return events

    def refused(self, user: str, text: str, now: float = 0.0) -> TableError:
        with pytest.raises(TableError) as err:
            self.table.decide(user, parse_command(text), None, ctx(now))
        return err.value


def _geister_without_clock() -> Run:
    run = Run("geister", 2, {"rated": False, "first": 0}, "none")
    run.do("alice", "/join")
    run.do("bob", "/join")
    run.do("alice", "/start", now=0.0)
    return run


def test_the_parser_reads_claims_and_says_what_works() -> None:
    assert parse_command("/claim win") == Claim("win")
    assert parse_command("/CLAIM Draw") == Claim("draw")
    for bad in ("/claim", "/claim victory", "/claim win now"):
        with pytest.raises(TableError) as err:
            parse_command(bad)
        assert err.value.code == "bad_argument" and "/claim win or /claim draw" in err.value.message
    assert "/claim win | /claim draw: at a table without a clock" in help_text(None, "")  # /help lists it


def test_every_game_gets_its_default_clock_unless_the_creator_chooses_one() -> None:
    for game, seats in (("geister", 2), ("ghooost", 3), ("thelast", 2)):
        created = creation_event("t", game, seats, {}, None, "alice")
        assert created["clock"] == DEFAULT_CLOCKS[game] and created["rated"] is True
        assert Table(created).summary(0.0)["clock"]["mode"] != "none"
    assert creation_event("t", "geister", 2, {}, "default", "alice")["clock"] == "300+5"
    assert creation_event("t", "thelast", 2, {}, "45", "alice")["clock"] == "45"


def test_a_rated_table_always_has_a_clock_asking_for_one_without_is_refused_saying_what_works() -> None:
    with pytest.raises(TableError) as err:
        creation_event("t", "geister", 2, {"rated": True}, "none", "alice")
    assert err.value.code == "rated_needs_clock"
    assert "300+5" in err.value.message and "rated off" in err.value.message
    # rated not asked for: a table without a clock is unrated, as one with nonstandard settings is
    assert creation_event("t", "geister", 2, {}, "none", "alice")["rated"] is False
    assert creation_event("t", "geister", 2, {"rated": False}, "none", "alice")["clock"] == "none"
    run = Run("geister", 2, {}, None)
    run.do("alice", "/join")
    assert run.table.rated is True and str(run.table.clock_spec) == "300+5"
    events = run.do("alice", "/option clock none")  # the clock goes, and rated with it, saying why
    assert events == [OptionSet("clock", "none"), OptionSet("rated", False, because=events[1].because)]
    assert isinstance(events[1], OptionSet) and events[1].because and events[1].because[0]["code"] == "no_clock"
    assert run.table.clock_spec.mode == "none" and run.table.rated is False
    said = [e["line"]["text"] for e in run.table.history if e["kind"] == "log"]
    assert said[-1] == "option rated is now off: a rated game needs a clock, so that every game ends"
    refused = run.refused("alice", "/option rated on")  # asking for rated without a clock is refused
    assert refused.code == "rated_needs_clock" and "rated off" in refused.message and run.table.rated is False
    run.do("alice", "/option clock default")
    run.do("alice", "/option rated on")
    assert run.table.rated is True and str(run.table.clock_spec) == "300+5"


def test_a_player_who_stays_idle_at_a_table_without_a_clock_loses_when_the_other_claims() -> None:
    run = _geister_without_clock()
    run.do("alice", "/setup b1 c1 d1 e1", now=10.0)  # Bob never sets up
    assert run.table.summary(100.0)["clock"]["claim_in"] == [None, 200.0]
    early = run.refused("alice", "/claim win", now=100.0)
    assert early.code == "cannot_claim" and early.args_["wait"] == 200 and "in 200 s" in early.message
    assert run.refused("bob", "/claim win", now=400.0).args_["reason"] == "your_turn"  # the idle one cannot
    events = run.do("alice", "/claim win", now=300.0)
    assert [type(e) for e in events] == [Claimed, Finished]
    assert run.table.status == "finished"
    results = run.table.result["outcome"]["results"]  # type: ignore[index]
    assert [r["result"] for r in results] == ["win", "loss"]
    # the claim is in the log: a rebuild (a restart) ends the same way
    rebuilt = Table.from_events(run.log, now=5000.0)
    assert rebuilt.status == "finished" and rebuilt.result == run.table.result
    assert any(entry["kind"] == "log" and entry["line"]["kind"] == "claimed" for entry in rebuilt.history)
    said = [entry["line"] for entry in rebuilt.history if entry["kind"] == "log"][-2:]
    assert [line["code"] for line in said] == ["claimed_win", "finished"]
    assert said[1]["args"]["reason_code"] == "claimed_win" and said[1]["args"]["reason"] == "claimed win: idle"


def test_a_claim_may_also_end_the_game_as_a_draw() -> None:
    run = _geister_without_clock()
    run.do("bob", "/setup b6 c6 d6 e6", now=1.0)
    run.do("bob", "/claim draw", now=400.0)
    results = run.table.result["outcome"]["results"]  # type: ignore[index]
    assert [r["result"] for r in results] == ["draw", "draw"]


def test_idleness_counts_from_the_last_move_and_starts_again_after_a_restart() -> None:
    run = _geister_without_clock()
    run.do("alice", "/setup b1 c1 d1 e1", now=0.0)
    run.do("bob", "/setup b6 c6 d6 e6", now=250.0)
    run.do("alice", "/b2 n", now=260.0)  # Bob's turn begins at 260
    assert run.refused("alice", "/claim win", now=500.0).args_["wait"] == 60
    # rebuilt at 520 (a restart): Bob's wait begins again then; the time the server was down never counts
    rebuilt = Table.from_events(run.log, now=520.0)
    assert rebuilt.claim_in(560.0, THRESHOLD) == [None, 260.0]
    with pytest.raises(TableError):
        rebuilt.decide("alice", parse_command("/claim win"), None, ctx(600.0))
    assert [type(e) for e in rebuilt.decide("alice", Claim("win"), None, ctx(820.0)).events] == [Claimed, Finished]


def test_no_claim_at_a_table_with_a_clock_whose_timeouts_already_end_the_game() -> None:
    run = Run("geister", 2, {"first": 0}, None)
    run.do("alice", "/join")
    run.do("bob", "/join")
    run.do("alice", "/start")
    run.do("alice", "/setup b1 c1 d1 e1")
    refused = run.refused("alice", "/claim win", now=10_000.0)
    assert refused.code == "cannot_claim" and "has a clock (300+5)" in refused.message
    assert run.table.summary(10_000.0)["clock"]["claim_in"] == [None, None]


def test_with_more_players_a_claim_hands_the_idle_seat_to_a_bot_and_the_game_goes_on() -> None:
    run = Run("thelast", 3, {"rated": False}, "none")
    for user in ("alice", "bob", "carol"):
        run.do(user, "/join")
    run.do("alice", "/start", now=0.0)
    (idle,) = run.table.to_act()
    idle_name = run.table.seats[idle].name
    other = next(s.name for s in run.table.seats if s.index != idle)
    assert other is not None and idle_name is not None
    events = run.do(other, "/claim win", now=THRESHOLD)
    assert [type(e) for e in events] == [Claimed, TakenOver] and events[1] == TakenOver(idle, "idle")
    claimed = [e["line"] for e in run.table.history if e["kind"] == "log" and e["line"]["kind"] == "claimed"]
    assert claimed[-1]["code"] == "claimed_bot" and claimed[-1]["args"]["against_seat"] == idle
    assert run.table.status == "started" and run.table.seats[idle].takeover == "idle"
    assert [(seat, by) for seat, _, by in run.table.bot_turns()] == [(idle, "bot")]
    with pytest.raises(TableError) as err:  # the idle player's seat is the bot's now
        run.table.decide(idle_name, parse_command("/claim win"), None, ctx(THRESHOLD * 2))
    assert err.value.code == "bot_playing"


def _finished_geister() -> Run:
    run = Run("geister", 2, {}, None)
    run.do("alice", "/join")
    run.do("bob", "/join")
    run.do("alice", "/start")
    run.do("alice", "/resign")
    assert run.table.status == "finished"
    return run


def test_an_option_changed_after_a_rematch_proposal_withdraws_it() -> None:
    """Bob proposes; Alice changes rated, the clock and max_plies, then accepts: no game starts until Bob
    agrees to the new settings."""
    run = _finished_geister()
    run.do("bob", "/rematch")
    assert run.table.rematch_asked == {1}
    run.do("alice", "/option rated off")
    assert run.table.rematch_asked == set()
    withdrawn = [e["line"] for e in run.table.history if e["kind"] == "log"
                 and e["line"]["kind"] == "rematch_withdrawn"]
    assert len(withdrawn) == 1 and withdrawn[0]["args"]["names"] == ["bob"]
    run.do("alice", "/option clock 60")
    run.do("alice", "/option max_plies 2")
    events = run.do("alice", "/rematch")
    assert [type(e) for e in events] == [RematchAsked] and run.table.status == "finished"
    assert run.table.summary(0.0)["rematch"] == [0]
    run.do("bob", "/rematch")  # Bob agrees to the new settings: now it starts
    assert run.table.summary(0.0)["status"] == "started" and run.table.options is not None
    assert run.table.options["max_plies"] == 2 and run.table.rated is False


def test_a_vote_after_a_rematch_proposal_withdraws_it_too_and_a_rebuild_agrees() -> None:
    run = _finished_geister()
    run.do("alice", "/rematch")
    run.do("bob", "/option disclose on")
    assert run.table.rematch_asked == set()
    rebuilt = Table.from_events(run.log)
    assert rebuilt.rematch_asked == set() and rebuilt.summary(0.0) == run.table.summary(0.0)
