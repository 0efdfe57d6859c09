"""`expert-belief2`: the expert (`expert.RacePolicy`) with its belief mixing a fourth model of the enemy, the
learned runners (`belief.LEARNED_MODELS`), so that a ghost played the way the PPO `runner` plays its good
ones reads as good. Kept beside `expert` for measuring (docs/research/geister-belief.md, "The learned
runners"); a module of its own so that the expert's file stays the expert's."""

from __future__ import annotations

from ghostgames.bots.geister.belief import LEARNED_MODELS, Models
from ghostgames.bots.geister.expert import RacePolicy


class LearnedBeliefPolicy(RacePolicy):
    belief_models: Models | None = LEARNED_MODELS
