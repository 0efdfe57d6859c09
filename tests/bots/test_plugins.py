"""Plug-in bots: `register` in the process, an installed package's entry point, an import path."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from ghostgames.bots import BOTS, Bot, RandomBot, SeatKnowledge, choose_action, get_bot, register
from ghostgames.games import get_game
from ghostgames.rules.contract import Action
from ghostgames.tournament import TournamentSpec, run_tournament
from tests import plugin_package


class LastMove(Bot):
    name = "lastmove"

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action:
        return knowledge.legal_actions()[-1]


@pytest.fixture
def cleanup() -> Iterator[list[str]]:
    names: list[str] = []
    yield names
    for name in names:
        BOTS.pop(name, None)


def test_a_registered_bot_is_found_by_name_and_plays_a_tournament(cleanup: list[str]) -> None:
    register("LastMove", LastMove)
    cleanup.append("lastmove")
    assert isinstance(get_bot("lastmove"), LastMove)
    spec = TournamentSpec("thelast", ("lastmove", "random"), 2, 2, seed=3)
    results = run_tournament(spec)
    assert [r.seats for r in results] == [["lastmove", "random"], ["random", "lastmove"]]


def test_a_factory_may_take_the_seconds_per_move(cleanup: list[str]) -> None:
    seen: list[float | None] = []

    def make(seconds: float | None) -> Bot:
        seen.append(seconds)
        return LastMove()

    register("timed-last", make)
    cleanup.append("timed-last")
    get_bot("timed-last", 0.25)
    get_bot("timed-last")
    assert seen == [0.25, None]


def test_an_optional_seconds_parameter_gets_the_seconds_per_move_when_they_are_asked_for(
        cleanup: list[str]) -> None:
    """A factory `make(seconds=None)` once ran at its own budget under `--seconds-per-move` without a word."""
    seen: list[float | None] = []

    def make(seconds: float | None = None, iterations: int = 4000) -> Bot:
        seen.append(seconds)
        return LastMove()

    register("timed-default", make)
    cleanup.append("timed-default")
    get_bot("timed-default", 0.2)
    get_bot("timed-default")
    assert seen == [0.2, None]


def test_a_taken_name_is_refused_and_replace_only_overrides_a_registered_one(cleanup: list[str]) -> None:
    for taken in ("random", "ismcts", "easy", "HARD"):
        with pytest.raises(ValueError, match="taken"):
            register(taken, LastMove)
    register("mine", LastMove)
    cleanup.append("mine")
    with pytest.raises(ValueError, match="replace=True"):
        register("mine", RandomBot)
    register("mine", RandomBot, replace=True)
    assert isinstance(get_bot("mine"), RandomBot)
    with pytest.raises(ValueError, match="taken"):
        register("rules", RandomBot, replace=True)  # built-ins stay


def test_malformed_names_and_bad_factories_are_refused_clearly(cleanup: list[str]) -> None:
    for bad_name in ("", "my:bot", "a,b", " -x", "has space"):
        with pytest.raises(ValueError, match="bot name"):
            register(bad_name, LastMove)
    with pytest.raises(TypeError, match="instance"):
        register("inst", LastMove())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="callable"):
        register("text", "LastMove")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="2 arguments"):
        register("two", lambda a, b: LastMove())
    assert not {"inst", "text", "two"} & set(BOTS)
    register("wrong-kind", lambda: 42)  # type: ignore[arg-type, return-value]
    cleanup.append("wrong-kind")
    with pytest.raises(TypeError, match="returned int"):
        get_bot("wrong-kind")


def test_an_import_path_names_a_bot_and_a_bad_one_says_why() -> None:
    assert isinstance(get_bot("ghostgames.bots.random_bot:RandomBot"), RandomBot)
    with pytest.raises(KeyError, match="cannot import"):
        get_bot("ghostgames.bots.random_bot:NoSuchBot")
    with pytest.raises(KeyError, match="cannot import"):
        get_bot("no_such_package_here:Bot")


def test_the_server_call_never_imports_a_path() -> None:
    state = get_game("thelast").new(2, seed=1)
    seat = min(state.to_act())
    with pytest.raises(KeyError, match="on this server"):
        choose_action(state.to_json(), seat, "ghostgames.bots.random_bot:RandomBot", 1)


def test_an_installed_entry_point_appears_in_bot_names_loads_and_fails_clearly(tmp_path: Path) -> None:
    folder = plugin_package.build(tmp_path)
    script = (
        "from ghostgames.bots import bot_names, get_bot\n"
        "print('local', 'firstmove' in bot_names(installed=True), type(get_bot('FirstMove')).__name__,"
        " type(get_bot('firstmove-timed', 0.5)).__name__)\n"
        "print('server', 'firstmove' in bot_names())\n"
        "try:\n    get_bot('broken')\nexcept ImportError as err:\n    print('broken', err)\n"
    )
    off = plugin_package.run_python(folder, ["-c", script])
    assert off.returncode == 0, off.stderr
    assert "local True FirstMove FirstMove" in off.stdout
    assert "server False" in off.stdout  # the table server offers plug-ins only when its operator says so
    assert "broken plug-in bot 'broken' (firstplug:missing) failed to load" in off.stdout
    on = plugin_package.run_python(folder, ["-c", script], env={"GHOSTGAMES_PLUGIN_BOTS": "1"})
    assert "server True" in on.stdout, on.stderr


def test_the_server_call_plays_an_installed_plugin_only_when_allowed(tmp_path: Path) -> None:
    folder = plugin_package.build(tmp_path)
    script = (
        "from ghostgames.bots import choose_action\nfrom ghostgames.games import get_game\n"
        "state = get_game('thelast').new(2, seed=1)\nseat = min(state.to_act())\n"
        "try:\n    print('chose', choose_action(state.to_json(), seat, 'firstmove', 1)"
        " == str(state.legal_actions(seat)[0]))\nexcept KeyError as err:\n    print('refused', err)\n"
    )
    off = plugin_package.run_python(folder, ["-c", script])
    assert "refused" in off.stdout and "on this server" in off.stdout, off.stdout + off.stderr
    on = plugin_package.run_python(folder, ["-c", script], env={"GHOSTGAMES_PLUGIN_BOTS": "1"})
    assert "chose True" in on.stdout, on.stdout + on.stderr
