"""The compiled Ghooost! core (games/ghooost/fast.py) against the reference GhooostState: driven side by side
through random games of 2 to 6 players (both decks, `replay` may and must, single rounds and matches, short
turn and round limits) and through endgame positions cut from them (hands and mansions thinned, a hand of
Miss Copy alone before an empty cemetery). At every position both engines must give the same legal actions
in the same order, the same mask, observation and information state for every seat and the same outcome;
every legal action must give the same next position (the whole fast row, compared with the reference's, the
next deal of a match dealt alike). Each rule path is counted, and every one must have been taken.

The normal suite drives 3,000 positions per player count; `pytest -m slow` drives 100,000 in all.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from ghostgames.games import get_game
from ghostgames.games.ghooost import fast
from ghostgames.games.ghooost.actions import Play
from ghostgames.games.ghooost.cards import COPY_BASE, KINDS, KITTY, MISS_COPY
from ghostgames.games.ghooost.encoding import ACTIONS, action_index
from ghostgames.games.ghooost.state import AGAIN, CLEARED, SKIP, GhooostState

GAME = get_game("ghooost")
Since = tuple[np.ndarray[Any, Any], int]  # a row and the length of its state's log (fast.from_state's `since`)
SCRATCH = np.empty(fast.MAX_ACTIONS, dtype=np.int32)

# Every rule path the drive must take at least once (counted from the reference's actions and events).
PATHS = (
    "play 1", "play 3", "play 12", "play 8 (reverses)", "play jack (clears)", "play Kitty", "Kitty skips a player",
    "Miss Copy copies", "quartet from the hand", "quartet completed on the cemetery", "take", "gamble and play",
    "gamble and take", "midnight", "turn and play", "turn and take", "pass", "replay may: optional extra turn",
    "replay may: done", "replay must: obliged extra turn", "goes out", "round lost (single round)",
    "round drawn at max_turns", "Bouh! (match round lost)", "next round dealt", "match won",
    "match ended at max_rounds", "original deck", "tarot deck",
)  # fmt: skip


MATCH_PATHS = ("Kitty skips a player", "Bouh! (match round lost)", "next round dealt", "match won",
               "match ended at max_rounds")


def random_options(rng: random.Random) -> dict[str, Any]:
    return {
        "deck": rng.choice(("tarot", "original")),
        "replay": rng.choice(("may", "must")),
        "match": rng.choice((None, True, False)),
        "max_turns": rng.choice((1000, rng.randint(100, 400), rng.randint(3, 60))),
        "max_rounds": rng.choice((30, rng.randint(1, 4))),
    }


def assert_same_position(state: GhooostState, row: np.ndarray[Any, Any], since: Since | None,
                         turning: int) -> Since:
    """The fast row is the reference position, and both engines see the same things in it. `since`: an
    earlier position's row and log length (the record of the round is read from the log's new entries
    only); returns this position's."""
    assert_rows_equal(row, fast.from_state(state, since), state, "the position")
    assert fast.outcome(row) == state.outcome()
    over = state.outcome() is not None
    assert fast.seat_to_act(row) == (-1 if over else state.turn)
    n = fast.legal_actions(row, SCRATCH)
    expected = state.legal_actions(state.turn) if not over else []
    assert [ACTIONS[int(i)] for i in SCRATCH[:n]] == expected  # the same order too
    assert fast.action_count(row) == n  # and the random pick's count and k-th action list them alike
    assert [fast.nth_action(row, k) for k in range(n)] == SCRATCH[:n].tolist()
    if n:  # random_action picks the k-th action for a uniform k below the count, as nth_action lists them
        draw = fast.new_rng(len(state.log) + n)
        k = fast.random_below(draw.copy(), 0, n)
        assert fast.random_action(row, draw, 0) == SCRATCH[k]
    mask = np.empty(fast.ACTION_COUNT, dtype=np.int8)
    for seat in range(state.players):
        fast.legal_mask(row, seat, mask)
        np.testing.assert_array_equal(mask.astype(bool), state.legal_mask(seat))
    # The encodings of two seats (the reference's cost most of the test's time): the seat to act and one
    # that turns with each position, so that every seat row of every player count is compared.
    for seat in {state.turn, turning % state.players}:
        want = state.encode_info_state(seat)
        got = fast.information_state(row, seat)
        seen = fast.observation(row, seat)
        assert list(got) == list(want)
        for name, array in want.items():
            if not np.array_equal(got[name], array) or (name in seen and not np.array_equal(seen[name], array)):
                np.testing.assert_array_equal(got[name], array, err_msg=f"{name} for seat {seat}\n{state}")
                np.testing.assert_array_equal(seen[name], array, err_msg=f"{name} for seat {seat}\n{state}")
    return row.copy(), len(state.moves)


def count_paths(state: GhooostState, action: Any, events: list[Any], after: GhooostState, seen: Counter[str]) -> None:
    """Name the rule paths one reference action took."""
    kinds = {e.kind: e for e in events}
    if type(action) is Play:
        value, effect = action.value, kinds["play"].public["effect"]
        seen.update({1: ["play 1"], 3: ["play 3"], 12: ["play 12"], 8: ["play 8 (reverses)"],
                     11: ["play jack (clears)"], KITTY: ["play Kitty"]}.get(value, []))
        if value == KITTY and effect & SKIP and state.players - len(state.out_order) >= 3:
            seen["Kitty skips a player"] += 1
        if action.copies:
            seen["Miss Copy copies"] += 1
        if action.size >= 4:
            seen["quartet from the hand"] += 1
        elif effect & CLEARED and value != 11:
            seen["quartet completed on the cemetery"] += 1
        if effect & AGAIN and not effect & CLEARED and state.options.replay == "must" and "out" not in kinds:
            seen["replay must: obliged extra turn"] += 1
    for kind in ("gamble", "turn"):
        if kind in kinds:
            seen[f"{kind} and {'play' if kinds[kind].public['played'] else 'take'}"] += 1
    for kind, path in (("take", "take"), ("pass", "pass"), ("done", "replay may: done"), ("midnight", "midnight"),
                       ("out", "goes out")):
        if kind in kinds:
            seen[path] += 1
    if after.optional_replay:
        seen["replay may: optional extra turn"] += 1
    if "round_end" in kinds:
        loser = kinds["round_end"].public["loser"]
        if loser is None:
            seen["round drawn at max_turns"] += 1
        elif state.match_on:
            seen["Bouh! (match round lost)"] += 1
        else:
            seen["round lost (single round)"] += 1
    if "deal" in kinds:
        seen["next round dealt"] += 1
    if "end" in kinds:
        code = kinds["end"].public["code"]
        seen.update({"match_won": ["match won"], "round_limit": ["match ended at max_rounds"]}.get(code, []))


def assert_rows_equal(row: np.ndarray[Any, Any], expected: np.ndarray[Any, Any], state: GhooostState,
                      what: str) -> None:
    """Equal rows, or a failure that names the first field that differs and shows the position."""
    if not np.array_equal(row, expected):
        first = int(np.flatnonzero(row != expected)[0])
        field = max((at, name) for name, at in fast.OFFSETS.items() if at <= first)
        raise AssertionError(f"{what}: the rows differ first in {field[1]} + {first - field[0]}\n{state}\n"
                             f"fast {row[row != expected]}\nreference {expected[row != expected]}")


def assert_every_action_agrees(state: GhooostState, row: np.ndarray[Any, Any], since: Since,
                               seen: Counter[str]) -> None:
    """Each legal action gives the same next position in both engines (a due deal dealt as the reference
    dealt it)."""
    if state.outcome() is not None:
        return
    for action in state.legal_actions(state.turn):
        after = state.clone()
        events = after.apply(state.turn, action)
        count_paths(state, action, events, after, seen)
        fast_after = row.copy()
        fast.apply_action(fast_after, action_index(action))
        if after.round != state.round:
            assert fast_after[fast.STATUS] == fast.DEALING and fast.seat_to_act(fast_after) == -2
            loser = after.history[-1]["loser"]
            assert fast_after[fast.NEXT_STARTER] == (-1 if loser is None else loser)
            fast.deal(fast_after, fast.deck_order(after), after.first)
        assert_rows_equal(fast_after, fast.from_state(after, since), state, f"after {action}")


def endgame(state: GhooostState, rng: random.Random) -> GhooostState:
    """A position cut from a game after midnight: cards moved from hands, mansions and the cemetery to the
    discard (the 62 cards still add up), so that players go out, rounds end and, now and then, the seat to
    move holds Miss Copy alone before an empty cemetery (it must pass)."""
    data = state.to_json()
    discard = data["discard"]
    seat = data["turn"]
    if rng.random() < 0.3 and data["hands"][seat][MISS_COPY]:
        hand = data["hands"][seat]
        for kind in range(KINDS):
            if kind != MISS_COPY:
                discard[kind] += hand[kind]
                hand[kind] = 0
        for entry in data["cemetery"]:
            discard[MISS_COPY if entry > COPY_BASE else entry] += 1
        data["cemetery"] = []
        discard[KITTY] += data["kitty"]
        data["kitty"] = 0
        data["known"][seat] = [min(k, h) for k, h in zip(data["known"][seat], hand, strict=True)]
    else:
        for s in range(data["players"]):
            if s in data["out_order"]:
                continue
            hand, mansion = data["hands"][s], data["mansions"][s]
            for kind in range(KINDS):
                drop = sum(rng.random() < 0.8 for _ in range(hand[kind]))  # a few cards stay
                hand[kind] -= drop
                discard[kind] += drop
            keep = rng.randint(0, min(len(mansion), 2))
            for card in mansion[keep:]:
                discard[card] += 1
            del mansion[keep:]
            data["known"][s] = [min(k, h) for k, h in zip(data["known"][s], hand, strict=True)]
            if not sum(hand) and not mansion and s != seat:
                mansion.append(next(k for k in range(1, KINDS) if discard[k]))
                discard[mansion[0]] -= 1
        if not sum(data["hands"][seat]) and not data["mansions"][seat]:
            data["mansions"][seat].append(next(k for k in range(1, KINDS) if discard[k]))
            discard[data["mansions"][seat][0]] -= 1
    data["optional_replay"] = data["optional_replay"] and bool(sum(data["hands"][seat]) or data["mansions"][seat])
    cut = GAME.load(data)
    assert isinstance(cut, GhooostState)
    return cut


def drive(players: int, positions: int, seed: int) -> tuple[int, Counter[str]]:
    """Drive both engines through `positions` positions of `players`: random games from the deal to the
    end, each engine applying the same actions to its own position, and endgames cut from them."""
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    checked = 0

    def check(state: GhooostState, row: np.ndarray[Any, Any], since: Since | None) -> Since:
        nonlocal checked
        now = assert_same_position(state, row, since, checked)
        assert_every_action_agrees(state, row, now, seen)
        checked += 1
        return now

    while checked < positions:
        new = GAME.new(players, random_options(rng), seed=rng.randrange(2**32))
        assert isinstance(new, GhooostState)
        seen[f"{new.options.deck} deck"] += 1
        row = np.empty(fast.FIELDS, dtype=np.int32)
        fast.new_game(row, players, *fast.options_of(new.options, players), new.first)
        assert fast.seat_to_act(row) == -2
        fast.deal(row, fast.deck_order(new), new.first)
        state = new
        cuts, cut_round = 0, -1
        since = None
        while checked < positions:
            # Random rounds are long (most reach max_turns): a random 15% of their positions is
            # checked (each action still moves both engines), so that the checks spread over many games.
            if since is None or state.outcome() is not None or rng.random() < 0.15:
                since = check(state, row, since)
            if state.outcome() is not None:
                break
            if not state.crypt and (cuts < 3 or cut_round != state.round) and rng.random() < 0.08:
                # play on from an endgame cut: rounds of random play seldom end otherwise
                cuts = cuts + 1 if cut_round == state.round else 1
                cut_round = state.round
                state = endgame(state, rng)
                row = fast.from_state(state, since)
                since = check(state, row, since)
            action = rng.choice(state.legal_actions(state.turn))
            before = state.round
            state.apply(state.turn, action)
            fast.apply_action(row, action_index(action))
            if state.round != before:
                fast.deal(row, fast.deck_order(state), state.first)
    return checked, seen


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_fast_core_agrees_with_the_reference_on_thousands_of_positions(players: int) -> None:
    checked, seen = drive(players, 3000, seed=37 + players)
    assert checked >= 3000
    print(f"\n{players} players, {checked} positions; rule paths taken:",
          ", ".join(f"{path} {seen[path]}" for path in PATHS))
    # Two players play one round (no match), and a Kitty there gives the player another turn (no skip).
    expected = [path for path in PATHS if players >= 3 or path not in MATCH_PATHS]
    missing = [path for path in expected if not seen[path]]
    assert not missing, f"rule paths never taken: {missing}"


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_fast_core_agrees_with_the_reference_on_over_100000_positions() -> None:
    total: Counter[str] = Counter()
    checked = 0
    for players in (2, 3, 4, 5, 6):
        n, seen = drive(players, 20_000, seed=3700 + players)
        checked += n
        total.update(seen)
    print(f"\n{checked} positions; rule paths taken:", ", ".join(f"{path} {total[path]}" for path in PATHS))
    assert checked >= 100_000 and all(total[path] for path in PATHS)


def test_the_action_indices_are_the_encodings() -> None:
    """The core decodes the encoding's indices itself: its named indices must be the encoding's."""
    names = {fast.TAKE_ACTION: "take", fast.GAMBLE_ACTION: "gamble", fast.TURN_ACTION: "turn",
             fast.PASS_ACTION: "pass", fast.DONE_ACTION: "done"}
    for index, text in names.items():
        assert str(ACTIONS[index]) == text
    assert str(ACTIONS[fast.KITTY_BASE]) == "play K" and len(ACTIONS) == fast.ACTION_COUNT
    for index in range(fast.KITTY_BASE):
        play = ACTIONS[index]
        assert isinstance(play, Play)
        assert index == (play.value - 1) * fast.PER_VALUE + (play.count - 1) * 5 + play.copies


def test_random_actions_of_the_core_replay_action_for_action_in_the_reference() -> None:
    """random_action (the benchmark's pick) plays only legal actions: the reference, given them and the
    same deals, stays equal to the row to the end of single rounds and matches."""
    rng = fast.new_rng(11)
    endings: set[str] = set()
    for game in range(40):
        players = 2 + game % 5
        options = {"match": game % 3 != 0, "max_rounds": 3, "max_turns": (300, 40)[game % 2],
                   "replay": ("may", "must")[game % 4 // 2], "deck": ("tarot", "original")[game % 7 % 2]}
        state = GAME.new(players, options, seed=game)
        assert isinstance(state, GhooostState)
        row = fast.from_state(state)
        while fast.seat_to_act(row) != -1:
            since = (row.copy(), len(state.moves))
            action = fast.random_action(row, rng, 0)
            fast.apply_action(row, action)
            state.apply(state.turn, ACTIONS[action])
            if fast.seat_to_act(row) == -2:
                fast.deal(row, fast.deck_order(state), state.first)
            assert_rows_equal(row, fast.from_state(state, since), state, f"after {action}")
        assert fast.outcome(row) == state.outcome()
        endings.add(state.outcome().code)  # type: ignore[union-attr]
    # Uniformly random rounds nearly always reach max_turns; the losers' endings are driven above, from cuts.
    assert {"turn_limit", "round_limit"} <= endings


def test_the_cores_own_deals_and_playouts_keep_the_62_cards_and_reach_an_end() -> None:
    """deal_random shuffles the deck of the option (every card once) and starts with NEXT_STARTER; the
    playout kernel ends every game, and no card is lost or doubled on the way."""
    rng = fast.new_rng(12)
    row = np.empty(fast.FIELDS, dtype=np.int32)
    starters = set()
    for game in range(200):
        players, deck = 2 + game % 5, game % 2
        fast.new_game(row, players, deck, game % 3 % 2, int(players >= 3), 1000, 4, -1 if game % 4 else 1)
        fast.deal_random(row, rng, 0)
        assert row[fast.STATUS] == fast.RUNNING and (game % 4 or row[fast.FIRST] == 1)
        starters.add(int(row[fast.FIRST]))
        assert cards_of(row) == fast.COMPOSITION[deck].tolist()
        actions = fast.random_playout(row, rng, 0)
        assert actions > 0 and fast.seat_to_act(row) == -1 and fast.outcome(row) is not None
        assert cards_of(row) == fast.COMPOSITION[deck].tolist()
    assert starters == set(range(6))


def cards_of(row: np.ndarray[Any, Any]) -> list[int]:
    """Cards of each kind over every zone of a row."""
    total = [int(c) for c in row[fast.DISCARD : fast.DISCARD + KINDS]]
    for seat in range(int(row[fast.PLAYERS])):
        for kind in range(KINDS):
            total[kind] += int(row[fast.HANDS + seat * KINDS + kind])
        for j in range(int(row[fast.MANSION_COUNT + seat])):
            total[int(row[fast.MANSIONS + seat * fast.MANSION_CAP + j])] += 1
    for j in range(int(row[fast.CRYPT_COUNT])):
        total[int(row[fast.CRYPT + j])] += 1
    for j in range(int(row[fast.CEMETERY_COUNT])):
        entry = int(row[fast.CEMETERY + j])
        total[MISS_COPY if entry > COPY_BASE else entry] += 1
    total[KITTY] += int(row[fast.KITTY_COUNT])
    return total


def test_a_row_without_the_record_plays_as_the_row_with_it() -> None:
    """from_state(record=False) (the search's conversion) is the full row with the round's record left
    empty, and every legal action takes both to the same position outside the record."""
    checked = 0
    for game in range(12):
        players = 2 + game % 5
        options = {"match": game % 2 == 0, "max_turns": 120, "deck": ("tarot", "original")[game % 3 % 2]}
        state = GAME.new(players, options, seed=100 + game)
        rng = random.Random(game)
        step = 0
        while state.to_act():
            seat = min(state.to_act())
            if step % 5 == 0:
                assert isinstance(state, GhooostState)
                full, bare = fast.from_state(state), fast.from_state(state, record=False)
                assert bare[fast.DECISIONS] == 0 and not bare[fast.SEAT_CARDS :].any()
                game_part = np.arange(fast.FIELDS) < fast.SEAT_CARDS
                game_part[fast.DECISIONS] = False
                assert (full[game_part] == bare[game_part]).all()
                for action in SCRATCH[: fast.legal_actions(full, SCRATCH)]:
                    after_full, after_bare = full.copy(), bare.copy()
                    fast.apply_action(after_full, int(action))
                    fast.apply_action(after_bare, int(action))
                    assert (after_full[game_part] == after_bare[game_part]).all()
                    checked += 1
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            step += 1
    assert checked > 2000
