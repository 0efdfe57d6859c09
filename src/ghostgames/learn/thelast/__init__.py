"""Learning for The Last: the playout logit fitted to the expert's moves (playout_fit.py)."""
