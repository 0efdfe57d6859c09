"""`expert-memory` (bots/geister/expert_memory.py) and the match harness that tells bots how games ended: it plays
as `expert` until the memory says something, reads a repeating opponent's setup, and sees its own seat only."""

from __future__ import annotations

import random
from typing import Any

from ghostgames.bots import Bot, SeatKnowledge, get_bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister.expert import CornerPolicy, RunOnPolicy, SealedPolicy
from ghostgames.bots.geister.expert_memory import MemoryExpertBot, MemoryPolicy, SealedMemoryPolicy
from ghostgames.bots.geister.fast_search import FastExpertBot
from ghostgames.bots.geister.playout_policy import shipped_table
from ghostgames.games import get_game
from ghostgames.games.geister import GeisterState
from ghostgames.rules.contract import Action
from ghostgames.tournament.match import OPTIONS, play_match
from ghostgames.tournament.runner import play_record
from tests.bots.test_belief import recoloured

RUNNER_3 = frozenset({1, 5, 6, 7})  # runner-3's good ghost numbers (benchmarks/runner_setups.py)


def finished(bots: list[Bot], seed: int, options: dict[str, Any]) -> GeisterState:
    state = get_game("geister").new(2, options, seed=seed)
    assert isinstance(state, GeisterState)
    rng = random.Random(seed)
    while state.to_act():
        seat = min(state.to_act())
        state.apply(seat, bots[seat].choose(SeatKnowledge(state, seat), rng))
    return state


def runner_games(bot: Bot, games: int) -> None:
    """Tell `bot` (in seat 0) how `games` disclosed games against runner-3 ended."""
    for seed in range(games):
        state = finished([get_bot("random"), get_bot("runner-3")], 100 + seed, dict(OPTIONS))
        bot.game_over(SeatKnowledge(state, 0))


def the_expert_without_memory(iterations: int) -> FastExpertBot:
    """The expert without the memory (`expert-sealed`), built here from its parts."""
    return FastExpertBot(Budget(iterations=iterations), SealedPolicy, exploration=0.5, playout_table=shipped_table())


def test_the_expert_remembers_on_todays_policy_and_expert_memory_on_the_one_it_was_measured_with() -> None:
    """`expert` knows a corner it has sealed (`SealedPolicy`); `expert-memory` stays the expert of the
    late morning of 5 December 2026 (`RunOnPolicy`), so that its measured matches replay."""
    state = get_game("geister").new(2, {"exit": "escape"}, seed=3)
    for seat in (0, 1):
        state.apply(seat, get_bot("random").choose(SeatKnowledge(state, seat), random.Random(seat)))
    knowledge = SeatKnowledge(state, 0)
    today, before = get_bot("expert:60"), get_bot("expert-memory:60")
    assert isinstance(today, MemoryExpertBot) and isinstance(before, MemoryExpertBot)
    assert type(today.policy_for(knowledge)) is SealedMemoryPolicy
    assert type(before.policy_for(knowledge)) is MemoryPolicy
    assert not isinstance(before.policy_for(knowledge), CornerPolicy)
    assert isinstance(get_bot("expert-run-on:60").policy(knowledge), RunOnPolicy)


def test_without_a_finished_game_or_after_one_it_plays_as_the_expert_without_memory() -> None:
    memory_bot = get_bot("expert:120")  # the expert is the memory bot since 5 December 2026, late morning
    assert isinstance(memory_bot, MemoryExpertBot) and memory_bot.name == "expert"
    for seed in (1, 2):
        options = {"exit": "escape", "max_plies": 120}
        plain = play_record("geister", 2, options, seed, [the_expert_without_memory(120), get_bot("runner-3")])
        memory = play_record("geister", 2, options, seed, [memory_bot, get_bot("runner-3")])
        assert memory.actions == plain.actions
        runner_games(memory_bot, 1)  # one game says nothing about whether the opponent repeats
    assert memory_bot.memory.setups == [RUNNER_3, RUNNER_3]  # ...two do: from here on it reads them


def test_after_two_games_of_a_repeating_opponent_it_reads_its_ghosts() -> None:
    bot = get_bot("expert-memory:60")
    assert isinstance(bot, MemoryExpertBot)
    runner_games(bot, 2)
    state = get_game("geister").new(2, {"exit": "escape"}, seed=5)
    for seat, name in ((0, "random"), (1, "runner-3")):
        state.apply(seat, get_bot(name).choose(SeatKnowledge(state, seat), random.Random(seat)))
    chances = MemoryPolicy(SeatKnowledge(state, 0), bot.memory).good_probability
    for ghost, chance in chances.items():
        assert (chance > 0.9) if ghost & 7 in RUNNER_3 else (chance < 0.1)
    assert state.good[8:] == [k in RUNNER_3 for k in range(8)]


def test_games_that_differ_only_in_colours_the_seat_never_saw_give_the_same_memory_and_moves() -> None:
    compared = 0
    for seed in range(12):
        state = finished([get_bot("rules"), get_bot("random")], seed, {"exit": "escape", "max_plies": 300})
        twin = recoloured(state, 0)
        if twin is None:
            continue
        assert twin.view(0) == state.view(0) and twin.good != state.good
        bots = [get_bot("expert-memory:60"), get_bot("expert-memory:60")]
        for bot, final in zip(bots, (state, twin), strict=True):
            runner_games(bot, 2)  # a memory that matters
            bot.game_over(SeatKnowledge(final, 0))
        assert isinstance(bots[0], MemoryExpertBot) and isinstance(bots[1], MemoryExpertBot)
        assert bots[0].memory.setups == bots[1].memory.setups
        position = get_game("geister").new(2, {"exit": "escape", "first": 0}, seed=seed)
        for seat, name in ((0, "random"), (1, "runner-3")):
            position.apply(seat, get_bot(name).choose(SeatKnowledge(position, seat), random.Random(seat)))
        moves = [bot.choose(SeatKnowledge(position, 0), random.Random(seed)) for bot in bots]
        assert moves[0] == moves[1]
        compared += 1
    assert compared >= 3


class Recorder(Bot):
    """A random player that notes the seat it chose for and the seat of every `game_over`."""

    def __init__(self) -> None:
        self.inner = get_bot("random")
        self.chose: list[set[int]] = [set()]
        self.told: list[tuple[int, dict[str, Any]]] = []

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action:
        self.chose[-1].add(knowledge.seat)
        return self.inner.choose(knowledge, rng)

    def game_over(self, knowledge: SeatKnowledge) -> None:
        self.told.append((knowledge.seat, knowledge.view()))
        self.chose.append(set())


def test_a_match_tells_each_bot_its_own_seats_end_and_swaps_the_first_player() -> None:
    bots = [Recorder(), Recorder()]
    played = play_match(bots, 4, seed=3)
    assert [g.first for g in played] == [0, 1, 0, 1]
    for b, bot in enumerate(bots):
        assert len(bot.told) == 4
        for game, (seat, view) in zip(played, bot.told, strict=True):
            assert bot.chose[game.number - 1] == {seat}  # the seat it played, and only that one
            assert seat == (0 if game.first == b else 1)
            assert view["seat"] == seat and view["outcome"] is not None
            hidden_own = [g for g in view["ghosts"] if g["owner"] == seat and g["colour"] is None]
            assert hidden_own == []
    assert {g.result for g in played} <= {("win", "loss"), ("loss", "win"), ("draw", "draw")}


def test_in_the_card_games_it_searches_with_the_experts_policy() -> None:
    from ghostgames.bots.search_bots import expert_policy

    bot = get_bot("expert-memory:24")
    assert isinstance(bot, MemoryExpertBot)
    for game, players in (("ghooost", 2), ("thelast", 3)):
        state = get_game(game).new(players, {}, seed=1)
        knowledge = SeatKnowledge(state, min(state.to_act()))
        assert type(bot.policy_for(knowledge)) is type(expert_policy(knowledge))
        bot.game_over(knowledge)  # remembers nothing of another game
    assert bot.memory.setups == []
