"""Do another library's ops keep their speed after GeisterVectorEnv steps, whichever is imported first?

numba's OpenMP threads once spun after each batched step and made every torch op ~300x slower
(ghostgames/numba_threads.py). Each run here is a fresh process: import the library and ghostgames in one
order, time a small op of the library, step a GeisterVectorEnv for a moment (its steps/s is the second
figure), time the op again. The library is torch and JAX when importable, otherwise numpy's BLAS (said so in
the table). Each is run under the threading layer ghostgames chooses and under OpenMP (the layer numba took
before), so the table shows both the ratio after/before per op and the env's speed under each layer.

    PYTHONPATH=src:. .venv/bin/python benchmarks/import_order.py [--libs torch numpy] [--layers chosen omp]
        [--env-seconds 1.5] [--out benchmarks/results/import-order.json]

A library installed outside the venv can be given with PYTHONPATH (children inherit the environment).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

BATCH = 1024  # games per env step, as the README's vector-env figures
OP_SECONDS = 0.6  # how long each library op is timed, before and after the env steps
ORDERS = ("lib-first", "ghostgames-first")


def _library_op(lib: str) -> Callable[[], object]:
    """A small op of `lib` that its own thread pool runs: the kind a training loop calls thousands of times."""
    if lib == "torch":
        import torch

        a = torch.randn(192, 192)
        return lambda: (a @ a).add_(1.0).sum().item()
    if lib == "jax":
        import jax.numpy as jnp

        a = jnp.ones((192, 192), dtype=jnp.float32)
        return lambda: (a @ a + 1.0).sum().block_until_ready()
    import numpy as np

    b = np.random.default_rng(0).random((192, 192))
    return lambda: float((b @ b).sum())


def _median_op_seconds(op: Callable[[], object]) -> float:
    for _ in range(20):  # warm: first calls allocate, compile (JAX) or start threads
        op()
    times = []
    end = time.perf_counter() + OP_SECONDS
    while time.perf_counter() < end:
        start = time.perf_counter()
        op()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def alone(lib: str) -> float:
    """The op's time in a process without ghostgames: the speed the library should keep."""
    importlib.import_module(lib)
    return _median_op_seconds(_library_op(lib))


def _steps_per_second(env: Any, seconds: float) -> float:
    env.reset()
    env.step(env.random_actions())  # compiles or loads the kernels, starts numba's threads
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(env.random_actions())
        steps += 1
    return float(steps * env.num_envs / (time.perf_counter() - start))


def env_alone(threads: int, env_seconds: float) -> dict[str, Any]:
    """The batch's own speed, without another library (run with `--child env THREADS`)."""
    import numba

    from ghostgames.envs.vector import GeisterVectorEnv

    rate = _steps_per_second(GeisterVectorEnv(BATCH, seed=0, threads=threads, copy=False), env_seconds)
    return {"layer": numba.threading_layer(), "threads": threads, "env_steps_per_s": rate}


def child(lib: str, order: str, env_seconds: float) -> dict[str, Any]:
    """One fresh process's measurement (run with `--child`). "Before" is after both imports, since loading
    the compiled kernels may already start numba's threads."""
    if order == "lib-first":
        importlib.import_module(lib)
        from ghostgames.envs.vector import GeisterVectorEnv
    else:
        from ghostgames.envs.vector import GeisterVectorEnv

        importlib.import_module(lib)
    import numba

    op = _library_op(lib)
    before = _median_op_seconds(op)
    env = GeisterVectorEnv(BATCH, seed=0, copy=False)
    env_rate = _steps_per_second(env, env_seconds)
    after = _median_op_seconds(op)
    return {"lib": lib, "order": order, "layer": numba.threading_layer(), "threads": env.threads,
            "op_before_us": before * 1e6, "op_after_us": after * 1e6, "ratio": after / before,
            "env_steps_per_s": env_rate, "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY")}


def _run(lib: str, order: str, env: dict[str, str], env_seconds: float, repeat: int) -> dict[str, Any]:
    runs = []
    for _ in range(repeat):
        done = subprocess.run([sys.executable, __file__, "--child", lib, order, "--env-seconds", str(env_seconds)],
                              env=env, capture_output=True, text=True, check=True)
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    found: dict[str, Any] = dict(runs[0])
    for key in ("op_alone_us", "op_before_us", "op_after_us"):
        if key in found:
            found[key] = statistics.median(run[key] for run in runs)
    if "env_steps_per_s" in found:
        found["env_steps_per_s"] = statistics.median(run["env_steps_per_s"] for run in runs)
        found["ratio"] = found["op_after_us"] / found["op_before_us"]
    found["runs"] = runs
    return found


def _environment(layer: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("NUMBA_THREADING_LAYER", None)
    env.pop("NUMBA_THREADING_LAYER_PRIORITY", None)
    if layer != "chosen":
        env["NUMBA_THREADING_LAYER"] = layer
    return env


def env_speeds(layers: list[str], env_seconds: float, repeat: int) -> list[dict[str, Any]]:
    """Steps/s of the batch alone under each layer, 1 thread and all: the layers take turns within each
    repeat, so a change in the machine's load falls on all of them alike."""
    cores = os.cpu_count() or 1
    cases = [(layer, threads) for threads in sorted({1, cores}) for layer in layers]
    runs: dict[tuple[str, int], list[dict[str, Any]]] = {case: [] for case in cases}
    for _ in range(repeat):
        for layer, threads in cases:
            done = subprocess.run([sys.executable, __file__, "--child", "env", str(threads), "--env-seconds",
                                   str(env_seconds)], env=_environment(layer), capture_output=True, text=True,
                                  check=True)
            runs[layer, threads].append(json.loads(done.stdout.strip().splitlines()[-1]))
    return [{"asked": layer, "layer": found[0]["layer"], "threads": threads,
             "env_steps_per_s": statistics.median(run["env_steps_per_s"] for run in found), "runs": found}
            for (layer, threads), found in runs.items()]


def importable(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--libs", nargs="*", help="torch, jax, numpy (default: torch and jax if importable, "
                                                  "else numpy)")
    parser.add_argument("--layers", nargs="*", default=["chosen", "omp"],
                        help="'chosen' (ghostgames' choice) and/or a numba layer to force (omp, workqueue, tbb)")
    parser.add_argument("--env-seconds", type=float, default=1.5)
    parser.add_argument("--repeat", type=int, default=3,
                        help="fresh processes per case; the median of each figure is kept (a shared machine's other "
                             "work makes single runs jump)")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/import-order.json"))
    parser.add_argument("--child", nargs=2, metavar=("LIB", "ORDER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        lib, order = args.child
        if lib == "env":
            found = env_alone(int(order), args.env_seconds)
        elif order == "alone":
            found = {"op_alone_us": alone(lib) * 1e6}
        else:
            found = child(lib, order, args.env_seconds)
        print(json.dumps(found))
        return

    libs = args.libs or [lib for lib in ("torch", "jax") if importable(lib)]
    note = ""
    if not libs:
        libs = ["numpy"]
        note = "torch and JAX are not importable here: numpy's BLAS ops stand in for them"
        print(note)
    load = os.getloadavg()
    rows = []
    baseline = {lib: _run(lib, "alone", dict(os.environ), args.env_seconds, args.repeat)["op_alone_us"] for lib in libs}
    for layer in args.layers:
        env = _environment(layer)
        for lib in libs:
            for order in ORDERS:
                row = _run(lib, order, env, args.env_seconds, args.repeat)
                row["asked"] = layer
                row["op_alone_us"] = baseline[lib]
                row["ratio_to_alone"] = row["op_after_us"] / baseline[lib]
                rows.append(row)

    print(f"{'library':8} {'imported first':15} {'layer asked':12} {'layer':10} {'alone µs':>9} {'before µs':>10} "
          f"{'after µs':>9} {'after/before':>13} {'after/alone':>12} {'env steps/s':>12}")
    for r in rows:
        first = r["lib"] if r["order"] == "lib-first" else "ghostgames"
        print(f"{r['lib']:8} {first:15} {r['asked']:12} {r['layer']:10} {r['op_alone_us']:9.1f} "
              f"{r['op_before_us']:10.1f} {r['op_after_us']:9.1f} {r['ratio']:13.2f} {r['ratio_to_alone']:12.2f} "
              f"{r['env_steps_per_s']:12.0f}")
    speeds = env_speeds(args.layers, args.env_seconds, args.repeat)
    base = args.layers[0]
    print(f"\nthe batch alone ({BATCH} games a step), median of {args.repeat} runs")
    print(f"{'layer asked':12} {'layer':10} {'threads':>7} {'env steps/s':>12} {'ratio to ' + base:>18}")
    for r in speeds:
        first = next(o for o in speeds if o["threads"] == r["threads"] and o["asked"] == base)
        r["ratio_to_first_layer"] = r["env_steps_per_s"] / first["env_steps_per_s"]
        print(f"{r['asked']:12} {r['layer']:10} {r['threads']:7} {r['env_steps_per_s']:12,.0f} "
              f"{r['ratio_to_first_layer']:18.2f}")
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {os.cpu_count()} cores")
    result = {"machine": platform.machine(), "python": platform.python_version(), "cores": os.cpu_count(),
              "load_average": load, "batch": BATCH, "env_seconds": args.env_seconds, "note": note,
              "rows": rows, "env_alone": speeds}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
