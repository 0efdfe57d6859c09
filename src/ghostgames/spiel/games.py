"""The three games as OpenSpiel games: their names, parameters, player counts, lengths and returns.

Each entry turns OpenSpiel's parameters into the game's own options and a `Dealer` (chance.py). OpenSpiel
needs a bound on a game's length, so Geister gets a ply limit (200 unless given; the game itself has none
unless its table sets one), and each game is one round: The Last with `rounds=1`, Ghooost! with `match`
off (a match deals again inside a move, which would hide that deal's chance).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ghostgames.games import get_game
from ghostgames.games.thelast.state import HAND_SIZE, TheLastOptions
from ghostgames.rules.contract import Game, Outcome
from ghostgames.spiel.chance import Dealer, GeisterDealer, GhooostDealer, TheLastDealer
from ghostgames.spiel.returns import penalty_returns, win_returns

Params = dict[str, Any]
CHANCE_FIRST = -1  # the `first` parameter's value for "a chance node decides who starts"
RULES_HAND = -1  # The Last's `hand` parameter for "as many cards as the rules deal"


@dataclass(frozen=True)
class SpielGameSpec:
    """How one of our games appears in OpenSpiel."""

    game: str  # our name (ghostgames.games.get_game)
    short_name: str  # OpenSpiel's (pyspiel.load_game)
    long_name: str
    min_players: int
    max_players: int
    defaults: Params  # OpenSpiel parameters, with their defaults; "players" among them when it varies
    dealer: Callable[[Game[Any, Any], int, Params], Dealer]
    decisions: Callable[[int, Params], int]  # the most decisions one game can take
    general_sum: Callable[[Params], bool] = lambda params: False

    def returns(self, outcome: Outcome, params: Params) -> list[float]:
        return penalty_returns(outcome) if params.get("returns") == "penalty" else win_returns(outcome)

    def utility_range(self, players: int, params: Params) -> tuple[float, float]:
        if params.get("returns") == "penalty":
            return -float(PENALTY_BOUND), 0.0
        return -1.0, float(players - 1)


def _first(params: Params) -> int | None:
    first = int(params["first"])
    return None if first == CHANCE_FIRST else first


def _geister(game: Game[Any, Any], players: int, params: Params) -> Dealer:
    options = game.options(2, {"exit": params["exit"], "max_plies": params["max_plies"], "first": _first(params)})
    return GeisterDealer(game, options)  # type: ignore[arg-type]


def _ghooost(game: Game[Any, Any], players: int, params: Params) -> Dealer:
    options = game.options(players, {"deck": params["deck"], "replay": params["replay"], "match": False,
                                     "max_turns": params["max_turns"], "first": _first(params)})
    return GhooostDealer(game, options, players)  # type: ignore[arg-type]


def _thelast(game: Game[Any, Any], players: int, params: Params) -> Dealer:
    if params["returns"] not in ("win", "penalty"):
        raise ValueError(f"returns is 'win' (zero-sum) or 'penalty' (general-sum), not {params['returns']!r}")
    return TheLastDealer(game, thelast_options(game, players, params), players)  # type: ignore[arg-type]


def thelast_options(game: Game[Any, Any], players: int, params: Params) -> TheLastOptions:
    """The Last's options from OpenSpiel's parameters (`hand` -1: the rules' count for the players)."""
    hand = int(params.get("hand", RULES_HAND))
    options = game.options(players, {"rounds": 1, "colours": params.get("colours", 4),
                                     "values": params.get("values", 12), "hand": None if hand == RULES_HAND else hand})
    assert isinstance(options, TheLastOptions)
    return options


PENALTY_BOUND = 12 * 12  # The Last: at most one card face down per trick (12 tricks at most), each at most 12
SETUPS = 2  # Geister: each seat places its ghosts once

SPECS: tuple[SpielGameSpec, ...] = (
    SpielGameSpec("geister", "ghostgames_geister", "Geister (ghostgames)", 2, 2,
                  {"exit": "reach", "max_plies": 200, "first": CHANCE_FIRST}, _geister,
                  lambda players, params: SETUPS + int(params["max_plies"])),
    SpielGameSpec("ghooost", "ghostgames_ghooost", "Ghooost! (ghostgames)", 2, 6,
                  {"players": 2, "deck": "tarot", "replay": "may", "max_turns": 1000, "first": CHANCE_FIRST},
                  _ghooost, lambda players, params: int(params["max_turns"])),
    SpielGameSpec("thelast", "ghostgames_thelast", "The Last (ghostgames)", 2, 5,
                  {"players": 2, "returns": "win", "colours": 4, "values": 12, "hand": RULES_HAND}, _thelast,
                  # every trick: each seat plays once, and its winner may keep or swap
                  lambda players, params: _thelast_hand(players, params) * (players + 1),
                  general_sum=lambda params: params.get("returns") == "penalty"),
)


def _thelast_hand(players: int, params: Params) -> int:
    hand = int(params.get("hand", RULES_HAND))
    return HAND_SIZE[players] if hand == RULES_HAND else hand


def spec_named(short_name: str) -> SpielGameSpec:
    return next(spec for spec in SPECS if spec.short_name == short_name)


def our_game(spec: SpielGameSpec) -> Game[Any, Any]:
    return get_game(spec.game)
