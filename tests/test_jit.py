"""A cached numba kernel is checked against its own file only; `forget_stale_kernels` drops the cache of
kernels whose inlined modules changed, so they never run an old copy of the rules."""

from __future__ import annotations

import types
from pathlib import Path

from ghostgames.jit import forget_stale_kernels


class Cache:
    def __init__(self) -> None:
        self.flushed = 0

    def flush(self) -> None:
        self.flushed += 1


class Kernel:
    """Stands in for a numba dispatcher: the only part used is its `_cache`."""

    def __init__(self) -> None:
        self._cache = Cache()


def _module(path: Path, text: str) -> types.ModuleType:
    path.write_text(text)
    module = types.ModuleType(path.stem)
    module.__file__ = str(path)
    return module


def test_the_cache_is_dropped_once_per_change_of_an_inlined_module(tmp_path: Path) -> None:
    owner = _module(tmp_path / "owner.py", "# kernels\n")
    rules = _module(tmp_path / "rules.py", "RULE = 1\n")
    kernels = [Kernel(), Kernel()]

    def flushes() -> list[int]:
        return [kernel._cache.flushed for kernel in kernels]

    forget_stale_kernels(owner, kernels, inlined=(rules,))
    assert flushes() == [1, 1]  # no stamp yet: whatever is cached may be old
    forget_stale_kernels(owner, kernels, inlined=(rules,))
    assert flushes() == [1, 1]  # nothing changed
    (tmp_path / "rules.py").write_text("RULE = 2\n")
    forget_stale_kernels(owner, kernels, inlined=(rules,))
    assert flushes() == [2, 2]
    forget_stale_kernels(owner, kernels, inlined=(rules,))
    assert flushes() == [2, 2]
    assert (tmp_path / "__pycache__" / "owner.inlined.sha256").exists()


def test_a_read_only_folder_keeps_its_cache_and_does_not_fail(tmp_path: Path) -> None:
    owner = _module(tmp_path / "owner.py", "# kernels\n")
    rules = _module(tmp_path / "rules.py", "RULE = 1\n")
    (tmp_path / "__pycache__").write_text("a file where the folder would be")  # writing the stamp fails
    kernel = Kernel()
    forget_stale_kernels(owner, [kernel], inlined=(rules,))
    assert kernel._cache.flushed == 1



def test_a_cores_own_kernels_leave_out_what_it_imports() -> None:
    """A core's cache guard drops its own kernels only: jit.py's streams have their cache checked by numba."""
    from ghostgames import jit
    from ghostgames.games.thelast import fast

    kernels = jit.own_kernels(fast)
    assert fast.bit_count in kernels and fast.step in kernels
    assert fast.random_below not in kernels and fast.next_random not in kernels
    assert jit.own_kernels(jit) == [jit.next_random, jit.random_below]
