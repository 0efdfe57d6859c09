"""Lesson goals that a list of actions cannot say, one module per game: `(before, seat, action, after, **args)`."""
