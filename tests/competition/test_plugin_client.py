"""The competition client plays an installed plug-in bot by its entry-point name."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ghostgames.competition.client import play_games
from tests import plugin_package
from tests.competition.helpers import free_port_pair


def test_the_client_command_plays_an_installed_plugin_bot(tmp_path: Path) -> None:
    folder = plugin_package.build(tmp_path / "site")
    port = free_port_pair()
    records = tmp_path / "records.jsonl"
    server = subprocess.Popen(
        [sys.executable, "-m", "ghostgames", "geister-server", "--port", str(port), "--games", "1",
         "--pause-ms", "0.2", "--records", str(records)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path,
    )  # fmt: skip
    try:
        client = subprocess.Popen(
            [sys.executable, "-m", "ghostgames", "geister-client", "--port", str(port + 1), "--bot", "firstmove",
             "--games", "1"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=plugin_package.environment(folder),
        )  # fmt: skip
        ours = play_games("127.0.0.1", port, "random", 1, seed=7, connect_wait=30, read_timeout=60)
        client_out, _ = client.communicate(timeout=60)
        server_out, _ = server.communicate(timeout=60)
    finally:
        server.kill()
    assert client.returncode == 0, client_out
    assert "game 1:" in client_out and "firstmove on" in client_out
    assert [g.result in ("won", "lost", "draw") for g in ours] == [True]
    assert len(records.read_text().splitlines()) == 1, server_out
    assert json.loads(records.read_text())["record"]["actions"]
