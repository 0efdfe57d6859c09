"""Exact The Last positions for scenario tests, built as `to_json` data and loaded with `game.load`.

Cards are written as people type them ("R12 B3"). Participants are seats 0..players-1 and, with 2
players, the ghost as participant 2 (its pile written top card first). Cards a test does not place
are put out of play among the spare cards, so the 48 cards stay conserved.
"""

from __future__ import annotations

from collections.abc import Sequence

from ghostgames.games import get_game
from ghostgames.games.thelast.cards import DECK, parse_card
from ghostgames.games.thelast.state import TheLastState

GAME = get_game("thelast")
GHOST = 2


def cards(text: str) -> list[int]:
    return [parse_card(word) for word in text.split()]


def position(
    players: int,
    hands: Sequence[str],
    *,
    points: str = "",
    points_card: str | None = None,
    leader: int = 0,
    first: int | None = None,
    trick: Sequence[tuple[int, str]] = (),
    kept: Sequence[str] = (),
    down: Sequence[str] = (),
    known: Sequence[str] = (),
    mixed: Sequence[str] = (),
    won_by: int | None = None,
    spare: str | None = None,
    rounds: int = 1,
    round_penalties: Sequence[Sequence[int]] = (),
    seed: int = 7,
) -> TheLastState:
    """A position of the current round. `trick` is the trick so far; with `won_by`, the trick is complete
    and won by that seat, who must now decide keep or swap. `kept`/`down`: each participant's face-down
    points cards kept / cards laid down by a swap; `known`: points cards swapped into that hand."""
    count = 3 if players == 2 else players
    first = leader if first is None else first
    ring = [first, 1 - first, GHOST] if players == 2 else list(range(players))
    next_of = {p: ring[(i + 1) % count] for i, p in enumerate(ring)}

    def per(values: Sequence[str]) -> list[list[int]]:
        rows = [cards(v) for v in values]
        return rows + [[] for _ in range(count - len(rows))]

    hand_rows = per(hands)
    for p in range(count):
        if p == GHOST and players == 2:
            hand_rows[p].reverse()  # stored with the top card last
        else:
            hand_rows[p].sort()
    kept_rows, down_rows = per(kept), per(down)
    piles = [k + d for k, d in zip(kept_rows, down_rows, strict=True)]
    points_list = list(reversed(cards(points)))
    points_id = parse_card(points_card) if points_card else points_list.pop()
    plays = [[who, parse_card(c)] for who, c in trick]
    placed = [c for row in hand_rows + piles for c in row] + points_list + [points_id] + [c for _, c in plays]
    spare_list = cards(spare) if spare is not None else [c for c in DECK if c not in placed]
    assert sorted(placed + spare_list) == list(DECK), "each of the 48 cards must be placed exactly once"
    tricks = []
    if won_by is not None:
        tricks.append({"leader": leader, "plays": plays, "points": points_id, "winner": won_by, "taken": ""})
        plays = []
        phase, actor, current = "decide", won_by, won_by
    else:
        phase = "play"
        current = next_of[plays[-1][0]] if plays else leader
        actor = current
    assert actor != GHOST or players != 2, "the position must leave a seat to act"
    data = {
        "game": "thelast",
        "players": players,
        "options": {"rounds": rounds},
        "seed": seed,
        "round": len(round_penalties),
        "round_leaders": [0] * len(round_penalties) + [first],
        "round_penalties": [list(r) for r in round_penalties],
        "ring": ring,
        "hands": hand_rows,
        "piles": piles,
        "shown_hand": per(known),
        "shown_pile": kept_rows,
        "mixed": per(mixed),
        "points": points_list,
        "spare": spare_list,
        "points_card": points_id,
        "leader": leader,
        "current": current,
        "actor": actor,
        "phase": phase,
        "trick": plays,
        "tricks": tricks,
        "outcome": None,
    }
    state = GAME.load(data)
    assert isinstance(state, TheLastState)
    return state
