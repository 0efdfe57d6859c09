"""The search bots by game: `ismcts` (generic ISMCTS, plain playouts; Geister plays them on its compiled
core) and `expert` (ISMCTS with a game's own knowledge: Geister's fitted belief, exit guard, playouts drawn
from the packaged learned policy (`geister.playout_policy`) and evaluation, searched on the compiled core by
`geister.fast_search`; The Last searches its `ismcts` knowledge on its compiled core, `thelast.fast_search`;
Ghooost! searches its `ismcts` playouts on its compiled core, with every iteration's hidden cards re-dealt
there and a reward that also counts a match's points, `ghooost.fast_search`). Kept for measuring:
`expert-hand`, the same search with the hand playout (the expert until the learned playout had played every
target row, docs/research/geister-expert.md), `expert-v2`, the Geister knowledge searched in Python, and
`expert-v1`, the expert before it (hand-set belief weights, no exit guard)."""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable
from typing import TYPE_CHECKING

import ghostgames.bots
from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.budget import Budget
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.bots.policy import SearchPolicy

if TYPE_CHECKING:
    from ghostgames.bots.geister.expert_memory import MemoryPolicy

# A game's bots live in bots/<game>/, whose __init__.py declares SEARCH_POLICIES: for each kind of search
# ("plain", "expert", "expert-v1") the "module:Class" of the policy it uses there. A kind a game does not
# declare falls back to its "plain" policy, and a game without one to the plain SearchPolicy; so a new game
# adds its own folder and nothing here.
KINDS = (
    "plain", "expert", "expert-parked", "expert-sealed", "expert-corner", "expert-run-on", "expert-v6", "expert-v5",
    "expert-v4", "expert-v3", "expert-v1",
)


@functools.cache
def declared_policies() -> dict[str, dict[str, str]]:
    """Game name -> kind -> "module:Class", as each bots/<game>/__init__.py declares them."""
    out: dict[str, dict[str, str]] = {}
    for found in pkgutil.iter_modules(ghostgames.bots.__path__):
        if found.ispkg:
            declared = getattr(importlib.import_module(f"ghostgames.bots.{found.name}"), "SEARCH_POLICIES", None)
            if declared is not None:
                out[found.name] = dict(declared)
    return out


def _load(spec: str) -> type[SearchPolicy]:
    module, name = spec.split(":")
    policy: type[SearchPolicy] = getattr(importlib.import_module(module), name)
    return policy


def policy_of(kind: str, game: str) -> type[SearchPolicy]:
    """The policy class `game` declares for `kind` (else its plain one, else the plain SearchPolicy)."""
    declared = declared_policies().get(game, {})
    spec = declared.get(kind) or declared.get("plain")
    return _load(spec) if spec else SearchPolicy


def plain_policy(knowledge: SeatKnowledge) -> SearchPolicy:
    return policy_of("plain", knowledge.game.name)(knowledge)


def expert_policy(knowledge: SeatKnowledge) -> SearchPolicy:
    return policy_of("expert", knowledge.game.name)(knowledge)


def expert_v1_policy(knowledge: SeatKnowledge) -> SearchPolicy:
    """The previous expert, kept so that every gain is measured against it (`expert-v1`)."""
    return policy_of("expert-v1", knowledge.game.name)(knowledge)


def ismcts(budget: Budget) -> IsmctsBot:
    return IsmctsBot(budget, plain_policy)


def expert(budget: Budget) -> IsmctsBot:
    """The expert: in Geister it remembers the opponent's setups across the games a harness keeps it for
    (`expert_memory`, adopted 5 December 2026: docs/research/geister-expert.md): a match, the competition
    client's games on one port, a table's rematches against the same person. Told of no finished game (a
    tournament, a table's first game) it plays as `expert-sealed` (a corner held by our last bad ghost known as
    sealed, adopted the afternoon of 6 December 2026)."""
    from ghostgames.bots.geister.expert_memory import SealedMemoryPolicy

    bot = _remembering(budget, SealedMemoryPolicy)
    bot.name = "expert"
    return bot


def expert_memory(budget: Budget) -> IsmctsBot:
    """`expert-run-on` that remembers the opponent's Geister setups across the games it is kept for
    (`geister.expert_memory`, issue 39); without two finished games it plays as `expert-run-on`. The `expert`
    from the late morning to the evening of 5 December 2026, kept under this name so that its measured matches
    replay."""
    from ghostgames.bots.geister.expert_memory import MemoryPolicy

    return _remembering(budget, MemoryPolicy)


def _remembering(budget: Budget, policy: type[MemoryPolicy]) -> IsmctsBot:
    """The expert's search (exploration 0.5, the shipped playout table) remembering setups on `policy`."""
    from ghostgames.bots.geister.expert_memory import MemoryExpertBot
    from ghostgames.bots.geister.playout_policy import shipped_table

    return MemoryExpertBot(budget, policy=policy, exploration=0.5, playout_table=shipped_table())


def expert_learned(budget: Budget) -> IsmctsBot:
    """`expert` whose playouts end on the information-state value learned from the search's games against the
    sparring partners that run (`geister.info_value`, issue 39), not on the hand evaluation: measured in
    docs/research/geister-learned-value.md and kept by name. Its guard stays the one it was measured with,
    `expert-v5`'s (`HalfwayPolicy`), now that `expert`'s lets some captures wait."""
    from ghostgames.bots.geister import info_value
    from ghostgames.bots.geister.fast_search import INFO, FastExpertBot
    from ghostgames.bots.geister.playout_policy import shipped_table

    bot = FastExpertBot(budget, _geister_policy("expert-v5"), exploration=0.5, evaluator=INFO,
                        value=info_value.shipped_arrays(), playout_table=shipped_table())
    bot.name = "expert-learned"
    return bot


def _geister_policy(kind: str) -> Callable[[SeatKnowledge], SearchPolicy]:
    """The policy Geister declares for `kind` (an earlier expert); in the card
    games their `expert` policy."""

    def policy(knowledge: SeatKnowledge) -> SearchPolicy:
        return policy_of(kind, knowledge.game.name)(knowledge) if knowledge.game.name == "geister" \
            else expert_policy(knowledge)

    return policy


def older_expert(kind: str, budget: Budget) -> IsmctsBot:
    """An earlier Geister `expert` on the same compiled search, kept for measuring (`kind` names its policy in
    bots/geister/__init__.py's SEARCH_POLICIES, whose class says what it does); in the card games the same
    as `expert`."""
    from ghostgames.bots.geister.fast_search import FastExpertBot
    from ghostgames.bots.geister.playout_policy import shipped_table

    bot = FastExpertBot(budget, _geister_policy(kind), exploration=0.5, playout_table=shipped_table())
    bot.name = kind
    return bot


def expert_hand(budget: Budget) -> IsmctsBot:
    """The expert of 3 December 2026 with the hand playout, unchanged since (no race guard), so that the
    training recipes naming it (`ghostgames train geister-search`, `geister-playout`) play the games the
    shipped weights were fitted on."""
    from ghostgames.bots.geister.fast_search import FastExpertBot

    bot = FastExpertBot(budget, _geister_policy("expert-v3"), exploration=0.5)
    bot.name = "expert-hand"
    return bot


def expert_v2(budget: Budget) -> IsmctsBot:
    bot = IsmctsBot(budget, expert_policy, exploration=0.5)
    bot.name = "expert-v2"
    return bot


def expert_v1(budget: Budget) -> IsmctsBot:
    bot = IsmctsBot(budget, expert_v1_policy, exploration=0.5)
    bot.name = "expert-v1"
    return bot
