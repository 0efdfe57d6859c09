"""Geister bots: the rule-of-thumb player and the strongest search player, both reading only the view."""

# The policy each search bot uses here (bots/search_bots.py): the plain playouts on the compiled core, the
# expert's belief, guard and evaluation, and the expert before it.
SEARCH_POLICIES = {
    "plain": "ghostgames.bots.geister.playout:GeisterFastPlayouts",
    "expert": "ghostgames.bots.geister.expert:RunOnPolicy",
    "expert-v6": "ghostgames.bots.geister.expert:LoneRaceWaitPolicy",
    "expert-v5": "ghostgames.bots.geister.expert:HalfwayPolicy",
    "expert-wary": "ghostgames.bots.geister.expert:WaryPolicy",
    "expert-race2": "ghostgames.bots.geister.expert:ArrivalPolicy",
    "expert-race3": "ghostgames.bots.geister.expert:ArrivalWorldsPolicy",
    "expert-race4": "ghostgames.bots.geister.expert:GambleWorldsPolicy",
    "expert-race6": "ghostgames.bots.geister.expert:HeldRacePolicy",
    "expert-race7": "ghostgames.bots.geister.expert:WaitPolicy",
    "expert-race8": "ghostgames.bots.geister.expert:SafeWaitPolicy",
    "expert-race9": "ghostgames.bots.geister.expert:ThirdBadWaitPolicy",
    "expert-race10": "ghostgames.bots.geister.expert:LoneRaceWaitPolicy",
    "expert-race11": "ghostgames.bots.geister.expert:EndgameWaitPolicy",
    "expert-race-eval": "ghostgames.bots.geister.expert:RaceLeafPolicy",
    "expert-race-eval2": "ghostgames.bots.geister.expert:RaceStartPolicy",
    "expert-race-eval3": "ghostgames.bots.geister.expert:RacePlayoutPolicy",
    "expert-race-eval4": "ghostgames.bots.geister.expert:RaceNearRootPolicy",
    "expert-race-eval5": "ghostgames.bots.geister.expert:OwnRacePolicy",
    "expert-race-eval6": "ghostgames.bots.geister.expert:OpenRacePolicy",
    "expert-run-on": "ghostgames.bots.geister.expert:RunOnPolicy",
    "expert-v4": "ghostgames.bots.geister.expert:RacePolicy",
    "expert-v3": "ghostgames.bots.geister.expert:BeliefPolicy",
    "expert-belief2": "ghostgames.bots.geister.runner_belief:LearnedBeliefPolicy",
    "expert-kinds": "ghostgames.bots.geister.expert_kinds:KindsPolicy",
    "expert-kinds2": "ghostgames.bots.geister.expert_kinds:KindsGuardPolicy",
    "expert-kinds3": "ghostgames.bots.geister.expert_kinds:KindsPriorPolicy",
    "expert-v1": "ghostgames.bots.geister.search:GeisterPolicy",
}
