"""The `runner` sparring partner's training: the same seed gives the same weights bit for bit (so
`ghostgames train geister-runner` reproduces the shipped ones), and numpy plays exactly what torch trained."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="training the runner needs PyTorch: pip install -e '.[torch]'")

import torch

from ghostgames.bots.geister.runner import RunnerPolicy, flatten, sample
from ghostgames.envs.vector import GeisterVectorEnv
from ghostgames.learn.geister.runner_training import OPTIONS, Network, RunnerSpec, train

SHORT = {"updates": 2, "games": 4, "rollout": 16, "hidden": 16, "refresh": 1}


def _weights(seed: int) -> tuple[np.ndarray, ...]:
    policy, result = train(RunnerSpec(seed=seed, **SHORT))
    assert len(result["curve"]) == SHORT["updates"]
    return policy.weights


def test_two_runs_with_the_same_seed_give_identical_weights_and_another_seed_others() -> None:
    first, again, other = _weights(3), _weights(3), _weights(4)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


def test_the_numpy_policy_gives_the_networks_probabilities_with_illegal_actions_at_zero(tmp_path) -> None:
    torch.manual_seed(5)
    network = Network(16)
    env = GeisterVectorEnv(6, OPTIONS, seed=2, opponent="rules", learner_seat="alternate")
    obs, _ = env.reset()
    for _ in range(5):
        obs, *_ = env.step(env.random_actions())
    x, mask = flatten(obs["observation"]), obs["action_mask"] == 1
    with torch.no_grad():
        logits, _ = network(torch.from_numpy(x), torch.from_numpy(mask))
    expected = torch.softmax(logits, -1).numpy()
    path = tmp_path / "runner.npz"
    network.policy().save(path, recipe="test")
    probs = RunnerPolicy.load(path).probabilities(x, mask)
    assert np.allclose(probs, expected, atol=1e-5)
    assert np.all(probs[~mask] == 0) and np.allclose(probs.sum(axis=1), 1.0)


def test_the_packaged_weights_are_the_default_commands_run_with_seed_1() -> None:
    """The shipped file names its recipe: the command's defaults with seed 1, the run docs/learning.md reports."""
    import inspect

    from ghostgames.bots.geister.runner import WEIGHTS
    from ghostgames.commands.train import train_geister_runner

    defaults = {name: p.default.default for name, p in inspect.signature(train_geister_runner).parameters.items()
                if name in ("seed", "updates")}
    spec = RunnerSpec(**defaults)
    with np.load(WEIGHTS) as held:
        assert str(held["recipe"]) == spec.recipe() == RunnerSpec(seed=1).recipe()
    run = json.loads((Path(__file__).parents[2] / "benchmarks/results/runner-train.json").read_text())
    assert run["recipe"] == spec.recipe()


def test_train_geister_runner_writes_a_policy_the_bot_plays_and_refuses_a_wrong_file_name(tmp_path: Path) -> None:
    """One update through the command: the file holds the run's recipe, the same weights as train() gives for
    that recipe, and a bot of those weights plays legal moves; `--out x.json` is refused with the reason."""
    import random

    from typer.testing import CliRunner

    from ghostgames.bots import SeatKnowledge
    from ghostgames.cli import app
    from ghostgames.games import get_game

    runner = CliRunner()
    out = tmp_path / "runner.npz"
    done = runner.invoke(app, ["train", "geister-runner", "--seed", "2", "--updates", "1", "--out", str(out),
                               "--json", str(tmp_path / "run.json")])
    assert done.exit_code == 0, done.output
    spec = RunnerSpec(seed=2, updates=1)
    with np.load(out) as held:
        assert str(held["recipe"]) == spec.recipe()
    assert json.loads((tmp_path / "run.json").read_text())["curve"][0]["update"] == 1
    policy = RunnerPolicy.load(out)
    direct, _ = train(spec)
    assert all(np.array_equal(a, b) for a, b in zip(policy.weights, direct.weights, strict=True))
    state = get_game("geister").new(2, OPTIONS, seed=3)
    rng = random.Random(3)
    for _ in range(12):
        seat = min(state.to_act())
        knowledge = SeatKnowledge(state, seat)
        probs = policy.probabilities(flatten(knowledge.encode()), knowledge.legal_mask())
        action = knowledge.action_at(sample(probs, rng.random()))
        assert str(action) in state.legal_texts(seat)
        state.apply(seat, action)
    bad = runner.invoke(app, ["train", "geister-runner", "--updates", "1", "--out", str(tmp_path / "x.json")])
    assert bad.exit_code != 0 and ".npz" in bad.output
