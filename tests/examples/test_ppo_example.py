"""examples/ppo_geister.py runs end to end at a tiny size, and the weights it writes play legal moves only."""

from __future__ import annotations

import importlib.util
import random
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from ghostgames.bots.base import SeatKnowledge
from ghostgames.games import get_game

pytest.importorskip("torch", reason="the PPO example needs PyTorch: pip install -e '.[torch]' (make test installs it)")
pytest.importorskip("gymnasium", reason="the PPO example needs the research extra: pip install -e '.[research]'")


EXAMPLE = Path(__file__).parents[2] / "examples" / "ppo_geister.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ppo_geister", EXAMPLE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_trains_saves_and_prints_a_table_against_three_opponents(tmp_path: Path) -> None:
    out = tmp_path / "ppo.pt"
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--steps", "1024", "--num-envs", "8", "--rollout", "32",
         "--eval-games", "2", "--seed", "3", "--out", str(out)],
        capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert out.is_file() and out.stat().st_size > 0
    assert re.search(r"update 4: 1,024 steps", done.stdout), done.stdout  # 1024 steps = 4 rollouts of 8 x 32
    rows = {m[1]: int(m[2]) for m in re.finditer(r"^\W*(random|charge|rules)\W+(\d+)\W", done.stdout, flags=re.M)}
    assert rows == {"random": 2, "charge": 2, "rules": 2}, done.stdout  # each opponent, 2 seat-games

    # The saved weights, loaded again, give illegal actions no probability and play whole games legally.
    example = _example()
    policy = example.load(out)
    bot = example.as_bot(policy)
    import torch

    game = get_game("geister")
    rng = random.Random(5)
    checked = 0
    for seed in range(2):
        state = game.new(2, example.OPTIONS, seed=seed)
        while not state.is_over():
            for seat in sorted(state.to_act()):
                knowledge = SeatKnowledge(state, seat)
                mask = knowledge.legal_mask()
                with torch.no_grad():
                    logits, _ = policy(torch.from_numpy(example.flatten(knowledge.encode()))[None],
                                       torch.from_numpy(mask)[None])
                probs = torch.softmax(logits[0], -1).numpy()
                assert probs[~mask].sum() == 0.0 and np.isclose(probs[mask].sum(), 1.0)
                action = bot.choose(knowledge, rng)  # PolicyBot refuses an index the mask rules out
                assert action in state.legal_actions(seat)
                state.apply(seat, action)
                checked += 1
    assert checked > 20
