"""The server's garbage-collector settings (server/heap.py), in a fresh interpreter as a server has."""

from __future__ import annotations

import json
import subprocess
import sys

from ghostgames.server import heap


def test_after_start_the_heap_is_frozen_and_collections_are_rarer() -> None:
    script = (
        "import gc, json\n"
        "from ghostgames.server.heap import settle_after_start\n"
        "before = {'threshold': gc.get_threshold(), 'frozen': gc.get_freeze_count()}\n"
        "kept = [[i] for i in range(1000)]  # long-lived objects made at start-up\n"
        "settle_after_start()\n"
        "print(json.dumps({'before': before, 'threshold': gc.get_threshold(), 'frozen': gc.get_freeze_count(),\n"
        "                  'kept_tracked': gc.is_tracked(kept[0])}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60)
    seen = json.loads(done.stdout)
    assert seen["before"]["frozen"] == 0
    assert seen["threshold"] == [heap.YOUNG, heap.MIDDLE, heap.OLD]
    assert seen["before"]["threshold"][0] < heap.YOUNG
    assert seen["frozen"] >= 1000  # start-up's objects are out of every later pass
    assert seen["kept_tracked"]  # frozen, not untracked: reference counting and the collector still own them
