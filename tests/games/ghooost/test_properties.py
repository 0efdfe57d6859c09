"""Contract properties of Ghooost! over random games (hypothesis picks the seeds), card conservation and
secrecy of views and events."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostgames.games import get_game
from ghostgames.games.ghooost.actions import PASS
from ghostgames.games.ghooost.cards import MISS_COPY, composition, held_mask
from ghostgames.games.ghooost.state import GhooostState
from tests import contract_checks as checks
from tests.games.ghooost.positions import build, kind, where_cards_are

SEEDS = st.integers(min_value=0, max_value=2**32)
PLAYERS = pytest.mark.parametrize("players", [2, 4, 6])
REPLAY = pytest.mark.parametrize("replay", ["may", "must"])
OPTIONS = st.sampled_from(
    [
        {"match": False},
        {"deck": "original", "match": False},
        {"match": False, "max_turns": 150},
        {"deck": "original", "max_turns": 120, "first": 1},
        {"max_turns": 60},
    ]
)


@PLAYERS
@REPLAY
@settings(max_examples=5, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_legal_actions_never_raise_and_games_end(
    seed: int, players: int, replay: str, options: dict[str, Any]
) -> None:
    checks.check_legal_never_raises_and_ends("ghooost", players, {**options, "replay": replay}, seed)


@PLAYERS
@REPLAY
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_illegal_actions_raise_and_change_nothing(
    seed: int, players: int, replay: str, options: dict[str, Any]
) -> None:
    checks.check_illegal_raises_and_changes_nothing("ghooost", players, {**options, "replay": replay}, seed)


@PLAYERS
@REPLAY
@settings(max_examples=2, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_apply_legal_is_apply_without_the_checks(
    seed: int, players: int, replay: str, options: dict[str, Any]
) -> None:
    checks.check_apply_legal_is_apply_without_the_checks("ghooost", players, {**options, "replay": replay}, seed)


@PLAYERS
@REPLAY
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_load_of_to_json_round_trips(seed: int, players: int, replay: str, options: dict[str, Any]) -> None:
    checks.check_json_round_trip("ghooost", players, {**options, "replay": replay}, seed)


@PLAYERS
@REPLAY
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_a_record_replays_to_an_identical_state(
    seed: int, players: int, replay: str, options: dict[str, Any]
) -> None:
    checks.check_record_replays("ghooost", players, {**options, "replay": replay}, seed)


@PLAYERS
@REPLAY
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_action_text_and_json_round_trip(seed: int, players: int, replay: str, options: dict[str, Any]) -> None:
    checks.check_action_forms_round_trip("ghooost", players, {**options, "replay": replay}, seed)


@PLAYERS
@REPLAY
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_views_are_the_same_in_every_sampled_world(
    seed: int, players: int, replay: str, options: dict[str, Any]
) -> None:
    checks.check_information_set_invariance("ghooost", players, {**options, "replay": replay}, seed, worlds=2)


@PLAYERS
@REPLAY
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_the_62_cards_are_always_each_in_exactly_one_place(
    seed: int, players: int, replay: str, options: dict[str, Any]
) -> None:
    deck = composition(options.get("deck", "tarot"))
    assert sum(deck) == 62
    options = {**options, "replay": replay}
    for state, _seat, _action in checks.random_positions("ghooost", players, options, seed, limit=1500):
        assert isinstance(state, GhooostState)
        assert where_cards_are(state) == deck
        assert state.sizes == [sum(h) for h in state.hands]
        assert all(min(h) >= 0 for h in state.hands)
        assert state.held == [held_mask(h) for h in state.hands]


@PLAYERS
@REPLAY
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_no_view_or_event_holds_a_secret(
    seed: int, players: int, replay: str, options: dict[str, Any]
) -> None:
    """Views show hand counts, mansion and crypt sizes only; the cards shown in another hand are cards
    really there; drawn and dealt cards reach only their owner."""
    options = {**options, "replay": replay}
    for state, seat, action in checks.random_positions("ghooost", players, options, seed, limit=300):
        assert isinstance(state, GhooostState)
        for reader in [None, *range(players)]:
            view = state.view(reader)
            assert "seed" not in view and "mansions" not in view and "hands" not in view
            assert isinstance(view["crypt"], int)
            for info in view["seats"]:
                assert isinstance(info["hand"], int) and isinstance(info["mansion"], int)
                real = Counter(c for k, n in enumerate(state.hands[info["seat"]]) for c in [k] * n)
                shown = Counter(kind(c) for c in info["known"])
                assert all(real[k] >= n for k, n in shown.items())
            if reader is not None:
                own = Counter(c for k, n in enumerate(state.hands[reader]) for c in [k] * n)
                assert len(view["hand"]) == sum(own.values())
            else:
                assert view["hand"] is None
        for event in state.clone().apply(seat, action):
            for reader in [None, *range(players)]:
                data = event.for_seat(reader)
                if event.kind in ("draw", "deal"):
                    owner = event.public.get("seat")
                    if event.kind == "draw" and reader != owner:
                        assert "cards" not in data
                    if event.kind == "deal":
                        assert ("cards" in data) == (reader is not None)


def test_sample_world_keeps_cards_seen_going_into_a_hand_and_redeals_the_rest() -> None:
    state, _ = checks.play_out("ghooost", 3, {"match": False, "max_turns": 80}, seed=5)
    assert isinstance(state, GhooostState)
    rng = random.Random(1)
    deals = set()
    for seat in range(3):
        for _ in range(20):
            world = state.sample_world(seat, rng)
            assert isinstance(world, GhooostState)
            assert world.hands[seat] == state.hands[seat]
            assert where_cards_are(world) == where_cards_are(state)
            for other in range(3):
                assert world.sizes[other] == state.sizes[other]
                assert sum(world.hands[other]) == state.sizes[other]
                assert all(w >= k for w, k in zip(world.hands[other], state.known[other], strict=True))
                assert len(world.mansions[other]) == len(state.mansions[other])
            assert len(world.crypt) == len(state.crypt)
            deals.add(repr((world.hands, world.mansions, world.crypt)))
    assert len(deals) > 1, "sampling should vary what is unseen"


def test_a_seat_that_saw_a_cemetery_taken_still_sees_those_cards_in_every_sampled_world() -> None:
    state = build(["5 6 9 10", "6 6 2 2", "3 3 4 4"], cemetery="13 13 X=13", crypt="7 7 8 8 12 12 14 14")
    state.apply(0, "take")
    rng = random.Random(2)
    for _ in range(30):
        world = state.sample_world(1, rng)
        assert world.hands[0][13] >= 2 and world.hands[0][16] >= 1
        assert world.view(1) == state.view(1)


# --- review point 10: sampled worlds keep what every seat can deduce ------------------------------------
def test_review_10_a_pass_after_midnight_means_a_hand_of_miss_copy_only() -> None:
    state = build(["X X", "6 6 2", "9 13"], mansions=["9", "9", "10"], turn=0)
    assert state.legal_texts(0) == ["pass"]
    state.apply(0, "pass")
    assert state.view(1)["seats"][0]["known"] == ["X", "X"]  # what the pass shows, shown to everyone
    rng = random.Random(3)
    for seat in (1, 2):
        for _ in range(40):
            world = state.sample_world(seat, rng)
            assert world.hands[0] == state.hands[0]  # Miss Copy twice, nothing else
            assert world.view(seat) == state.view(seat)
            assert world.legal_texts(seat) == state.legal_texts(seat)


def test_a_spectator_who_watches_a_pass_deals_the_passer_miss_copy_only() -> None:
    """`revealed_by` (the worlds a spectator deals while the move is shown) keeps what the pass shows: in every
    world the pass is legal again (CI found a world where the passer could play a 5)."""
    state = build(["X", "6 6 2", "9 13"], mansions=["9", "9", "10"], turn=0)
    watched = state.revealed_by(0, PASS)
    rng = random.Random(5)
    for _ in range(40):
        world = watched.sample_world(None, rng)
        assert world.hands[0] == state.hands[0]
        assert world.legal_texts(0) == ["pass"]


def test_review_10_the_passers_hand_stays_known_after_a_take_until_it_is_played() -> None:
    state = build(["X X", "6 6 2", "9 13 14"], mansions=["9", "9", "10"], turn=0)
    state.apply(0, "pass")
    state.apply(1, "play 6 6")  # a double: seat 1 may play again
    state.apply(1, "done")
    state.apply(2, "play 13")
    state.apply(0, "take")  # 6 6 13 into a hand known to be X X
    state.apply(1, "play 2")
    state.apply(2, "play 9")
    state.apply(0, "play 13 X")
    assert state.hands[0][13] == 0 and state.sizes[0] == 3
    rng = random.Random(4)
    for seat in (1, 2):
        for _ in range(30):
            assert state.sample_world(seat, rng).hands[0] == state.hands[0]  # 6 6 X: every card certain


def _keeping_miss_copy(state: GhooostState, seat: int, rng: random.Random) -> Any:
    """A random player that rarely spends Miss Copy, so that hands of Miss Copy alone (and passes) occur."""
    legal = state.legal_actions(seat)
    plain = [a for a in legal if getattr(a, "copies", 1) == 0]
    return rng.choice(plain) if plain and rng.random() < 0.9 else rng.choice(legal)


WATCH = 25  # actions after each pass during which sampled worlds are checked


@pytest.mark.parametrize("replay", ["may", "must"])
@pytest.mark.parametrize("deck", ["tarot", "original"])
def test_review_10_sampled_worlds_never_contradict_a_pass(replay: str, deck: str) -> None:
    """Over seeded random games: from a pass to the round's end the passer's hand is certain to every
    seat (Miss Copy only at the pass, then changed only by public takes and plays), so every sampled world
    holds exactly that hand, and each world still gives the sampling seat its own view and legal actions.
    Worlds are checked for WATCH actions after each pass (long enough to see takes and plays follow)."""
    passes = checked = 0
    for seed in range(12):
        players = 4 + seed % 3
        state = get_game("ghooost").new(players, {"deck": deck, "replay": replay, "max_turns": 600}, seed=seed)
        assert isinstance(state, GhooostState)
        rng = random.Random(seed)
        revealed: dict[int, int] = {}  # passer -> actions left to watch
        round_no = state.round
        while state.to_act():
            seat = state.turn
            action = _keeping_miss_copy(state, seat, rng)
            if str(action) == "pass":
                assert state.hands[seat][MISS_COPY] == state.sizes[seat] > 0
            state.apply(seat, action)
            if state.round != round_no:  # a new deal: nothing is known any more
                revealed, round_no = {}, state.round
                continue
            if str(action) == "pass":
                passes += 1
                revealed[seat] = WATCH
            for passer in list(revealed):
                observer = rng.randrange(players)
                world = state.sample_world(observer, rng)
                assert world.hands[passer] == state.hands[passer], (seed, passer, observer)
                if str(action) == "pass" and passer == seat:
                    assert world.hands[passer][MISS_COPY] == sum(world.hands[passer])
                assert world.view(observer) == state.view(observer)
                assert world.legal_texts(observer) == state.legal_texts(observer)
                checked += 1
                revealed[passer] -= 1
                if not revealed[passer]:
                    del revealed[passer]
    assert passes >= 10 and checked >= 200, (passes, checked)
