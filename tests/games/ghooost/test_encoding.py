"""Ghooost!'s fixed action index space and fixed-shape observations (encoding.py), over random games of
every player count and both decks, and on built positions for specific known facts."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from ghostgames.games import get_game
from ghostgames.games.ghooost.actions import KITTY_PLAYS, PLAY_TABLE, SIMPLE, Play
from ghostgames.games.ghooost.cards import KITTY
from ghostgames.rules import IllegalAction
from tests.contract_checks import play_out, random_positions
from tests.games.ghooost.positions import build

GAME = get_game("ghooost")
CASES = [
    (2, {"match": False}, 3),
    (2, {"deck": "original", "match": False}, 4),
    (3, {"deck": "original"}, 5),
    (3, {}, 6),
    (4, {"match": False}, 11),
    (4, {"deck": "original", "max_turns": 150}, 12),
    (5, {"deck": "original", "max_turns": 200}, 17),
    (5, {"max_turns": 100}, 18),
    (6, {}, 23),
    (6, {"deck": "original", "max_turns": 120}, 24),
]
LIMIT = 1500


def _equal(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def _hidden(data: dict[str, Any]) -> tuple[Any, ...]:
    return data["hands"], data["mansions"], data["crypt"]


def test_every_play_the_tables_can_produce_has_an_index_for_both_decks() -> None:
    produced = {a for top in PLAY_TABLE for cop in top for value in cop for held in value for a in held}
    produced |= {a for plays in KITTY_PLAYS for a in plays} | set(SIMPLE.values())
    count = GAME.action_count(4)
    assert count == 289
    indices = {GAME.action_index(a, 0) for a in produced}
    assert len(indices) == len(produced) and indices <= set(range(count))
    assert all(GAME.action_count(p) == count for p in range(2, 7))


@pytest.mark.parametrize(("players", "options", "seed"), CASES)
def test_every_legal_action_of_every_seat_round_trips_and_the_mask_marks_exactly_them(
    players: int, options: dict[str, Any], seed: int
) -> None:
    count = GAME.action_count(players)
    checked = 0
    for state, _, _ in random_positions("ghooost", players, options, seed, limit=LIMIT):
        for seat in range(players):
            legal = state.legal_actions(seat)
            indices = [GAME.action_index(a, seat) for a in legal]
            assert all(0 <= i < count for i in indices)
            assert len(set(indices)) == len(indices)
            assert [GAME.action_at(i, seat) for i in indices] == legal
            mask = state.legal_mask(seat)
            assert mask.shape == (count,) and mask.dtype == np.bool_
            assert int(mask.sum()) == len(legal)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(indices)
            checked += len(legal)
    assert checked > LIMIT


@pytest.mark.parametrize(("players", "options", "seed"), CASES)
def test_encode_has_the_stated_shapes_float32_and_values_in_0_1(
    players: int, options: dict[str, Any], seed: int
) -> None:
    shapes = GAME.observation_shapes(players)
    midnight_seen = False
    for n, (state, _, _) in enumerate(random_positions("ghooost", players, options, seed, limit=LIMIT)):
        if n % 5:
            continue
        midnight_seen |= state.midnight()  # type: ignore[attr-defined]
        for seat in range(players):
            arrays = state.encode(seat)
            assert {k: v.shape for k, v in arrays.items()} == shapes
            for name, array in arrays.items():
                assert array.dtype == np.float32, name
                assert np.all(np.isfinite(array)), name
                assert array.min() >= 0.0 and array.max() <= 1.0, (name, array)
            assert arrays["top"].sum() == 1.0
            assert arrays["seats"][:, 3].sum() <= 1.0
    assert midnight_seen, "the random game should reach midnight so that phase is covered"


@pytest.mark.parametrize(("players", "options", "seed"), CASES)
def test_encoding_is_the_same_in_every_world_the_seat_cannot_tell_apart(
    players: int, options: dict[str, Any], seed: int
) -> None:
    rng = random.Random(seed)
    compared = hidden_moved = 0
    for n, (state, _, _) in enumerate(random_positions("ghooost", players, options, seed, limit=LIMIT)):
        if n % 15:
            continue
        for seat in range(players):
            mine = state.encode(seat)
            for _ in range(3):
                world = state.sample_world(seat, rng)
                assert _equal(world.encode(seat), mine)
                compared += 1
                hidden_moved += _hidden(world.to_json()) != _hidden(state.to_json())
    assert compared > 0 and hidden_moved > compared // 2  # the worlds really differ where the seat cannot see


def test_the_encoding_is_not_constant_along_a_game() -> None:
    seen = []
    for n, (state, seat, _) in enumerate(random_positions("ghooost", 4, {}, 99, limit=60)):
        if n % 10 == 0:
            seen.append(state.encode(seat))
    assert not all(_equal(seen[0], other) for other in seen[1:])


def test_own_cards_known_cards_and_the_cemetery_set_their_entries_seat_relative() -> None:
    state = build(
        ["7 7 K X", "2 2 9", "5 5 5 5"],
        known=["", "9", "5"],
        cemetery="4 X=4",
        kitty=1,
        crypt="1 6",
        turn=1,
        options={"match": False},
    )
    mine = state.encode(0)
    assert mine["hand"][6] == 0.5 and mine["hand"][KITTY - 1] == 0.25 and mine["hand"][15] == 0.25
    assert mine["hand"].sum() == 1.0
    assert mine["known"][1][8] == 0.25 and mine["known"][2][4] == 0.25  # seat 1, then seat 2
    assert mine["cemetery"][3] == 0.25 and mine["cemetery"][15] == 0.25 and mine["cemetery"][14] == 0.25
    assert mine["top"][4] == 1.0
    assert mine["table"][0] == 0.5  # two cards of value 4 on top (the Miss Copy copied a 4)
    assert mine["seats"][1][3] == 1.0 and mine["seats"][0][3] == 0.0  # seat 1 is to move
    assert mine["seats"][1][0] == pytest.approx(3 / 62)
    theirs = state.encode(1)  # seat 1 sees itself in row 0 and seat 0 in row 2
    assert theirs["seats"][0][3] == 1.0 and theirs["known"][0][8] == 0.25 and theirs["known"][2][8] == 0.0
    assert theirs["seats"][2][0] == pytest.approx(4 / 62)
    assert theirs["hand"][1] == 0.5
    # of the four 5s, one is known in seat 2's hand and three are unseen to seat 0; of the four 7s seat 0
    # holds two and the position puts the other two in the discard, so none is unseen
    assert mine["unseen"][4] == 0.75 and mine["unseen"][6] == 0.0 and mine["discard"][6] == 0.5


def test_action_at_rejects_minus_one_and_the_count() -> None:
    count = GAME.action_count(3)
    for bad in (-1, count):
        with pytest.raises(IllegalAction, match=f"0 to {count - 1}"):
            GAME.action_at(bad, 0)


def test_action_index_rejects_what_is_no_ghooost_action_and_a_play_the_game_never_produces_cannot_be_built() -> None:
    with pytest.raises(IllegalAction):
        GAME.action_index("play 7", 0)  # type: ignore[arg-type]  # text, not an action
    with pytest.raises(IllegalAction, match="never copies Kitty"):
        Play(KITTY, 1, 1)


def test_a_finished_game_still_encodes_with_the_over_flag_and_nobody_to_move() -> None:
    state, _ = play_out("ghooost", 2, {"match": False, "max_turns": 80}, 5)
    for seat in range(2):
        arrays = state.encode(seat)
        assert arrays["table"][10] == 1.0 and arrays["seats"][:, 3].sum() == 0.0
        assert all(a.min() >= 0.0 and a.max() <= 1.0 for a in arrays.values())
        assert not state.legal_mask(seat).any()


@pytest.mark.parametrize(("replay", "play", "optional"), [("may", "play 9 9", 1.0), ("must", "play 9 9", 0.0),
                                                          ("may", "play 11", 0.0)])
def test_review_9_done_has_a_fixed_index_and_the_observation_tells_an_optional_extra_turn(
    replay: str, play: str, optional: float
) -> None:
    state = build(["9 9 11 6", "6 6 6 2"], cemetery="7", crypt="3 3 4 4 13 13 13", options={"replay": replay})
    assert all(state.encode(seat)["table"][11] == 0.0 for seat in range(2))
    state.apply(0, play)
    assert state.turn == 0
    for seat in range(2):  # public: both seats see whether the player to move may end the turn
        assert state.encode(seat)["table"][11] == optional
    done = GAME.parse_action("done")
    assert GAME.action_index(done, 0) == 288 and GAME.action_at(288, 1) == done
    assert bool(state.legal_mask(0)[288]) == bool(optional)
