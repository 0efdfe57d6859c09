"""The Last bots: the rule-of-thumb player and the search policy."""

# The policies of the search bots here (bots/search_bots.py): `ismcts` searches in Python with the plain one
# (its playouts and reward shaping), `expert` (and so the table level `hard`) with the same knowledge on the
# compiled core (fast_search.py).
SEARCH_POLICIES = {
    "plain": "ghostgames.bots.thelast.search:TheLastPolicy",
    "expert": "ghostgames.bots.thelast.fast_search:TheLastExpertPolicy",
}
