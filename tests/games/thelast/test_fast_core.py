"""The compiled The Last core (games/thelast/fast.py) against the reference TheLastState: driven side by side
through random matches at every player count, with rounds and the small decks. At every position both engines
must hold the same position (the whole fast row against the reference's), give the same legal actions in the
same order and the same mask for each seat, the same observation and information state for each seat and a
spectator, and the same outcome; every legal action must lead to the same next position. The paths of the
rules each compared action took are counted, and each must have been taken.

The normal suite drives 3,000 positions per player count; `pytest -m slow` 25,000 per player count, 100,000 in all.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from ghostgames.games import get_game
from ghostgames.games.thelast import TheLastState, fast
from ghostgames.games.thelast.cards import COLOUR_BIT
from ghostgames.games.thelast.fast_worlds import WorldRows
from ghostgames.games.thelast.state import DECIDE, HAND_SIZE, PLAY
from ghostgames.rules.contract import Event

GAME = get_game("thelast")
SCRATCH = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
PATHS = ("following", "void", "last player's rule", "last player's void", "keep", "swap", "ghost plays",
         "ghost wins", "last trick kept", "round end", "next round dealt", "match end", "all tied",
         "rounds > 1", "colours < 4", "values < 12", "hand size set")


def random_options(rng: random.Random, players: int) -> dict[str, Any]:
    """Half the matches on the full deck, half on a smaller one; one to three rounds."""
    options: dict[str, Any] = {"rounds": rng.choice((1, 1, 2, 3))}
    if rng.random() < 0.5:
        return options
    piles = 4 if players == 2 else players + 1
    colours = rng.randint(2, 4)
    values = rng.randint(-(-piles // colours), 12)  # at least one card for each pile
    most = min(12, colours * values // piles)
    options.update(colours=colours, values=values)
    if HAND_SIZE[players] > most or rng.random() < 0.5:
        options["hand"] = rng.randint(1, most)
    return options


def canonical(row: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The row with the places past each list's end cleared (the core leaves old cards there)."""
    out = row.copy()
    out[fast.POINTS + out[fast.POINTS_N] : fast.POINTS + fast.MAX_HAND] = 0
    out[fast.GHOST_PILE + out[fast.GHOST_N] : fast.GHOST_PILE + fast.MAX_HAND] = 0
    out[fast.TRICK_WHO + out[fast.TRICK_N] : fast.TRICK_WHO + fast.MOST] = 0
    out[fast.TRICK_CARD + out[fast.TRICK_N] : fast.TRICK_CARD + fast.MOST] = 0
    out[fast.LOG + out[fast.TRICKS_N] * fast.LOG_WIDTH : fast.FIELDS] = 0
    return out


def assert_same_row(state: TheLastState, row: np.ndarray[Any, Any]) -> None:
    expected = canonical(fast.from_state(state))
    if not np.array_equal(canonical(row), expected):
        np.testing.assert_array_equal(canonical(row), expected, err_msg=str(state.to_json()))


def assert_same_position(state: TheLastState, row: np.ndarray[Any, Any], info: np.ndarray[Any, Any]) -> None:
    """Same row, seat to act, legal actions (in order), masks, encodings for every reader, and outcome."""
    assert_same_row(state, row)
    acting = sorted(state.to_act())
    assert fast.seat_to_act(row) == (acting[0] if acting else -1)
    n = fast.legal_actions(row, SCRATCH)
    expected = [GAME.action_index(a, acting[0]) for a in state.legal_actions(acting[0])] if acting else []
    assert [int(i) for i in SCRATCH[:n]] == expected
    mask = np.empty(97, dtype=np.int8)
    players = state.players
    for seat in [*range(players), -1]:
        if seat >= 0:
            fast.legal_mask(row, seat, mask)
            assert np.array_equal(mask.astype(bool), state.legal_mask(seat)), f"the masks of seat {seat} differ"
            want = state.encode_info_state(seat)
        else:
            want = GAME.encode_info_state(state.view(None))
        fast.encode_info_state(row, seat, info)
        if not np.array_equal(info, np.concatenate([array.ravel() for array in want.values()])):
            got = fast.unflatten(info, players, info=True)  # only to say which array differs
            assert got.keys() == want.keys()
            for name, array in want.items():
                np.testing.assert_array_equal(got[name], array, err_msg=f"{name} for seat {seat}")
            raise AssertionError(f"the information states of seat {seat} differ")
    seat = acting[0] if acting else 0
    obs = np.full(fast.observation_size(players), 7.0, dtype=np.float32)
    fast.encode(row, seat, obs)  # the observation alone is the information state's start
    fast.encode_info_state(row, seat, info)
    assert np.array_equal(obs, info[: obs.shape[0]]), "encode and the information state's start differ"
    results = np.empty(players, dtype=np.int64)
    ranks = np.empty(players, dtype=np.int64)
    outcome = state.outcome()
    assert fast.outcome(row, results, ranks) == (outcome is not None)
    if outcome is not None:
        names = ("loss", "win", "draw")
        assert [names[r] for r in results] == [r.result for r in outcome.results]
        assert list(ranks) == [r.rank for r in outcome.results]
        assert [float(row[fast.TOTAL + p]) for p in range(players)] == [r.score for r in outcome.results]


def apply_both(state: TheLastState, row: np.ndarray[Any, Any], index: int) -> list[Event]:
    """Apply action `index` in both engines (in place); the core deals a next round as the reference did."""
    seat = fast.seat_to_act(row)
    events = state.apply(seat, GAME.action_at(index, seat))
    fast.apply_action(row, index)
    if row[fast.PHASE] == fast.DEAL:
        fast.deal_round(row, fast.dealt_deck(state), state.round_leaders[-1])
    return events


def paths_of(state: TheLastState, index: int, events: list[Event]) -> list[str]:
    """The paths of the rules that action `index`, taken in `state`, went through (events: what it caused)."""
    paths: list[str] = []
    if state.phase == PLAY:
        placed = len(state.trick_cards)
        hand = state.hands[state.actor]
        if placed:
            last = placed == len(state.ring) - 1
            need = state.trick_mask if last else COLOUR_BIT[state.trick_cards[0]]
            held = any(COLOUR_BIT[c] & need for c in hand)
            if not held:
                paths.append("last player's void" if last else "void")
            elif last and state.trick_mask != COLOUR_BIT[state.trick_cards[0]]:
                paths.append("last player's rule")  # more than the led colour was allowed
            elif not last:
                paths.append("following")
    elif state.phase == DECIDE:
        paths.append("keep" if index == 48 else "swap")
    kinds = [e.kind for e in events]
    if any(e.kind == "play" and e.public["seat"] == "ghost" for e in events):
        paths.append("ghost plays")
    if any(e.kind == "trick" and e.public["winner"] == "ghost" for e in events):
        paths.append("ghost wins")
    if state.phase == PLAY and "keep" in kinds:
        paths.append("last trick kept")
    if "round" in kinds:
        paths.append("round end")
    if "deal" in kinds:
        paths.append("next round dealt")
    end = [e for e in events if e.kind == "end"]
    if end:
        paths.append("match end")
        if all(r["result"] == "draw" for r in end[0].public["results"]):
            paths.append("all tied")
    options = state.options
    paths += [name for name, on in (("rounds > 1", options.rounds > 1), ("colours < 4", options.colours < 4),
                                    ("values < 12", options.values < 12), ("hand size set", options.hand is not None))
              if on]
    return paths


def drive(players: int, positions: int, seed: int) -> Counter[str]:
    """Drive both engines through `positions` positions of random matches; at each, try every legal action
    in both and go on with a random one. Return how often each path of the rules was compared."""
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    info = np.empty(fast.info_state_size(players), dtype=np.float32)
    while seen["positions"] < positions:
        state = GAME.new(players, random_options(rng, players), seed=rng.randrange(2**32))
        assert isinstance(state, TheLastState)
        row = np.empty(fast.FIELDS, dtype=np.int64)
        fast.new_game(row, *fast.config(players, state.options))
        fast.deal_round(row, fast.dealt_deck(state), state.round_leaders[-1])
        while True:
            assert_same_position(state, row, info)
            seen["positions"] += 1
            n = fast.legal_actions(row, SCRATCH)
            if n == 0:
                break
            choices = [int(i) for i in SCRATCH[:n]]
            for index in choices:
                after, after_row = state.clone(), row.copy()
                events = apply_both(after, after_row, index)
                assert_same_row(after, after_row)
                seen.update(paths_of(state, index, events))
            apply_both(state, row, rng.choice(choices))
    return seen


def assert_every_path(seen: Counter[str], players: int) -> None:
    print(f"\n{players} players:", ", ".join(f"{name} {seen[name]:,}" for name in ("positions", *PATHS)))
    ghostly = ("ghost plays", "ghost wins")
    for name in PATHS:
        if name in ghostly and players != 2:
            assert seen[name] == 0
        elif name == "all tied" and players > 2:
            continue  # every seat on one total: too rare with three or more to count on
        else:
            assert seen[name] > 0, f"{name} was never compared with {players} players"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_fast_core_agrees_with_the_reference_on_thousands_of_positions(players: int) -> None:
    seen = drive(players, 3000, seed=players)
    assert seen["positions"] >= 3000
    assert_every_path(seen, players)


@pytest.mark.slow
@pytest.mark.timeout(1800)  # 25,000 positions of 5 players take about 6 minutes on a busy 2-core machine
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_fast_core_agrees_with_the_reference_on_over_100000_positions(players: int) -> None:
    seen = drive(players, 25_000, seed=100 + players)  # 100,000 over the four player counts
    assert seen["positions"] >= 25_000
    assert_every_path(seen, players)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_fast_random_playouts_replay_action_for_action_in_the_reference(players: int) -> None:
    """The compiled random playout (the benchmark's hot loop) plays only legal actions, and its rounds end as
    the reference ends them."""
    rng = fast.new_rng(players)
    log = np.empty(200, dtype=np.int64)
    for game in range(100):
        state = GAME.new(players, {}, seed=game)
        assert isinstance(state, TheLastState)
        row = np.empty(fast.FIELDS, dtype=np.int64)
        fast.new_game(row, *fast.config(players, state.options))
        fast.deal_round(row, fast.dealt_deck(state), state.round_leaders[-1])
        played = fast.random_playout(row, rng, 0, log)
        for index in log[:played]:
            seat = min(state.to_act())
            state.apply(seat, GAME.action_at(int(index), seat))
        assert state.outcome() is not None
        assert_same_row(state, row)


def test_random_deals_hold_every_card_once_and_random_actions_are_legal() -> None:
    """The core's own deals (the benchmark's and later rounds') fit the rules, and load in the reference."""
    rng = fast.new_rng(9)
    for players in (2, 3, 4, 5):
        for rounds in (1, 3):
            row = np.empty(fast.FIELDS, dtype=np.int64)
            fast.new_game(row, players, 4, 12, HAND_SIZE[players], rounds)
            fast.random_deal(row, rng, 0)
            while (index := fast.random_action(row, rng, 0)) >= 0:
                n = fast.legal_actions(row, SCRATCH)
                assert index in SCRATCH[:n]
                fast.step(row, index, rng, 0)
                hands = [int(row[fast.HAND + p]) for p in range(int(row[fast.COUNT]))]
                piles = [int(row[fast.PILE + p]) for p in range(int(row[fast.COUNT]))]
                places = [*hands, *piles, int(row[fast.SPARE])]
                assert sum(bin(m).count("1") for m in places) + int(row[fast.POINTS_N]) + int(
                    row[fast.TRICK_N]) + (row[fast.POINTS_CARD] >= 0) + sum(
                    bin(int(row[fast.PLAYED + p])).count("1") for p in range(int(row[fast.COUNT]))) == 48
            assert row[fast.ROUNDS_DONE] == rounds


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_world_rows_are_the_rows_of_sampled_worlds_from_the_same_draws(players: int) -> None:
    """`fast_worlds.WorldRows` (the expert's worlds, dealt in the core) writes exactly
    `from_state(sample_world(...))`, field for field, and leaves the random stream where `sample_world` leaves
    it, at every position of random matches, for every seat and a spectator, several worlds from one stream."""
    rng = random.Random(100 + players)
    positions = redealt = 0
    while positions < 300:
        state = GAME.new(players, random_options(rng, players), seed=rng.randrange(2**32))
        assert isinstance(state, TheLastState)
        while state.outcome() is None:
            positions += 1
            for seat in [*range(players), None]:
                rows = state.fast_worlds(seat)  # the capability a seat's search asks for
                assert isinstance(rows, WorldRows)
                real = fast.from_state(state)
                seed = rng.randrange(2**32)
                ours, theirs = random.Random(seed), random.Random(seed)
                out = np.empty((3, fast.FIELDS), dtype=np.int64)
                rows.sample(ours, out)
                for row in out:
                    expected = fast.from_state(state.sample_world(seat, theirs))
                    assert np.array_equal(row, expected), f"{players} players, seat {seat}:\n{state}"
                    redealt += not np.array_equal(row, real)
                assert ours.getstate() == theirs.getstate()
            seat = min(state.to_act())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert redealt > positions  # the hidden cards were dealt afresh, not copied from the real position
