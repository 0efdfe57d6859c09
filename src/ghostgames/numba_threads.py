"""Which threads numba's parallel kernels (the batched Geister environment) run on, chosen before numba starts any.

numba picks its threading layer when the first parallel kernel runs: by default OpenMP when present. torch
ships its own libgomp under the same name, so numba's kernels and torch's ops then share one OpenMP pool,
whose threads spin or sleep by the policy of whoever loaded it first. On a busy 2-core machine that cost
either side dearly: torch imported first, a vector-env step ran 5-15x slower and torch ops at times ~300x;
ghostgames first (its policy PASSIVE), every torch op ran 2x slower (benchmarks/import_order.py). numba's
`workqueue` layer has its own plain threads: with it both kept their speed in either order, and the batch
stepped as fast as with OpenMP; `tbb` is as quiet when installed. So unless the user chose a layer, numba
tries `tbb`, then `workqueue`, and OpenMP's policy is left to the other libraries.

A user's own choice (NUMBA_THREADING_LAYER or NUMBA_THREADING_LAYER_PRIORITY in the environment, or
`numba.config` set before this package is imported) wins. Since such a choice may mean OpenMP, the waiting
policy is then set to PASSIVE (threads sleep instead of spinning) unless the user set that too: OpenMP reads
it when numba loads it, at the first parallel kernel, which is after this runs.

`workqueue` launches one parallel kernel at a time per process: step vector environments from one Python
thread, or choose `tbb`/`omp` to step them from several at once."""

from __future__ import annotations

import os
import sys

QUIET_FIRST = ("tbb", "workqueue", "omp")  # numba wants all three; workqueue is always there, so omp is never reached
NUMBA_DEFAULT_PRIORITY = ["tbb", "omp", "workqueue"]  # numba's own order, when nobody chose


def user_chose() -> bool:
    """Whether the user picked numba's threading layer or its priority, in the environment or in code."""
    if "NUMBA_THREADING_LAYER" in os.environ:
        return True
    priority = os.environ.get("NUMBA_THREADING_LAYER_PRIORITY")
    if priority is not None:
        return priority.split() != list(QUIET_FIRST)  # ours, when a parent process chose for its workers
    config = getattr(sys.modules.get("numba"), "config", None)
    if config is None:
        return False
    return bool(config.THREADING_LAYER != "default" or list(config.THREADING_LAYER_PRIORITY) != NUMBA_DEFAULT_PRIORITY)


def choose_threading_layer() -> str:
    """Make the choice described above; returns what was done: "quiet" (tbb, else workqueue) or "user's"."""
    if user_chose():
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        return "user's"
    numba = sys.modules.get("numba")
    if numba is None:
        # numba reads this when it is imported. Set in the environment, so worker processes choose alike.
        os.environ["NUMBA_THREADING_LAYER_PRIORITY"] = " ".join(QUIET_FIRST)
    else:
        # Already imported: its config is read when the first parallel kernel starts the threads. Changing the
        # environment now would make numba re-read all of it and drop settings the user made in code.
        numba.config.THREADING_LAYER_PRIORITY = list(QUIET_FIRST)
    return "quiet"
