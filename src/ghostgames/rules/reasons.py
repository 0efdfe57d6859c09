"""Reason codes: why a game ended (an `Outcome`'s code) and why an action was refused (an `IllegalAction`'s
code). A code is a short stable name plus arguments (seats counted from 0); the server, the compiled core,
the protocol and the browser all speak in codes, and each language makes its own words from them (the
browser's `reason.<code>` and `rule.<code>` texts). The English words made here are for logs and old
clients. Each game declares its codes in games/<game>/reasons.py; the ones every game shares are here.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["ending", "refusal"]


@dataclass(frozen=True, slots=True)
class Reason:
    """A code and its English words, with `{name}` where an argument goes.

    >>> RESIGNED.words({"seat": 1})
    'seat 1 resigned'
    >>> RESIGNED.read("seat 1 resigned"), RESIGNED.read("seat 1 left")
    ({'seat': 1}, None)
    """

    code: str
    english: str
    kind: Kind

    @property
    def arg_names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(name for _, name, _, _ in string.Formatter().parse(self.english) if name))

    def words(self, args: Mapping[str, Any]) -> str:
        """The English words for these arguments (a missing argument stays as its `{name}`)."""
        return string.Formatter().vformat(self.english, (), _Keep(args))

    def read(self, text: str) -> dict[str, Any] | None:
        """The arguments back from English words this reason made, or None when they are not its words.
        Only for outcomes stored before codes existed; whole numbers come back as ints."""
        seen: set[str] = set()
        pattern = ""
        for literal, name, _, _ in string.Formatter().parse(self.english):
            pattern += re.escape(literal)
            if name:
                pattern += f"(?P={name})" if name in seen else f"(?P<{name}>.+?)"
                seen.add(name)
        found = re.fullmatch(pattern, text)
        if found is None:
            return None
        return {name: int(value) if re.fullmatch(r"-?\d+", value) else value
                for name, value in found.groupdict().items()}


class _Keep(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


# Every code, by kind: one name means one thing in every game (the browser's texts are keyed by code alone).
REASONS: dict[Kind, dict[str, Reason]] = {"ending": {}, "refusal": {}}


def _declare(kind: Kind, code: str, english: str) -> Reason:
    if not re.fullmatch(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)?", code):
        raise ValueError(f"a reason code is snake_case (a refusal may start with its game and a dot): {code!r}")
    reason = Reason(code, english, kind)
    known = REASONS[kind].setdefault(code, reason)
    if known != reason:
        raise ValueError(f"the {kind} code {code!r} is declared twice with different words")
    return reason


def ending(code: str, english: str) -> Reason:
    """Declare why a game may end (an Outcome's code)."""
    return _declare("ending", code, english)


def refusal(code: str, english: str) -> Reason:
    """Declare why an action may be refused (an IllegalAction's code)."""
    return _declare("refusal", code, english)


def english(kind: Kind, code: str, args: Mapping[str, Any]) -> str:
    """The English words for a code, or the code itself when no loaded game declares it."""
    reason = REASONS[kind].get(code)
    return reason.words(args) if reason is not None else code


def read_ending(text: str) -> tuple[str, dict[str, Any]]:
    """The code and arguments of an outcome stored as English words only (before codes): the first
    declared ending whose words match, else `legacy` with the words kept as its argument."""
    for reason in REASONS["ending"].values():
        if reason.code != LEGACY.code and (args := reason.read(text)) is not None:
            return reason.code, args
    return LEGACY.code, {"text": text}


# --- the endings and refusals every game shares -----------------------------------------------------------
LEGACY = ending("legacy", "{text}")  # stored before codes, in words no declared ending makes
RESIGNED = ending("resigned", "seat {seat} resigned")
CLAIMED_WIN = ending("claimed_win", "claimed win: idle")
CLAIMED_DRAW = ending("claimed_draw", "claimed draw: idle")
# a game another server ended by its own verdict (a competition server's timeout or refused move), as a client reads it
SERVER_VERDICT = ending("server_verdict", "decided by the server")

GAME_OVER = refusal("game_over", "the game is over")
NOT_YOUR_TURN = refusal("not_your_turn", "it is not seat {seat}'s turn")
UNREADABLE = refusal("unreadable", "that is not an action of this game")  # text or JSON it cannot read
NO_SUCH_ACTION = refusal("no_such_action", "the game has no such action")  # an action or index it never has
