"""numba's threading layer is chosen when ghostgames is imported, and a user's own choice wins.

Each case is a fresh interpreter: the layer is fixed for a process once its first parallel kernel runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

# A small parallel kernel (no cache, so it says nothing about the Geister core's) that makes numba start its
# threads, then what the process ended up with.
RUN_AND_REPORT = """
import json, os
import numba
import numpy as np

@numba.njit(parallel=True)
def total(a):
    s = 0.0
    for i in numba.prange(a.shape[0]):
        s += a[i]
    return s

assert total(np.ones(1000)) == 1000.0
print(json.dumps({"layer": numba.threading_layer(), "wait": os.environ.get("OMP_WAIT_POLICY")}))
"""


def run(prelude: str, **env: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("NUMBA_THREADING_LAYER", "NUMBA_THREADING_LAYER_PRIORITY", "OMP_WAIT_POLICY")}
    code = textwrap.dedent(prelude) + RUN_AND_REPORT
    done = subprocess.run([sys.executable, "-c", code], env={**clean, **env}, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    found: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_importing_ghostgames_keeps_numba_off_openmp() -> None:
    found = run("""
        import sys
        import ghostgames
        assert "numba" not in sys.modules  # the choice is made before numba is loaded, through the environment
    """)
    assert found["layer"] in ("tbb", "workqueue")
    assert found["wait"] is None  # other libraries' OpenMP keeps its own waiting policy


def test_the_choice_holds_when_numba_was_imported_first() -> None:
    found = run("import numba\nimport ghostgames\n")
    assert found["layer"] in ("tbb", "workqueue")


def test_a_layer_named_in_the_environment_wins_and_openmp_then_waits_passively() -> None:
    found = run("import ghostgames\n", NUMBA_THREADING_LAYER="omp")
    assert found == {"layer": "omp", "wait": "PASSIVE"}


def test_a_layer_set_in_code_before_the_import_wins() -> None:
    found = run("import numba\nnumba.config.THREADING_LAYER = 'omp'\nimport ghostgames\n")
    assert found == {"layer": "omp", "wait": "PASSIVE"}


def test_a_users_own_waiting_policy_is_kept() -> None:
    found = run("import ghostgames\n", NUMBA_THREADING_LAYER="omp", OMP_WAIT_POLICY="ACTIVE")
    assert found == {"layer": "omp", "wait": "ACTIVE"}


def test_worker_processes_inherit_the_choice_as_ghostgames_own() -> None:
    """A child started by a process that imported ghostgames sees the priority in its environment: that is
    not a user's choice, so the child does not set OpenMP's waiting policy for other libraries."""
    found = run("import ghostgames\n", NUMBA_THREADING_LAYER_PRIORITY="tbb workqueue omp")
    assert found["layer"] in ("tbb", "workqueue")
    assert found["wait"] is None
