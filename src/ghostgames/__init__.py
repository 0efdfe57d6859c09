"""ghostgames: three ghost games (Ghooost!, Geister, The Last) as exact seeded rules, bots and a table server."""

from ghostgames.numba_threads import choose_threading_layer

__version__ = "0.1.0"

# Before anything imports numba or runs a parallel kernel: its default (OpenMP) slows other libraries' threads.
choose_threading_layer()
