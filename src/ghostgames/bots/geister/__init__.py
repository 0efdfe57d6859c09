"""Geister bots: the rule-of-thumb player and the strongest search player, both reading only the view."""

# The policy each search bot uses here (bots/search_bots.py): the plain playouts on the compiled core, the
# expert's belief, guard and evaluation, and the expert before it.
SEARCH_POLICIES = {
    "plain": "ghostgames.bots.geister.playout:GeisterFastPlayouts",
    "expert": "ghostgames.bots.geister.expert:SealedPolicy",
    "expert-parked": "ghostgames.bots.geister.expert:ParkedPolicy",
    "expert-sealed": "ghostgames.bots.geister.expert:SealedPolicy",
    "expert-corner": "ghostgames.bots.geister.expert:CornerPolicy",
    "expert-run-on": "ghostgames.bots.geister.expert:RunOnPolicy",
    "expert-v6": "ghostgames.bots.geister.expert:LoneRaceWaitPolicy",
    "expert-v5": "ghostgames.bots.geister.expert:HalfwayPolicy",
    "expert-v4": "ghostgames.bots.geister.expert:RacePolicy",
    "expert-v3": "ghostgames.bots.geister.expert:BeliefPolicy",
    "expert-v1": "ghostgames.bots.geister.search:GeisterPolicy",
}
