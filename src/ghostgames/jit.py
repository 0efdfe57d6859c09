"""What all compiled code shares: numba compilation with the on-disk cache, and the random streams.

The three games' compiled cores (games/<game>/fast.py) and the kernels above them (bots, envs, learn) use
these. A game's folder may import only itself and rules/, and rules/ holds no compiled code, so this module
sits beside the folders, below them all, and imports nothing of ours.

numba's decorator is typed as returning a dispatcher; `compiled` keeps the function's own type for mypy.
numba checks a cached kernel against its own source file only: a kernel that inlines functions from other
modules keeps running their old code after they change, unless its cache is dropped (`forget_stale_kernels`).
Every kernel may inline the random streams below, so this file is part of every such check.

Random numbers come from splitmix64 streams held in uint64 arrays (one stream per game of a batch): a seed
gives the same games on any machine and with any number of threads."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numpy.typing import NDArray

Fn = TypeVar("Fn", bound=Callable[..., Any])
Rng = NDArray[np.uint64]  # random streams, one uint64 state each


def compiled(fn: Fn) -> Fn:
    """numba.njit with the on-disk cache."""
    return cast(Fn, numba.njit(cache=True)(fn))


def compiled_parallel(fn: Fn) -> Fn:
    """As `compiled`, with `numba.prange` loops spread over the cores."""
    return cast(Fn, numba.njit(cache=True, parallel=True)(fn))


def compiled_into_callers(fn: Fn) -> Fn:
    """numba.njit that inlines the function into each compiled caller (numba's own IR), with no cache of its
    own: the callers' caches hold it. For a function that takes compiled functions as arguments: called
    through an ordinary kernel, those would be passed as pointers to Python objects, which no cache keeps."""
    return cast(Fn, numba.njit(inline="always")(fn))


def forget_stale_kernels(owner: ModuleType, kernels: Iterable[object], inlined: Iterable[ModuleType]) -> None:
    """Drop the cache of `owner`'s `kernels` when a module they inline (or this one) changed since they were
    cached, so that they compile afresh. A stamp of those modules' sources is kept next to the cache."""
    sources = [Path(module.__file__ or "") for module in inlined] + [Path(__file__)]
    stamp = hashlib.sha256(b"".join(source.read_bytes() for source in sources)).hexdigest()
    owner_file = Path(owner.__file__ or "")
    marker = owner_file.parent / "__pycache__" / f"{owner_file.stem}.inlined.sha256"
    try:
        if marker.exists() and marker.read_text() == stamp:
            return
        for kernel in kernels:
            cache = getattr(kernel, "_cache", None)
            if cache is not None:
                cache.flush()
        marker.parent.mkdir(exist_ok=True)
        marker.write_text(stamp)
    except OSError:
        pass  # a read-only install keeps whatever cache it shipped with


def own_kernels(module: ModuleType) -> list[object]:
    """The compiled functions defined in `module` (for `forget_stale_kernels`)."""
    return [value for value in vars(module).values()
            if isinstance(value, numba.core.registry.CPUDispatcher) and value.py_func.__module__ == module.__name__]


# --- random streams (splitmix64) -----------------------------------------------------------------------------
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)


def new_streams(starts: random.Random, count: int) -> Rng:
    """`count` streams, each started from 64 bits of `starts` (a core seeds `starts` by rules/chance.py)."""
    return np.array([starts.getrandbits(64) for _ in range(count)], dtype=np.uint64)


@compiled
def next_random(rng: Rng, i: int) -> np.uint64:
    """The next 64 random bits of stream `i` (splitmix64: a step of the golden ratio, then two mixes)."""
    rng[i] += _GOLDEN
    z = rng[i]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return np.uint64(z ^ (z >> _S31))


@compiled
def random_below(rng: Rng, i: int, n: int) -> int:
    """A uniform integer in 0 .. n-1 from stream `i` (multiply-shift of the top 32 bits: bias below n / 2**32),
    signed, as the counts it picks among are."""
    return int(np.int64(((next_random(rng, i) >> _S32) * np.uint64(n)) >> _S32))
