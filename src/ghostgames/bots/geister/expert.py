"""The Geister expert's policy: the v1 search knowledge (`search.GeisterPolicy`: playouts, evaluation) with
worlds dealt from the fitted belief (`belief.py`) and a guard in front of the search; it can choose its setup
with the learned value (`setups.py`, `learned_setups`).

- Worlds: the enemy's hidden colours are drawn from the belief, a distribution over the colourings that
  are still possible, instead of v1's hand-set weights.
- Guard: an enemy ghost one move from winning by an exit (under `escape` standing on its owner's exit
  corner, under `reach` next to one) must be answered, and one within two steps of an exit is taken when
  the belief gives it a fair chance of being good (a good ghost that got that far unopposed usually
  escapes: measured, docs/research/geister-expert.md). When one of our ghosts can take the nearest such
  ghost, the search chooses only among those captures, never one that could be the fourth bad ghost unless
  the ghost is about to leave and more likely good.
- Races (`RacePolicy`, the expert's from 4 December 2026, now `expert-v4`; `BeliefPolicy` alone is `expert-v3`): with no
  capture to make, a ghost likely good three steps or fewer from an exit corner must find one of ours able
  to stand next to the corner in time and out of its reach on the way; the search then chooses among the
  moves that keep it so (a keeper stays on its corner instead of stepping up to be taken).
- Arrivals (`HalfwayPolicy`, the expert's on 5 December 2026, now `expert-v5`; `ArrivalPolicy`, `ArrivalWorldsPolicy`,
  `GambleWorldsPolicy` are the steps to it): a ghost that has just come to a
  step from our exit is read above the belief (halfway to the count's even guess), the search's worlds deal it
  so, and with the enemy's last bad ghost left the capture of a ghost about to leave is the search's to weigh.
- Waiting (`LoneRaceWaitPolicy`, the expert's from the night of 5 December 2026, now `expert-v6`; `HeldRacePolicy`,
  `WaitPolicy`, `SafeWaitPolicy` are the steps to it): with fewer than three of the enemy's bad ghosts taken, a
  capture a step or two from our corner waits while one of ours, out of every enemy ghost's reach, will stand next to
  the corner when the ghost stands on it, and no other race is run: a ghost that walks on is taken on the corner, one
  that stops (a decoy, most often) is not taken, so the enemy keeps its bad ghosts longer and we enter less often the
  endgame where any capture may be its fourth.
- Running on (`RunOnPolicy`, the expert's from the morning of 5 December 2026, now `expert-run-on`): a good ghost of
  ours whose race to an exit is won (`races.py`) walks on without search.
- The corner walker (`CornerPolicy`, the expert's from the evening of 5 December 2026, now `expert-corner`): with the
  enemy's last bad ghost left, a ghost that has just stepped onto our exit corner is read at the belief's chance
  calibrated on such walkers, not halfway to the even guess.
- The sealed corner (`SealedPolicy`, the expert's since the afternoon of 6 December 2026): with the enemy holding three
  of our bad ghosts, a corner where our last bad ghost stands is no way out for the enemy, and that keeper stays on
  it while an enemy ghost is near.
- The parked ghost (`ParkedPolicy`, `expert-parked`, measured on the evening of 6 December 2026 and not the expert's:
  better at 1,000 iterations, not at `hard`'s budget): with the enemy holding three of our bad ghosts, our last one
  walks to a free corner when the guard has nothing to take, and stays there.

The steps between the shipped experts were measured under names of their own (docs/research/geister-expert.md);
the variants measured and not kept (worlds leaning towards runners, other waits, races at the search's leaves)
left the tree and replay at the commit the research log names.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.geister.belief import Models, belief
from ghostgames.bots.geister.heuristic import FAR
from ghostgames.bots.geister.picture import BAD, Picture, distance, exit_distance
from ghostgames.bots.geister.search import GeisterPolicy
from ghostgames.bots.geister.setups import KEEP, choose_setup
from ghostgames.games.geister.actions import Move, Setup, parse_action
from ghostgames.games.geister.board import EXITS
from ghostgames.rules.contract import Action, IllegalAction, State


class BeliefPolicy(GeisterPolicy):
    near_steps = 2  # enemy ghosts this close to an exit are taken when they may well be good
    near_good = 0.25  # ... when the belief gives them at least this chance of being good
    close_good = 0.25  # ... or this chance, a step from the exit (two moves from leaving, under `escape`)
    race_steps = 0  # > 0: races to an exit corner this many steps out are defended (`races`); 0: off
    # With three of the enemy's bad ghosts taken (a fourth loses), ghosts this many moves from winning or fewer
    # are taken when more likely good than bad; farther ones are let be.
    fourth_bad_moves = 1
    # True: with the last bad ghost left, a capture of a ghost about to leave that the guard did not force is
    # left to the search (`gambles`) instead of being ruled out with the other possible fourth bad ghosts.
    search_gambles = False
    belief_models: Models | None = None  # how the belief reads the enemy (None: belief.MODELS)
    # Setups among the best quarter by the learned value (`setups.py`); False: uniform, as v1. Off: they beat
    # uniform setups at a tenth of `hard`, not `expert-v1` at `hard` (docs/research/geister-expert.md, "Setups
    # chosen by the learned value").
    learned_setups = False
    setup_weights: str | None = None  # the weights that score the setups (None: the packaged ones)
    setup_keep = KEEP  # how many of the best setups it picks from
    # True: an exit corner held by our last bad ghost, with our other three taken, is no way out (`open_exits`)
    sealed_corners = False

    def __init__(self, knowledge: SeatKnowledge) -> None:
        super().__init__(knowledge)
        view = knowledge.view()
        over = view.get("outcome") is not None
        self.belief = belief(self.picture, list(view["moves"]), self.belief_models, over=over)
        self.good_probability = self.belief.good_probability()

    def determinize(self, rng: random.Random) -> State[Any]:
        world = self.knowledge.sample_world(rng)
        if not self.belief.hidden or not getattr(world, "set_up", [True, True])[self.picture.enemy]:
            return world
        goods = self.belief.sample(rng) if not self.leans_worlds else \
            rng.choices(self.belief.colourings, self.world_probabilities())[0]
        good: list[bool | None] = world.good  # type: ignore[attr-defined]
        for g in self.belief.hidden:
            good[g] = g in goods
        return world

    def forced(self, legal: Sequence[Action], rng: random.Random) -> Action | None:
        if self.learned_setups and isinstance(legal[0], Setup):
            return choose_setup(legal, self.knowledge.seat, self.picture.escape, rng, self.setup_weights,
                                self.setup_keep)
        return super().forced(legal, rng)

    @property
    def leans_worlds(self) -> bool:
        """Whether the search deals its worlds from `world_probabilities` rather than the belief as it is."""
        return False

    def world_probabilities(self) -> list[float]:
        """The chance of each of the belief's colourings that the search deals its worlds from: here the
        belief's (`ArrivalWorldsPolicy` lifts a ghost that has just arrived)."""
        return list(self.belief.probabilities)

    def guard_chance(self, ghost: int) -> float:
        """The chance that the enemy ghost is good, as the guard reads it: the belief's."""
        return self.good_probability.get(ghost, 1.0)

    def sealed_corner(self) -> int:
        """With `sealed_corners`, the enemy's exit corner where our last bad ghost stands while the enemy holds our
        other three, else -1. A ghost leaves only from its corner, so it would first have to take ours there, and
        taking a player's fourth bad ghost loses the game at once."""
        p = self.picture
        if not self.sealed_corners or p.captured[p.me]["bad"] < 3:
            return -1
        for c in sorted(EXITS[p.enemy]):
            if p.board[c] >= 0 and p.board[c] >> 3 == p.me and p.colour[p.board[c]] == BAD:
                return c
        return -1

    def open_exits(self) -> list[int]:
        """The enemy's exit corners it may still leave by: both but the `sealed_corner`."""
        sealed = self.sealed_corner()
        return [c for c in sorted(EXITS[self.picture.enemy]) if c != sealed]

    def exit_steps(self, square: int) -> int:
        """Steps from `square` to the nearest of the enemy's open exits (`open_exits`; FAR when none is)."""
        return min((distance(square, c) for c in self.open_exits()), default=FAR)

    def moves_to_win(self, ghost: int) -> int:
        """How many moves the enemy ghost needs to win by an exit if it is good."""
        p = self.picture
        return self.exit_steps(p.square[ghost]) + (1 if p.escape else 0)

    def threats(self) -> list[int]:
        """Enemy ghosts that are near enough an exit to be answered now, the nearest first: one move from
        winning unless certainly bad, or within two steps of an exit (`defender`'s zone) when the belief
        gives them at least `near_good` of being good."""
        p = self.picture
        out = []
        for g in p.ghosts(p.enemy):
            chance = self.guard_chance(g)
            if chance <= 0.0:
                continue  # certainly bad: let it stand there
            steps = self.exit_steps(p.square[g])
            if self.moves_to_win(g) == 1 or (
                steps <= self.near_steps and chance >= (self.close_good if steps == 1 else self.near_good)
            ):
                out.append(g)
        return sorted(out, key=self.moves_to_win)

    def answers(self, legal: list[Action]) -> list[Action]:
        """Our captures of the nearest threatening ghost we can take (never a likely fourth bad one)."""
        p = self.picture
        fourth_bad = p.captured[p.enemy]["bad"] >= 3
        by_distance: dict[int, list[Action]] = {}
        for g in self.threats():
            if fourth_bad and self.guard_chance(g) <= 0.5:
                continue
            if fourth_bad and self.moves_to_win(g) > self.fourth_bad_moves:
                continue  # it could be the fourth bad ghost and is not about to leave
            for m in legal:
                if isinstance(m, Move) and m.target == p.square[g]:
                    by_distance.setdefault(self.moves_to_win(g), []).append(m)
        return by_distance[min(by_distance)] if by_distance else []

    def allowed(self, legal: list[Action]) -> list[Action]:
        answers = self.answers(legal)
        if answers:
            return answers
        kept = super().allowed(legal)
        kept = self.blocks(kept) or kept
        return kept + [m for m in self.gambles(legal) if m not in kept]

    def gambles(self, legal: list[Action]) -> list[Action]:
        """With `search_gambles`, three of the enemy's bad ghosts taken and an enemy ghost one move from
        leaving that the guard did not take: our captures of it, for the search to weigh (none otherwise).
        Taking it wins or loses at once by its colour; letting it stand loses if it is good and plays on if
        it is bad, so it is taken below even odds whenever our game after a bad one left standing is less than
        sure (at a chance p, taking is worth p and waiting (1 - p) x that game)."""
        p = self.picture
        if not self.search_gambles or p.captured[p.enemy]["bad"] < 3:
            return []
        squares = {p.square[g] for g in p.ghosts(p.enemy) if self.moves_to_win(g) == 1 and self.guard_chance(g) > 0}
        return [m for m in legal if isinstance(m, Move) and m.target in squares]

    def races(self) -> list[tuple[int, int, int]]:
        """(runner's square, corner, its steps to the corner) for every enemy ghost at least `near_good`
        likely good within `race_steps` of one of its exit corners (under `escape` only: under `reach` the
        corner itself wins, a different race)."""
        p = self.picture
        if not p.escape or self.race_steps <= 0:
            return []
        out = []
        for g in p.ghosts(p.enemy):
            if self.guard_chance(g) >= self.near_good:
                out += self.races_from(p.square[g])
        return sorted(out, key=lambda race: race[2])

    def races_from(self, square: int) -> list[tuple[int, int, int]]:
        """The races an enemy ghost on `square` runs: each exit within `race_steps` of it, with the steps."""
        out = []
        for corner in self.open_exits():
            steps = distance(square, corner)
            if steps <= self.race_steps:
                out.append((square, corner, steps))
        return out

    def blocks(self, legal: list[Action]) -> list[Action]:
        """The moves after which every race (`races`) is still held, when some move breaks one; none when no
        race is at stake. A race is held when one of our ghosts can stand next to the corner by the time the
        runner stands on it (within the runner's steps of the corner: we move next after this move, then the
        runner, in turn) and is not one the runner can take on its way (next to it), or two are in time (it
        takes one at most). So a keeper stays on its corner instead of stepping up to the runner, which takes
        it and walks on (the escapes `rush` won by, docs/research/geister-expert.md). When no move holds
        them all, the moves that hold the nearest race; when none holds that either, none."""
        found = self.race_outcomes(legal)
        if found is None:
            return []
        moves, every, nearest = found
        if len(every) == len(moves):
            return []  # nothing at stake this move
        return every or nearest

    def race_outcomes(self, legal: list[Action]) -> tuple[list[Action], list[Action], list[Action]] | None:
        """(the moves of `legal`, those after which every race is held, those after which the nearest race
        is held or its runner taken), or None when no race is run (`blocks` explains "held")."""
        races = self.races()
        if not races:
            return None
        p = self.picture
        mine = {p.square[g] for g in p.ghosts(p.me)}

        def held(squares: set[int], runner: int, corner: int, steps: int) -> bool:
            in_time = [s for s in squares if distance(s, corner) <= steps]
            return len(in_time) >= 2 or any(distance(s, runner) > 1 for s in in_time)

        def after(m: Action) -> tuple[set[int], list[tuple[int, int, int]]]:
            assert isinstance(m, Move)
            squares = (mine - {m.origin}) | ({m.target} if m.target >= 0 else set())
            return squares, [race for race in races if race[0] != m.target]  # a runner taken is no race

        moves = [m for m in legal if isinstance(m, Move)]
        outcomes = {m: after(m) for m in moves}
        every = [m for m in moves if all(held(outcomes[m][0], *race) for race in outcomes[m][1])]
        nearest = races[0]
        near: list[Action] = [m for m in moves if nearest not in outcomes[m][1] or held(outcomes[m][0], *nearest)]
        return list(moves), list(every), near


class RacePolicy(BeliefPolicy):
    """`expert-v4`, the expert's policy from 4 to 5 December 2026: races to an exit up to three steps out
    defended (`races`, `blocks`), and a ghost a step from its exit taken at a tenth of a chance of being
    good. Measured against `BeliefPolicy` (`expert-v3`) in docs/research/geister-expert.md ("Defending exit
    races")."""

    race_steps = 3
    close_good = 0.1  # `rush`'s runners capture on their way, which the belief reads as bad


class ArrivalPolicy(RacePolicy):
    """A step from `RacePolicy` to `HalfwayPolicy`: `RacePolicy` whose guard does not let the belief talk it out
    of a runner that has just arrived (docs/research/geister-expert.md, "Why the expert loses to the learned runner").

    Traced against the learned `runner`: the belief's chance for a ghost walking at our corner falls as it
    comes (0.7-0.9 three steps out, 0.1-0.4 on the corner), because the habits it was fitted on (a search
    player's good ghosts do not walk up to ours: `exposed`, `attacked`) are not the runner's, and our own
    blocker standing next to it is what lowers it. Replayed, a ghost the belief gave under a fifth on the
    corner was good about half the time. So:

    - a ghost that the enemy's last move brought forward to within a step of its exit corner (the moving
      runner, not a decoy parked there) is read by the guard at no less than the even guess the count
      allows (good ghosts still hidden / hidden ghosts): it is taken where it can be (a step out from a tenth
      of a chance, as before, which the floor always passes);
    - with three of the enemy's bad ghosts taken (taking a fourth loses), the guard also takes a ghost a step
      from its corner when more likely good than bad, instead of waiting until it stands on the corner,
      where the belief reads it lower still.
    """

    fourth_bad_moves = 2
    arrival_pull = 1.0  # how far from the belief's chance towards the even guess an arrival is read (1: all)

    def __init__(self, knowledge: SeatKnowledge) -> None:
        super().__init__(knowledge)
        b = self.belief
        self.even_guess = b.goods / len(b.hidden) if b.hidden else 0.0
        self.arrival = arrived(self.picture, list(knowledge.view()["moves"]))

    def guard_chance(self, ghost: int) -> float:
        chance = super().guard_chance(ghost)
        if ghost == self.arrival and exit_distance(self.picture.square[ghost], self.picture.enemy) <= 1:
            return self.arrival_chance(chance)
        return chance

    def arrival_chance(self, chance: float) -> float:
        """The chance read for an arrival the belief gives `chance`: moved `arrival_pull` of the way up to the
        even guess (never down)."""
        if chance >= self.even_guess:
            return chance
        if self.arrival_pull >= 1.0:
            return self.even_guess
        return chance + self.arrival_pull * (self.even_guess - chance)


def arrived(picture: Picture, moves: list[str]) -> int:
    """The enemy ghost that the last move of `moves` brought closer to its exits, or -1 (public knowledge:
    the move list and the picture)."""
    if not moves:
        return -1
    try:
        move = parse_action(" ".join(moves[-1].split()[:2]))
    except IllegalAction:
        return -1
    if not isinstance(move, Move) or move.target < 0:
        return -1
    ghost = picture.board[move.target]
    if ghost < 0 or ghost >> 3 != picture.enemy:
        return -1
    owner = picture.enemy
    return ghost if exit_distance(move.target, owner) < exit_distance(move.origin, owner) else -1


class ArrivalWorldsPolicy(ArrivalPolicy):
    """The next step: `ArrivalPolicy` whose search also deals its worlds with the arriving ghost good at least as
    often as the guard reads it (the colourings that call it good scaled up together until their share is the even
    guess), so that the search plays the same game the guard defends. Unlike a leaning measured and not kept
    (docs/research/geister-expert.md), which counted every ghost near our exits (the decoys parked there were bad in
    99 of 100 snapshots), only the ghost that has just come forward is lifted."""

    @property
    def leans_worlds(self) -> bool:
        return True

    def world_probabilities(self) -> list[float]:
        probabilities = super().world_probabilities()
        g = self.arrival
        if g < 0 or exit_distance(self.picture.square[g], self.picture.enemy) > 1:
            return probabilities
        good = [g in c for c in self.belief.colourings]
        chance = sum(q for q, is_good in zip(probabilities, good, strict=True) if is_good)
        floor = self.arrival_chance(chance)
        if chance >= floor or chance <= 0.0 or floor >= 1.0:
            return probabilities
        scale = floor * (1.0 - chance) / (chance * (1.0 - floor))
        weights = [q * scale if is_good else q for q, is_good in zip(probabilities, good, strict=True)]
        total = sum(weights)
        return [w / total for w in weights]


class GambleWorldsPolicy(ArrivalWorldsPolicy):
    """The next step: `ArrivalWorldsPolicy` whose search may take a ghost about to leave with the enemy's
    last bad ghost still on the board (`gambles`): traced, `ArrivalWorldsPolicy` lost most of its remaining
    games to the runner so, with one good and one bad ghost left to the enemy, the guard reading the arrival at
    an even guess and not taking it, and the rule against a possible fourth bad ghost keeping the capture
    out of the search's reach."""

    search_gambles = True


class HalfwayPolicy(GambleWorldsPolicy):
    """`expert-v5`, the expert's policy on 5 December 2026 (adopted by issue 13's rule:
    docs/research/geister-expert.md): `GambleWorldsPolicy` reading an arrival halfway from the belief's chance to the
    even guess instead of at the guess. Measured, `GambleWorldsPolicy` stopped the learned runner but took more of the
    decoys that `expert-v1` and `rules` walk at our corners (their fourth bad ghost, which loses): the belief, low for
    both (0.2-0.4 for the runner's, 0.02-0.07 for the decoys), still tells them apart, which reading every arrival at
    the guess threw away."""

    arrival_pull = 0.5


class HeldRacePolicy(HalfwayPolicy):
    """A step from `HalfwayPolicy` to `LoneRaceWaitPolicy`: `HalfwayPolicy` whose guard takes a ghost two or three
    moves from leaving only when it must, that is when we could not take it on its corner instead
    (docs/research/geister-expert.md, "The guard waits while the race is held").

    Traced against the held-out `runner-2`, the guard took the enemy's third bad ghost in 84 games of 100,
    most of them a step from our corner at a belief of 0.01-0.15 (lifted by the arrival reading), and
    every game lost after that was lost in the endgame where any capture may be the fourth bad ghost. The
    game itself says when a capture a step or two out can wait: if one of ours will stand next to the
    corner when the ghost stands on it and the ghost cannot take it on the way (the race guard's "held"),
    the ghost that walks on to the corner is taken there (one move from leaving, the guard takes it
    whatever the belief says), while the one that stops, a decoy most often, is left alone. So with fewer
    than three of the enemy's bad ghosts taken (a corner capture is then always made), when the guard
    would take a ghost not yet on its corner, it offers the search the capture together with every move
    after which all races, that ghost's included, are still held; the search's evaluation prices the bad
    ghost it might take (`heuristic.seat_worth`: a third taken leaves the enemy its last bad ghost). With no
    such move, or under `reach`, it takes the ghost as before. Threat and race read the same ghosts:
    every ghost the guard would answer also runs a race."""

    offer_capture = True  # False: while the race is held the capture is not among the moves (`WaitPolicy`)

    def races(self) -> list[tuple[int, int, int]]:
        out = super().races()
        p = self.picture
        if not p.escape or self.race_steps <= 0:
            return out
        racing = {race[0] for race in out}
        for g in self.threats():
            if p.square[g] not in racing:
                out += self.races_from(p.square[g])
        return sorted(out, key=lambda race: race[2])

    def allowed(self, legal: list[Action]) -> list[Action]:
        answers = self.answers(legal)
        waiting = self.waiting(legal, answers)
        if waiting:
            return answers + waiting if self.offer_capture else waiting
        return super().allowed(legal)

    def waiting(self, legal: list[Action], answers: list[Action]) -> list[Action]:
        """The moves other than `answers` (the guard's captures) after which every race is held, when the
        capture may wait (fewer than three bad ghosts taken, under `escape`, the ghost not on its corner);
        none otherwise."""
        p = self.picture
        if not answers or not p.escape or p.captured[p.enemy]["bad"] >= 3:
            return []
        first = answers[0]
        assert isinstance(first, Move)
        if self.moves_to_win(p.board[first.target]) <= 1:
            return []
        found = self.race_outcomes(legal)
        if found is None:
            return []
        # with three bad ghosts taken, the base rule's: no capture of a hidden ghost (it may be the fourth)
        return [m for m in GeisterPolicy.allowed(self, found[1]) if m not in answers]


class WaitPolicy(HeldRacePolicy):
    """The next step: `HeldRacePolicy` that does not even offer the search the capture while the race is held.
    Taking the ghost a step out gains nothing over taking it on the corner, where the guard takes it
    whatever the belief says: a good one is taken either way, at the same cost of one move, and a bad one that
    stops short is not taken at all. Traced, `HeldRacePolicy`'s search took the capture it was offered in 41 of
    100 games against `runner-2`, at beliefs as low as 0.07 (its worlds deal an arrival halfway to the even
    guess), and that capture was the enemy's third bad ghost."""

    offer_capture = False


class SafeWaitPolicy(WaitPolicy):
    """The next step: `WaitPolicy` that waits only while the corner's keeper is out of every enemy ghost's
    reach, not only the runner's. Traced against `rules`, `WaitPolicy` lost games it had won by waiting
    while the runner stood a step from the corner and another enemy ghost, next to our keeper, took it: the
    runner then walked on with no one in time. Taking the ghost on the corner instead of a step out is only
    as good when the enemy cannot take our keeper in between: so the ghost's races (to either corner in
    reach) must each have a keeper in time that no enemy ghost stands next to, or two keepers in time (the
    enemy takes one a move, a move its runner does not walk)."""

    def waiting(self, legal: list[Action], answers: list[Action]) -> list[Action]:
        moves = super().waiting(legal, answers)
        if not moves:
            return []
        p = self.picture
        first = answers[0]
        assert isinstance(first, Move)
        runner = first.target
        races = [race for race in self.races() if race[0] == runner]
        mine = {p.square[g] for g in p.ghosts(p.me)}
        enemies = {p.square[g] for g in p.ghosts(p.enemy)}

        def safe(m: Action) -> bool:
            assert isinstance(m, Move)
            squares = (mine - {m.origin}) | ({m.target} if m.target >= 0 else set())
            foes = enemies - {m.target}
            for _, corner, steps in races:
                in_time = [s for s in squares if distance(s, corner) <= steps]
                keepers = [s for s in in_time if all(distance(s, f) > 1 for f in foes)]
                if not keepers and len(in_time) < 2:
                    return False
            return True

        return [m for m in moves if safe(m)]


class LoneRaceWaitPolicy(SafeWaitPolicy):
    """`expert-v6`, the expert's policy from the night of 5 December 2026 to the next morning (adopted by issue 13's
    rule: docs/research/geister-expert.md): `SafeWaitPolicy` that waits only when the ghost's race is the only one
    run. Traced against `rules`, `SafeWaitPolicy` lost games by waiting while a second runner walked at our other
    corner: the guard kept every race held and the move budget went to the ghost that had stopped a step out, where
    the expert had taken it at once and been free. With no other race, holding the corner costs nothing the capture
    would not."""

    def waiting(self, legal: list[Action], answers: list[Action]) -> list[Action]:
        moves = super().waiting(legal, answers)
        if not moves:
            return []
        first = answers[0]
        assert isinstance(first, Move)
        return moves if all(race[0] == first.target for race in self.races()) else []


class RunOnPolicy(LoneRaceWaitPolicy):
    """The expert's policy from the morning to the evening of 5 December 2026, now `expert-run-on` (adopted by
    issue 13's rule: docs/research/geister-expert.md): `LoneRaceWaitPolicy` (`expert-v6`) that walks a good ghost of
    ours on when its race to an exit is won (`races.race_moves`) and no enemy ghost, each taken as good, could leave
    first: a step after which the race is still won and still first, like the winning move, without search.
    Measured (`benchmarks/race_calibration.py`), the `expert` before ran out only 48% (against `runner-2`) and 15%
    (`runner-3`) of the positions where it had such a race. Public knowledge only: our colours, and every ghost's
    square."""

    def forced(self, legal: Sequence[Action], rng: random.Random) -> Action | None:
        found = super().forced(legal, rng)
        if found is not None or not self.picture.escape or not isinstance(legal[0], Move):
            return found
        return run_on(self.knowledge, legal)


def run_on(knowledge: SeatKnowledge, legal: Sequence[Action]) -> Action | None:
    """The first of `legal` after which our quickest race won is one move shorter and still ends before any enemy
    ghost's (each read as good), or None when we have no race won or no such step."""
    from ghostgames.bots.geister import races  # compiled: loaded only by the bots that read races
    from ghostgames.bots.geister.heuristic import FAR
    from ghostgames.games.geister import fast
    from ghostgames.games.geister.state import GeisterState

    me = knowledge.seat
    world = knowledge.sample_world(random.Random(0))  # the squares are public; the colours are set below
    assert isinstance(world, GeisterState)
    row = fast.from_state(world)
    for g in range((1 - me) * 8, (1 - me) * 8 + 8):
        if row[fast.POS + g] >= 0:
            row[fast.GOOD + g] = 1  # the worst case: every enemy ghost on the board runs
    ours = races.race_moves(row, me)
    if ours >= FAR or races.race_winner(row, races.BOTH) != me:
        return None
    for m in legal:
        if not isinstance(m, Move) or m.target < 0 or row[fast.GOOD + row[fast.BOARD + m.origin]] != 1:
            continue
        after = row.copy()
        fast.apply_move(after, fast.code_of(m))
        if races.race_moves(after, me) == ours - 1 and races.race_winner(after, races.BOTH) == me:
            return m
    return None


# logit(p') = logit(p) + CORNER_SHIFT: the belief's chance for a ghost that has just stepped onto our exit corner
# with the enemy's last bad ghost left, calibrated on such moves against the sparring partners at seed 3 (the
# held-out `runner-3` not among them): benchmarks/corner_calibration.py, docs/research/geister-expert.md.
CORNER_SHIFT = 1.96


class CornerPolicy(RunOnPolicy):
    """The expert's policy since the evening of 5 December 2026 (adopted at `hard`'s budget by the rule written
    before its games: docs/research/geister-expert.md): `RunOnPolicy` reading a ghost that has just stepped onto
    our exit corner, with the enemy's last bad ghost left, at the belief's chance shifted by `CORNER_SHIFT` instead
    of halfway to the even guess.

    That ghost leaves next move if it is good, and taking it loses if it is the last bad one: the guard takes it
    when it reads it more likely good than bad, else the search weighs the gamble on worlds dealt at that reading.
    The belief was fitted on search players' games, where a good ghost does not walk up to be taken, so it reads
    such a walker low; counted over games against the sparring partners, the walker was good three times in four
    where the belief said one in two."""

    def arrival_chance(self, chance: float) -> float:
        p = self.picture
        g = self.arrival
        if g < 0 or p.captured[p.enemy]["bad"] < 3 or exit_distance(p.square[g], p.enemy) != 0:
            return super().arrival_chance(chance)
        return shifted(chance, CORNER_SHIFT)


class SealedPolicy(CornerPolicy):
    """The expert's policy since the afternoon of 6 December 2026 (adopted by the rule written before its games:
    docs/research/geister-expert.md, "A corner our last bad ghost holds"), `expert-sealed`: `CornerPolicy` that
    knows a corner it has sealed. With the enemy holding three of our bad ghosts, an exit corner where our last bad
    ghost stands is no way out (`open_exits`): an enemy ghost would first have to take that ghost there, the fourth
    of our bad ones taken, which loses it the game. So a ghost next to that corner is no threat there and the guard
    does not gamble on taking it (traced against the held-out `runner-3`, a game lost by taking the enemy's fourth
    bad ghost a step from such a corner); and since the seal lasts only while its keeper stays, the keeper's moves
    off the corner are not allowed while an enemy ghost is within `race_steps` of it, unless nothing else is
    (traced against `rush`, the search otherwise walked the keeper away and a ghost two steps off left by the
    corner)."""

    sealed_corners = True

    def allowed(self, legal: list[Action]) -> list[Action]:
        moves = super().allowed(legal)
        corner = self.sealed_corner()
        if corner < 0 or not self.keeper_stays(corner):
            return moves
        staying = [m for m in moves if not (isinstance(m, Move) and m.origin == corner)]
        return staying or moves

    def keeper_stays(self, corner: int) -> bool:
        """Whether the keeper of the sealed `corner` must stay on it: while an enemy ghost is within `race_steps`."""
        p = self.picture
        return any(distance(p.square[g], corner) <= self.race_steps for g in p.ghosts(p.enemy))


class ParkedPolicy(SealedPolicy):
    """`expert-parked`, measured on the evening of 6 December 2026 and not the expert's policy: adopted at 1,000
    iterations by the rule written before its screen, withdrawn by the one written for `hard`'s budget, where it won
    fewer games (docs/research/geister-expert.md, "Our last bad ghost parked on a corner"): `SealedPolicy` that
    parks our last bad ghost on a corner. With the enemy holding three of our bad ghosts, a corner our last one
    stands on is sealed; traced against the held-out `runner-3`, in 8 of 9 games lost where both sides stood a bad
    ghost from losing, our ghost on the corner the decoy walked to was good and our last bad ghost 3 to 9 steps away,
    so the guard had two corners to defend and took the decoy at one. Nothing in the search plans that walk (the
    playouts know no seal). So while no corner is sealed and the guard makes no capture, the moves allowed are those
    of our last bad ghost that bring it a step nearer the nearest of the enemy's exit corners no ghost stands on
    (when the guard's other rules allow any); once there, its moves off the corner are not allowed, enemy near or
    not, unless nothing else is."""

    def allowed(self, legal: list[Action]) -> list[Action]:
        moves = super().allowed(legal)
        if self.sealed_corner() >= 0:
            return moves  # parked already, and staying (`keeper_stays`)
        parking = self.parking_moves(legal)
        if not parking or self.answers(legal):
            return moves  # nothing to park (the enemy holds fewer than three of our bad ghosts), or the guard takes one
        return [m for m in moves if m in parking] or moves

    def keeper_stays(self, corner: int) -> bool:
        """Parked, the keeper stays, enemy near or not."""
        return True

    def parking_moves(self, legal: list[Action]) -> list[Action]:
        """Our last bad ghost's moves of `legal` a step nearer the nearest enemy exit corner no ghost stands on, once
        the enemy holds our other three (none before)."""
        p = self.picture
        if p.captured[p.me]["bad"] < 3:
            return []
        bad = [g for g in p.ghosts(p.me) if p.colour[g] == BAD]
        free = [c for c in sorted(EXITS[p.enemy]) if p.board[c] < 0]
        if len(bad) != 1 or not free:
            return []
        square = p.square[bad[0]]
        steps = min(distance(square, c) for c in free)
        nearest = [c for c in free if distance(square, c) == steps]
        return [m for m in legal if isinstance(m, Move) and m.origin == square and m.target >= 0
                and min(distance(m.target, c) for c in nearest) < steps]


def shifted(chance: float, shift: float) -> float:
    """`chance` moved by `shift` on the logit scale (0 and 1 stay where they are)."""
    if chance <= 0.0 or chance >= 1.0:
        return chance
    return 1.0 / (1.0 + math.exp(-(math.log(chance / (1.0 - chance)) + shift)))
