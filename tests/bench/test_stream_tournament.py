"""benchmarks/stream_tournament.py continues a file only with the run that wrote it: a file is the record of
one run, so games of another (other bots, seed, options or leaf options) are never appended to it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT / "benchmarks")]))
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "stream_tournament.py"), "--out", str(out),
                           *args], capture_output=True, text=True, env=env, timeout=120)


def _indices(out: Path) -> list[int]:
    return [json.loads(line)["index"] for line in out.read_text().splitlines()[1:]]


def test_a_file_is_continued_by_its_own_run_and_refused_to_another(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    first = _run(out, "--bots", "random,charge", "--games", "2", "--seed", "3")
    assert first.returncode == 0, first.stderr
    assert _indices(out) == [0, 1]
    before = out.read_text()

    other = _run(out, "--bots", "random,charge", "--games", "3", "--seed", "4")  # another seed: other games
    assert other.returncode != 0
    assert "holds games of another run" in other.stderr and "Give another --out" in other.stderr
    assert out.read_text() == before  # nothing appended

    wider = _run(out, "--bots", "random,charge", "--games", "3", "--seed", "3", "--option", "exit=reach")
    assert wider.returncode != 0 and out.read_text() == before

    longer = _run(out, "--bots", "random,charge", "--games", "3", "--seed", "3")  # the same run, one game more
    assert longer.returncode == 0, longer.stderr
    assert _indices(out) == [0, 1, 2]
    assert out.read_text().startswith(before)
