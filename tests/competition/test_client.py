"""Our client against our server: many games in a row, and the two commands end to end."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ghostgames.cli import app
from ghostgames.competition.client import ClientGame, ServerGone, play_games
from ghostgames.rules.record import GameRecord
from ghostgames.storage import list_records
from tests.competition.helpers import FAST, ScriptedServer, free_port_pair, running_server


def play_in_threads(ports: tuple[int, int], games: int, bot: str = "random") -> list[list[ClientGame]]:
    """Both clients at once, one thread each; any exception in a thread fails the test."""
    results: list[list[ClientGame]] = [[], []]
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            results[index] = play_games("127.0.0.1", ports[index], bot, games, seed=index, read_timeout=30)
        except BaseException as err:  # reported below
            errors.append(err)

    threads = [threading.Thread(target=run, args=(i,)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(240)
    assert not any(t.is_alive() for t in threads), "a client hung"
    assert not errors, errors
    return results


def test_fifty_games_in_a_row_of_our_client_against_our_server_without_a_hang() -> None:
    with running_server(replace(FAST, pause=0.0001)) as server:
        first, second = play_in_threads(server.ports, 50)
        results = server.wait_results(50)
    assert len(first) == len(second) == 50
    opposite = {"won": "lost", "lost": "won", "draw": "draw"}
    for mine, theirs, refereed in zip(first, second, results, strict=True):
        assert mine.result in opposite and theirs.result == opposite[mine.result]
        assert mine.refused == theirs.refused == 0  # the mirror never offers the bot an illegal move
        assert refereed.result_for(0) == {"won": "win", "lost": "loss", "draw": "draw"}[mine.result]
        replayed = GameRecord.from_json(refereed.record.to_json()).replay()
        outcome = replayed.outcome()
        assert outcome is not None and outcome.reason == refereed.reason  # every game ended by the rules


def test_the_commands_play_games_and_the_server_stores_replayable_records(tmp_path: Path) -> None:
    port = free_port_pair()
    records = tmp_path / "records.jsonl"
    db_url = f"sqlite:///{tmp_path / 'games.db'}"
    server = subprocess.Popen(
        [sys.executable, "-m", "ghostgames", "geister-server", "--port", str(port), "--games", "2",
         "--pause-ms", "0.2", "--records", str(records), "--db", db_url],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path,
    )  # fmt: skip
    try:
        client = subprocess.Popen(
            [sys.executable, "-m", "ghostgames", "geister-client", "--port", str(port + 1), "--bot", "easy",
             "--games", "2"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        ours = play_games("127.0.0.1", port, "random", 2, seed=7, connect_wait=30, read_timeout=60)
        client_out, _ = client.communicate(timeout=60)
        server_out, _ = server.communicate(timeout=60)
    finally:
        server.kill()
    assert server.returncode == 0, server_out
    assert client.returncode == 0, client_out
    assert [g.result in ("won", "lost", "draw") for g in ours] == [True, True]
    assert "2 games: first won" in server_out
    assert "game 2:" in client_out
    lines = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(lines) == 2
    for line in lines:
        state = GameRecord.from_json(line["record"]).replay()
        assert state.is_over() and line["reason"] == state.outcome().reason  # type: ignore[union-attr]
    stored = list_records(db_url, game="geister", source="competition")
    assert sorted(r.record.to_json()["seed"] for r in stored) == sorted(line["record"]["seed"] for line in lines)
    assert all(r.outcome is not None and r.outcome["reason"] for r in stored)


def test_connections_reset_closed_or_refused_between_games_are_tried_again_and_not_counted() -> None:
    with ScriptedServer(["game", "reset", "close", "refuse", "reset", "game"]) as server:
        games = play_games("127.0.0.1", server.port, "random", 2, seed=1, connect_wait=20, read_timeout=10)
    assert [g.result for g in games] == ["won", "won"]
    assert all(g.started and g.moves == 1 for g in games)
    assert server.accepted == 5  # two games and three connections dropped before a word


def test_a_game_the_server_drops_after_it_started_counts_as_disconnected() -> None:
    with ScriptedServer(["half", "game"]) as server:
        games = play_games("127.0.0.1", server.port, "random", 2, seed=1, connect_wait=20, read_timeout=10)
    assert [g.result for g in games] == ["disconnected", "won"]


def test_the_client_gives_up_with_a_clear_message_when_the_server_is_gone() -> None:
    seen: list[int] = []
    with ScriptedServer(["game"]) as server, pytest.raises(ServerGone) as gone:
        play_games("127.0.0.1", server.port, "random", 3, seed=1, connect_wait=1.0, read_timeout=10,
                   on_game=lambda number, game: seen.append(number))
    assert seen == [1]
    message = str(gone.value)
    assert f"no game 2 on 127.0.0.1:{server.port}" in message and "is the server running?" in message


def test_the_client_command_reports_the_games_played_and_exits_with_an_error_when_the_server_is_gone() -> None:
    with ScriptedServer(["game", "reset"]) as server:
        result = CliRunner().invoke(app, ["geister-client", "--port", str(server.port), "--bot", "charge",
                                          "--games", "3", "--wait", "1"])
    assert result.exit_code == 1, result.output
    assert "game 1: won after 1 moves of ours" in result.output
    assert "game 2:" not in result.output  # the reset connection was no game
    assert "stopped after 1 of 3 games" in " ".join(result.output.split())
