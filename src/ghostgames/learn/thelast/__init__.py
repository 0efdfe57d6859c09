"""Learning for The Last: the belief's weights (belief_fit.py)."""
