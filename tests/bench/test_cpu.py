"""The CPU meter of the benchmarks counts what a real process burns: its own time, and its children's after they
exit. Bounds are wide on purpose (the machine is shared): at least half the burned CPU time, at most wall time
x cores."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import time

import pytest

from ghostgames.bench import cpu

pytestmark = pytest.mark.skipif(not cpu.available(), reason="needs Linux /proc")

BURN = 0.4  # CPU seconds each burner spends

def _burner(tmp_path: os.PathLike[str]) -> subprocess.Popen[str]:
    """Waits for a line, has a child burn BURN s of CPU and waits for it (the child is reaped: its time moves
    into our cutime), burns BURN s itself, says "done" and waits to be closed."""
    script = os.path.join(tmp_path, "burner.py")
    with open(script, "w") as out:
        out.write(textwrap.dedent(f"""
            import subprocess, sys, time
            def burn():
                end = time.process_time() + {BURN}
                while time.process_time() < end:
                    pass
            if sys.argv[1:] == ["child"]:
                burn()
                sys.exit(0)
            sys.stdin.readline()
            subprocess.run([sys.executable, __file__, "child"], check=True)
            burn()
            print("done", flush=True)
            sys.stdin.readline()
        """))
    return subprocess.Popen([sys.executable, script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def test_the_meter_counts_a_process_its_reaped_child_and_the_whole_tree(tmp_path: os.PathLike[str]) -> None:
    proc = _burner(tmp_path)
    try:
        time.sleep(0.3)  # let the interpreter start before the window opens
        meter = cpu.CpuMeter([cpu.Watched("self", proc.pid, "self"), cpu.Watched("children", proc.pid, "children"),
                              cpu.Watched("tree", proc.pid, "tree")])
        started = time.monotonic()  # the wall time spans the meter's whole window
        meter.start()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == "done"
        spent = meter.stop()
        wall = time.monotonic() - started
    finally:
        proc.kill()
        proc.wait()
    most = (wall + 2 / cpu.TICKS) * (os.cpu_count() or 1)  # counters move in clock ticks, per CPU
    assert BURN * 0.5 <= spent["self"] <= most, spent
    assert BURN * 0.5 <= spent["children"] <= most, spent  # the child exited: counted through cutime
    assert spent["tree"] == pytest.approx(spent["self"] + spent["children"]), spent  # one snapshot each time
    assert 2 * BURN * 0.5 <= spent[cpu.CpuMeter.MACHINE] <= most, spent


def test_a_process_that_is_gone_counts_nothing_and_per_action_divides() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    meter = cpu.CpuMeter([cpu.Watched("gone", proc.pid)])
    meter.start()
    assert meter.stop()["gone"] == 0
    assert cpu.per_action_ms({"worker 1": 1.5}, 500) == {"worker 1": 3.0}
    assert cpu.per_action_ms({"worker 1": 1.5}, 0) == {"worker 1": 0.0}


def test_a_service_is_found_by_its_listening_port_on_this_machine() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        assert os.getpid() in cpu.listening_pids(port)
        assert cpu.service_root(f"redis://127.0.0.1:{port}/0", 6379) == os.getpid()
        assert cpu.service_root(f"postgresql://gg@db.example.org:{port}/x", 5432) is None  # not this machine
