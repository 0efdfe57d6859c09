"""Ghooost! bots: the rule-of-thumb player and the search policies."""

# The policies of the search bots here (bots/search_bots.py): `ismcts` searches in Python with the plain one
# (its playouts and reward shaping), `expert` (and so the table level `hard`) with the same playouts, cut later, on the
# compiled core and a reward that also counts a match's points (fast_search.py).
SEARCH_POLICIES = {
    "plain": "ghostgames.bots.ghooost.search:GhooostPolicy",
    "expert": "ghostgames.bots.ghooost.fast_search:GhooostExpertPolicy",
}
