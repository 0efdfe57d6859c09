"""The Last bots: the rule-of-thumb player and the search policy."""

# The policy every search bot uses here (bots/search_bots.py): its playouts and reward shaping.
SEARCH_POLICIES = {"plain": "ghostgames.bots.thelast.search:TheLastPolicy"}
