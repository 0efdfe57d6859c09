"""One scenario per sentence of The Last rulings (shared/RULES.md), on exact positions loaded with game.load."""

from __future__ import annotations

import json
import random

import pytest

from ghostgames.games import get_game
from ghostgames.games.thelast.cards import CARD_NAMES, COLOUR_BIT
from ghostgames.games.thelast.state import TheLastState
from ghostgames.rules import IllegalAction
from ghostgames.rules.chance import derive_rng
from tests.games.thelast.positions import GHOST, cards, position

GAME = get_game("thelast")


def legal(state: TheLastState, seat: int) -> set[str]:
    return set(state.legal_texts(seat))


def names(ids: list[int]) -> set[str]:
    return {CARD_NAMES[c] for c in ids}


def unchanged_after_illegal(state: TheLastState, seat: int, text: str) -> str:
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        state.apply(seat, text)
    assert json.dumps(state.to_json(), sort_keys=True) == before
    return err.value.reason


# --- deal -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "hand", "spare"), [(3, 12, 0), (4, 9, 3), (5, 8, 0)])
def test_deal_gives_12_9_8_cards_and_a_points_pile_as_big_as_a_hand(players: int, hand: int, spare: int) -> None:
    state = GAME.new(players, seed=1)
    assert isinstance(state, TheLastState)
    assert [len(h) for h in state.hands] == [hand] * players
    assert len(state.points) + 1 == hand  # the top card is already turned for the first trick
    assert len(state.spare) == spare
    state.check()


def test_two_players_get_12_cards_each_and_a_12_card_ghost_pile() -> None:
    state = GAME.new(2, seed=1)
    assert isinstance(state, TheLastState)
    assert state.players == 2
    assert [len(h) for h in state.hands] == [12, 12, 12]
    assert len(state.points) + 1 == 12
    assert state.spare == []


def test_four_players_set_aside_three_spare_cards_unseen() -> None:
    """The 3 spare cards are never played, never shown in a view or event, and re-dealt in sampled worlds."""
    state = GAME.new(4, seed=5)
    assert isinstance(state, TheLastState)
    spare = names(state.spare)
    assert len(spare) == 3
    rng = random.Random(2)
    texts: list[str] = []
    while state.to_act():
        seat = min(state.to_act())
        for who in (None, 0, 1, 2, 3):
            texts.append(json.dumps(state.view(who)))
        for event in state.apply(seat, rng.choice(state.legal_actions(seat))):
            texts.extend(json.dumps(event.for_seat(who)) for who in (None, 0, 1, 2, 3))
    assert names(state.spare) == spare
    found = {c for c in spare for text in texts if f'"{c}"' in text}
    assert found == set()
    assert state.view(0)["spare_cards"] == 3
    worlds = {tuple(sorted(state.sample_world(0, rng).spare)) for _ in range(30)}
    assert len(worlds) > 1


# --- a trick ----------------------------------------------------------------------------------------------
def test_each_trick_turns_the_top_card_of_the_points_pile_face_up() -> None:
    state = position(3, ["R1 B1", "R2 B2", "R3 B3"], points="G5 Y9")
    assert state.view(1)["points_card"] == "G5"
    assert state.view(1)["points_left"] == 1
    for seat, text in [(0, "play R1"), (1, "play R2"), (2, "play R3"), (2, "keep")]:
        state.apply(seat, text)
    assert state.view(1)["points_card"] == "Y9"
    assert state.view(1)["points_left"] == 0


def test_the_leader_plays_any_card() -> None:
    state = position(3, ["R1 B2 G3 Y4", "R5 B6 G7 Y8", "R9 B10 G11 Y12"], points="G1 G2 G4 G5", leader=0)
    assert legal(state, 0) == {"play R1", "play B2", "play G3", "play Y4"}


def test_a_following_player_must_play_the_led_colour_if_they_can() -> None:
    state = position(3, ["B2 G3", "R2 B9 G4", "R9 B10 Y12"], points="G1 G2 G5", trick=[(0, "R5")])
    assert legal(state, 1) == {"play R2"}
    reason = unchanged_after_illegal(state, 1, "play B9")
    assert "red" in reason


def test_a_following_player_without_the_led_colour_plays_any_card() -> None:
    state = position(3, ["B2 G3", "Y2 B9 G4", "R9 B10 Y12"], points="G1 G2 G5", trick=[(0, "R5")])
    assert legal(state, 1) == {"play Y2", "play B9", "play G4"}


def test_the_last_player_may_play_any_colour_already_played_led_or_not() -> None:
    state = position(3, ["B2 G3 G6", "Y2 B1 G4", "R2 B3 G9 Y7"], points="G1 G2 G5", trick=[(0, "R5"), (1, "B9")])
    assert legal(state, 2) == {"play R2", "play B3"}
    assert state.view(2)["allowed_colours"] == ["R", "B"]
    assert state.view(0)["required_colours"] == ["R", "B"]
    assert state.view(0)["allowed_colours"] is None  # another seat must not learn what the last player holds


def test_the_last_player_must_play_a_played_colour_if_they_hold_one() -> None:
    state = position(3, ["B2 G3", "Y2 G4", "R2 G9 Y7"], points="G1 G2 G5", trick=[(0, "R5"), (1, "B9")])
    reason = unchanged_after_illegal(state, 2, "play G9")
    assert "last player" in reason


def test_the_last_player_may_play_the_ghosts_colour() -> None:
    """Seat 1 leads red, the ghost turns a green card: the last player may answer green as well as red."""
    state = position(2, ["R9 G2 B5", "R4 B9 Y1", "G7 Y8 Y9"], first=0, leader=1, points="G1 G3 G4")
    state.apply(1, "play R4")  # the ghost plays G7 at once, then seat 0 is last
    assert state.view(0)["trick"] == [{"who": 1, "card": "R4"}, {"who": "ghost", "card": "G7"}]
    assert legal(state, 0) == {"play R9", "play G2"}
    state.apply(0, "play G2")  # green wins, and the ghost's G7 is the highest green
    assert state.view(0)["tricks"][-1]["winner"] == "ghost"


def test_the_last_player_without_a_played_colour_plays_any_card() -> None:
    state = position(3, ["B2", "G4", "G9 Y7"], points="G1 G2 G5", trick=[(0, "R5"), (1, "B9")])
    assert legal(state, 2) == {"play G9", "play Y7"}


def test_the_last_players_colour_wins_and_its_highest_card_takes_the_points_card() -> None:
    state = position(3, ["B2 G3 G6", "Y2 B1 G4", "R2 B3 Y7 Y8"], points="G11 G2 G5", trick=[(0, "R5"), (1, "B9")])
    events = state.apply(2, "play B3")
    trick = [e.for_seat(None) for e in events if e.kind == "trick"]
    assert trick == [{"kind": "trick", "winner": 1, "card": "B9", "points": "G11"}]
    assert state.to_act() == frozenset({1})
    assert state.view(1)["phase"] == "decide"
    assert legal(state, 1) == {"keep", "swap Y2", "swap B1", "swap G4"}


def test_a_last_player_who_plays_a_colour_nobody_else_played_wins() -> None:
    state = position(3, ["B2 G3", "Y2 G4", "G1 Y5 Y6"], points="G11 G2 G5", trick=[(0, "R5"), (1, "R9")])
    state.apply(2, "play G1")
    assert state.to_act() == frozenset({2})
    assert state.view(None)["tricks"][-1]["winner"] == 2


def test_keep_lays_the_points_card_face_down_as_a_penalty() -> None:
    state = position(3, ["B2 B3", "B1 G4", "Y5 Y6"], points="Y11 G2", trick=[(0, "R5"), (1, "R9"), (2, "R1")], won_by=1)
    state.apply(1, "keep")
    assert cards("Y11")[0] in state.piles[1]
    assert state.view(1)["penalty"] == 11
    other = state.view(0)["participants"][1]
    assert other == {"who": 1, "hand_size": 2, "pile_size": 1, "known_in_hand": [], "known_in_pile": ["Y11"],
                     "in_hand_or_pile": []}
    assert state.view(None)["tricks"][-1]["taken"] == "keep"


def test_swap_takes_the_points_card_into_the_hand_and_lays_a_chosen_card_face_down() -> None:
    state = position(3, ["B2 B3", "B1 G4", "Y5 Y6"], points="Y11 G2", trick=[(0, "R5"), (1, "R9"), (2, "R1")], won_by=1)
    events = state.apply(1, "swap G4")
    assert names(state.hands[1]) == {"B1", "Y11"}
    assert names(state.piles[1]) == {"G4"}
    assert state.view(1)["pile"] == ["G4"] and state.view(1)["penalty"] == 4
    for seat in (None, 0, 2):
        text = json.dumps(state.view(seat)) + json.dumps([e.for_seat(seat) for e in events])
        assert '"G4"' not in text  # the card laid face down stays the swapper's secret
    assert state.view(0)["participants"][1]["known_in_hand"] == ["Y11"]
    assert state.view(0)["participants"][1]["pile_size"] == 1
    assert [e.for_seat(1) for e in events if e.kind == "swap"] == [
        {"kind": "swap", "seat": 1, "card": "Y11", "down": "G4"}
    ]


def test_a_swap_lays_down_a_card_from_the_hand_not_the_points_card_itself() -> None:
    state = position(3, ["B2 B3", "B1 G4", "Y5 Y6"], points="Y11 G2", trick=[(0, "R5"), (1, "R9"), (2, "R1")], won_by=1)
    assert "swap Y11" not in legal(state, 1)
    unchanged_after_illegal(state, 1, "swap Y11")


def test_a_swapped_in_points_card_stays_known_until_it_is_played() -> None:
    state = position(3, ["B2 B3", "B1 G4", "Y5 Y6"], points="Y11 G2", trick=[(0, "R5"), (1, "R9"), (2, "R1")], won_by=1)
    state.apply(1, "swap G4")
    state.apply(1, "play Y11")
    assert state.view(0)["participants"][1]["known_in_hand"] == []
    assert state.view(0)["trick"] == [{"who": 1, "card": "Y11"}]


def test_a_second_swap_leaves_an_earlier_known_card_in_hand_or_face_down() -> None:
    state = position(3, ["B2 B3 B4", "B1 Y11 G4", "Y5 Y6 Y7"], points="Y12 G2 G3",
                     trick=[(0, "R5"), (1, "R9"), (2, "R1")], known=["", "Y11"], down=["", "G6"], won_by=1)
    state.apply(1, "swap Y11")
    seen = state.view(2)["participants"][1]
    assert seen["known_in_hand"] == ["Y12"]
    assert seen["in_hand_or_pile"] == ["Y11"]
    assert '"Y11"' not in json.dumps(state.view(2)["participants"][1]["known_in_pile"])


def test_the_winner_leads_the_next_trick() -> None:
    state = position(3, ["B2 B3", "B1 G4", "Y5 Y6"], points="Y11 G2", trick=[(0, "R5"), (1, "R9"), (2, "R1")], won_by=1)
    state.apply(1, "keep")
    assert state.view(None)["leader"] == 1
    assert state.to_act() == frozenset({1})


def test_on_the_last_trick_the_winner_keeps_the_points_card_since_the_hand_is_empty() -> None:
    state = position(3, ["R5", "R9", "R1"], points="Y11", kept=["G1", "", ""])
    for seat, text in [(0, "play R5"), (1, "play R9")]:
        state.apply(seat, text)
    state.apply(2, "play R1")
    assert state.is_over()
    assert names(state.piles[1]) == {"Y11"}
    assert state.round_penalties == [[1, 11, 0]]


def test_each_penalty_is_the_sum_of_the_face_down_cards_and_the_lowest_wins() -> None:
    state = position(3, ["R5", "R9", "R1"], points="Y2", kept=["G10", "", "Y12"], down=["", "B3", ""])
    for seat, text in [(0, "play R5"), (1, "play R9"), (2, "play R1")]:
        state.apply(seat, text)
    assert state.round_penalties == [[10, 5, 12]]
    outcome = state.outcome()
    assert outcome is not None
    assert [(r.result, r.rank, r.score) for r in outcome.results] == [("loss", 2, 10.0), ("win", 1, 5.0),
                                                                      ("loss", 3, 12.0)]


# --- the ghost (2 players) ---------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_the_ghost_pile_lies_to_the_right_of_the_first_leader_and_plays_last_in_the_first_trick(seed: int) -> None:
    state = GAME.new(2, seed=seed)
    assert isinstance(state, TheLastState)
    view = state.view(None)
    first = view["round_leader"]
    assert view["order"] == [first, 1 - first, "ghost"]
    assert state.to_act() == frozenset({first})
    state.apply(first, state.legal_actions(first)[0])
    state.apply(1 - first, state.legal_actions(1 - first)[0])
    assert len(state.view(None)["tricks"]) == 1
    assert state.view(None)["tricks"][0]["plays"][-1]["who"] == "ghost"
    assert GHOST not in state.to_act()


def test_the_ghost_plays_its_top_card_ignoring_the_following_rules() -> None:
    state = position(2, ["R3 R7 B4", "R5 G6 G8", "B1 R2 Y9"], first=0, leader=0, points="Y12 G1 G2")
    state.apply(0, "play R3")
    events = state.apply(1, "play R5")
    plays = [e.for_seat(None) for e in events if e.kind == "play"]
    assert plays[1] == {"kind": "play", "seat": "ghost", "card": "B1"}  # its top card, though it holds R2


def test_when_the_ghost_wins_the_points_card_scores_for_nobody_and_the_ghost_leads() -> None:
    state = position(2, ["R3 R7 B4", "R5 G6 G8", "B1 R2 Y9"], first=0, leader=0, points="Y12 G1 G2")
    state.apply(0, "play R3")
    state.apply(1, "play R5")  # the ghost's B1 is the last card: blue wins, the ghost's card is the only blue
    view = state.view(0)
    assert view["tricks"][0]["winner"] == "ghost" and view["tricks"][0]["taken"] == "ghost"
    assert view["participants"][2] == {"who": "ghost", "hand_size": 1, "pile_size": 1, "known_in_hand": [],
                                       "known_in_pile": ["Y12"], "in_hand_or_pile": []}
    assert view["leader"] == "ghost"
    assert view["trick"] == [{"who": "ghost", "card": "R2"}]  # it led by turning its top card
    assert view["required_colours"] == ["R"]
    assert legal(state, 0) == {"play R7"}
    state.apply(0, "play R7")
    state.apply(1, "play G6")  # last player, no red: any card, and green wins
    assert state.to_act() == frozenset({1})
    state.apply(1, "keep")
    state.apply(1, "play G8")  # the ghost follows at once with Y9, whatever seat 1 led
    assert state.view(0)["trick"][-1] == {"who": "ghost", "card": "Y9"}
    state.apply(0, "play B4")  # last player without green or yellow: blue wins, seat 0 takes G2
    outcome = state.outcome()
    assert outcome is not None and len(outcome.results) == 2
    assert state.round_penalties == [[2, 1]]  # Y12 went to the ghost and counts for nobody


def test_the_ghost_is_never_a_seat_to_act() -> None:
    for seed in range(10):
        state = GAME.new(2, {"rounds": 2}, seed=seed)
        rng = random.Random(seed)
        while state.to_act():
            assert state.to_act() <= {0, 1}
            seat = min(state.to_act())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert state.players == 2


# --- rounds -------------------------------------------------------------------------------------------------
def test_rounds_are_played_in_one_state_each_with_a_random_first_leader() -> None:
    leaders = set()
    for seed in range(8):
        state = GAME.new(3, {"rounds": 3}, seed=seed)
        assert isinstance(state, TheLastState)
        rng = random.Random(seed)
        while state.to_act():
            seat = min(state.to_act())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert len(state.round_penalties) == 3
        expected = []
        for n in (1, 2, 3):
            draw = derive_rng(seed, "round", n)
            draw.shuffle(list(range(48)))
            expected.append(draw.randrange(3))
        assert state.round_leaders == expected
        leaders.update(state.round_leaders)
        outcome = state.outcome()
        assert outcome is not None
        assert [r.score for r in outcome.results] == [float(t) for t in state.totals()]
    assert leaders == {0, 1, 2}


def test_the_lowest_total_over_all_rounds_wins() -> None:
    state = position(3, ["R5", "R9", "R1"], points="Y2", kept=["G10", "", ""], rounds=2,
                     round_penalties=[[3, 20, 9]])
    for seat, text in [(0, "play R5"), (1, "play R9"), (2, "play R1")]:
        state.apply(seat, text)
    assert state.totals() == [13, 22, 9]
    outcome = state.outcome()
    assert outcome is not None
    assert [r.rank for r in outcome.results] == [2, 3, 1]


def test_equal_lowest_totals_share_the_win() -> None:
    state = position(3, ["R5", "R9", "R1"], points="Y2", kept=["G7", "", ""], rounds=2, round_penalties=[[3, 20, 10]])
    for seat, text in [(0, "play R5"), (1, "play R9"), (2, "play R1")]:
        state.apply(seat, text)
    assert state.totals() == [10, 22, 10]  # seat 1 took Y2 in the last trick
    outcome = state.outcome()
    assert outcome is not None
    assert [(r.result, r.rank) for r in outcome.results] == [("win", 1), ("loss", 3), ("win", 1)]


def test_when_every_total_is_equal_the_match_is_a_draw() -> None:
    state = position(3, ["R5", "R9", "R1"], points="Y2", rounds=2, round_penalties=[[10, 8, 10]])
    for seat, text in [(0, "play R5"), (1, "play R9"), (2, "play R1")]:
        state.apply(seat, text)
    outcome = state.outcome()
    assert outcome is not None
    assert [(r.result, r.rank, r.score) for r in outcome.results] == [("draw", 1, 10.0)] * 3


def test_a_round_ends_and_the_next_is_dealt_in_the_same_state() -> None:
    state = position(4, ["R5", "R9", "R1", "R2"], points="Y2", rounds=2)
    for seat, text in [(0, "play R5"), (1, "play R9"), (2, "play R1")]:
        state.apply(seat, text)
    events = state.apply(3, "play R2")
    kinds = [e.kind for e in events]
    assert kinds.index("round") < kinds.index("deal")
    assert not state.is_over()
    assert state.round_penalties == [[0, 2, 0, 0]]
    for seat in (None, 0, 1, 2, 3):  # the scores of a finished round are shown to everybody
        assert state.view(seat)["round_penalties"] == [[0, 2, 0, 0]]
        assert state.view(seat)["totals"] == [0, 2, 0, 0]
        assert state.view(seat)["round"] == 2
    assert [len(h) for h in state.hands] == [9, 9, 9, 9]
    state.check()


# --- states that no play of the rules leads to are refused ---------------------------------------------------
def test_review_12_hands_of_unequal_size_are_refused() -> None:
    good = position(3, ["B2 G3", "Y2 G4", "R2 G9 Y7"], points="G1 G2 G5", trick=[(0, "R5"), (1, "B9")])
    data = good.to_json()
    data["hands"][0].append(data["spare"].pop())  # seat 1 has played but holds as many as seat 3
    with pytest.raises(ValueError, match="one fewer once its owner has played") as err:
        GAME.load(data)
    assert "seat 1 3, seat 2 2, seat 3 3" in str(err.value)
    fresh = GAME.new(3, seed=4).to_json()
    fresh["hands"][2].append(fresh["hands"][1].pop())
    with pytest.raises(ValueError, match="the hands hold seat 1 12, seat 2 11, seat 3 13"):
        GAME.load(fresh)


def test_review_12_a_hand_holding_a_colour_its_owner_showed_it_lacks_is_refused() -> None:
    # Seat 2 did not follow red: a red card in its hand cannot have come from play.
    with pytest.raises(ValueError, match="seat 2 holds R2, a colour it showed it had none of"):
        position(3, ["B2 G3", "R2 G4", "R3 G9 Y7"], points="G1 G2 G5", trick=[(0, "R5"), (1, "B9")])


def test_review_12_a_card_laid_down_against_an_earlier_void_is_refused() -> None:
    """Find a seat that showed a void and swapped later; put a card of that colour from the points pile
    into that swap's face-down place: no play could have laid it down there."""

    def found(state: TheLastState) -> tuple[int, int, int] | None:
        for who, line in enumerate(state.timelines()):
            laid = [c for c in state.piles[who] if c not in state.shown_pile[who]]
            times = [t for t, _ in line.swaps][-len(laid):] if laid else []
            for time, colours in line.voids:
                fits = [c for c in state.points if COLOUR_BIT[c] & colours]
                later = [c for c, t in zip(laid, times, strict=True) if t > time and c not in state.mixed[who]]
                if fits and later:
                    return who, later[0], fits[0]
        return None

    state = GAME.new(3, seed=2)
    assert isinstance(state, TheLastState)
    rng = random.Random(2)
    while (hit := found(state)) is None:
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    who, laid, card = hit
    data = state.to_json()
    data["piles"][who][data["piles"][who].index(laid)] = card
    data["points"][data["points"].index(card)] = laid
    with pytest.raises(ValueError, match=f"seat {who + 1} laid {CARD_NAMES[card]} face down, a colour it showed"):
        GAME.load(data)


@pytest.mark.parametrize("players", [2, 3])
def test_face_down_piles_become_public_when_the_round_is_counted_and_not_before(players: int) -> None:
    """RULES: after the last trick each penalty is the sum of the face-down cards, so they are turned up:
    the view shows every seat's pile of the finished round, and never a pile of the round still played."""
    state = GAME.new(players, {"rounds": 2}, seed=7)
    assert isinstance(state, TheLastState)
    rng = random.Random(7)
    readers: list[int | None] = [None, *range(players)]
    while not state.round_penalties:
        for reader in readers:
            assert state.view(reader)["round_piles"] == []
        seat = min(state.to_act())
        own_piles = [state.view(s)["pile"] for s in range(players)]  # what each seat saw of its own pile
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    # round 1 is counted (and round 2 dealt): its piles are public, each one summing to its penalty
    values = {name: int(name[1:]) for name in CARD_NAMES}
    counted_piles = state.view(None)["round_piles"]
    assert [sum(values[c] for c in pile) for pile in counted_piles] == state.round_penalties[0]
    assert all(set(own) <= set(pile) for own, pile in zip(own_piles, counted_piles, strict=True))
    assert sum(map(len, counted_piles)) > sum(map(len, own_piles)) - 1
    for reader in readers:
        assert state.view(reader)["round_piles"] == counted_piles
    while state.to_act():
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.to_act():  # round 2 running: the current piles of others stay hidden
            for reader in readers:
                assert state.view(reader)["round_piles"] == counted_piles
    final = [[CARD_NAMES[c] for c in sorted(state.piles[s])] for s in range(players)]
    for reader in readers:
        assert state.view(reader)["round_piles"] == final
    again = TheLastState.from_json(GAME, json.loads(json.dumps(state.to_json())))
    assert again.view(None)["round_piles"] == final
