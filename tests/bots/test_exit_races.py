"""The expert's race guard (bots/geister/expert.py, `RacePolicy.blocks`; `expert-v3` has none): a runner a
few steps from an exit corner is met by a keeper that stays in time, not one that steps up to it and is
taken. The guard of `expert-v5` (`HalfwayPolicy`, the expert on 5 December 2026) and the steps to it
(`ArrivalPolicy`, `ArrivalWorldsPolicy`, `GambleWorldsPolicy`) read a ghost that has just come a step from our exit
above the belief and may gamble on the last pair; `HeldRacePolicy` lets such a capture wait while the race to the
corner is held, `WaitPolicy` makes it wait, `SafeWaitPolicy` only while no enemy ghost can take the keeper, and
`LoneRaceWaitPolicy` (`expert-v6`, the parent of today's `expert`) only while no other race is run."""

from __future__ import annotations

import random

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.geister.expert import (
    ArrivalPolicy,
    ArrivalWorldsPolicy,
    BeliefPolicy,
    GambleWorldsPolicy,
    HalfwayPolicy,
    HeldRacePolicy,
    LoneRaceWaitPolicy,
    RacePolicy,
    SafeWaitPolicy,
    WaitPolicy,
)
from ghostgames.games.geister.actions import parse_action
from ghostgames.games.geister.board import parse_square
from tests.games.geister.positions import position

# Our bad ghost keeps f1; the enemy's f3 (even odds of being good) is three moves from leaving by f1; none
# of ours can take it now. Stepping the keeper up (f1 n) lets f3 take it and walk on: f2, f1, off.
KEEPER = {
    "f1": (0, "bad"), "a2": (0, "good"), "b2": (0, "good"), "c2": (0, "bad"),
    "f3": (1, "good"), "c5": (1, "good"), "d5": (1, "bad"), "e6": (1, "bad"),
}  # fmt: skip


def test_the_keeper_may_not_step_up_to_a_runner() -> None:
    knowledge = SeatKnowledge(position(KEEPER, turn=0, options={"exit": "escape"}), 0)
    legal = knowledge.legal_actions()
    policy = RacePolicy(knowledge)
    assert policy.races() and policy.races()[0][1:] == (parse_square("f1"), 2)
    allowed = {str(m) for m in policy.allowed(legal)}
    assert "f1 n" not in allowed and "f1 w" in allowed and len(allowed) < len(legal)
    assert "f1 n" in {str(m) for m in BeliefPolicy(knowledge).allowed(legal)}  # `expert-v3`'s guard allows it


def test_the_search_keeps_the_race() -> None:
    """Whatever the search prefers, it never lets the runner through."""
    knowledge = SeatKnowledge(position(KEEPER, turn=0, options={"exit": "escape"}), 0)
    chosen = {str(get_bot("expert:300").choose(knowledge, random.Random(s))) for s in range(4)}
    assert "f1 n" not in chosen


def test_a_runner_two_moves_from_leaving_is_taken_even_when_it_looks_bad() -> None:
    """f2 is a step from the corner f1 and our keeper can take it. Say the belief gives it 0.15 of being good
    (as it did to `rush`'s runners that took one of ours on their way): `expert-v3`'s guard lets it be, the
    expert's takes a ghost that close from a tenth of a chance."""
    knowledge = SeatKnowledge(position({**{k: v for k, v in KEEPER.items() if k != "f3"}, "f2": (1, "good")},
                                       turn=0, options={"exit": "escape"}), 0)
    policy = RacePolicy(knowledge)
    policy.good_probability = {g: 0.15 for g in policy.good_probability}
    assert {str(m) for m in policy.allowed(knowledge.legal_actions())} == {"f1 n"}
    expert = BeliefPolicy(knowledge)
    expert.good_probability = dict(policy.good_probability)
    assert expert.threats() == [] and len(expert.allowed(knowledge.legal_actions())) > 1


def _marginal(policy: BeliefPolicy, probabilities: list[float]) -> dict[int, float]:
    out = dict.fromkeys(policy.belief.hidden, 0.0)
    for colouring, p in zip(policy.belief.colourings, probabilities, strict=True):
        for g in colouring:
            out[g] += p
    return out


def _arrived(ghosts: dict[str, tuple[int, str]], step: str) -> SeatKnowledge:
    """Our seat (0) to move just after the enemy's `step` (e.g. "f3 s"), in the position `ghosts` before it."""
    state = position(ghosts, turn=1, options={"exit": "escape"})
    state.apply(1, parse_action(step))
    return SeatKnowledge(state, 0)


def test_a_runner_that_has_just_come_a_step_from_the_corner_is_taken_however_bad_it_looks() -> None:
    """The enemy's f3 has just stepped to f2, a step from our corner f1, where our keeper can take it. Say the
    belief gives it 0.05 of being good (as it gave the learned runner's, which walk up to our ghosts as a
    search player's good ghosts never do): `expert-v4`'s guard (a tenth at least) lets it be; `ArrivalPolicy`'s
    reads it at no less than the even guess (two good among four hidden here) and takes it."""
    knowledge = _arrived(KEEPER, "f3 s")
    runner = parse_square("f2")
    race, arrival = RacePolicy(knowledge), ArrivalPolicy(knowledge)
    race.good_probability = {g: 0.05 for g in race.good_probability}
    arrival.good_probability = dict(race.good_probability)
    assert arrival.arrival == arrival.picture.board[runner]
    assert arrival.guard_chance(arrival.arrival) == arrival.even_guess == 0.5
    assert {str(m) for m in arrival.allowed(knowledge.legal_actions())} == {"f1 n"}
    assert "f1 n" not in {str(m) for m in race.answers(knowledge.legal_actions())}


def test_a_ghost_parked_a_step_from_the_corner_is_read_as_the_belief_says() -> None:
    """The same ghost on f2, but the enemy's last move was another ghost's (c5 to c4, forward but far from our
    corners): a ghost that stays by our corner was bad in 99 of 100 replayed snapshots, so `ArrivalPolicy`
    reads the belief as it is."""
    parked = {**{k: v for k, v in KEEPER.items() if k != "f3"}, "f2": (1, "good")}
    knowledge = _arrived(parked, "c5 s")
    policy = ArrivalPolicy(knowledge)
    policy.good_probability = {g: 0.05 for g in policy.good_probability}
    parked_ghost = policy.picture.board[parse_square("f2")]
    assert policy.arrival == policy.picture.board[parse_square("c4")] != parked_ghost
    assert policy.guard_chance(parked_ghost) == 0.05 and policy.guard_chance(policy.arrival) == 0.05
    assert policy.answers(knowledge.legal_actions()) == []


# Three of the enemy's bad ghosts already taken (a fourth taken loses): its f3 (good), c5 (good) and e6 (bad)
# are all it has left, so two of its three hidden ghosts are good.
LAST_BAD = {
    "f1": (0, "bad"), "a2": (0, "good"), "b2": (0, "good"), "c2": (0, "bad"),
    "f3": (1, "good"), "c5": (1, "good"), "e6": (1, "bad"),
}  # fmt: skip


def test_with_the_last_bad_ghost_left_a_likelier_good_runner_is_taken_a_step_out() -> None:
    """f3 steps to f2 and the belief gives it 0.4: the expert waits until it stands on the corner (and by then
    reads it lower still); `ArrivalPolicy` takes it now, as the even guess (two good among three) says it is
    more likely good than bad."""
    knowledge = _arrived(LAST_BAD, "f3 s")
    race, arrival = RacePolicy(knowledge), ArrivalPolicy(knowledge)
    assert arrival.picture.captured[1]["bad"] == 3
    race.good_probability = {g: 0.4 for g in race.good_probability}
    arrival.good_probability = dict(race.good_probability)
    assert {str(m) for m in arrival.allowed(knowledge.legal_actions())} == {"f1 n"}
    assert race.answers(knowledge.legal_actions()) == []


def test_with_the_last_bad_ghost_left_an_even_guess_is_not_taken() -> None:
    """With one good and one bad ghost left to the enemy the even guess is a half: taking the runner then
    loses at once as often as it wins, so `ArrivalPolicy` does not force it."""
    knowledge = _arrived({k: v for k, v in LAST_BAD.items() if k != "c5"} | {"f3": (1, "good")}, "f3 s")
    policy = ArrivalPolicy(knowledge)
    policy.good_probability = {g: 0.3 for g in policy.good_probability}
    assert policy.even_guess == 0.5 and policy.answers(knowledge.legal_actions()) == []


def test_arrival_worlds_deal_the_arriving_runner_good_as_often_as_its_guard_reads_it() -> None:
    """Where the belief reads the runner that has just come to f2 as likelier good than the even guess, the
    worlds are the belief's; where it reads it at a tenth, they are dealt with it good half the time, and
    the other hidden ghosts keep their order."""
    knowledge = _arrived(KEEPER, "f3 s")
    policy = ArrivalWorldsPolicy(knowledge)
    runner = policy.arrival
    assert policy.good_probability[runner] > policy.even_guess
    assert policy.world_probabilities() == list(policy.belief.probabilities)
    b = policy.belief
    weights = [q * (0.05 if runner in c else 1.0) for c, q in zip(b.colourings, b.probabilities, strict=True)]
    b.probabilities = [w / sum(weights) for w in weights]
    assert abs(_marginal(policy, b.probabilities)[runner] - 0.1) < 0.06
    leaning = policy.world_probabilities()
    assert abs(_marginal(policy, leaning)[runner] - policy.even_guess) < 1e-9
    assert ArrivalPolicy(knowledge).world_probabilities() == list(ArrivalPolicy(knowledge).belief.probabilities)


# The enemy has one good and one bad ghost left (three of each taken): f2, good, steps onto our corner f1,
# next to our e1.
PAIR = {
    "e1": (0, "bad"), "a2": (0, "good"), "b2": (0, "good"), "c2": (0, "bad"),
    "f2": (1, "good"), "c5": (1, "bad"),
}  # fmt: skip


def test_with_the_last_pair_left_the_search_may_take_the_ghost_on_the_corner() -> None:
    """The belief gives the ghost on f1 0.3: no guard forces the capture (an even guess at best), and the
    rule against a possible fourth bad ghost keeps it from `ArrivalWorldsPolicy`'s search; `GambleWorldsPolicy`'s search
    may weigh it (taking wins or loses now; waiting loses if it is good) without being made to."""
    knowledge = _arrived(PAIR, "f2 s")
    legal = knowledge.legal_actions()
    race3, race4 = ArrivalWorldsPolicy(knowledge), GambleWorldsPolicy(knowledge)
    for policy in (race3, race4):
        policy.good_probability = {g: 0.3 for g in policy.good_probability}
        assert policy.answers(legal) == []
    assert "e1 e" not in {str(m) for m in race3.allowed(legal)}
    allowed = {str(m) for m in race4.allowed(legal)}
    assert "e1 e" in allowed and len(allowed) > 1
    assert {str(m) for m in race4.gambles(legal)} == {"e1 e"}


def test_no_gamble_while_taking_a_bad_ghost_does_not_lose() -> None:
    """With two of the enemy's bad ghosts taken, a capture cannot lose at once: nothing to weigh apart."""
    knowledge = _arrived({**PAIR, "d5": (1, "bad")}, "f2 s")
    policy = GambleWorldsPolicy(knowledge)
    assert policy.picture.captured[1]["bad"] == 2 and policy.gambles(knowledge.legal_actions()) == []


def test_the_expert_reads_an_arrival_halfway_and_leaves_a_likely_decoy_to_the_search() -> None:
    """With the last bad ghost left (two good, one bad: a guess of two thirds) an arrival the belief gives
    0.05, as it gave `expert-v1`'s decoys: `GambleWorldsPolicy` reads it at the guess and must take it (a third of
    the time its fourth bad ghost, which loses); `expert` (`HalfwayPolicy`) reads it halfway (0.36) and does not force
    it. A step from the corner at a belief of 0.05 with cheap captures (KEEPER), both still take it."""
    knowledge = _arrived(LAST_BAD, "f3 s")
    legal = knowledge.legal_actions()
    race4, race5 = GambleWorldsPolicy(knowledge), HalfwayPolicy(knowledge)
    for policy in (race4, race5):
        policy.good_probability = {g: 0.05 for g in policy.good_probability}
    runner = race5.arrival
    assert abs(race5.guard_chance(runner) - (0.05 + 0.5 * (2 / 3 - 0.05))) < 1e-9
    assert race4.guard_chance(runner) == race4.even_guess
    assert {str(m) for m in race4.allowed(legal)} == {"f1 n"}
    assert race5.answers(legal) == []
    keeper = _arrived(KEEPER, "f3 s")
    policy = HalfwayPolicy(keeper)
    policy.good_probability = {g: 0.05 for g in policy.good_probability}
    assert {str(m) for m in policy.allowed(keeper.legal_actions())} == {"f1 n"}


# Our e1 stands next to our corner f1, two steps from f2; our e2 can take f2. Two of the enemy's bad ghosts are
# already taken (four on the board: two good, two bad).
HELD = {
    "e1": (0, "bad"), "e2": (0, "good"), "a2": (0, "good"), "b2": (0, "bad"),
    "f3": (1, "good"), "c5": (1, "good"), "d5": (1, "bad"), "e6": (1, "bad"),
}  # fmt: skip


def test_a_capture_a_step_out_waits_while_the_race_is_held() -> None:
    """f3 steps to f2, read low (0.05): the expert takes it at once (e2 e). `HeldRacePolicy` sees that e1 takes it
    on the corner should it walk on, so it lets the search choose between the capture and every move that
    keeps e1 in time (never e1 w, too far, nor e1 e, next to the runner)."""
    knowledge = _arrived(HELD, "f3 s")
    legal = knowledge.legal_actions()
    expert, held = HalfwayPolicy(knowledge), HeldRacePolicy(knowledge)
    for policy in (expert, held):
        policy.good_probability = {g: 0.05 for g in policy.good_probability}
    assert held.picture.captured[1]["bad"] == 2
    assert {str(m) for m in expert.allowed(legal)} == {"e2 e"}
    allowed = {str(m) for m in held.allowed(legal)}
    assert {"e2 e", "a2 n", "e2 n"} <= allowed
    assert "e1 w" not in allowed and "e1 e" not in allowed
    wait = WaitPolicy(knowledge)
    wait.good_probability = dict(held.good_probability)
    assert {str(m) for m in wait.allowed(legal)} == allowed - {"e2 e"}


def test_without_a_keeper_in_time_only_the_capture_or_a_move_into_time_is_allowed() -> None:
    """Without e1, only e2 stepping back to e1 (next to f1, out of f2's reach) would hold the corner: every
    other move but the capture lets f2 walk on, so `HeldRacePolicy` allows those two alone."""
    knowledge = _arrived({k: v for k, v in HELD.items() if k != "e1"} | {"c2": (0, "bad")}, "f3 s")
    held = HeldRacePolicy(knowledge)
    held.good_probability = {g: 0.05 for g in held.good_probability}
    assert {str(m) for m in held.allowed(knowledge.legal_actions())} == {"e2 e", "e2 s"}


def test_the_capture_is_made_at_once_with_the_last_bad_ghost_left() -> None:
    """With three bad ghosts taken a capture on the corner is a gamble, not sure: `HeldRacePolicy` does not wait
    (it keeps the expert's guard)."""
    last = {k: v for k, v in HELD.items() if k != "d5"}
    knowledge = _arrived(last, "f3 s")
    held, expert = HeldRacePolicy(knowledge), HalfwayPolicy(knowledge)
    for policy in (expert, held):
        policy.good_probability = {g: 0.9 for g in policy.good_probability}
    assert held.picture.captured[1]["bad"] == 3
    legal = knowledge.legal_actions()
    assert held.allowed(legal) == expert.allowed(legal) == [m for m in legal if str(m) == "e2 e"]


def test_no_waiting_while_another_enemy_ghost_can_take_the_keeper() -> None:
    """The same arrival at f2 with an enemy ghost on d1, next to our keeper e1: `WaitPolicy` still waits (e1
    is out of the runner's reach), `SafeWaitPolicy` does not, since d1 can take e1 and leave f2 its way (as
    `rules`' decoys did), so it takes f2 now."""
    ghosts = {k: v for k, v in HELD.items() if k != "e6"} | {"d1": (1, "bad")}
    knowledge = _arrived(ghosts, "f3 s")
    legal = knowledge.legal_actions()
    wait, safe = WaitPolicy(knowledge), SafeWaitPolicy(knowledge)
    for policy in (wait, safe):
        policy.good_probability = {g: 0.05 for g in policy.good_probability}
    assert "e2 e" not in {str(m) for m in wait.allowed(legal)}
    assert {str(m) for m in safe.allowed(legal)} == {"e2 e"}


def test_the_wait_is_only_while_no_other_race_is_run() -> None:
    """A second enemy ghost on a3, likely good, races to our other corner a1 (held by b2): `SafeWaitPolicy` still
    waits at f2, `LoneRaceWaitPolicy` takes f2 at once so that its moves are free for the other race."""
    knowledge = _arrived(HELD | {"a3": (1, "good")}, "f3 s")
    legal = knowledge.legal_actions()
    safe, lone = SafeWaitPolicy(knowledge), LoneRaceWaitPolicy(knowledge)
    for policy in (safe, lone):
        policy.good_probability = {g: 0.05 for g in policy.good_probability}
        policy.good_probability[policy.picture.board[parse_square("a3")]] = 0.6
    assert any(race[0] == parse_square("a3") for race in lone.races())
    assert "e2 e" not in {str(m) for m in safe.allowed(legal)}
    assert {str(m) for m in lone.allowed(legal)} == {"e2 e"}
    knowledge = _arrived(HELD, "f3 s")
    lone = LoneRaceWaitPolicy(knowledge)
    lone.good_probability = {g: 0.05 for g in lone.good_probability}
    assert "e2 e" not in {str(m) for m in lone.allowed(knowledge.legal_actions())}  # alone, it waits
