"""Each game's chance as OpenSpiel chance nodes: who starts, and the deal card by card.

A `Dealer` says, from the chance outcomes drawn so far, what the next chance node offers (with its
probabilities) and, once nothing is left to draw, starts the game's own state with exactly those outcomes
(through the game's `deal` parameters), so no seed ever decides anything. Cards are dealt position by
position of the shuffled deck, which draws the same shuffle as the game's own: every order equally likely.
Face-down piles (The Last's points pile and ghost pile, Ghooost!'s mansions and crypt) are dealt here too,
as at a real table; nobody sees those outcomes until the cards are turned.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from math import comb
from typing import Any

from ghostgames.games.geister.game import GeisterGame
from ghostgames.games.geister.state import GeisterOptions, GeisterState
from ghostgames.games.ghooost.cards import HAND_SIZE as GHOOOST_HAND
from ghostgames.games.ghooost.cards import KINDS, card_text, deck_cards
from ghostgames.games.ghooost.game import GhooostGame
from ghostgames.games.ghooost.state import GhooostOptions, GhooostState
from ghostgames.games.thelast.cards import CARD_NAMES, DECK
from ghostgames.games.thelast.game import TheLastGame
from ghostgames.games.thelast.state import TheLastOptions, TheLastState
from ghostgames.rules.contract import Event, State

Outcomes = list[tuple[int, float]]
NO_SEED = 0  # the states' seed decides nothing once every chance is given; kept for their to_json


class Dealer(ABC):
    """One game's chance before play, for a fixed player count and options."""

    players: int
    max_outcomes: int  # the most outcomes any of its chance nodes has
    nodes: int  # how many chance nodes a game starts with

    @abstractmethod
    def outcomes(self, drawn: list[int]) -> Outcomes:
        """The next chance node's outcomes and probabilities (drawn has fewer than `nodes` items)."""

    @abstractmethod
    def start(self, drawn: list[int]) -> tuple[State[Any], list[Event]]:
        """The game's state from all `nodes` outcomes, with the events its deal made."""

    @abstractmethod
    def describe(self, drawn: list[int], outcome: int) -> str:
        """The outcome `outcome` of the chance node after `drawn`, in words."""


def _starter(first: int | None, players: int) -> Outcomes:
    return [] if first is not None else [(seat, 1.0 / players) for seat in range(players)]


class GeisterDealer(Dealer):
    """Geister's only chance: who moves first, unless the options name the seat."""

    def __init__(self, game: GeisterGame, options: GeisterOptions) -> None:
        self.game, self.options, self.players = game, options, 2
        self.nodes = 0 if options.first is not None else 1
        self.max_outcomes = 2

    def outcomes(self, drawn: list[int]) -> Outcomes:
        return _starter(None, 2)

    def start(self, drawn: list[int]) -> tuple[State[Any], list[Event]]:
        first = self.options.first if self.options.first is not None else drawn[0]
        return GeisterState(self.game, self.options, NO_SEED, first), []

    def describe(self, drawn: list[int], outcome: int) -> str:
        return f"seat {outcome} moves first"


class GhooostDealer(Dealer):
    """Ghooost!: who starts (unless the options say), then the deck's kinds position by position (hands of 4,
    then each mansion, then the crypt); a kind's chance is its share of the cards not yet dealt."""

    def __init__(self, game: GhooostGame, options: GhooostOptions, players: int) -> None:
        self.game, self.options, self.players = game, options, players
        self.deck = Counter(deck_cards(options.deck))
        self.starters = 0 if options.first is not None else 1
        self.nodes = self.starters + self.deck.total()
        self.max_outcomes = max(players, KINDS)

    def outcomes(self, drawn: list[int]) -> Outcomes:
        if len(drawn) < self.starters:
            return _starter(None, self.players)
        left = self.deck - Counter(drawn[self.starters :])
        total = left.total()
        return [(kind, count / total) for kind, count in sorted(left.items())]

    def start(self, drawn: list[int]) -> tuple[State[Any], list[Event]]:
        first = self.options.first if self.options.first is not None else drawn[0]
        state = GhooostState(self.game, self.options, NO_SEED, self.players)
        return state, state.deal(first, drawn[self.starters :])

    def describe(self, drawn: list[int], outcome: int) -> str:
        if len(drawn) < self.starters:
            return f"seat {outcome} starts"
        position = len(drawn) - self.starters
        where = f"hand of seat {position // GHOOOST_HAND}" if position < self.players * GHOOOST_HAND else "the table"
        return f"deal {card_text(outcome)} to {where}"


class TheLastDealer(Dealer):
    """The Last: the shuffled deck (the options' deck) position by position (each hand, the ghost's pile with
    2 players, then the points pile, top card last), then the first leader. A seat's hand is sorted and its
    order never seen, so its cards are drawn lowest first: the same hands with the same chances, in far fewer
    orders (what keeps exact methods small). The spare cards (4 players, or a deck larger than the deal) are
    what is left: nobody ever sees them, so their order is not drawn."""

    def __init__(self, game: TheLastGame, options: TheLastOptions, players: int) -> None:
        self.game, self.options, self.players = game, options, players
        self.deck = options.deck()
        self.size = options.hand_size(players)
        self.hands = 3 if players == 2 else players
        self.cards = (self.hands + 1) * self.size
        self.nodes = self.cards + 1
        self.max_outcomes = len(DECK)  # outcomes are card ids, so any of the full deck's

    def outcomes(self, drawn: list[int]) -> Outcomes:
        position = len(drawn)
        if position == self.cards:
            return _starter(None, self.players)
        left = sorted(set(self.deck) - set(drawn))
        if position >= self.players * self.size:  # the ghost's pile and the points pile: their order counts
            return [(card, 1.0 / len(left)) for card in left]
        # The next card of a sorted hand with `need` cards to go: card c comes next with the chance that c is
        # the lowest of `need` cards drawn from those left above the hand's last card.
        dealt = position % self.size
        floor = drawn[-1] if dealt else -1
        above = [card for card in left if card > floor]
        need = self.size - dealt
        total = comb(len(above), need)
        out = [(card, comb(len(above) - i - 1, need - 1) / total) for i, card in enumerate(above)]
        return [(card, chance) for card, chance in out if chance > 0]

    def start(self, drawn: list[int]) -> tuple[State[Any], list[Event]]:
        cards = drawn[: self.cards]
        spare = sorted(set(self.deck) - set(cards))
        state = TheLastState(self.game, self.players, self.options, NO_SEED)
        events: list[Event] = []
        state.deal_round(events, cards + spare, drawn[self.cards])
        return state, events

    def describe(self, drawn: list[int], outcome: int) -> str:
        position = len(drawn)
        if position == self.cards:
            return f"seat {outcome} leads"
        pile = position // self.size
        if pile < self.players:
            where = f"hand of seat {pile}"
        elif pile < self.hands:
            where = "the ghost's pile"
        else:
            where = "the points pile"
        return f"deal {CARD_NAMES[outcome]} to {where}"
