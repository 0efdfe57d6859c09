"""Ghooost! bots: the rule-of-thumb player and the search policy."""
