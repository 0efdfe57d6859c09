"""numba compilation with the on-disk cache, shared by the compiled core (fast.py) and the bots' kernels.

numba's decorator is typed as returning a dispatcher; these keep the function's own type for mypy. And
numba checks a cached kernel against its own source file only: a kernel that inlines functions from
other modules keeps running their old code after they change, unless its cache is dropped
(`forget_stale_kernels`)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar, cast

import numba

Fn = TypeVar("Fn", bound=Callable[..., Any])


def compiled(fn: Fn) -> Fn:
    """numba.njit with the on-disk cache."""
    return cast(Fn, numba.njit(cache=True)(fn))


def compiled_parallel(fn: Fn) -> Fn:
    """As `compiled`, with `numba.prange` loops spread over the cores."""
    return cast(Fn, numba.njit(cache=True, parallel=True)(fn))


def forget_stale_kernels(owner: ModuleType, kernels: Iterable[object], inlined: Iterable[ModuleType]) -> None:
    """Drop the cache of `owner`'s `kernels` when a module they inline changed since they were cached, so
    that they compile afresh. A stamp of those modules' sources is kept next to the cache."""
    stamp = hashlib.sha256(b"".join(Path(module.__file__ or "").read_bytes() for module in inlined)).hexdigest()
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
