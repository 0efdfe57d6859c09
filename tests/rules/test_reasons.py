"""Reason codes: outcomes and refusals carry a declared code and its arguments, the English words are made
from them, old outcomes stored as words alone still load, and docs/protocol.md lists exactly the codes."""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path

import pytest

from ghostgames.games import GAMES, get_game
from ghostgames.games.geister import fast
from ghostgames.rules.contract import IllegalAction, Outcome, SeatResult
from ghostgames.rules.reasons import REASONS, RESIGNED, Reason, ending, read_ending

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
WIN_LOSS = (SeatResult("win", 1, 1.0), SeatResult("loss", 2, 0.0))

# Every outcome a game stored before codes existed, as words, with the code and arguments it reads back to.
OLD_WORDS = [
    ("a good ghost reached an exit", "reached", {}),
    ("a good ghost escaped", "escaped", {}),
    ("captured all four good ghosts", "good_captured", {}),
    ("captured all four bad ghosts", "bad_captured", {}),
    ("the 300-move limit was reached", "ply_limit", {"max_plies": 300}),
    ("seat 1 is the last holding cards", "round_loser", {"seat": 1}),
    ("the round reached 1000 turns", "turn_limit", {"turns": 1000}),
    ("seat 2 wins the match with 31 points", "match_won", {"seat": 2, "points": 31}),
    ("the match reached 30 rounds", "round_limit", {"rounds": 30}),
    ("lowest penalty: 7", "lowest_penalty", {"penalty": 7}),
    ("all tied on 12", "all_tied", {"penalty": 12}),
    ("seat 0 resigned", "resigned", {"seat": 0}),
    ("claimed win: idle", "claimed_win", {}),
    ("claimed draw: idle", "claimed_draw", {}),
]


@pytest.mark.parametrize(("words", "code", "args"), OLD_WORDS)
def test_an_outcome_stored_as_words_loads_with_its_code(words: str, code: str, args: dict[str, int]) -> None:
    old = {"results": [r.to_json() for r in WIN_LOSS], "reason": words}
    outcome = Outcome.from_json(old)
    assert (outcome.code, dict(outcome.args), outcome.reason) == (code, args, words)
    # the words made from the code are the words stored: old clients and logs see no change
    assert Outcome(outcome.results, code, args).reason == words
    assert Outcome.from_json(outcome.to_json()) == outcome


def test_words_no_game_makes_load_as_legacy_and_keep_the_words() -> None:
    old = {"results": [r.to_json() for r in WIN_LOSS], "reason": "time"}  # a competition server's forfeit
    outcome = Outcome.from_json(old)
    assert (outcome.code, dict(outcome.args), outcome.reason) == ("legacy", {"text": "time"}, "time")
    assert outcome.to_json()["reason"] == "time"
    assert read_ending("seat x resigned") == ("resigned", {"seat": "x"})  # only whole numbers become ints


def test_an_outcome_from_a_code_has_english_words_and_round_trips() -> None:
    outcome = Outcome.winner_takes_all(2, 1, RESIGNED, seat=0)
    assert outcome.to_json() == {"results": [{"result": "loss", "rank": 2, "score": 0.0},
                                             {"result": "win", "rank": 1, "score": 1.0}],
                                 "reason": "seat 0 resigned", "code": "resigned", "args": {"seat": 0}}
    assert Outcome.from_json(outcome.to_json()) == outcome
    # a code this install does not know keeps the words it came with
    unknown = Outcome.from_json({**outcome.to_json(), "code": "from_the_future", "reason": "later"})
    assert (unknown.code, unknown.reason) == ("from_the_future", "later")


def test_a_code_means_one_thing() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        ending("resigned", "seat {seat} gave up")
    with pytest.raises(ValueError, match="snake_case"):
        ending("Gave Up", "gave up")
    assert ending("resigned", "seat {seat} resigned") == RESIGNED  # the same declaration again is harmless


def test_a_refusal_carries_its_code_and_arguments_across_processes() -> None:
    state = get_game("geister").new(2, seed=1)
    with pytest.raises(IllegalAction) as caught:
        state.apply(0, "b2 n")
    err = caught.value
    assert (err.code, err.rule, err.details) == ("geister.setup_first", "geister.setup_first", {})
    again = pickle.loads(pickle.dumps(err))
    assert (again.reason, again.code, again.details) == (err.reason, err.code, err.details)
    assert again.to_json() == {"message": err.reason, "code": "geister.setup_first", "args": {}}


@pytest.mark.parametrize("game_name", GAMES)
def test_every_refusal_and_ending_in_play_is_declared_with_its_arguments(game_name: str) -> None:
    """Random games, trying the other seats' moves and other legal texts at every step: each refusal and
    each ending has a declared code, and its arguments are the ones its declaration names."""
    game = get_game(game_name)
    rng = random.Random(5)
    refused: set[str] = set()
    endings: set[str] = set()
    for seed in range(12):
        state = game.new(game.max_players if seed % 2 else game.min_players, seed=seed)
        seen_texts: list[str] = []
        while not state.is_over():
            seat = min(state.to_act())
            for other in range(state.players):
                for text in [*rng.sample(seen_texts, min(4, len(seen_texts))), "nonsense 99"]:
                    probe = state.clone()
                    try:
                        probe.apply(other, text)
                    except IllegalAction as err:
                        reason = REASONS["refusal"].get(err.code or "")
                        assert reason is not None, f"{err.reason!r} has no declared code"
                        assert set(err.details) == set(reason.arg_names), err.code
                        refused.add(reason.code)
            legal = state.legal_texts(seat)
            seen_texts = list(dict.fromkeys(seen_texts + legal))[-40:]
            state.apply(seat, rng.choice(legal))
        outcome = state.outcome()
        assert outcome is not None
        declared = REASONS["ending"][outcome.code]
        assert set(outcome.args) == set(declared.arg_names)
        endings.add(outcome.code)
        with pytest.raises(IllegalAction) as over:
            state.apply(0, seen_texts[0])
        assert over.value.code == "game_over"
    assert {"not_your_turn", "unreadable"} <= refused
    assert endings


def test_the_compiled_core_numbers_the_references_endings() -> None:
    """fast.py keeps an ending as a number: its table is made of the reference's declared endings."""
    assert fast.ENDINGS[fast.NO_REASON] is None
    numbered = {r.code for r in fast.ENDINGS if r is not None}
    assert numbered == {"reached", "escaped", "good_captured", "bad_captured", "ply_limit"}
    assert fast.ENDINGS[fast.LIMIT] is not None and fast.ENDINGS[fast.LIMIT].code == "ply_limit"


def documented(kind_heading: str) -> dict[str, set[str]]:
    """The codes of one table of docs/protocol.md §3.11 with the arguments it names."""
    text = PROTOCOL.read_text(encoding="utf-8")
    section = text[text.index("### 3.11") :]
    section = section[section.index(kind_heading) :]
    table = section[: section.index("\n\n", section.index("| --- "))]
    rows = re.findall(r"^\| `([a-z_.]+)` \| ([^|]*) \|", table, re.M)
    return {code: set(re.findall(r"`([a-z_]+)`", args)) for code, args in rows}


@pytest.mark.parametrize(("kind", "heading"), [("ending", "Endings ("), ("refusal", "Refusals (")])
def test_the_protocol_lists_every_code_with_its_arguments(kind: str, heading: str) -> None:
    listed = documented(heading)
    declared: dict[str, Reason] = REASONS[kind]  # type: ignore[index]
    assert set(listed) == set(declared), "docs/protocol.md §3.11 and the declared codes differ"
    for code, reason in declared.items():
        assert listed[code] == set(reason.arg_names), f"{code}: the protocol names other arguments"
