"""A real Ray cluster on this machine's loopback for the distributed tests: a head node and a second node
joining it (Ray's own cluster utilities start both as separate processes, as `ray start` would), with a
private temporary folder, torn down after the tests. Nothing listens beyond 127.0.0.1."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def ray_env() -> Iterator[dict[str, str]]:
    """The environment of everything Ray starts here: a short private temporary folder (Ray's socket paths
    must stay under 108 bytes), loopback addresses, and this checkout first on the path of every worker.
    Set in this process too, since the nodes and an in-process driver read it from here."""
    folder = tempfile.mkdtemp(prefix="rt", dir="/tmp")
    settings = {
        "RAY_TMPDIR": folder,
        # Ray resolves 127.0.0.1 to the machine's outward address unless told it runs on one machine
        "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
        "RAY_USAGE_STATS_ENABLED": "0",
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    with pytest.MonkeyPatch.context() as patch:
        for key, value in settings.items():
            patch.setenv(key, value)
        patch.delenv("RAY_ADDRESS", raising=False)
        yield {**os.environ}
    shutil.rmtree(folder, ignore_errors=True)


@dataclass
class LoopbackCluster:
    cluster: Any  # ray.cluster_utils.Cluster
    second: Any  # the second node (ray._private.node.Node)
    env: dict[str, str]

    @property
    def address(self) -> str:
        return str(self.cluster.address)

    def kill_second_node(self) -> None:
        """Kill every process of the second node at once (no draining): a machine that died."""
        self.cluster.remove_node(self.second, allow_graceful=False)

    def add_second_node(self) -> None:
        self.second = self.cluster.add_node(num_cpus=1, node_ip_address="127.0.0.1")
        self.cluster.wait_for_nodes()


@pytest.fixture(scope="module")
def ray_cluster(ray_env: dict[str, str]) -> Iterator[LoopbackCluster]:
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "node_ip_address": "127.0.0.1",
                                                            "include_dashboard": False})
    try:
        second = cluster.add_node(num_cpus=1, node_ip_address="127.0.0.1")
        cluster.wait_for_nodes()
        yield LoopbackCluster(cluster, second, ray_env)
    finally:
        cluster.shutdown()
