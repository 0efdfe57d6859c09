"""One scenario per Ghooost! ruling in shared/RULES.md, named after the rule it checks. Positions are
built exactly with `game.load` (see positions.py); cards are written as people type them."""

from __future__ import annotations

import dataclasses

import pytest

from ghostgames.games.ghooost.cards import DECK_SIZE, KITTY, MANSION_SIZE, MISS_COPY, composition
from ghostgames.rules import IllegalAction, OptionError
from tests.games.ghooost.positions import GAME, build, hand_of, where_cards_are


def legal(state, seat: int | None = None) -> set[str]:  # type: ignore[no-untyped-def]
    return set(state.legal_texts(state.turn if seat is None else seat))


# --- deck and setup ---------------------------------------------------------------------------------
def test_tarot_deck_is_56_ghosts_four_kitty_two_miss_copy_62_cards() -> None:
    deck = composition("tarot")
    assert all(deck[v] == 4 for v in range(1, 15))
    assert (deck[KITTY], deck[MISS_COPY], sum(deck)) == (4, 2, DECK_SIZE)


def test_original_deck_is_56_ghosts_two_kitty_four_miss_copy_62_cards() -> None:
    deck = composition("original")
    assert all(deck[v] == 4 for v in range(1, 15))
    assert (deck[KITTY], deck[MISS_COPY], sum(deck)) == (2, 4, DECK_SIZE)


@pytest.mark.parametrize("deck", ["tarot", "original"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_deals_four_cards_a_hand_the_mansions_by_player_count_and_the_rest_to_the_crypt(
    players: int, deck: str
) -> None:
    state = GAME.new(players, {"deck": deck}, seed=players)
    assert state.sizes == [4] * players
    assert [len(m) for m in state.mansions] == [MANSION_SIZE[players]] * players
    assert len(state.crypt) == DECK_SIZE - players * (4 + MANSION_SIZE[players])
    assert where_cards_are(state) == composition(deck)


def test_the_first_round_starter_is_random_from_the_seed_unless_chosen() -> None:
    starters = {GAME.new(4, {}, seed=s).turn for s in range(40)}
    assert starters == {0, 1, 2, 3}
    assert GAME.new(4, {}, seed=5).turn == GAME.new(4, {}, seed=5).turn
    assert GAME.new(4, {"first": 2}, seed=5).turn == 2


def test_options_name_what_is_wrong() -> None:
    with pytest.raises(OptionError, match="deck"):
        GAME.new(3, {"deck": "poker"})
    with pytest.raises(OptionError, match="first"):
        GAME.new(3, {"first": 3})
    with pytest.raises(OptionError, match="max_turns"):
        GAME.new(3, {"max_turns": 0})


def test_by_default_the_deck_is_tarot_a_round_ends_at_1000_turns_and_a_match_at_30_rounds() -> None:
    options = GAME.options(3)
    assert (options.deck, options.max_turns, options.max_rounds) == ("tarot", 1000, 30)
    assert where_cards_are(GAME.new(3, {}, seed=1)) == composition("tarot")


def test_match_is_on_by_default_for_three_or_more_players_only() -> None:
    assert GAME.new(3, {}, seed=1).match_on
    assert not GAME.new(2, {}, seed=1).match_on
    assert not GAME.new(2, {"match": True}, seed=1).match_on  # with 2 players a match is one round
    assert not GAME.new(4, {"match": False}, seed=1).match_on


# --- top value and ordinary plays -------------------------------------------------------------------
def test_the_top_value_is_the_top_ghost_and_kitty_beside_never_changes_it() -> None:
    state = build(["9 9 K 5", "6 6 6 2"], cemetery="4 X=7 7", kitty=1, crypt="3 3 4 4")
    assert state.view(0)["top"] == 7
    state.apply(0, "play K")
    assert state.view(1)["top"] == 7
    assert "play 2" not in legal(state, 0) | legal(state, 1)


def test_an_empty_cemetery_has_value_0_so_any_ghost_may_be_played() -> None:
    state = build(["2 13 K X", "6 6 6 2"], crypt="5 5 5 5")
    assert {"play 2", "play 13", "play 2 X", "play K"} <= legal(state)


def test_a_play_must_be_at_least_the_top_value() -> None:
    state = build(["5 9 9 10", "6 6 6 2"], cemetery="9", crypt="4 4 4 4")
    assert "play 5" not in legal(state)
    assert {"play 9", "play 9 9", "play 10"} <= legal(state)
    with pytest.raises(IllegalAction, match="below the top value 9"):
        state.apply(0, "play 5")


def test_cards_of_one_play_are_identical() -> None:
    with pytest.raises(IllegalAction, match="same value"):
        GAME.parse_action("play 7 8")


def test_a_1_is_always_playable() -> None:
    for top in ("3", "12", "14"):
        state = build(["1 1 5 6", "6 6 6 2"], cemetery=top, crypt="4 4 4 4")
        assert {"play 1", "play 1 1"} <= legal(state), top


def test_after_a_red_3_only_a_1_a_3_a_12_kitty_or_a_quartet() -> None:
    state = build(["1 3 12 14 K 4 4 4 4", "6 6 6 2"], cemetery="3", crypt="5 5 5 5")
    plays = {t for t in legal(state) if t.startswith("play")}
    assert plays == {"play 1", "play 3", "play 12", "play K", "play 4 4 4 4"}


def test_after_a_red_12_only_a_1_a_12_kitty_or_a_quartet() -> None:
    state = build(["1 3 12 13 14 K 4 4 4 4", "6 6 6 2"], cemetery="12", crypt="5 5 5 5")
    plays = {t for t in legal(state) if t.startswith("play")}
    assert plays == {"play 1", "play 12", "play K", "play 4 4 4 4"}


def test_a_single_play_passes_the_turn_to_the_next_player_clockwise() -> None:
    state = build(["5 9 9 10", "6 6 6 2", "7 7 7 2"], crypt="4 4 4 4")
    state.apply(0, "play 10")
    assert state.turn == 1


# --- replays ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("cards", ["9 9", "9 9 9", "9 X", "9 9 X"])
def test_two_or_three_cards_miss_copy_included_play_again(cards: str) -> None:
    state = build(["9 9 9 X", "6 6 6 2"], crypt="4 4 4 4 13 13 13")
    state.apply(0, "play " + cards)
    assert state.turn == 0


def test_before_midnight_the_hand_is_refilled_to_4_before_the_replay() -> None:
    state = build(["9 9 9 X", "6 6 6 2"], crypt="2 2 3 3 4 5")
    state.apply(0, "play 9 9 9")
    assert state.turn == 0
    assert hand_of(state, 0) == "3 4 5 X"  # the crypt's top is its last card
    assert state.crypt == [2, 2, 3]


def test_one_play_gives_at_most_one_replay() -> None:
    # two jacks: the jack power and the double each say "play again": still one more turn only
    state = build(["11 11 5 6", "6 6 6 2"], cemetery="7", crypt="2 2 3 3 4 4 5")
    state.apply(0, "play 11 11")
    assert state.turn == 0
    state.apply(0, "play 6")
    assert state.turn == 1


# --- powers -----------------------------------------------------------------------------------------
def test_a_quartet_from_the_hand_is_always_legal_clears_the_cemetery_with_kitty_and_plays_again() -> None:
    state = build(["4 4 4 X 5", "6 6 6 2"], cemetery="13 14", kitty=2, crypt="2 2 3 3 4 5 5 5")
    discard_before = sum(state.discard)
    assert "play 4 4 4 X" in legal(state)
    state.apply(0, "play 4 4 4 X")
    assert state.cemetery == [] and state.kitty == 0
    assert sum(state.discard) == discard_before + 2 + 2 + 4
    assert state.turn == 0


def test_a_quartet_completed_with_the_cemetery_top_clears_and_plays_again() -> None:
    state = build(["7 7 5 6", "6 6 6 2"], cemetery="5 7 X=7", crypt="2 2 3 3 4 4 4 10")
    state.apply(0, "play 7 7")
    assert state.cemetery == [] and state.turn == 0
    assert where_cards_are(state) == composition("tarot")


def test_completing_a_quartet_ignores_kitty_beside_the_cemetery() -> None:
    # a Kitty laid beside the three 7s does not break them up
    state = build(["7 5 6 8", "6 6 6 2", "2 2 3 3"], cemetery="7 7 7", kitty=1, crypt="10 10 4 4 5")
    state.apply(0, "play 7")
    assert state.cemetery == [] and state.kitty == 0 and state.turn == 0


def test_only_the_top_run_of_equal_ghosts_counts_toward_a_quartet() -> None:
    state = build(["7 7 5 6", "6 6 6 2"], cemetery="7 9 7", crypt="2 2 3 3 4 5 5 5")
    assert (state.top_value, state.top_run) == (7, 1)  # a lone 7 over a 9: 7 is playable, but 1 + 2 < 4
    state.apply(0, "play 7 7")
    assert state.cemetery == [7, 9, 7, 7, 7]
    assert state.turn == 0  # a double replays, the cemetery stays


def test_a_jack_clears_the_cemetery_and_plays_again() -> None:
    state = build(["11 5 6 8", "6 6 6 2"], cemetery="9 10", kitty=1, crypt="2 2 3 3 4 5 5 5")
    state.apply(0, "play 11")
    assert state.cemetery == [] and state.kitty == 0 and state.turn == 0
    assert state.view(0)["top"] == 0


def test_an_8_reverses_the_direction() -> None:
    state = build(["8 5 6 9", "6 6 6 2", "7 7 7 2", "2 3 3 4"], crypt="10 10 13 13 4 4 14 14")
    state.apply(0, "play 8")
    assert state.direction == -1 and state.turn == 3
    assert state.view(3)["direction"] == "counterclockwise"


def test_an_8_with_two_players_has_no_visible_effect() -> None:
    state = build(["8 5 6 9", "10 6 6 2"], crypt="2 2 3 3 4 5 5 5")
    state.apply(0, "play 8")
    assert state.turn == 1
    state.apply(1, "play 10")
    assert state.turn == 0


@pytest.mark.parametrize("cards", ["8 8", "8 X", "8 8 8"])
def test_a_power_applies_once_per_play_so_two_or_three_8s_reverse_the_direction_once(cards: str) -> None:
    state = build(["8 8 8 X", "6 6 6 2", "7 7 7 2", "2 3 3 4"], crypt="10 10 13 13 4 4 14 14")
    state.apply(0, "play " + cards)
    assert state.direction == -1 and state.turn == 0  # reversed once, and the double's or triple's extra turn
    state.apply(0, "done")
    assert state.turn == 3


def test_kitty_is_always_playable_and_skips_the_next_player_with_three_or_more() -> None:
    state = build(["K 5 6 9", "6 6 6 2", "7 7 7 2"], cemetery="3", crypt="2 2 3 3 4 5 5 5")
    state.apply(0, "play K")
    assert state.turn == 2
    assert state.kitty == 1 and state.cemetery == [3]


def test_kitty_with_two_players_gives_the_same_player_another_turn() -> None:
    state = build(["K 5 6 9", "6 6 6 2"], cemetery="12", crypt="2 2 3 3 4 5 5 5")
    state.apply(0, "play K")
    assert state.turn == 0


def test_several_kitty_in_one_play_skip_one_player_and_never_make_a_double() -> None:
    state = build(["K K 6 9", "6 6 6 2", "7 7 7 2", "2 3 3 4"], crypt="10 10 13 13 4 4 14 14")
    state.apply(0, "play K K")
    assert state.turn == 2



@pytest.mark.parametrize("cards", ["K K K", "K K K K"])
def test_kitty_never_makes_a_triple_or_a_quartet(cards: str) -> None:
    # three or four Kitty skip one player, as one does: no extra turn, and the cemetery stays
    state = build(["K K K K", "6 6 6 2", "7 7 7 2", "2 3 3 4"], cemetery="9 10", crypt="10 10 13 13 4 4 14 14")
    state.apply(0, "play " + cards)
    assert state.turn == 2 and state.cemetery == [9, 10] and state.kitty == len(cards.split())

def test_kitty_is_played_alone() -> None:
    for text in ("play K 7", "play K X"):
        with pytest.raises(IllegalAction):
            GAME.parse_action(text)


def test_miss_copy_is_never_alone_nor_only_with_miss_copy_nor_with_kitty() -> None:
    for text in ("play X", "play X X"):
        with pytest.raises(IllegalAction, match="Miss Copy"):
            GAME.parse_action(text)
    state = build(["X X K 9", "6 6 6 2"], crypt="2 2 3 3 4 5 5 5")
    plays = {t for t in legal(state) if t.startswith("play")}
    assert plays == {"play 9", "play 9 X", "play 9 X X", "play K"}


def test_miss_copy_takes_the_value_and_the_power_of_the_ghost_it_copies() -> None:
    state = build(["11 X 6 9", "6 6 6 2", "7 7 7 2"], cemetery="10", crypt="2 2 3 3 4 5 5 5")
    state.apply(0, "play 11 X")  # a jack with its copy: cleared, one more turn
    assert state.cemetery == [] and state.turn == 0
    state = build(["8 X 6 9", "6 6 6 2", "7 7 7 2"], crypt="2 2 3 3 4 5 5 5")
    state.apply(0, "play 8 X")  # an 8 pair: reversed once, and a double
    assert state.direction == -1 and state.turn == 0
    assert state.view(0)["cemetery"] == ["8", "X=8"]


def test_a_hand_of_miss_copy_alone_with_an_empty_cemetery_after_midnight_passes() -> None:
    state = build(["X", "6 6 6 2"], mansions=["9", "9"])
    assert legal(state) == {"pass"}
    state.apply(0, "pass")
    assert state.turn == 1


def test_pass_is_refused_when_anything_else_is_allowed() -> None:
    state = build(["X", "6 6 6 2"], mansions=["9", "9"], cemetery="5")
    assert legal(state) == {"take"}
    with pytest.raises(IllegalAction, match="pass only when nothing else"):
        state.apply(0, "pass")


# --- taking, gambling, midnight ---------------------------------------------------------------------
def test_taking_the_cemetery_puts_it_and_kitty_into_the_hand_and_others_know_those_cards() -> None:
    state = build(["5 6 9 10", "6 6 2 2"], cemetery="3 X=3 12", kitty=1, crypt="2 2 3 4 4 5 5 5")
    state.apply(0, "take")
    assert hand_of(state, 0) == "3 5 6 9 10 12 K X"
    assert state.view(1)["seats"][0]["known"] == ["3", "12", "K", "X"]
    assert state.turn == 1 and state.cemetery == [] and state.kitty == 0


def test_the_cemetery_cannot_be_taken_when_empty() -> None:
    state = build(["5 6 9 10", "6 6 2 2"], crypt="2 2 3 4 4 5 5 5")
    assert "take" not in legal(state)
    with pytest.raises(IllegalAction, match="empty"):
        state.apply(0, "take")


def test_a_cemetery_with_only_kitty_is_not_empty() -> None:
    state = build(["5 6 9 10", "6 6 2 2"], kitty=1, crypt="2 2 3 4 4 5 5 5")
    assert "take" in legal(state)


def test_known_cards_stay_known_until_played() -> None:
    state = build(["5 6 9 10", "6 6 2 2"], cemetery="9 13", crypt="2 2 3 4 4 5 5 5")
    state.apply(0, "take")
    state.apply(1, "play 2")  # top 2
    state.apply(0, "play 9 9")  # one known 9 played (it could have been either)
    assert state.view(1)["seats"][0]["known"] == ["13"]


def test_a_hand_above_4_draws_nothing() -> None:
    state = build(["5 6 9 10 12 13", "6 6 2 2"], crypt="2 2 3 4 4 5 5 5")
    state.apply(0, "play 5")
    assert state.sizes[0] == 5 and len(state.crypt) == 8


def test_gamble_success_plays_the_crypt_card_with_its_powers() -> None:
    state = build(["5 6 9 10", "6 6 2 2"], cemetery="7 9", crypt="2 2 3 4 4 5 5 11")
    state.apply(0, "gamble")
    assert state.cemetery == [] and state.turn == 0  # the jack cleared, play again
    assert state.sizes[0] == 4


def test_gamble_failure_takes_the_cemetery_with_the_turned_card() -> None:
    state = build(["5 6 9 10", "6 6 2 2"], cemetery="7 9", crypt="2 2 3 4 4 5 5 4")
    state.apply(0, "gamble")
    assert hand_of(state, 0) == "4 5 6 7 9 9 10"
    assert state.view(1)["seats"][0]["known"] == ["4", "7", "9"]
    assert state.turn == 1 and state.cemetery == []


def test_a_gambled_lone_miss_copy_is_never_legal() -> None:
    state = build(["5 6 9 10", "6 6 2 2"], cemetery="7", crypt="2 2 3 4 4 5 5 X")
    state.apply(0, "gamble")
    assert hand_of(state, 0) == "5 6 7 9 10 X" and state.turn == 1


def test_a_gambled_kitty_is_always_legal() -> None:
    state = build(["5 6 9 10", "6 6 2 2", "3 3 4 4"], cemetery="3", crypt="2 2 5 5 K")
    state.apply(0, "gamble")
    assert state.kitty == 1 and state.turn == 2


def test_drawing_the_crypts_last_card_makes_it_midnight_at_once_mid_refill() -> None:
    state = build(["5 5 5 10", "6 6 2 2"], crypt="3 4")
    events = state.apply(0, "play 5 5 5")
    assert state.sizes[0] == 3 and state.crypt == []  # only two cards were left to draw
    assert [e.kind for e in events] == ["play", "draw", "midnight"]
    assert state.view(0)["midnight"] is True
    assert "gamble" not in legal(state, 0) and state.turn == 0


def test_gambling_the_crypts_last_card_makes_it_midnight() -> None:
    state = build(["5 6 9 10", "6 6 2 2"], cemetery="7", crypt="8")
    events = state.apply(0, "gamble")
    assert "midnight" in [e.kind for e in events]
    assert state.crypt == [] and state.sizes[0] == 4


def test_before_midnight_there_is_no_mansion_turn_and_after_it_no_gamble() -> None:
    state = build(["5 6 9 10", "6 6 2 2"], crypt="8")
    with pytest.raises(IllegalAction, match="after midnight"):
        state.apply(0, "turn")
    state = build(["5 6 9 10", "6 6 2 2"])
    with pytest.raises(IllegalAction, match="midnight"):
        state.apply(0, "gamble")


def test_the_mansion_card_is_turned_only_with_an_empty_hand_after_midnight() -> None:
    state = build(["5", "6 6 2 2"], mansions=["9 13", "9"], cemetery="4")
    assert "turn" not in legal(state)
    with pytest.raises(IllegalAction, match="empty"):
        state.apply(0, "turn")
    state.apply(0, "play 5")
    state.apply(1, "play 6 6")  # a double: seat 1 plays again
    state.apply(1, "take")
    assert legal(state, 0) == {"turn"}
    state.apply(0, "turn")
    assert state.view(1)["cemetery"] == ["13"] and state.mansions[0] == [9]


def test_an_illegal_mansion_card_is_taken_with_the_cemetery() -> None:
    state = build(["", "6 6 2 2"], mansions=["9 2", "9"], cemetery="5")
    assert legal(state) == {"take", "turn"}
    state.apply(0, "turn")
    assert hand_of(state, 0) == "2 5" and state.mansions[0] == [9] and state.turn == 1


def test_nobody_sees_a_mansion_card_before_it_is_turned_not_even_its_owner() -> None:
    state = GAME.new(3, {}, seed=4)
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        assert all(isinstance(s["mansion"], int) for s in view["seats"])
        assert "mansions" not in view and "seed" not in view


# --- going out and losing ---------------------------------------------------------------------------
def test_a_player_without_hand_and_mansion_is_out_and_the_turn_passes_even_when_a_replay_was_due() -> None:
    state = build(["9 9", "6 6 2 2", "3 3 4 4"], mansions=["", "9", "9"], cemetery="7")
    events = state.apply(0, "play 9 9")
    assert state.is_out[0] and state.out_order == [0]
    assert state.turn == 1
    assert any(e.kind == "out" for e in events)


def test_players_who_are_out_are_skipped() -> None:
    state = build(["", "6 6 2 2", "3 3 4 4", "13"], mansions=["", "9", "9", "9"], out=[0], turn=3, cemetery="7")
    state.apply(3, "play 13")
    assert state.turn == 1


def test_kitty_played_by_a_player_going_out_still_skips_the_next_player() -> None:
    state = build(["K", "6 6 2 2", "3 3 4 4", "5"], mansions=["", "9", "9", "9"])
    state.apply(0, "play K")
    assert state.is_out[0] and state.turn == 2


def test_the_last_player_still_holding_cards_loses_the_round() -> None:
    state = build(["9", "6 6 2 2"], mansions=["", "9"], cemetery="7", options={"match": False})
    state.apply(0, "play 9")
    outcome = state.outcome()
    assert outcome is not None
    assert [r.result for r in outcome.results] == ["win", "loss"]
    assert state.to_act() == frozenset()


# --- match scoring ----------------------------------------------------------------------------------
def finish_round(state, seat: int, text: str):  # type: ignore[no-untyped-def]
    events = state.apply(seat, text)
    return next(e for e in events if e.kind == "round_end")


def test_round_scoring_bouh_to_the_loser_1_each_other_1_more_first_out_2_more_last_out() -> None:
    state = build(["", "", "9", "6 6 2 2"], mansions=["", "", "", "9"], out=[1, 0], turn=2, cemetery="7")
    end = finish_round(state, 2, "play 9")
    assert end.public["loser"] == 3 and end.public["out"] == [1, 0, 2]
    assert end.public["points"] == [1, 2, 3, 0]
    assert state.bouh == [0, 0, 0, 1] and state.points == [1, 2, 3, 0]


def test_a_match_goes_on_inside_the_same_state_with_a_new_deal_and_the_loser_starting() -> None:
    state = build(["", "9", "6 6 2 2"], mansions=["", "", "9"], out=[0], turn=1, cemetery="7", seed=11)
    events = state.apply(1, "play 9")
    assert state.outcome() is None and state.round == 1
    assert state.turn == 2 and state.first == 2
    assert state.sizes == [4, 4, 4] and [len(m) for m in state.mansions] == [10, 10, 10]
    assert where_cards_are(state) == composition("tarot")
    assert "deal" in [e.kind for e in events]
    assert state.view(0)["rounds"][0]["loser"] == 2
    assert state.view(0)["log"][-1][1].startswith("round 2")


def test_the_deal_of_each_round_follows_from_the_seed() -> None:
    def next_round(seed: int) -> list[list[int]]:
        state = build(["", "9", "6 6 2 2"], mansions=["", "", "9"], out=[0], turn=1, cemetery="7", seed=seed)
        state.apply(1, "play 9")
        return state.hands

    assert next_round(11) == next_round(11)
    assert next_round(11) != next_round(12)


def test_the_match_ends_at_a_second_bouh_and_the_winner_has_most_points_among_the_others() -> None:
    state = build(["", "9", "6 6 2 2"], mansions=["", "", "9"], out=[0], turn=1, cemetery="7",
                  points=[3, 4, 9], bouh=[0, 1, 1])
    state.apply(1, "play 9")  # seat 2 gets its second Bouh!; seat 1 ends on 4 + 3 = 7, seat 0 on 3 + 2 = 5
    outcome = state.outcome()
    assert outcome is not None
    assert [r.result for r in outcome.results] == ["loss", "win", "loss"]
    assert [r.rank for r in outcome.results] == [2, 1, 3]
    assert [r.score for r in outcome.results] == [5.0, 7.0, 9.0]


def test_a_tie_for_the_lead_among_the_others_plays_more_rounds_until_one_leads_alone() -> None:
    state = build(["", "9", "6 6 2 2"], mansions=["", "", "9"], out=[0], turn=1, cemetery="7",
                  points=[5, 4, 0], bouh=[0, 0, 1])
    state.apply(1, "play 9")  # seat 2 has two Bouh!, but seats 0 and 1 are tied on 7
    assert state.points == [7, 7, 0] and state.bouh == [0, 0, 2]
    assert state.outcome() is None and state.round == 1
    # next round: seat 1 goes out first, then seat 2, and seat 0 loses: seat 1 leads alone
    state2 = build(["6 6 2 2", "", "9"], mansions=["9", "", ""], out=[1], turn=2, cemetery="7",
                   points=[7, 9, 0], bouh=[0, 0, 2], round_no=1)
    state2.apply(2, "play 9")
    outcome = state2.outcome()
    assert outcome is not None and outcome.results[1].result == "win"


def test_a_two_player_game_is_one_round() -> None:
    state = build(["9", "6 6 2 2"], mansions=["", "9"], cemetery="7")
    state.apply(0, "play 9")
    assert state.outcome() is not None and state.round == 0


def test_a_round_reaching_max_turns_is_a_draw() -> None:
    state = build(["5 6 9 10", "6 6 2 2"], cemetery="7", options={"max_turns": 3}, turns=2)
    state.apply(0, "take")
    outcome = state.outcome()
    assert outcome is not None and {r.result for r in outcome.results} == {"draw"}


def test_a_drawn_round_of_a_match_gives_no_bouh_and_no_points_and_the_match_goes_on() -> None:
    state = build(["5 6 9 10", "6 6 2 2", "3 4 4 13"], cemetery="7", options={"max_turns": 3}, turns=2,
                  points=[1, 2, 3], bouh=[1, 0, 0])
    state.apply(0, "take")
    assert state.outcome() is None and state.round == 1
    assert state.points == [1, 2, 3] and state.bouh == [1, 0, 0]
    assert state.history[-1]["loser"] is None


def test_max_turns_counts_every_action_of_the_round() -> None:
    state = GAME.new(2, {"max_turns": 5}, seed=3)
    for _ in range(5):
        state.apply(state.turn, state.legal_actions(state.turn)[0])
    assert state.outcome() is not None


# --- text forms -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("typed", "canonical"),
    [("play 7 7 X", "play 7 7 X"), ("PLAY x 7", "play 7 X"), ("play k", "play K"), ("play kitty kitty", "play K K"),
     ("play jack", "play 11"), ("take", "take"), ("gamble", "gamble"), ("turn", "turn"), ("pass", "pass")],
)
def test_text_forms_read_back_to_their_canonical_form(typed: str, canonical: str) -> None:
    action = GAME.parse_action(typed)
    assert str(action) == canonical
    assert GAME.parse_action(canonical) == action
    assert GAME.action_from_json(action.to_json()) == action


def test_unreadable_text_says_what_would_work() -> None:
    with pytest.raises(IllegalAction, match="play 7 7 X"):
        GAME.parse_action("jump")
    with pytest.raises(IllegalAction, match="not a card"):
        GAME.parse_action("play 15")


def test_the_help_text_documents_every_form() -> None:
    text = GAME.help_text()
    for form in ("play 7 7 X", "play K", "take", "gamble", "turn", "pass"):
        assert form in text


def test_an_undecided_match_ends_at_max_rounds_and_tied_leaders_draw() -> None:
    state = build(["5 6 9 10", "6 6 2 2", "3 4 4 13"], cemetery="7", options={"max_turns": 3, "max_rounds": 4},
                  turns=2, points=[4, 4, 3], bouh=[1, 0, 0], round_no=3)
    state.apply(0, "take")
    outcome = state.outcome()
    assert outcome is not None
    assert [r.result for r in outcome.results] == ["draw", "draw", "loss"]
    assert [r.rank for r in outcome.results] == [1, 1, 3]


def test_an_undecided_match_at_max_rounds_with_a_single_leader_is_won_by_them() -> None:
    state = build(["5 6 9 10", "6 6 2 2", "3 4 4 13"], cemetery="7", options={"max_turns": 3, "max_rounds": 4},
                  turns=2, points=[4, 5, 3], bouh=[1, 0, 1], round_no=3)
    state.apply(0, "take")
    outcome = state.outcome()
    assert outcome is not None and [r.result for r in outcome.results] == ["loss", "win", "loss"]


def test_kitty_with_only_two_players_left_of_more_gives_the_same_player_another_turn() -> None:
    state = build(["K 5 6 9", "", "3 3 4 4"], mansions=["9", "", "9"], out=[1])
    state.apply(0, "play K")
    assert state.turn == 0


def test_drawn_cards_are_told_to_the_drawer_only() -> None:
    state = build(["5 5 5 10", "6 6 2 2", "3 3 4 4"], crypt="7 8 13")
    events = state.apply(0, "play 5 5 5")
    draw = next(e for e in events if e.kind == "draw")
    assert draw.for_seat(0)["cards"] == ["13", "8", "7"]
    for reader in (None, 1, 2):
        assert "cards" not in draw.for_seat(reader) and draw.for_seat(reader)["count"] == 3


# --- review point 9: option `replay` (a double or triple *may* play again; a quartet or jack *must*) ----------
def test_review_9_a_double_lets_the_player_end_the_turn_under_may() -> None:
    state = build(["9 9 5 6", "6 6 6 2", "7 7 7 2"], crypt="3 3 4 4 13 13 13")
    assert GAME.options(3).replay == "may"  # the default
    state.apply(0, "play 9 9")
    assert state.turn == 0 and "done" in legal(state)
    assert state.view(0)["optional_replay"] is True and state.view(1)["optional_replay"] is True
    events = state.apply(0, "done")
    assert [e.kind for e in events] == ["done"]
    assert state.turn == 1 and "done" not in legal(state)
    assert state.view(0)["log"][-1] == [0, "ends the turn"]


@pytest.mark.parametrize("cards", ["9 9 9", "9 X", "9 9 X"])
def test_review_9_a_triple_or_a_pair_with_miss_copy_also_lets_the_player_choose_under_may(cards: str) -> None:
    state = build(["9 9 9 X", "6 6 6 2"], crypt="3 3 4 4 13 13 13")
    state.apply(0, "play " + cards)
    assert state.turn == 0 and "done" in legal(state)


def test_review_9_under_may_the_player_may_also_play_again() -> None:
    state = build(["9 9 5 10", "6 6 6 2", "7 7 7 2"], crypt="3 3 4 4 13 14 14")
    state.apply(0, "play 9 9")
    assert {"play 10", "play 14", "play 14 14", "take", "gamble", "done"} <= legal(state)
    state.apply(0, "play 10")
    assert state.turn == 1


def test_review_9_done_is_refused_where_there_is_no_optional_extra_turn_and_changes_nothing() -> None:
    state = build(["9 9 5 6", "6 6 6 2", "7 7 7 2"], crypt="3 3 4 4 13 13 13")
    before = state.to_json()
    assert "done" not in legal(state)
    with pytest.raises(IllegalAction, match="only the extra turn a double or triple gives"):
        state.apply(0, "done")
    assert state.to_json() == before


def test_review_9_under_must_done_is_illegal_after_a_double() -> None:
    state = build(["9 9 5 6", "6 6 6 2", "7 7 7 2"], crypt="3 3 4 4 13 13 13", options={"replay": "must"})
    state.apply(0, "play 9 9")
    assert state.turn == 0 and "done" not in legal(state)
    assert state.view(0)["optional_replay"] is False
    before = state.to_json()
    with pytest.raises(IllegalAction, match="replay 'must'"):
        state.apply(0, "done")
    assert state.to_json() == before


@pytest.mark.parametrize("replay", ["may", "must"])
@pytest.mark.parametrize(
    ("hand", "cemetery", "crypt", "action"),
    [
        ("4 4 4 X 5", "13 14", "2 2 3 3 4 5 5 5", "play 4 4 4 X"),  # a quartet from the hand
        ("7 7 5 6", "5 7 X=7", "2 2 3 3 4 4 4 10", "play 7 7"),  # a double that completes a quartet
        ("11 5 6 8", "9 10", "2 2 3 3 4 5 5 5", "play 11"),  # a jack
        ("11 11 5 6", "9 10", "2 2 3 3 4 5 5 5", "play 11 11"),  # a pair of jacks
        ("5 6 9 10", "7 9", "2 2 3 4 4 5 5 11", "gamble"),  # a gambled jack
    ],
)
def test_review_9_a_quartet_or_a_jack_obliges_under_both(
    replay: str, hand: str, cemetery: str, crypt: str, action: str
) -> None:
    state = build([hand, "6 6 6 2", "1 1 12 12"], cemetery=cemetery, crypt=crypt, options={"replay": replay})
    state.apply(0, action)
    assert state.cemetery == [] and state.turn == 0
    assert "done" not in legal(state) and state.view(0)["optional_replay"] is False
    with pytest.raises(IllegalAction, match="must"):
        state.apply(0, "done")


def test_review_9_play_again_never_stacks() -> None:
    # the extra turn of a double is one turn: a single played in it passes the turn on, with no `done` left
    state = build(["9 9 5 10", "6 6 6 2", "7 7 7 2"], crypt="3 3 4 4 13 14 14")
    state.apply(0, "play 9 9")
    state.apply(0, "play 10")
    assert state.turn == 1 and "done" not in legal(state, 1) and not state.optional_replay
    # a pair of jacks is a jack and a double: one extra turn, an obligatory one, and then the turn passes
    state = build(["11 11 5 6", "6 6 6 2", "7 7 7 2"], cemetery="7", crypt="2 2 3 3 4 4 5")
    state.apply(0, "play 11 11")
    assert state.turn == 0 and "done" not in legal(state)
    state.apply(0, "play 6")
    assert state.turn == 1
    # a double played in the extra turn gives its own one extra turn, not two
    state = build(["9 9 10 6", "6 6 6 2", "7 7 7 2"], crypt="3 3 4 4 5 10 14")
    state.apply(0, "play 9 9")  # draws 14 and 10
    state.apply(0, "play 10 10")  # draws 10 and 5
    assert state.turn == 0 and "done" in legal(state)
    state.apply(0, "play 14")
    assert state.turn == 1


def test_review_9_going_out_passes_the_turn_on_even_under_may() -> None:
    state = build(["9 9", "6 6 2 2", "3 3 4 4"], mansions=["", "9", "9"], cemetery="7")
    state.apply(0, "play 9 9")
    assert state.is_out[0] and state.turn == 1
    assert not state.optional_replay and "done" not in legal(state, 1)


def test_review_9_the_refill_happens_before_the_choice() -> None:
    state = build(["9 9 9 X", "6 6 6 2"], crypt="2 2 3 10 13 14")
    events = state.apply(0, "play 9 9 9")
    assert [e.kind for e in events] == ["play", "draw"]
    assert hand_of(state, 0) == "10 13 14 X" and "done" in legal(state)  # refilled to 4, then the choice
    assert {"play 10", "play 13 X", "play 14"} <= legal(state)  # the drawn cards may be played at once
    events = state.apply(0, "done")
    assert [e.kind for e in events] == ["done"]  # ending the turn draws nothing more
    assert hand_of(state, 0) == "10 13 14 X" and state.crypt == [2, 2, 3]


def test_review_9_after_midnight_a_double_also_lets_the_player_choose() -> None:
    state = build(["9 9 5", "6 6 2 2"], mansions=["9", "9"], cemetery="7")
    state.apply(0, "play 9 9")
    assert state.turn == 0 and legal(state) == {"take", "done"}  # a 5 may not follow the 9s
    state.apply(0, "done")
    assert state.turn == 1


def test_review_9_kittys_extra_turn_with_two_players_is_no_optional_replay() -> None:
    state = build(["K 5 6 9", "6 6 6 2"], cemetery="12", crypt="2 2 3 3 4 5 5 5")
    state.apply(0, "play K")
    assert state.turn == 0 and "done" not in legal(state)


def test_review_9_done_reads_back_from_text_and_json() -> None:
    action = GAME.parse_action(" DONE ")
    assert str(action) == "done" and action.to_json() == {"type": "done"}
    assert GAME.parse_action(str(action)) == action == GAME.action_from_json({"type": "done"})
    state = build(["9 9 5 6", "6 6 6 2"], crypt="3 3 4 4 13 13 13")
    state.apply(0, "play 9 9")
    done = next(a for a in state.legal_actions(0) if str(a) == "done")
    assert GAME.action_from_json(done.to_json()) == done == action
    state.apply(0, GAME.action_from_json({"type": "done"}))
    assert state.turn == 1


def test_review_9_the_option_is_checked_and_named() -> None:
    with pytest.raises(OptionError, match="replay"):
        GAME.new(3, {"replay": "sometimes"})
    assert GAME.options_schema()["replay"]["choices"] == ["may", "must"]
    assert "done" in GAME.help_text()


# --- review point 12: malformed action objects and JSON are refused and change nothing ------------------
@pytest.mark.parametrize("text", ["play 7", "play 7 X", "play K"])
def test_review_12_a_play_of_zero_cards_is_refused_and_changes_nothing(text: str) -> None:
    state = build(["7 X K 9", "6 6 6 2"], cemetery="5", crypt="2 2 3 3 4 4 4")
    before = state.to_json()
    with pytest.raises(IllegalAction, match="at least one ghost or Kitty card"):
        state.apply(0, dataclasses.replace(GAME.parse_action(text), count=0))
    with pytest.raises(IllegalAction, match="never copies Kitty"):
        state.apply(0, dataclasses.replace(GAME.parse_action("play K"), copies=1))
    assert state.to_json() == before and state.turn == 0


@pytest.mark.parametrize(
    "data",
    [
        {"type": "play", "value": True, "count": 1},
        {"type": "play", "value": 7, "count": True},
        {"type": "play", "value": 7, "count": 1, "copies": True},
        {"type": "play", "kitty": True},
        {"type": "play", "value": 7.0, "count": 1},
    ],
)
def test_review_12_json_booleans_and_fractions_are_no_card_numbers(data: dict[str, object]) -> None:
    with pytest.raises(IllegalAction, match="whole numbers"):
        GAME.action_from_json(data)
