"""The Last's rules: deal, tricks where the last player's colour wins, keep-or-swap, the 2-player ghost.

Participants in a trick are the seats 0..players-1 and, with 2 players, the ghost (index 2, `GHOST`
in views). The ghost is not a seat: it never acts, its top card is played inside the state transition.

What everybody knows about a participant's cards is kept as public lists, so that a view and
`sample_world` follow from one place:
- `shown_hand[p]`: points cards p swapped into the hand and has not played yet;
- `shown_pile[p]`: points cards p kept face down (their value was seen face up);
- `mixed[p]`: cards known to be in p's hand *or* among p's face-down swapped cards (a known hand card
  becomes mixed when p lays an unknown card face down).
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from ghostgames.games.thelast.actions import KEEP, PLAYS, SWAPS, Keep, Play, Swap, TheLastAction
from ghostgames.games.thelast.cards import (
    CARD_NAMES,
    COLOUR_BIT,
    COLOUR_OF,
    COLOURS,
    VALUE_OF,
    colour_letter,
    deck_of,
)
from ghostgames.games.thelast.deal import deal
from ghostgames.games.thelast.deductions import ALL_COLOURS, Places, Timeline, places, slot_cards, timelines
from ghostgames.games.thelast.reasons import (
    ALL_TIED,
    DECIDE_FIRST,
    LAST_MUST_FOLLOW,
    LOWEST_PENALTY,
    MUST_FOLLOW,
    NO_CARD,
    NO_CARD_TO_SWAP,
    PLAY_NOW,
)
from ghostgames.rules.chance import derive_rng
from ghostgames.rules.contract import JSON, Event, IllegalAction, Outcome, SeatResult, State
from ghostgames.rules.reasons import UNREADABLE

if TYPE_CHECKING:
    from ghostgames.games.thelast.fast_worlds import WorldRows
    from ghostgames.games.thelast.game import TheLastGame

PLAY, DECIDE, OVER = 0, 1, 2
PHASE_NAMES = ("play", "decide", "over")
# Cards in each hand (and in the points pile) by player count.
HAND_SIZE = {2: 12, 3: 12, 4: 9, 5: 8}
GHOST_NAME = "ghost"
_SINGLE = tuple(frozenset((seat,)) for seat in range(5))
_NOBODY: frozenset[int] = frozenset()


class TheLastOptions(BaseModel):
    model_config = {"extra": "forbid"}

    # first, so that the check of `hand` can see it
    players: int | None = Field(None, exclude=True, description="filled in by the table: the number of players")
    rounds: int = Field(
        1, ge=1, le=100, description="rounds in the match; the lowest total penalty over all rounds wins"
    )
    # A smaller deck and shorter hands (for exact methods, docs/spiel.md): every rule stays, only sizes change.
    colours: int = Field(4, ge=2, le=4, description="colours in the deck, the first of red, blue, green, yellow "
                         "(standard 4)")
    values: int = Field(12, ge=1, le=12, description="values in each colour, 1 up to this (standard 12)")
    hand: int | None = Field(None, ge=1, le=12, validate_default=True,
                             description="cards in each hand and in the points pile (none = the rules' count: 12 "
                             "with 2 or 3 players, 9 with 4, 8 with 5); cards not dealt are spare, unseen")

    @field_validator("hand")
    @classmethod
    def _deck_holds_the_deal(cls, value: int | None, info: ValidationInfo) -> int | None:
        players = info.data.get("players") or 2
        colours, values = info.data.get("colours", 4), info.data.get("values", 12)
        size = HAND_SIZE[players] if value is None else value
        piles = 4 if players == 2 else players + 1  # the hands (and the ghost's pile), then the points pile
        if piles * size > colours * values:
            raise ValueError(f"{piles} piles of {size} need {piles * size} cards, and {colours} colours of "
                             f"{values} values make {colours * values}: at most hand {colours * values // piles}")
        return value

    def hand_size(self, players: int) -> int:
        """Cards in each hand (and the points pile) with this many players."""
        return HAND_SIZE[players] if self.hand is None else self.hand

    def deck(self) -> tuple[int, ...]:
        return deck_of(self.colours, self.values)


class TheLastState(State[TheLastAction]):
    __slots__ = (
        "_outcome",
        "_plans",
        "_watched",
        "actor",
        "current",
        "game",
        "ghost",
        "hands",
        "last_piles",
        "leader",
        "mixed",
        "next_of",
        "options",
        "phase",
        "piles",
        "players",
        "points",
        "points_card",
        "ring",
        "round",
        "round_leaders",
        "round_penalties",
        "seed",
        "shown_hand",
        "shown_pile",
        "spare",
        "trick_cards",
        "trick_mask",
        "trick_who",
        "tricks",
    )  # fmt: skip

    def __init__(self, game: TheLastGame, players: int, options: TheLastOptions, seed: int) -> None:
        """An empty table before the first deal (call `deal_round`)."""
        self.game = game
        self.players = players
        self.options = options
        self.seed = seed
        self.ghost = 2 if players == 2 else -1
        count = 3 if players == 2 else players
        self.hands: list[list[int]] = [[] for _ in range(count)]
        self.piles: list[list[int]] = [[] for _ in range(count)]
        self.shown_hand: list[list[int]] = [[] for _ in range(count)]
        self.shown_pile: list[list[int]] = [[] for _ in range(count)]
        self.mixed: list[list[int]] = [[] for _ in range(count)]
        self.points: list[int] = []
        self.spare: list[int] = []
        self.points_card = -1
        self.ring: list[int] = list(range(count))
        self.next_of: list[int] = [(p + 1) % count for p in range(count)]
        self.round = 0
        self.round_leaders: list[int] = []
        self.round_penalties: list[list[int]] = []
        # Each seat's face-down cards when the last finished round was counted: public from then on.
        self.last_piles: list[list[int]] = []
        self.leader = 0
        self.current = 0
        self.actor = 0
        self.phase = PLAY
        self.trick_who: list[int] = []
        self.trick_cards: list[int] = []
        self.trick_mask = 0
        # Finished tricks of this round: (leader, ((who, card), ...), points card, winner, how it was taken).
        self.tricks: list[tuple[int, tuple[tuple[int, int], ...], int, int, str]] = []
        self._outcome: Outcome | None = None
        self._plans: dict[int | None, tuple[tuple[int, int, int, int], WorldPlan]] = {}  # see _world_plan
        self._watched: tuple[int, int] | None = None  # see revealed_by (a clone starts without it)

    # --- dealing ----------------------------------------------------------------------------------
    def deal_round(self, events: list[Event], deck: list[int] | None = None, first: int | None = None) -> None:
        """Shuffle and deal round `self.round` (0-based) from its own generator, then start its first trick.
        `deck` (the shuffled cards, top first: hands, then the points pile; any cards past those are the spare)
        and `first` (the leader) replace the generator's, for callers that draw the chance themselves."""
        rng = derive_rng(self.seed, "round", self.round + 1)
        shuffled = list(self.options.deck())
        rng.shuffle(shuffled)
        drawn_first = rng.randrange(self.players)
        deck = shuffled if deck is None else list(deck)
        first = drawn_first if first is None else first
        size = self.options.hand_size(self.players)
        count = len(self.hands)
        for p in range(count):
            hand = deck[p * size : (p + 1) * size]
            if p != self.ghost:
                hand.sort()
            self.hands[p] = hand
            self.piles[p] = []
            self.shown_hand[p] = []
            self.shown_pile[p] = []
            self.mixed[p] = []
        dealt = count * size
        self.points = deck[dealt : dealt + size]
        self.spare = deck[dealt + size :]
        if self.ghost >= 0:
            # The ghost's pile lies to the right of the first leader, so it plays last in the first trick.
            self.ring = [first, 1 - first, self.ghost]
        self.next_of = [0] * count
        for i, p in enumerate(self.ring):
            self.next_of[p] = self.ring[(i + 1) % count]
        self.round_leaders.append(first)
        self.tricks = []
        events.append(
            Event(
                "deal",
                {"round": self.round + 1, "leader": first, "hand_size": size},
                {s: {"hand": [CARD_NAMES[c] for c in self.hands[s]]} for s in range(self.players)},
            )
        )
        self._start_trick(first, events)
        self._run(events)

    # --- whose move -----------------------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        if self._outcome is not None:
            return _NOBODY
        return _SINGLE[self.actor]

    def legal_actions(self, seat: int) -> list[TheLastAction]:
        if self._outcome is not None or seat != self.actor:
            return []
        hand = self.hands[seat]
        if self.phase == DECIDE:
            out: list[TheLastAction] = [KEEP]
            out.extend(SWAPS[c] for c in hand)
            return out
        return [PLAYS[c] for c in self.playable(hand)]

    def playable(self, hand: list[int]) -> list[int]:
        """The cards of `hand` that the participant next in the trick may play."""
        placed = len(self.trick_cards)
        if placed == 0:
            return hand
        # A follower must match the led colour; the last player any colour already in the trick.
        mask = COLOUR_BIT[self.trick_cards[0]] if placed < len(self.ring) - 1 else self.trick_mask
        follow = [c for c in hand if COLOUR_BIT[c] & mask]
        return follow or hand

    def required_colours(self) -> list[int]:
        """Colours the participant next in the trick must play if they hold one (empty: any card)."""
        placed = len(self.trick_cards)
        if placed == 0 or self.phase != PLAY:
            return []
        if placed < len(self.ring) - 1:
            return [COLOUR_OF[self.trick_cards[0]]]
        return [c for c in range(len(COLOURS)) if self.trick_mask & (1 << c)]

    # --- applying ---------------------------------------------------------------------------------
    # The contract's `apply` has checked that the game runs and `seat` is to act; `_apply` checks the rest.
    def _apply(self, seat: int, action: TheLastAction) -> list[Event]:
        if type(action) is Play:
            return self._apply_play(seat, action.card)
        if self.phase != DECIDE:
            raise IllegalAction(PLAY_NOW, example=repr(str(self.legal_actions(seat)[0])))
        if type(action) is Keep:
            return self._apply_keep(seat)
        if type(action) is Swap:
            return self._apply_swap(seat, action.card)
        raise IllegalAction(f"{action} is not an action of The Last", UNREADABLE)

    def _apply_checked(self, seat: int, action: TheLastAction) -> list[Event]:
        # The hot path of every simulation: a legal card played into the trick, with no check.
        if type(action) is Play:
            return self._play_card(seat, action.card)
        return self._apply(seat, action)

    def _apply_play(self, seat: int, card: int) -> list[Event]:
        if self.phase != PLAY:
            raise IllegalAction(DECIDE_FIRST, card=CARD_NAMES[self.points_card])
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalAction(NO_CARD, card=CARD_NAMES[card])
        placed = len(self.trick_cards)
        if placed:
            # Same rule as `playable`, checked for one card without building the list.
            mask = COLOUR_BIT[self.trick_cards[0]] if placed < len(self.ring) - 1 else self.trick_mask
            if not COLOUR_BIT[card] & mask and any(COLOUR_BIT[c] & mask for c in hand):
                last = placed == len(self.ring) - 1
                names = " or ".join(COLOURS[c].name for c in self.required_colours())
                raise IllegalAction(f"{'the last player' if last else 'you'} must play {names} while holding it",
                                    LAST_MUST_FOLLOW if last else MUST_FOLLOW,
                                    colours=" ".join(COLOURS[c].letter for c in self.required_colours()))
        return self._play_card(seat, card)

    def _play_card(self, seat: int, card: int) -> list[Event]:
        events: list[Event] = []
        self._place(seat, card, events)
        self._run(events)
        return events

    def _apply_keep(self, seat: int) -> list[Event]:
        points = self.points_card
        self.piles[seat].append(points)
        self.shown_pile[seat].append(points)
        self._decided("keep")
        events = [Event("keep", {"seat": seat, "card": CARD_NAMES[points]})]
        self._next_trick(seat, events)
        self._run(events)
        return events

    def _apply_swap(self, seat: int, card: int) -> list[Event]:
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalAction(NO_CARD_TO_SWAP, card=CARD_NAMES[card])
        points = self.points_card
        hand.remove(card)
        bisect.insort(hand, points)
        self.piles[seat].append(card)
        # Nobody else sees which card went down, so every earlier known card of that hand may be it.
        if self.shown_hand[seat]:
            self.mixed[seat].extend(self.shown_hand[seat])
        self.shown_hand[seat] = [points]
        self._decided("swap")
        events = [Event("swap", {"seat": seat, "card": CARD_NAMES[points]}, {seat: {"down": CARD_NAMES[card]}})]
        self._next_trick(seat, events)
        self._run(events)
        return events

    def _place(self, who: int, card: int, events: list[Event]) -> None:
        """`who` puts `card` into the trick (already checked)."""
        hand = self.hands[who]
        if who == self.ghost:
            hand.pop()
        else:
            hand.remove(card)
            shown = self.shown_hand[who]
            if shown and card in shown:
                shown.remove(card)
            mixed = self.mixed[who]
            if mixed and card in mixed:
                mixed.remove(card)
        self.trick_who.append(who)
        self.trick_cards.append(card)
        self.trick_mask |= COLOUR_BIT[card]
        self.current = self.next_of[who]
        events.append(Event("play", {"seat": GHOST_NAME if who == self.ghost else who, "card": CARD_NAMES[card]}))

    def _run(self, events: list[Event]) -> None:
        """Carry the table forward until a seat must decide: ghost plays, finished tricks, round ends."""
        while self.phase == PLAY:
            cards = self.trick_cards
            if len(cards) == len(self.ring):
                self._resolve(events)
            elif self.current == self.ghost:
                self._place(self.ghost, self.hands[self.ghost][-1], events)
            else:
                self.actor = self.current
                return

    def _resolve(self, events: list[Event]) -> None:
        """The last card's colour wins; its highest card takes the points card."""
        cards, who = self.trick_cards, self.trick_who
        colour = COLOUR_OF[cards[-1]]
        best = -1
        winner = -1
        for i, c in enumerate(cards):
            if COLOUR_OF[c] == colour and c > best:
                best, winner = c, who[i]
        points = self.points_card
        plays = tuple(zip(who, cards, strict=True))
        self.trick_who = []
        self.trick_cards = []
        self.trick_mask = 0
        name = GHOST_NAME if winner == self.ghost else winner
        events.append(Event("trick", {"winner": name, "card": CARD_NAMES[best], "points": CARD_NAMES[points]}))
        if winner == self.ghost:
            self.piles[winner].append(points)
            self.shown_pile[winner].append(points)
            self.tricks.append((self.leader, plays, points, winner, "ghost"))
            self._next_trick(winner, events)
        elif not self.hands[winner]:
            # Last trick: an empty hand has nothing to lay down instead, so the card is kept.
            self.piles[winner].append(points)
            self.shown_pile[winner].append(points)
            self.tricks.append((self.leader, plays, points, winner, "keep"))
            events.append(Event("keep", {"seat": winner, "card": CARD_NAMES[points]}))
            self._next_trick(winner, events)
        else:
            self.tricks.append((self.leader, plays, points, winner, ""))
            self.phase = DECIDE
            self.actor = winner

    def _decided(self, how: str) -> None:
        """Record the winner's choice in the trick history and go back to playing."""
        leader, plays, points, winner, _ = self.tricks[-1]
        self.tricks[-1] = (leader, plays, points, winner, how)
        self.phase = PLAY

    def _next_trick(self, leader: int, events: list[Event]) -> None:
        if self.points:
            self._start_trick(leader, events)
        else:
            self._end_round(events)

    def _start_trick(self, leader: int, events: list[Event]) -> None:
        self.points_card = self.points.pop()
        self.leader = leader
        self.current = leader
        events.append(Event("points", {"card": CARD_NAMES[self.points_card], "leader": self._name(leader)}))

    def _end_round(self, events: list[Event]) -> None:
        self.points_card = -1
        penalties = [sum(VALUE_OF[c] for c in self.piles[s]) for s in range(self.players)]
        self.round_penalties.append(penalties)
        self.last_piles = [sorted(self.piles[s]) for s in range(self.players)]
        events.append(Event("round", {"round": self.round + 1, "penalties": penalties, "totals": self.totals()}))
        if len(self.round_penalties) < self.options.rounds:
            self.round += 1
            self.deal_round(events)
            return
        self.phase = OVER
        self._outcome = self._final_outcome()
        events.append(Event("end", self._outcome.to_json()))

    def totals(self) -> list[int]:
        return [sum(r[s] for r in self.round_penalties) for s in range(self.players)]

    def _final_outcome(self) -> Outcome:
        """Lowest total penalty wins; equal totals share a rank (and the win); all equal is a draw."""
        totals = self.totals()
        ranks = [1 + sum(1 for t in totals if t < mine) for mine in totals]
        everybody = all(r == 1 for r in ranks)
        results = tuple(
            SeatResult("draw" if everybody else ("win" if rank == 1 else "loss"), rank, float(total))
            for rank, total in zip(ranks, totals, strict=True)
        )
        best = min(totals)
        return Outcome.because(results, ALL_TIED if everybody else LOWEST_PENALTY, penalty=best)

    # --- knowledge --------------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        return self._outcome

    def _name(self, who: int) -> int | str:
        return GHOST_NAME if who == self.ghost else who

    def _names(self, cards: list[int]) -> list[str]:
        return [CARD_NAMES[c] for c in sorted(cards)]

    def view(self, seat: int | None) -> JSON:
        """What `seat` (None: a spectator) would know with a perfect memory, and nothing more."""
        over = self._outcome is not None
        participants = []
        for p in self.ring:
            participants.append(
                {
                    "who": self._name(p),
                    "hand_size": len(self.hands[p]),
                    "pile_size": len(self.piles[p]),
                    "known_in_hand": self._names(self.shown_hand[p]),
                    "known_in_pile": self._names(self.shown_pile[p]),
                    "in_hand_or_pile": self._names(self.mixed[p]),
                }
            )
        to_act = sorted(self.to_act())
        acting = self.phase == PLAY and not over
        required = self.required_colours() if acting else []
        view: JSON = {
            "game": "thelast",
            "players": self.players,
            "seat": seat,
            "options": self.options.model_dump(),
            "colours": [{"name": c.name, "letter": c.letter, "symbol": c.symbol}
                        for c in COLOURS[: self.options.colours]],
            "round": self.round + 1,
            "rounds": self.options.rounds,
            "phase": PHASE_NAMES[self.phase],
            "order": [self._name(p) for p in self.ring],
            "round_leader": self.round_leaders[-1] if self.round_leaders else None,
            "leader": None if over else self._name(self.leader),
            "turn": None if over else self.actor,
            "to_act": to_act,
            "points_card": CARD_NAMES[self.points_card] if self.points_card >= 0 else None,
            "points_left": len(self.points),
            "spare_cards": len(self.spare),
            "trick": [{"who": self._name(w), "card": CARD_NAMES[c]} for w, c in zip(self.trick_who, self.trick_cards,
                                                                                  strict=True)],
            "required_colours": [colour_letter(c) for c in required],
            "tricks": [
                {
                    "leader": self._name(leader),
                    "points": CARD_NAMES[points],
                    "plays": [{"who": self._name(w), "card": CARD_NAMES[c]} for w, c in plays],
                    "winner": self._name(winner),
                    "taken": taken or None,
                }
                for leader, plays, points, winner, taken in self.tricks
            ],
            "participants": participants,
            "round_penalties": [list(r) for r in self.round_penalties],
            # The piles are turned face up and counted at the end of a round (RULES: "each player's
            # penalty is the sum of their face-down cards"): from then on every reader may see them.
            "round_piles": [self._names(p) for p in self.last_piles],
            "totals": self.totals(),
            "hand": None,
            "pile": None,
            "penalty": None,
            "allowed_colours": None,
            "legal": [],
            "outcome": self._outcome.to_json() if self._outcome else None,
        }
        if seat is not None and 0 <= seat < self.players:
            view["hand"] = [CARD_NAMES[c] for c in self.hands[seat]]
            view["pile"] = self._names(self.piles[seat])
            view["penalty"] = sum(VALUE_OF[c] for c in self.piles[seat])
            if seat in to_act:
                view["legal"] = self.legal_texts(seat)
                if acting:
                    view["allowed_colours"] = [
                        colour_letter(c)
                        for c in range(len(COLOURS))
                        if any(COLOUR_OF[x] == c for x in self.playable(self.hands[seat]))
                    ]
        return view

    def __str__(self) -> str:
        """The table, hands included: the round, the points card, the trick so far and every hand.

        >>> from ghostgames.games import get_game
        >>> print(get_game("thelast").new(3, seed=2))
        The Last round 1 of 1, play: seat 0 to play
        points card: B4; trick: empty
        seat 0: hand R1 R2 B1 B2 B5 G4 G5 G7 G11 Y4 Y6 Y12, pile 0, penalty 0
        seat 1: hand R4 R7 R11 B6 B7 B12 G2 G3 G9 G10 Y2 Y9, pile 0, penalty 0
        seat 2: hand R3 R5 R6 R9 R12 B3 B8 G8 G12 Y1 Y3 Y5, pile 0, penalty 0
        """
        if self._outcome is not None:
            status = f"over: {self._outcome.reason}"
        else:
            status = f"{PHASE_NAMES[self.phase]}: seat {self.actor} to " + ("play" if self.phase == PLAY else "decide")
        points = CARD_NAMES[self.points_card] if self.points_card >= 0 else "none"
        trick = ", ".join(f"{'the ghost' if w == self.ghost else f'seat {w}'} {CARD_NAMES[c]}"
                          for w, c in zip(self.trick_who, self.trick_cards, strict=True)) or "empty"
        totals = self.totals()
        lines = [f"The Last round {self.round + 1} of {self.options.rounds}, {status}",
                 f"points card: {points}; trick: {trick}"]
        for who in self.ring:
            hand = " ".join(self._names(self.hands[who])) or "empty"
            penalty = f", penalty {totals[who]}" if who != self.ghost else ""
            lines.append(f"{'the ghost' if who == self.ghost else f'seat {who}'}: hand {hand}, "
                         f"pile {len(self.piles[who])}{penalty}")
        return "\n".join(lines)

    # --- search and storage -----------------------------------------------------------------------
    def clone(self) -> TheLastState:
        other = TheLastState.__new__(TheLastState)
        other.game = self.game
        other.players = self.players
        other.options = self.options
        other.seed = self.seed
        other.ghost = self.ghost
        other.hands = [h[:] for h in self.hands]
        other.piles = [p[:] for p in self.piles]
        other.shown_hand = [h[:] for h in self.shown_hand]
        other.shown_pile = [p[:] for p in self.shown_pile]
        other.mixed = [m[:] for m in self.mixed]
        other.points = self.points[:]
        other.spare = self.spare[:]
        other.points_card = self.points_card
        other.ring = self.ring[:]
        other.next_of = self.next_of[:]
        other.round = self.round
        other.round_leaders = self.round_leaders[:]
        other.round_penalties = [r[:] for r in self.round_penalties]
        other.last_piles = [p[:] for p in self.last_piles]
        other.leader = self.leader
        other.current = self.current
        other.actor = self.actor
        other.phase = self.phase
        other.trick_who = self.trick_who[:]
        other.trick_cards = self.trick_cards[:]
        other.trick_mask = self.trick_mask
        other.tricks = self.tricks[:]
        other._outcome = self._outcome
        return other

    def sample_world(self, seat: int | None, rng: random.Random) -> TheLastState:
        """Keep every card whose place `seat` knows; deal the others at random into the places it cannot see,
        so that every deduction the rules allow holds (see `deductions`): nobody holds a colour they showed
        a void in, a face-down swapped card obeys the voids shown before it was laid down, a points card
        taken into a hand stays there or goes face down at a later swap. The future rounds get a fresh seed.
        A spectator (seat None) sees no hand: every seat's hidden cards are dealt so.
        """
        world = self.clone()
        world.seed = rng.randrange(2**63)
        plan = self._world_plan(seat)
        dealt = deal(plan.pool, COLOUR_OF, plan.groups, plan.known, rng)
        rest = dealt[0]
        g = 1
        for p, slots in zip(plan.others, plan.slots, strict=True):
            world.hands[p] = sorted(dealt[g])
            laid = [dealt[g + 1 + k][0] for k in range(slots)]
            g += 1 + slots
            world.piles[p] = self._pile_with(p, laid)
        if self.ghost >= 0:
            world.hands[self.ghost] = [rest.pop() for _ in self.hands[self.ghost]]
        world.points = [rest.pop() for _ in self.points]
        world.spare = [rest.pop() for _ in self.spare]
        return world

    def fast_worlds(self, seat: int | None) -> WorldRows:
        """`sample_world`'s worlds dealt in the compiled core (fast_worlds.py; imported here, when a search
        asks, so that the rules load without the compiler)."""
        from ghostgames.games.thelast.fast_worlds import WorldRows

        return WorldRows(self, seat)

    def _world_plan(self, seat: int | None) -> WorldPlan:
        """What `sample_world(seat)` deals and where it may go. Kept until the next action (a search samples
        many worlds from one position); a clone starts without it."""
        key = (self.round, len(self.tricks), len(self.trick_cards), self.phase)
        plans: dict[int | None, tuple[tuple[int, int, int, int], WorldPlan]] = getattr(self, "_plans", {})
        cached = plans.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        others = [p for p in range(len(self.hands)) if p != seat and p != self.ghost]
        # A copy made by `revealed_by` counts the watched card as in its player's hand, and its play as
        # part of the trick (a card off the required colours shows a void).
        watched: tuple[int, int] | None = getattr(self, "_watched", None)
        trick = tuple(zip(self.trick_who, self.trick_cards, strict=True))
        lines = timelines(len(self.hands), self.ghost, len(self.ring), self.tricks,
                          trick if watched is None else (*trick, watched))
        unseen: list[Places] = []
        known: list[int] = []  # the others' taken points cards, each a type of its own after the colours
        for p in others:
            slots = len(self.piles[p]) - len(self.shown_pile[p])
            in_hand, mixed = self.shown_hand[p], self.mixed[p]
            if watched is not None and watched[0] == p and watched[1] not in in_hand:
                in_hand = [*in_hand, watched[1]]
                mixed = [c for c in mixed if c != watched[1]]
            place = places(lines[p], len(self.hands[p]), slots, in_hand, mixed)
            unseen.append(place)
            known.extend(place.taken)
        public = set(known)
        pool = [c for p in others for c in self.hands[p] + slot_cards(self.piles[p], self.shown_pile[p])
                if c not in public]
        pool += self.points + self.spare + (self.hands[self.ghost] if self.ghost >= 0 else [])
        pool.sort()  # the hidden cards' true places must not steer the deal
        # Groups: the unseen piles (any colour), then per other participant its hand and its slots.
        bit_of = {card: 1 << (len(COLOURS) + i) for i, card in enumerate(known)}
        groups: list[tuple[int, int]] = [(len(pool) - sum(u.dealt for u in unseen), ALL_COLOURS)]
        for place in unseen:
            hand_types = place.hand_colours
            slot_types = place.slot_colours[:]
            for card, (slot_list, hand) in place.taken.items():
                if hand:
                    hand_types |= bit_of[card]
                for k in slot_list:
                    slot_types[k] |= bit_of[card]
            groups.append((place.hand, hand_types))
            groups.extend((1, types) for types in slot_types)
        plan = WorldPlan(others, [len(u.slot_colours) for u in unseen], known, pool, groups)
        self._plans = {**plans, seat: (key, plan)}
        return plan

    def revealed_by(self, seat: int, action: TheLastAction) -> TheLastState | None:
        """A played card was in the hand (and shows a void when off colour); `keep` shows nothing hidden;
        which card a swap lays face down nobody else sees."""
        if type(action) is Swap:
            return None
        copy = self.clone()
        if type(action) is Play:
            copy._watched = (seat, action.card)
        return copy

    def timelines(self) -> list[Timeline]:
        """Each participant's public voids and swaps of this round (see `deductions`)."""
        trick = tuple(zip(self.trick_who, self.trick_cards, strict=True))
        return timelines(len(self.hands), self.ghost, len(self.ring), self.tricks, trick)

    def _pile_with(self, p: int, laid: list[int]) -> list[int]:
        """p's pile in its order, with its face-down swapped cards replaced by `laid` (oldest first)."""
        kept = set(self.shown_pile[p])
        fresh = iter(laid)
        return [card if card in kept else next(fresh) for card in self.piles[p]]

    def to_json(self) -> JSON:
        return {
            "game": "thelast",
            "players": self.players,
            "options": self.options.model_dump(),
            "seed": self.seed,
            "round": self.round,
            "round_leaders": list(self.round_leaders),
            "round_penalties": [list(r) for r in self.round_penalties],
            "last_piles": [list(p) for p in self.last_piles],
            "ring": list(self.ring),
            "hands": [list(h) for h in self.hands],
            "piles": [list(p) for p in self.piles],
            "shown_hand": [list(h) for h in self.shown_hand],
            "shown_pile": [list(p) for p in self.shown_pile],
            "mixed": [list(m) for m in self.mixed],
            "points": list(self.points),
            "spare": list(self.spare),
            "points_card": self.points_card,
            "leader": self.leader,
            "current": self.current,
            "actor": self.actor,
            "phase": PHASE_NAMES[self.phase],
            "trick": [[w, c] for w, c in zip(self.trick_who, self.trick_cards, strict=True)],
            "tricks": [
                {"leader": leader, "plays": [[w, c] for w, c in plays], "points": points, "winner": winner,
                 "taken": taken}
                for leader, plays, points, winner, taken in self.tricks
            ],
            "outcome": self._outcome.to_json() if self._outcome else None,
        }

    @classmethod
    def from_json(cls, game: TheLastGame, data: Mapping[str, Any]) -> TheLastState:
        players = int(data["players"])
        options = TheLastOptions.model_validate({**data["options"], "players": players})
        state = cls(game, players, options, int(data["seed"]))
        ints = _int_lists
        state.round = int(data["round"])
        state.round_leaders = [int(x) for x in data["round_leaders"]]
        state.round_penalties = ints(data["round_penalties"])
        state.last_piles = ints(data.get("last_piles", []))  # older saves: nothing counted yet to show
        state.ring = [int(x) for x in data["ring"]]
        count = len(state.ring)
        state.next_of = [0] * count
        for i, p in enumerate(state.ring):
            state.next_of[p] = state.ring[(i + 1) % count]
        state.hands = ints(data["hands"])
        state.piles = ints(data["piles"])
        state.shown_hand = ints(data["shown_hand"])
        state.shown_pile = ints(data["shown_pile"])
        state.mixed = ints(data["mixed"])
        state.points = [int(x) for x in data["points"]]
        state.spare = [int(x) for x in data["spare"]]
        state.points_card = int(data["points_card"])
        state.leader = int(data["leader"])
        state.current = int(data["current"])
        state.actor = int(data["actor"])
        state.phase = PHASE_NAMES.index(str(data["phase"]))
        state.trick_who = [int(w) for w, _ in data["trick"]]
        state.trick_cards = [int(c) for _, c in data["trick"]]
        state.trick_mask = 0
        for c in state.trick_cards:
            state.trick_mask |= COLOUR_BIT[c]
        state.tricks = [
            (int(t["leader"]), tuple((int(w), int(c)) for w, c in t["plays"]), int(t["points"]), int(t["winner"]),
             str(t["taken"]))
            for t in data["tricks"]
        ]
        state._outcome = Outcome.from_json(data["outcome"]) if data.get("outcome") else None
        state.check()
        return state

    def check(self) -> None:
        """Raise ValueError unless the 48 cards are each in exactly one place and the sizes fit the rules."""
        places = [c for p in self.hands + self.piles for c in p]
        places += self.points + self.spare + self.trick_cards
        places += [c for _, plays, _, _, _ in self.tricks for _, c in plays]
        if self.points_card >= 0:
            places.append(self.points_card)
        if sorted(places) != list(self.options.deck()):
            raise ValueError(f"the {len(self.options.deck())} cards must each be in exactly one place")
        if len(self.ring) != len(self.hands) or sorted(self.ring) != list(range(len(self.hands))):
            raise ValueError("the seating order must name every participant once")
        if not 0 <= self.actor < self.players:
            raise ValueError("the seat to act must be a seat")
        self._check_hands()

    def _check_hands(self) -> None:
        """Refuse hands that no play of the rules leads to: sizes out of step with the trick, public cards
        that are not where everybody knows them to be, a colour held against a void shown this round."""
        played = set(self.trick_who)
        full = {len(hand) + (p in played) for p, hand in enumerate(self.hands)}
        if len(full) > 1:
            sizes = ", ".join(f"{self._who(p)} {len(hand)}" for p, hand in enumerate(self.hands))
            raise ValueError(f"every hand must hold as many cards as the others, one fewer once its owner has "
                             f"played in the current trick; the hands hold {sizes}")
        lines = self.timelines()
        for p, hand in enumerate(self.hands):
            if p == self.ghost:
                continue
            pile = self.piles[p]
            who = self._who(p)
            if not set(self.shown_hand[p]) <= set(hand) or not set(self.shown_pile[p]) <= set(pile):
                raise ValueError(f"{who}'s shown cards must be in its hand and pile")
            if not set(self.mixed[p]) <= set(hand) | set(pile):
                raise ValueError(f"{who}'s taken points cards must be in its hand or its pile")
            laid = slot_cards(pile, self.shown_pile[p])
            place = places(lines[p], len(hand), len(laid), self.shown_hand[p], self.mixed[p])
            for card in hand:
                taken = place.taken.get(card)
                if (taken[1] if taken else place.hand_colours >> COLOUR_OF[card] & 1) == 0:
                    raise ValueError(f"{who} holds {CARD_NAMES[card]}, a colour it showed it had none of")
            for k, card in enumerate(laid):
                taken = place.taken.get(card)
                if not (k in taken[0] if taken else place.slot_colours[k] >> COLOUR_OF[card] & 1):
                    raise ValueError(f"{who} laid {CARD_NAMES[card]} face down, a colour it showed it had none of "
                                     "then, or a card it had not taken yet")

    def _who(self, p: int) -> str:
        return GHOST_NAME if p == self.ghost else f"seat {p + 1}"


class WorldPlan(NamedTuple):
    """The deal behind a sampled world: the other participants (not the ghost) with their face-down slot
    counts, their taken points cards, the unseen cards and the groups of places (see `deal.deal`)."""

    others: list[int]
    slots: list[int]
    known: list[int]
    pool: list[int]
    groups: list[tuple[int, int]]


def _int_lists(data: Any) -> list[list[int]]:
    return [[int(x) for x in row] for row in data]
