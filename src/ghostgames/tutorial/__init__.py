"""Interactive tutorials: short lessons, each a real position of a game with one thing to do.

A lesson is a JSON file in `lessons/<game>/NN-<slug>.json` (docs/web.md, "Tutorials"): the position as
`State.to_json()`, the learner's seat, the i18n keys of its words, the goal (a set of actions or a named
predicate in `goals/<game>.py`), hints, what "show me" plays and the others' replies. `lessons.py` reads
them, `goals.py` judges a try, `play.py` answers the browser without keeping any state, and `validate.py`
checks every lesson at test time. The full position never leaves the server: the browser gets views.
"""
