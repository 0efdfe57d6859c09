"""Fair play in ratings: which finished games may move a rating. Pure checks on a stored record (its game,
seat count, options, who sat where, when it was stored, and each seat's own moves), plus, for the pair
rule, the earlier games that counted. The live fold (storage/ratings.py) and `ghostgames ratings rebuild`
both judge with these functions, so they agree by construction; tables use the settings check to tell
people before a game that it would not count.

A game counts for ratings only when all three rules pass:

1. `too_few_moves` (the game is *aborted* for ratings): every seat made at least its game's
   `min_own_moves` moves itself. A move by a bot that took a person's seat over, or by the bot that
   plays a turn whose clock ran out, is not the person's own. Resigning, leaving or never moving before
   then aborts the game, as on the big chess sites, where a game nobody has played yet is not rated.
2. `nonstandard_settings`: the game was played with its standard settings (`STANDARD`): caps that end
   games early (a ply, turn or round limit) at least the usual length, and no variant that shortens it.
   A rating compares players over the same game; a one-ply Geister is not that game.
3. `pair_limit`: in one game, at most `PAIR_LIMIT` counted games of the same two players in any
   `PAIR_WINDOW`. Repeats add little news about strength and are the cheapest way to move a rating by
   collusion (two accounts, or a person and a bot whose weakness they found).

Bots are players like people here: a bot's rating moves only from games that pass every rule.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

BOT_PREFIX = "bot:"  # a bot's player key (storage/ratings.py): "bot:hard"
PAIR_LIMIT = 5
PAIR_WINDOW = timedelta(hours=24)

# Problem codes (a verdict's reasons; the words a page shows are made from the code and its arguments)
TOO_FEW_MOVES = "too_few_moves"
NONSTANDARD = "nonstandard_settings"
PAIR = "pair_limit"


@dataclass(frozen=True, slots=True)
class Standard:
    """One game's standard settings for rated play, and the moves each seat must make itself.

    `at_least`: an option that caps a game's length; the standard is no cap (None) or at least this.
    `allowed`: an option whose other values change the game into a shorter variant; only these count, from
    the seat count given (`allowed_from`) on. Options named in neither (Geister's exit rule, Ghooost!'s
    deck, who starts) are standard at any value.
    """

    min_own_moves: int
    at_least: Mapping[str, int] = field(default_factory=dict)
    allowed: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    allowed_from: Mapping[str, int] = field(default_factory=dict)  # seats from which `allowed` applies
    defaults: Mapping[str, Any] = field(default_factory=dict)  # the value of an option the record omits

    def describe(self) -> str:
        """The standard settings in words, for errors and log lines."""
        parts = [f"{name} none or at least {low}" if self.defaults.get(name, 0) is None else f"{name} at least {low}"
                 for name, low in self.at_least.items()]
        parts += [f"{name} " + " or ".join(_shown(v) for v in values)
                  + (f" with {self.allowed_from[name]} or more players" if name in self.allowed_from else "")
                  for name, values in self.allowed.items()]
        return ", ".join(parts) or "any settings"


def _shown(value: Any) -> str:
    """An option's value as typed at a table: none, on, off, 300."""
    if value is None or isinstance(value, bool):
        return {None: "none", True: "on", False: "off"}[value]
    return str(value)


STANDARD: dict[str, Standard] = {
    # Real Geister games last about 75 plies (docs/research/geister-learned-value.md) and random play about
    # 140; the Geister AI competition plays to 300. A cap of 300 or more almost never decides a game; a short
    # one turns the game into a race to a draw (30 games at max_plies 1 were how a bot was dragged to 1505). Each side
    # places its ghosts (the setup, one action) and then must make two moves of its own.
    "geister": Standard(min_own_moves=3, at_least={"max_plies": 300}, defaults={"max_plies": None}),
    # The published game plays rounds until somebody holds a second Bouh! (`match`, on by default with 3+
    # players; with 2 a match is one round whatever it says). The round's turn cap and
    # the match's round cap exist only to stop stubborn or random players; below their defaults they
    # decide games. Each seat plays twice.
    "ghooost": Standard(min_own_moves=2, at_least={"max_turns": 1000, "max_rounds": 30},
                        allowed={"match": (None, True)}, allowed_from={"match": 3},
                        defaults={"max_turns": 1000, "max_rounds": 30}),
    # The Last has no cap: every `rounds` value plays whole rounds of the real game. Its smaller decks and
    # shorter hands (for exact methods) are other games. Each seat plays twice.
    "thelast": Standard(min_own_moves=2, allowed={"colours": (4,), "values": (12,), "hand": (None,)},
                        defaults={"colours": 4, "values": 12, "hand": None}),
}


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a game does not count: a code and its arguments (JSON-ready); `message` puts them in words."""

    code: str
    args: dict[str, Any]

    @property
    def setting(self) -> str:
        """A nonstandard setting as typed at a table: "max_plies 1"."""
        return f"{self.args.get('option')} {_shown(self.args.get('value'))}"

    @property
    def message(self) -> str:
        a = self.args
        if self.code == TOO_FEW_MOVES:
            return (f"aborted: seat {a['seat'] + 1} made {a['moves']} of its own moves, and a rated game "
                    f"needs {a['needed']} from every seat")
        if self.code == NONSTANDARD:
            return f"{self.setting} is not a standard setting; rated games use {a['standard']}"
        if self.code == PAIR:
            return (f"{a['players'][0]} and {a['players'][1]} already had {a['games']} rated games in "
                    f"{a['hours']} hours; more of the same pair count once that many hours have passed")
        return self.code

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "args": dict(self.args), "message": self.message}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Problem:
        return cls(str(data["code"]), dict(data.get("args") or {}))


@dataclass(frozen=True, slots=True)
class Verdict:
    """A rated record's judgement: it counts when nothing is wrong with it."""

    problems: tuple[Problem, ...] = ()

    @property
    def counts(self) -> bool:
        return not self.problems

    @property
    def aborted(self) -> bool:
        """Aborted for ratings (too few own moves), as opposed to played but not counted."""
        return any(p.code == TOO_FEW_MOVES for p in self.problems)

    def to_json(self) -> dict[str, Any]:
        return {"counts": self.counts, "problems": [{"code": p.code, "args": p.args} for p in self.problems]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Verdict | None:
        if data is None:
            return None
        return cls(tuple(Problem.from_json(p) for p in data.get("problems") or []))


def settings_problems(game: str, players: int, options: Mapping[str, Any]) -> list[Problem]:
    """Rule 2: the options that are not the game's standard (an unknown game has no standard at all)."""
    standard = STANDARD.get(game)
    if standard is None:
        return [Problem(NONSTANDARD, {"option": "game", "value": game, "standard": "a known game"})]
    problems = []
    for name, low in standard.at_least.items():
        value = options.get(name, standard.defaults.get(name))
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < low):
            problems.append(Problem(NONSTANDARD, {"option": name, "value": value, "at_least": low,
                                                  "standard": standard.describe()}))
    for name, values in standard.allowed.items():
        value = options.get(name, standard.defaults.get(name))
        if players >= standard.allowed_from.get(name, 0) and value not in values:
            problems.append(Problem(NONSTANDARD, {"option": name, "value": value, "allowed": list(values),
                                                  "standard": standard.describe()}))
    return problems


def moves_problems(game: str, own_moves: Sequence[int]) -> list[Problem]:
    """Rule 1: the seats that made fewer than the game's minimum of their own moves."""
    needed = STANDARD[game].min_own_moves if game in STANDARD else 1
    return [Problem(TOO_FEW_MOVES, {"seat": seat, "moves": int(moves), "needed": needed})
            for seat, moves in enumerate(own_moves) if moves < needed]


def moves_in_actions(players: int, actions: Iterable[Sequence[Any]]) -> list[int]:
    """Each seat's moves in a record's actions, whoever made them: the own moves of a record stored before
    they were kept (an upper bound, so such a record is never judged worse than it was)."""
    counts = [0] * players
    for action in actions:
        seat = int(action[0])
        if 0 <= seat < players:
            counts[seat] += 1
    return counts


def record_problems(game: str, players: int, options: Mapping[str, Any], own_moves: Sequence[int]
                    ) -> list[Problem]:
    """Rules 1 and 2, which need nothing but the record itself."""
    return [*moves_problems(game, own_moves), *settings_problems(game, players, options)]


def rated_pairs(keys: Sequence[str]) -> list[tuple[str, str]]:
    """The pairs the pair rule watches in a game: two players rated in it (a key seated twice, two bots of
    one level, keeps its rating and pairs with nobody), at least one of them a person (bots among
    themselves are never rated)."""
    once = sorted({key for key in keys if list(keys).count(key) == 1})
    return [(a, b) for a, b in combinations(once, 2)
            if not (a.startswith(BOT_PREFIX) and b.startswith(BOT_PREFIX))]


def pair_problem(counted_before: Mapping[tuple[str, str], int]) -> Problem | None:
    """Rule 3, given for each pair of the game how many of its games counted in the `PAIR_WINDOW` before
    this one (strictly after its start): the first pair at the limit, if any."""
    for pair in sorted(counted_before):
        if counted_before[pair] >= PAIR_LIMIT:
            return Problem(PAIR, {"players": list(pair), "games": PAIR_LIMIT,
                                  "hours": int(PAIR_WINDOW.total_seconds() // 3600)})
    return None


class PairHistory:
    """When each pair's counted games were stored, for judging records one after another in storage
    order (the rebuild); the live fold asks the database the same question (storage/ratings.py)."""

    def __init__(self) -> None:
        self._times: dict[tuple[str, str, str], list[datetime]] = defaultdict(list)

    def counted_before(self, game: str, pairs: Iterable[tuple[str, str]], when: datetime) -> dict[tuple[str, str], int]:
        since = when - PAIR_WINDOW
        # every earlier counted game of the pair stored after `since`, as the database is asked live (storage
        # order need not be time order across workers, so nothing is dropped as "too old for good")
        return {pair: sum(1 for t in self._times.get((game, *pair), ()) if t > since) for pair in pairs}

    def add(self, game: str, pairs: Iterable[tuple[str, str]], when: datetime) -> None:
        for pair in pairs:
            self._times[(game, *pair)].append(when)


def judge(game: str, players: int, options: Mapping[str, Any], own_moves: Sequence[int],
          counted_before: Mapping[tuple[str, str], int]) -> Verdict:
    """Every rule on one rated record. The pair rule is asked only of a game that passes the others, so a
    pair's aborted games never use up its limit."""
    problems = record_problems(game, players, options, own_moves)
    if not problems:
        found = pair_problem(counted_before)
        if found is not None:
            problems.append(found)
    return Verdict(tuple(problems))
