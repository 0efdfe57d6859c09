"""The garbage collector's settings for a server that holds thousands of connections for hours.

Python's cycle collector looks at every tracked object now and then (a "generation 2" pass). With 4,000
WebSocket connections and 2,000 tables that is millions of objects: each pass stopped the event loop for
0.3 to 1.1 s (`benchmarks/server_cost.py`, docs/scaling.md), every action in flight waited for it, and the
99th percentile round trip was those passes. Two settings make them rare and small, with nothing given up:
reference counting still frees almost everything at once, and the collector still runs, less often.
"""

from __future__ import annotations

import gc

# Collect the youngest objects after this many net new ones (Python's default: 700). A young pass is
# quick at any size; what the default cost is the old passes it leads to: one per 70,000 new objects.
YOUNG = 50_000
MIDDLE = 20  # young passes per middle pass (default 10)
OLD = 10  # middle passes per full pass (default 10); Python also waits until the old objects grew by 25 %


def settle_after_start() -> None:
    """Once the server has started (modules imported, tables rebuilt from the log): collect once, freeze
    what exists into the permanent generation no pass looks at again, and raise the thresholds."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, OLD)
