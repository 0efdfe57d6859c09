"""Build the Ghooost! and The Last tutorial lessons (src/ghostgames/tutorial/lessons/<game>/NN-<slug>.json).

Each lesson's position is a real one: a new game of the engine, dealt or set to the cards the lesson
needs, then, where the lesson follows on from a move (a double, the start of a trick), carried there by
the engine's own `apply`. Cards a lesson does not name are dealt from a fixed shuffle, so running this
again writes the same files; tests/tutorial/test_card_lessons.py checks that the files are what it writes.

    PYTHONPATH=src:. python -m tests.tutorial.card_lessons     # rewrite the lesson files
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ghostgames.games import get_game
from ghostgames.games.ghooost.cards import COPY_BASE, KINDS, KITTY, MANSION_SIZE, MISS_COPY, composition
from ghostgames.games.ghooost.state import GhooostState
from ghostgames.games.thelast.cards import COLOUR_OF, DECK, VALUE_OF, parse_card
from ghostgames.games.thelast.state import DECIDE, PLAY, TheLastState
from ghostgames.rules.contract import JSON

LESSONS = Path(__file__).resolve().parents[2] / "src" / "ghostgames" / "tutorial" / "lessons"
GHOOOST = get_game("ghooost")
THELAST = get_game("thelast")
WIDTH = 110  # lesson files: a list or object this short stays on one line
SEED = 36  # the number: any fixed seed will do, it only deals the cards no lesson names


# --- Ghooost! -----------------------------------------------------------------------------------------
def _kind(word: str) -> int:
    return {"K": KITTY, "X": MISS_COPY}.get(word.upper(), 0) or int(word)


def _kinds(text: str) -> list[int]:
    return [_kind(w) for w in text.split()]


def _counts(text: str) -> list[int]:
    vector = [0] * KINDS
    for k in _kinds(text):
        vector[k] += 1
    return vector


def _entries(text: str) -> list[int]:
    """Cemetery entries bottom to top; 'X=7' is a Miss Copy that copied a 7."""
    return [COPY_BASE + int(w[2:]) if w.upper().startswith("X=") else int(w) for w in text.split()]


def ghooost_position(
    hands: Sequence[str],
    *,
    cemetery: str = "",
    kitty: int = 0,
    crypt: int | None = None,
    crypt_top: str = "",
    mansions: Sequence[int] | None = None,
    mansion_tops: Sequence[str] = (),
    turn: int = 0,
    first: int = 0,
    turns: int = 0,
    out: Sequence[int] = (),
    options: dict[str, Any] | None = None,
    match: tuple[list[int], list[int], list[JSON]] | None = None,
    round_no: int = 0,
    then: Sequence[tuple[int, str]] = (),
) -> GhooostState:
    """A round of `len(hands)` players with these hands and cemetery (bottom to top). Mansions have the
    deal's size unless `mansions` gives their sizes; `mansion_tops`/`crypt_top` name their top cards (the
    top last); the crypt holds `crypt` cards (default: all that is left), the rest lies in the discard.
    `match` = (points, Bouh! tokens, finished rounds). `then`: moves played by the engine afterwards."""
    players = len(hands)
    fresh = GHOOOST.new(players, options or {}, seed=SEED)
    data = fresh.to_json()
    left = composition(data["options"]["deck"])
    named = [*hands, *mansion_tops, crypt_top]
    for k in _kinds(" ".join(named)):
        left[k] -= 1
    for entry in _entries(cemetery):
        left[MISS_COPY if entry > COPY_BASE else entry] -= 1
    left[KITTY] -= kitty
    assert min(left) >= 0, f"more cards than the deck holds: {left}"
    pool = [k for k in range(1, KINDS) for _ in range(left[k])]
    random.Random(SEED).shuffle(pool)
    sizes = list(mansions) if mansions is not None else [MANSION_SIZE[players]] * players
    tops = list(mansion_tops) + [""] * (players - len(mansion_tops))
    mansion_cards = []
    for size, top in zip(sizes, tops, strict=True):
        named_top = _kinds(top)
        fill = size - len(named_top)
        mansion_cards.append(pool[:fill] + named_top)
        del pool[:fill]
    top_cards = _kinds(crypt_top)
    fill = len(pool) if crypt is None else crypt - len(top_cards)
    crypt_cards = pool[:fill] + top_cards
    del pool[:fill]
    discard = [0] * KINDS
    for k in pool:
        discard[k] += 1
    points, bouh, history = match if match is not None else ([0] * players, [0] * players, [])
    data.update(
        round=round_no, first=first, turn=turn, hands=[_counts(h) for h in hands], known=[[0] * KINDS] * players,
        mansions=mansion_cards, crypt=crypt_cards, cemetery=_entries(cemetery), kitty=kitty, discard=discard,
        out_order=list(out), turns=turns, optional_replay=False, points=points, bouh=bouh, history=history,
        log=[[None, f"round {round_no + 1}: seat {first} starts"]],
    )
    state = GHOOOST.load(data)
    assert isinstance(state, GhooostState)
    for seat, action in then:
        state.apply(seat, action)
    return state


# --- The Last -----------------------------------------------------------------------------------------
def _cards(text: str) -> list[int]:
    return [parse_card(w) for w in text.split()]


def thelast_position(
    hands: Sequence[str],
    *,
    players: int = 3,
    points: str,
    first: int,
    avoid: Sequence[str] = (),
    then: Sequence[tuple[int, str]] = (),
    options: dict[str, Any] | None = None,
) -> TheLastState:
    """A round dealt by the engine: `hands` name cards of each hand (with 2 players the ghost's pile third,
    its top card first); `points` the points pile's first cards, the first turned first; the rest of each
    hand and pile comes from a fixed shuffle, never in a colour `avoid` names for that hand (a colour the
    history in `then` shows it lacks). `first` leads the first trick; `then` is played by the engine."""
    state = THELAST.new(players, options or {}, seed=SEED)
    assert isinstance(state, TheLastState)
    size = state.options.hand_size(players)
    count = len(state.hands)
    named = [_cards(h) for h in hands] + [[] for _ in range(count - len(hands))]
    wanted = _cards(points)
    rest = [c for c in DECK if c not in {c for row in named for c in row} | set(wanted)]
    random.Random(SEED).shuffle(rest)
    dealt: list[int] = []
    for p in range(count):
        banned = {COLOUR_OF[parse_card(letter + "1")] for letter in (avoid[p] if p < len(avoid) else "")}
        fill = [c for c in rest if COLOUR_OF[c] not in banned][: size - len(named[p])]
        rest = [c for c in rest if c not in fill]
        row = named[p] + fill
        dealt += list(reversed(row)) if p == state.ghost else row  # the ghost plays from the end of its pile
    pile = wanted + rest[: size - len(wanted)]
    spare = rest[size - len(wanted):]
    state.round_leaders = []
    state.deal_round([], deck=dealt + list(reversed(pile)) + spare, first=first)
    for seat, action in then:
        state.apply(seat, action)
    return state


# --- lessons --------------------------------------------------------------------------------------------
def lesson(
    game: str,
    slug: str,
    state: GhooostState | TheLastState,
    *,
    seat: int = 0,
    goal: JSON,
    show: str,
    wrong: str,
    hints: dict[str, str],
    replies: Sequence[tuple[int, str]] = (),
    options: dict[str, Any] | None = None,
) -> JSON:
    """One lesson file's data. `hints` maps a refusal code (or "default") to the last part of its text key;
    `wrong` is the likely wrong try, which the browser test plays to see it explained."""
    text = f"tutorial.{game}.{slug}"
    return {
        "id": slug,
        "players": state.players,
        "options": options or {},
        "position": state.to_json(),
        "seat": seat,
        "text": text,
        "goal": goal,
        "hints": {code: f"{text}.{name}" for code, name in hints.items()},
        "show": show,
        "replies": [[s, a] for s, a in replies],
        "wrong": wrong,
    }


def actions(*texts: str) -> JSON:
    return {"actions": list(texts)}


BELOW_TOP = {"ghooost.below_top": "hint_below_top"}


def ghooost_lessons() -> list[JSON]:
    """The Ghooost! course: one rule a lesson, two players unless the rule needs more."""
    must = {"replay": "must"}
    return [
        lesson("ghooost", "equal-values", ghooost_position(["9 9 2 13", "3 7 10 14"], cemetery="4 6", turns=2),
               goal=actions("play 9 9"), show="play 9 9", wrong="play 9", hints={"default": "hint", **BELOW_TOP}),
        lesson("ghooost", "climbing", ghooost_position(["4 8 10 14", "2 6 9 14"], cemetery="5 8", turns=2),
               goal=actions("play 8", "play 10", "play 14"), show="play 10", wrong="play 4",
               hints={"default": "hint", **BELOW_TOP}, replies=[(1, "play 14")]),
        lesson("ghooost", "after-three", ghooost_position(["5 9 12 13", "1 6 7 10"], cemetery="2 3", turns=2),
               goal=actions("play 12"), show="play 12", wrong="play 13",
               hints={"default": "hint", "ghooost.after_three": "hint_after_three"}, replies=[(1, "play 1")]),
        lesson("ghooost", "miss-copy", ghooost_position(["9 9 X 4", "2 5 8 13"], cemetery="6 7", turns=2),
               goal=actions("play 9 X", "play 9 9 X"), show="play 9 9 X", wrong="play X",
               hints={"default": "hint", "unreadable": "hint_alone", **BELOW_TOP}),
        lesson("ghooost", "kitty", ghooost_position(["K 5 6 2", "3 4 7 14", "13 2 6 9"], cemetery="10 13", turns=2,
                                                    first=1),
               goal=actions("play K"), show="play K", wrong="play 6",
               hints={"default": "hint", "unreadable": "hint_alone", **BELOW_TOP}, replies=[(2, "play 13")]),
        lesson("ghooost", "jack", ghooost_position(["11 2 3 5", "4 7 8 10"], cemetery="4 6 6 9", turns=4),
               goal=actions("play 11"), show="play 11", wrong="play 5", hints={"default": "hint", **BELOW_TOP}),
        lesson("ghooost", "quartet", ghooost_position(["5 5 5 X", "2 6 9 14"], cemetery="3 12", turns=2),
               goal=actions("play 5 5 5 X"), show="play 5 5 5 X", wrong="play 5 5 5",
               hints={"default": "hint", "ghooost.after_twelve": "hint_after_twelve"}),
        lesson("ghooost", "take", ghooost_position(["4 5 7 9", "2 8 10 13"], cemetery="6 9 12", turns=3, first=1),
               goal=actions("take"), show="take", wrong="play 9",
               hints={"default": "hint", "ghooost.after_twelve": "hint_after_twelve"}, replies=[(1, "play 2")]),
        lesson("ghooost", "gamble", ghooost_position(["2 3 4 5", "3 6 8 9"], cemetery="7 10", crypt_top="13",
                                                     turns=2),
               goal=actions("gamble"), show="gamble", wrong="take", hints={"default": "hint", **BELOW_TOP},
               replies=[(1, "take")]),
        lesson("ghooost", "replay-may", ghooost_position(["9 9 4 5", "3 6 8 10"], cemetery="5 7", crypt_top="K 1",
                                                         turns=2, then=[(0, "play 9 9")]),
               goal=actions("done"), show="done", wrong="play 1", hints={"default": "hint", **BELOW_TOP},
               replies=[(1, "play 10")]),
        lesson("ghooost", "replay-must", ghooost_position(["9 9 2 4", "3 6 8 12"], cemetery="5 7", crypt_top="5 10",
                                                          turns=2, options=must, then=[(0, "play 9 9")]),
               goal=actions("play 10"), show="play 10", wrong="done",
               hints={"default": "hint", "ghooost.never_done": "hint_never_done", **BELOW_TOP},
               replies=[(1, "play 12")], options=must),
        lesson("ghooost", "midnight", ghooost_position(["", "4 6 13"], cemetery="2 6", crypt=0, mansions=[5, 6],
                                                       mansion_tops=["9"], turns=48, first=1),
               goal=actions("turn"), show="turn", wrong="gamble",
               hints={"default": "hint", "ghooost.no_gamble": "hint_no_gamble"}, replies=[(1, "play 13")]),
        lesson("ghooost", "bouh", bouh_position(), goal=actions("play 13"), show="play 13", wrong="take",
               hints={"default": "hint", "ghooost.turn_empty_hand": "hint_turn_empty_hand"}),
    ]


def bouh_position() -> GhooostState:
    """The third round of a three-player match: seat 2 went out first, seat 1 already holds a Bouh!, and
    seat 0 can go out with its last card. Points so far follow from the two rounds in `history`."""
    rounds: list[JSON] = [
        {"round": 0, "loser": 1, "out": [0, 2], "points": [2, 0, 3], "turns": 61},
        {"round": 1, "loser": 2, "out": [1, 0], "points": [3, 2, 0], "turns": 74},
    ]
    points = [sum(r["points"][s] for r in rounds) for s in range(3)]
    return ghooost_position(["13", "2 5 7", ""], cemetery="8 10", crypt=0, mansions=[0, 3, 0], turns=57,
                            out=[2], first=2, round_no=2, match=(points, [0, 1, 1], rounds))


def trick_won_by(who: str) -> JSON:
    return {"predicate": "trick_won_by", "args": {"who": who}}


LAST_MUST_FOLLOW = {"default": "hint", "thelast.last_must_follow": "hint_last_must_follow"}


def thelast_lessons() -> list[JSON]:
    """The Last course: three players, then the ghost of the two-player game."""
    return [
        lesson("thelast", "follow",
               thelast_position(["R7", "R3 R10 B5 B8 B12 G2 G9 G12 Y1 Y4 Y6 Y11", "R12"], points="G6", first=0,
                                then=[(0, "play R7")]),
               seat=1, goal=actions("play R3", "play R10"), show="play R10", wrong="play B5",
               hints={"default": "hint", "thelast.must_follow": "hint_must_follow"},
               replies=[(2, "play R12"), (2, "keep")]),
        lesson("thelast", "last-player",
               thelast_position(["R5", "B9", "R11 B4 B10 G1 G3 G5 G8 G11 Y2 Y7 Y10 Y12"], points="G10", first=0,
                                avoid=["", "R"], then=[(0, "play R5"), (1, "play B9")]),
               seat=2, goal=trick_won_by("other"), show="play B4", wrong="play G3", hints=LAST_MUST_FOLLOW,
               replies=[(1, "keep")]),
        lesson("thelast", "points-card",
               thelast_position(["R4", "R8", "R2 R10 B1 B6 B7 G2 G7 G11 Y3 Y5 Y8 Y9"], points="Y1", first=0,
                                then=[(0, "play R4"), (1, "play R8")]),
               seat=2, goal=trick_won_by("me"), show="play R10", wrong="play R2", hints=LAST_MUST_FOLLOW),
        lesson("thelast", "keep-swap",
               thelast_position(["G12 Y1 R2 R7 R9 B3 B6 B12 G1 G6 Y8 Y10", "G5", "G9"], points="B11", first=1,
                                then=[(1, "play G5"), (2, "play G9"), (0, "play G12")]),
               goal={"predicate": "swaps_lower", "args": {}}, show="swap Y1", wrong="keep",
               hints={"default": "hint", "thelast.decide_first": "hint_decide_first"}),
        penalties_lesson(),
        lesson("thelast", "ghost",
               thelast_position(["Y5 B4 B2 B5 R9 R11 G1 G6 G10 Y1 Y8 Y11", "Y2 R3 G3", "Y9 B7 G8"],
                                points="G4 Y12", first=1, avoid=["", "B"], players=2,
                                then=[(1, "play Y2"), (0, "play Y5"), (1, "play R3")]),
               goal=trick_won_by("ghost"), show="play B4", wrong="play G6", hints=LAST_MUST_FOLLOW,
               replies=[(1, "play G3")]),
    ]


def penalties_lesson() -> JSON:
    """The next-to-last trick of a round played out by the engine: the learner plays last with two cards,
    one that wins the 12 on the points card and one that leaves it to another, and only the second ends
    the round with the lowest penalty. Dealt hands are searched for one where that holds."""
    for seed in range(1000):
        found = _penalties_from(seed)
        if found is not None:
            return found
    raise AssertionError("no deal gives the penalties lesson")


def _penalties_from(seed: int) -> JSON | None:
    rng = random.Random(seed)
    state = THELAST.new(3, {}, seed=seed)
    assert isinstance(state, TheLastState)
    twelve = [c for c in state.points if VALUE_OF[c] == 12]
    if not twelve:
        return None
    # The 12 is turned at the next-to-last trick: move it to that place in the pile (index 1 from the bottom).
    pile = [*state.points, state.points_card]
    pile.remove(twelve[0])
    pile.insert(1, twelve[0])
    state.points_card = pile.pop()
    state.points = pile
    while len(state.tricks) < 10 or state.phase != PLAY or len(state.trick_cards) < 2:
        seat = next(iter(state.to_act()))
        options = state.legal_actions(seat)
        state.apply(seat, options[0] if state.phase == DECIDE else rng.choice(options))
    seat = next(iter(state.to_act()))
    outcomes: dict[str, tuple[bool, bool]] = {}
    for action in state.legal_actions(seat):
        after = state.clone()
        after.apply(seat, action)
        mine = after.tricks[-1][3] == seat
        replies = _play_out(after)
        totals = after.totals()
        lowest = totals[seat] < min(t for s, t in enumerate(totals) if s != seat)
        outcomes[str(action)] = (mine, lowest)
        if not mine and lowest:
            show, reply = str(action), replies
        else:
            wrong = str(action)
    if sorted(outcomes.values()) != [(False, True), (True, False)]:
        return None
    return lesson("thelast", "penalties", state, seat=seat, goal=trick_won_by("other"), show=show, wrong=wrong,
                  hints={"default": "hint"}, replies=reply)


def _play_out(state: TheLastState) -> list[tuple[int, str]]:
    """Finish the round: winners keep their points card, everybody plays the one card they may."""
    moves = []
    while not state.is_over():
        seat = next(iter(state.to_act()))
        action = str(state.legal_actions(seat)[0])
        state.apply(seat, action)
        moves.append((seat, action))
    return moves


BUILDERS: dict[str, Callable[[], list[JSON]]] = {"ghooost": ghooost_lessons, "thelast": thelast_lessons}


def lesson_files() -> dict[Path, str]:
    """Every lesson file's path and text, as this module builds them."""
    files = {}
    for game, build in BUILDERS.items():
        for number, data in enumerate(build(), start=1):
            path = LESSONS / game / f"{number:02d}-{data['id']}.json"
            files[path] = layout(data) + "\n"
    return files


def layout(value: Any, indent: str = "") -> str:
    """JSON with one line per field, and any list or object that fits on a line kept on one."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (list, dict)) or len(indent) + len(flat) <= WIDTH:
        return flat
    inner = indent + " "
    if isinstance(value, list):
        items = [inner + layout(v, inner) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    fields = [f"{inner}{json.dumps(k)}: {layout(v, inner)}" for k, v in value.items()]
    return "{\n" + ",\n".join(fields) + "\n" + indent + "}"


def main() -> None:
    for game in BUILDERS:
        for old in (LESSONS / game).glob("*.json"):
            old.unlink()
    for path, text in lesson_files().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(path.relative_to(LESSONS.parents[3]))


if __name__ == "__main__":
    main()
