"""Across 10,000 random positions of each game, no view, event or log line tells a reader anything that
reader may not know. The method is in secrecy.py; this module adds each game's list of hidden facts."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from ghostgames.games import GAMES
from ghostgames.rules.contract import State
from tests.security.secrecy import Check, Tally, run

POSITIONS = 10_000


def _list_check(target: list[Any]) -> Check:
    return lambda facts: facts.holds_list(target)


def geister_secrets(state: Any, reader: int | None) -> list[tuple[str, Check]]:
    """The colour of every ghost the reader may not know (its owner's secret until captured or disclosed)."""
    out: list[tuple[str, Check]] = []
    for ghost in range(16):
        if state.good[ghost] is not None and not _geister_colour_public(state, ghost, reader):
            out.append((f"colour of ghost {ghost}", lambda f, g=ghost: f.view["ghosts"][g]["colour"] is not None))
    return out


def _geister_colour_public(state: Any, ghost: int, reader: int | None) -> bool:
    # Written from the rules, not from the game's own colour_known: own ghosts, captured or escaped ghosts,
    # and every ghost after the game when both players chose `disclose`.
    if reader is not None and ghost // 8 == reader:
        return True
    if state.pos[ghost] < 0:
        return True
    return state.outcome() is not None and bool(state.options.disclose)


def ghooost_secrets(state: Any, reader: int | None) -> list[tuple[str, Check]]:
    """The crypt's order, the mansions' order and the other hands (where not all of it is public)."""
    from ghostgames.games.ghooost.cards import card_text, counts_texts

    out: list[tuple[str, Check]] = []
    if len(state.crypt) >= 4 and len(set(state.crypt)) > 1:
        out.append(("the crypt's order", _list_check([card_text(k) for k in state.crypt])))
        out.append(("the crypt's order, top first", _list_check([card_text(k) for k in reversed(state.crypt)])))
    for seat, mansion in enumerate(state.mansions):
        if len(mansion) >= 4 and len(set(mansion)) > 1:
            out.append((f"mansion {seat}", _list_check([card_text(k) for k in mansion])))
    # A hidden hand that happens to equal some seat's public known cards, or the cards a decision of the round
    # put down or took (the log says them in words, the view's moves as lists), proves nothing when seen.
    public_lists = [counts_texts(known) for known in state.known]
    public_lists += [list(cards) for move in state.moves for cards in (move.put, move.taken)]
    for seat in range(state.players):
        hand = counts_texts(state.hands[seat])
        if (seat != reader and state.hands[seat] != state.known[seat] and state.sizes[seat] >= 3
                and hand not in public_lists):
            out.append((f"hand {seat}", _list_check(hand)))
    return out


def thelast_secrets(state: Any, reader: int | None) -> list[tuple[str, Check]]:
    """Other hands, face-down piles not yet counted, the points stack, the spare cards and the 2-player
    ghost's pile.

    The Last's 48 cards are all different, so a list equal to a hidden one can only be a leak.
    """
    from ghostgames.games.thelast.cards import CARD_NAMES

    def names(cards: list[int]) -> list[str]:
        return [CARD_NAMES[c] for c in sorted(cards)]

    out: list[tuple[str, Check]] = []
    for who in range(len(state.hands)):
        if who == reader:
            continue
        hand, pile = state.hands[who], state.piles[who]
        # a card is unknown when it was never shown and is not among the "in hand or pile" cards
        known = set(state.shown_hand[who]) | set(state.shown_pile[who]) | set(state.mixed[who])
        if len(hand) >= 2 and any(c not in known for c in hand):
            out.append((f"hand {who}", _list_check(names(hand))))
            out.append((f"hand {who} in its order", _list_check([CARD_NAMES[c] for c in hand])))
        # a round's piles are turned up when it is counted (RULES: the penalty is their sum): from then
        # on they are public (the view's round_piles); the piles of the round being played stay secret
        # (state.piles is always the current round's; it was counted only once the game is over)
        counted = state.outcome() is not None and who < state.players
        if len(pile) >= 2 and any(c not in known for c in pile) and not counted:
            out.append((f"pile {who}", _list_check(names(pile))))
    for zone in ("points", "spare"):
        cards = getattr(state, zone)
        if len(cards) >= 2:
            out.append((f"the {zone} stack", _list_check([CARD_NAMES[c] for c in cards])))
            out.append((f"the {zone} stack sorted", _list_check(names(cards))))
    return out


SETUPS: dict[str, tuple[list[tuple[int, dict[str, Any]]], Callable[[State[Any], int | None], list[Any]]]] = {
    "geister": (
        [(2, {}), (2, {"disclose": True, "exit": "escape"}), (2, {"disclose": False, "max_plies": 40})],
        geister_secrets,
    ),
    "ghooost": (
        # Random players rarely end a round, so turn limits keep the rounds (and their logs) short.
        [(2, {"max_turns": 150}), (3, {"deck": "original", "max_turns": 100}),
         (4, {"match": False, "max_turns": 150}), (6, {"match": False, "max_turns": 80})],
        ghooost_secrets,
    ),
    "thelast": ([(2, {}), (3, {}), (4, {"rounds": 2}), (5, {})], thelast_secrets),
}


def _run_share(game: str, share: int, positions: int) -> Tally:
    configs, secrets = SETUPS[game]
    return run(game, configs, positions, secrets, seed=9 + share, worlds=1, alternatives=2, events_every=3)


@pytest.mark.parametrize("game", [g for g in ("geister", "ghooost", "thelast") if g in GAMES])
def test_no_view_event_or_log_line_tells_a_reader_what_it_may_not_know(game: str) -> None:
    # Two processes (this machine has two cores), each walking its own games.
    shares = 2
    with ProcessPoolExecutor(shares, mp_context=multiprocessing.get_context("fork")) as pool:
        tallies = list(pool.map(_run_share, [game] * shares, range(shares), [POSITIONS // shares] * shares))
    positions = sum(t.positions for t in tallies)
    problems = [p for t in tallies for p in t.problems]
    assert positions == POSITIONS
    assert not problems, "\n".join(problems)
    # The check must be able to fail: the worlds really differed and secrets were really looked for.
    assert sum(t.worlds_that_differ for t in tallies) > POSITIONS // 4
    assert sum(t.secrets_checked for t in tallies) > POSITIONS
    assert sum(t.actions_tried for t in tallies) > POSITIONS * 2


def test_the_check_catches_a_view_that_shows_the_other_sides_colours(monkeypatch: pytest.MonkeyPatch) -> None:
    from ghostgames.games.geister.state import GeisterState

    honest = GeisterState.view

    def leaky(self: GeisterState, seat: int | None) -> dict[str, Any]:
        view = honest(self, seat)
        view["hint"] = [g for g in range(16) if self.good[g]]
        return view

    monkeypatch.setattr(GeisterState, "view", leaky)
    tally = run("geister", [(2, {})], 60, geister_secrets, seed=3, worlds=1)
    assert any("differs in a world" in p for p in tally.problems)


def test_the_check_catches_an_event_that_tells_a_secret_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    from ghostgames.games.geister.state import GeisterState
    from ghostgames.rules.contract import Event

    honest = GeisterState._apply_setup

    def leaky(self: GeisterState, seat: int, action: Any) -> list[Event]:
        events = honest(self, seat, action)
        return [Event(e.kind, {**e.public, "good": sorted(action.good)}, e.private) for e in events]

    monkeypatch.setattr(GeisterState, "_apply_setup", leaky)
    tally = run("geister", [(2, {})], 5, geister_secrets, seed=3, worlds=1)
    assert any("secret action" in p for p in tally.problems)
