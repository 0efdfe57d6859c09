"""Geister's learned models: the value (self_play.py, value_training.py), the playout policy
(playout_fit.py), the belief's weights (belief_fit.py) and the search's games they learn from (positions.py)."""
