"""The client keeps one bot for all its games on a port and tells it how each ended: `expert-memory` against
our real server learns the opponent's true setup after every game, from what the final board shows."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path

from typer.testing import CliRunner

from ghostgames.bots import get_bot
from ghostgames.bots.geister.expert_memory import MemoryExpertBot
from ghostgames.cli import app
from ghostgames.competition.client import ClientGame, play_games
from ghostgames.competition.frames import parse_board
from ghostgames.competition.mirror import Mirror
from ghostgames.games.geister import GeisterState
from tests.competition.helpers import FAST, FINAL_BOARD, ScriptedServer, running_server

FINAL = "14R24R34R44R15B25B35B45B41r31b21r11b40b30r20b10r"  # every colour shown, as after WON / LST / DRW


def test_the_memory_holds_the_opponents_real_setup_after_each_game() -> None:
    bot = get_bot("expert-memory:40")
    assert isinstance(bot, MemoryExpertBot)
    seen: list[list[frozenset[int]]] = []
    errors: list[BaseException] = []

    def on_game(number: int, game: ClientGame) -> None:
        seen.append(list(bot.memory.setups))

    def run(port: int, player: object) -> None:
        try:
            if player is bot:
                play_games("127.0.0.1", port, bot, 2, seed=1, read_timeout=60, on_game=on_game)
            else:
                play_games("127.0.0.1", port, "random", 2, seed=2, read_timeout=60)
        except BaseException as err:  # reported below
            errors.append(err)

    with running_server(FAST) as server:
        threads = [threading.Thread(target=run, args=(server.ports[i], p)) for i, p in enumerate((bot, "random"))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(240)
        results = server.wait_results(2)
    assert not errors, errors
    truth = []
    for refereed in results:  # our client is on the first port: seat 0; the opponent's setup is seat 1's
        state = refereed.record.replay()
        assert isinstance(state, GeisterState)
        truth.append(frozenset(g & 7 for g in range(8, 16) if state.good[g]))
    assert seen == [truth[:1], truth]


def test_the_final_knowledge_shows_the_colours_the_board_shows_and_no_guess() -> None:
    mirror = Mirror(get_bot("random"), random.Random(0))
    shown = mirror.final_knowledge(FINAL, "won").view()
    assert shown["outcome"] is not None
    # every ghost still on the board: no rule ended it, so it is the server's verdict (a timeout, a refused move)
    assert shown["outcome"]["code"] == "server_verdict"
    assert shown["outcome"]["reason"] == "decided by the server"
    colours = [g["colour"] for g in shown["ghosts"][8:]]
    assert colours == ["bad", "good", "bad", "good", "good", "bad", "good", "bad"]
    hidden = FINAL[:24] + "41u31b21r11b40b30r20b10r"  # one colour left out: none on the board is shown
    assert parse_board(hidden)[8].good is None
    view = Mirror(get_bot("random"), random.Random(0)).final_knowledge(hidden, "lost").view()
    assert [g["colour"] for g in view["ghosts"][8:]] == [None] * 8


def test_the_client_command_keeps_what_the_bot_learned_in_a_memory_file(tmp_path: Path) -> None:
    memory = tmp_path / "opponent.json"
    memory.write_text("[[0, 1, 5, 6]]")  # what an earlier run learned
    with ScriptedServer(["game"]) as server:  # one game, whose final board shows every colour
        result = CliRunner().invoke(app, ["geister-client", "--port", str(server.port), "--bot", "expert-memory:20",
                                          "--games", "1", "--memory", str(memory)])
    assert result.exit_code == 0, result.output
    seen = [sorted(g & 7 for g in range(8) if parse_board(FINAL_BOARD)[8 + g].good)]
    assert json.loads(memory.read_text()) == [[0, 1, 5, 6], *seen]
    refused = CliRunner().invoke(app, ["geister-client", "--bot", "rules", "--memory", str(memory)])
    assert refused.exit_code != 0 and "remembers setups" in " ".join(refused.output.split())


def test_a_memory_file_that_is_not_one_is_refused_with_what_it_must_hold(tmp_path: Path) -> None:
    for text in ("not json", '{"a": 1}', "[[0, 1, 2]]", "[3]"):
        memory = tmp_path / "opponent.json"
        memory.write_text(text)
        refused = CliRunner().invoke(app, ["geister-client", "--bot", "hard", "--memory", str(memory)])
        said = " ".join(refused.output.replace("│", " ").split())  # the error box's borders out
        assert refused.exit_code != 0 and "is not a memory file" in said and "[[0, 1, 5, 6]]" in said, text
        assert memory.read_text() == text  # left as it was
