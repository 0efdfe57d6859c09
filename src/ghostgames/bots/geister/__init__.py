"""Geister bots: the rule-of-thumb player and the strongest search player, both reading only the view."""
