"""Helpers of the batched card environments' tests: one game's arrays of a batch, and arrays compared by name."""

from __future__ import annotations

from typing import Any

import numpy as np


def single(obs: dict[str, Any], i: int) -> dict[str, Any]:
    """Game i's named observation arrays of a batched observation."""
    return {name: array[i] for name, array in obs["observation"].items()}


def assert_same_arrays(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert got.keys() == want.keys()
    for name, array in want.items():
        np.testing.assert_array_equal(got[name], array, err_msg=name)
