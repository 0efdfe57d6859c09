"""`expert-kinds`: today's expert (`expert.LoneRaceWaitPolicy`) whose belief also mixes one model per kind of
learned runner (`kinds.kind_models()`, read over `kinds.KIND_FEATURES`), so that a runner's ghosts are read as
that kind of runner hides them once its play (the ghosts we took, how often it moves the same ghost) says
which kind it is. Measured and not kept, nor its two variants below (each lost ground on the held-out
`runner-3`: docs/research/geister-belief.md, "Telling the kinds of runner apart"); kept for measuring. A module
of its own so that the expert's file stays the expert's."""

from __future__ import annotations

from ghostgames.bots import SeatKnowledge
from ghostgames.bots.geister.expert import LoneRaceWaitPolicy
from ghostgames.bots.geister.kinds import kind_belief, kind_models


class KindsPolicy(LoneRaceWaitPolicy):
    kinds_share = 0.1  # the learned runners' part of the belief's prior (kinds.kind_models)

    def __init__(self, knowledge: SeatKnowledge) -> None:
        super().__init__(knowledge)  # reads belief.MODELS first; the guard and worlds read the belief below
        view = knowledge.view()
        self.belief = kind_belief(self.picture, list(view["moves"]), kind_models(share=self.kinds_share),
                                  over=view.get("outcome") is not None)
        self.good_probability = self.belief.good_probability()


class KindsGuardPolicy(KindsPolicy):
    """`expert-kinds2`: `KindsPolicy` whose guard reads an arriving ghost at the belief's chance, not halfway up
    to the even guess. The pull (`expert.HalfwayPolicy`) was made for a belief that had never seen a learned
    runner and read its runners as bad as they came; traced, `expert-kinds` lost to `runner-3` by the pull:
    the ghost that moved first (its last bad one, walked at our corner) read 0.37-0.57 by the new belief, 0.59-0.79
    by the old, and lifted over the guard's even chance by the pull (with three hidden: a third and more)."""

    arrival_pull = 0.0


class KindsPriorPolicy(KindsPolicy):
    """`expert-kinds3`: `KindsPolicy` whose belief gives the learned runners 0.4 of its prior (from the search
    bots' 0.7, leaving them 0.4). Measured on held-out runners' games, the mixture with a tenth read every runner
    worse than the uniform belief, even with that runner's own model in it: the evidence the shares follow (the
    ghosts taken, how often the same ghost moves) does not overturn the search bots' prior within a game."""

    kinds_share = 0.4
