"""ghostgames: three ghost games (Ghooost!, Geister, The Last) as exact seeded rules, bots and a table server."""

from typing import TYPE_CHECKING, Any

from ghostgames.numba_threads import choose_threading_layer

if TYPE_CHECKING:  # type checkers see the real objects; at run time they load on first use (below)
    from ghostgames.bots.plugins import register as register_bot
    from ghostgames.bots.policy_bot import PolicyBot
    from ghostgames.tournament.evaluate import evaluate

__version__ = "0.1.0"
__all__ = ["PolicyBot", "evaluate", "register_bot"]

# Before anything imports numba or runs a parallel kernel: its default (OpenMP) slows other libraries' threads.
choose_threading_layer()


def __getattr__(name: str) -> Any:
    """The research entry points, imported on first use so `import ghostgames` stays light:
    `ghostgames.evaluate`, `ghostgames.PolicyBot`, `ghostgames.register_bot`."""
    if name == "evaluate":
        from ghostgames.tournament.evaluate import evaluate

        return evaluate
    if name == "PolicyBot":
        from ghostgames.bots.policy_bot import PolicyBot

        return PolicyBot
    if name == "register_bot":
        from ghostgames.bots.plugins import register

        return register
    raise AttributeError(f"module 'ghostgames' has no attribute {name!r}")
