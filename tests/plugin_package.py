"""A tiny installed package that declares plug-in bots, built for real in a folder: a module and a
`*.dist-info` with `entry_points.txt`, which is all `importlib.metadata` needs to find it on the path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

MODULE = '''
from ghostgames.bots import Bot


class FirstMove(Bot):
    """Always the first legal action: easy to tell apart from any built-in bot."""

    name = "firstmove"

    def choose(self, knowledge, rng):
        return knowledge.legal_actions()[0]


def make(seconds):
    return FirstMove()


def not_a_bot():
    return 42
'''

ENTRY_POINTS = """[ghostgames.bots]
firstmove = firstplug:FirstMove
firstmove-timed = firstplug:make
broken = firstplug:missing
"""


def build(folder: Path) -> Path:
    """Write the package `firstplug` into `folder` and return the folder (to put on PYTHONPATH)."""
    (folder / "firstplug").mkdir(parents=True, exist_ok=True)
    (folder / "firstplug" / "__init__.py").write_text(MODULE)
    info = folder / "firstplug-0.1.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: firstplug\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    return folder


def environment(folder: Path, env: dict[str, str] | None = None) -> dict[str, str]:
    """This process's environment with the package (and this checkout's sources) first on the path, and
    the server's plug-in setting off unless `env` sets it."""
    root = Path(__file__).resolve().parent.parent
    path = os.pathsep.join([str(folder), str(root / "src"), str(root)])
    inherited = {k: v for k, v in os.environ.items() if k != "GHOSTGAMES_PLUGIN_BOTS"}
    return {**inherited, "PYTHONPATH": path, **(env or {})}


def run_python(folder: Path, args: list[str], env: dict[str, str] | None = None,
               timeout: float = 240) -> subprocess.CompletedProcess[str]:
    """`python ARGS` in the `environment` above."""
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout,
                          env=environment(folder, env))
