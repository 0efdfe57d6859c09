"""Named goal predicates for lessons whose goal is more than a list of actions.

A lesson's `{"predicate": NAME, "args": {...}}` names a function in `goals/<game>.py`, or, when that game's
module has none of that name, in `goals/common.py`. Each is
`(before: State, seat: int, action: Action, after: State, **args) -> bool`: the position before the try, the
learner's seat, the action as the game read it, and the position right after it (before any reply).
"""
