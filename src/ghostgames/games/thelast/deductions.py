"""What every seat can deduce about the cards of The Last it cannot see, from the round's public history.

Certain deductions, and nothing else:
- a follower who did not play the led colour held none of it; the last player of a trick who played a
  colour not yet in it held none of the colours that were (the ghost's card counts; the ghost itself
  follows no rule, so nothing is learnt about its pile);
- such a void lasts, except for cards taken into the hand later: only a swap brings a card in, and its
  points card is public, so "void in red since trick 3" means "no red in the hand except the points
  cards taken in after trick 3";
- a card laid face down by a swap was in the hand at that moment, so it obeys the voids shown before it;
- a points card taken in is in that hand until played or laid down by a later swap.

The model: each participant's unseen places are its hand (as many places as cards) and one *slot* per
swap of this round (the card it laid down). A place may hold a card of colour c when no void in c was
shown between the card's arrival and the place's time; cards dealt at the start arrive before everything,
a taken points card right after its swap. Which cards go where is then a matching problem, solved by
`ghostgames.games.thelast.deal`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ghostgames.games.thelast.cards import COLOUR_BIT, COLOURS

NEVER = 1 << 30  # a time later than any event
ALL_COLOURS = (1 << len(COLOURS)) - 1
Plays = tuple[tuple[int, int], ...]


@dataclass
class Timeline:
    """One participant's public round: the voids it showed and its swaps, each with its time."""

    voids: list[tuple[int, int]] = field(default_factory=list)  # (time, bits of the colours it had none of)
    swaps: list[tuple[int, int]] = field(default_factory=list)  # (time, the points card taken in)

    def voids_between(self, after: int, before: int) -> int:
        """Bits of the colours shown void at a time strictly between `after` and `before`."""
        mask = 0
        for time, colours in self.voids:
            if after < time < before:
                mask |= colours
        return mask


def timelines(
    count: int,
    ghost: int,
    ring_size: int,
    tricks: list[tuple[int, Plays, int, int, str]],
    trick: Plays,
) -> list[Timeline]:
    """Every participant's voids and swaps in this round, in the order they happened (times from 0).

    A follower must play the led colour if it can, the last player any colour already in the trick (the
    ghost's included); playing none of the required colours shows a void in all of them."""
    lines = [Timeline() for _ in range(count)]
    time = 0
    last = ring_size - 1
    for _, plays, points, winner, taken in [*tricks, (0, trick, -1, -1, "")]:
        led = in_trick = 0
        for position, (who, card) in enumerate(plays):
            bit = COLOUR_BIT[card]
            need = 0 if position == 0 else (led if position < last else in_trick)
            if need and not bit & need and who != ghost:
                lines[who].voids.append((time, need))
            if position == 0:
                led = bit
            in_trick |= bit
            time += 1
        if taken == "swap":
            lines[winner].swaps.append((time, points))
        time += 1
    return lines


@dataclass
class Places:
    """One participant's unseen places and what may go where.

    `slot_colours[k]`: colour bits the card laid down at swap k may have if it was dealt at the start;
    `hand_colours` the same for the hand. `taken[card]` = (slots it may be in, may it be in the hand) for
    each points card known to be in the hand or among the face-down cards. Slots with no recorded swap
    (a position built by hand) count as laid before everything.
    """

    hand: int
    slot_colours: list[int]
    hand_colours: int
    taken: dict[int, tuple[list[int], bool]]

    @property
    def dealt(self) -> int:
        """How many of its unseen places hold cards dealt to it at the start (not known taken cards)."""
        return self.hand + len(self.slot_colours) - len(self.taken)


def places(line: Timeline, hand: int, slots: int, in_hand: list[int], hand_or_pile: list[int]) -> Places:
    """The places of one participant with `hand` cards and `slots` face-down swapped cards."""
    recorded = line.swaps[-slots:] if slots else []
    slot_times = [-1] * (slots - len(recorded)) + [t for t, _ in recorded]
    slot_colours = [ALL_COLOURS & ~line.voids_between(-2, t) for t in slot_times]
    hand_colours = ALL_COLOURS & ~line.voids_between(-2, NEVER)
    taken: dict[int, tuple[list[int], bool]] = {card: ([], True) for card in in_hand}
    arrival = {card: t for t, card in recorded}
    for card in hand_or_pile:
        came = arrival.get(card, -2)
        bit = COLOUR_BIT[card]
        allowed = [k for k, t in enumerate(slot_times) if t > came and not line.voids_between(came, t) & bit]
        taken[card] = (allowed, not line.voids_between(came, NEVER) & bit)
    return Places(hand, slot_colours, hand_colours, taken)


def slot_cards(pile: list[int], shown: list[int]) -> list[int]:
    """The face-down swapped cards of a pile, oldest first (a pile grows in time order; the rest is kept)."""
    kept = set(shown)
    return [card for card in pile if card not in kept]
