"""stream_tournament.py with ExpertPolicy.fourth_risk set by the first argument (needs risk.diff applied)."""

import runpy
import sys

from ghostgames.bots.geister import expert

expert.ExpertPolicy.fourth_risk = float(sys.argv.pop(1))  # type: ignore[attr-defined]
sys.argv[0] = "benchmarks/stream_tournament.py"
runpy.run_path("benchmarks/stream_tournament.py", run_name="__main__")
