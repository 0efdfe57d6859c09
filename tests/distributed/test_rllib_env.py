"""The RLlib wrapper: turn by turn only the seat to act observes (with its mask), every seat's reward at the
end, and RLlib's own PPO trains a policy on it for a couple of short iterations."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

from ghostgames.envs.rllib import GhostGamesMultiAgentEnv


@pytest.mark.parametrize(("game", "players", "options"), [
    ("geister", 2, {}), ("ghooost", 3, {"max_turns": 40, "match": False}), ("thelast", 2, {})])
def test_only_the_seat_to_act_observes_and_every_seat_is_paid_at_the_end(game: str, players: int,
                                                                          options: dict[str, object]) -> None:
    env = GhostGamesMultiAgentEnv({"game": game, "players": players, "options": options})
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    steps = 0
    while True:
        assert len(obs) == 1
        (agent, seen), = obs.items()
        seat = int(agent.removeprefix("seat_"))
        assert env.state is not None and seat == min(env.state.to_act())
        assert env.observation_spaces[agent].contains(seen)
        mask = seen["action_mask"]
        assert np.array_equal(mask, env.state.legal_mask(seat).astype(np.float32))
        # the observation is this seat's own encoding, nothing more
        own = np.concatenate([np.asarray(a, dtype=np.float32).ravel() for a in env.state.encode(seat).values()])
        assert np.array_equal(seen["observations"], own)
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, rewards, terminated, truncated, _ = env.step({agent: action})
        steps += 1
        assert not truncated["__all__"]
        if terminated["__all__"]:
            break
        assert set(rewards.values()) <= {0.0} and agent in rewards  # nothing is paid before the end
    assert set(obs) == set(rewards) == set(env.possible_agents)
    outcome = env.state.outcome()
    assert outcome is not None
    assert [rewards[f"seat_{s}"] for s in range(players)] == [
        {"win": 1.0, "loss": -1.0, "draw": 0.0}[r.result] for r in outcome.results]
    assert steps > 5


def test_rllib_ppo_trains_a_shared_policy_for_two_short_iterations(ray_env: dict[str, str]) -> None:
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        config = (
            PPOConfig()
            .environment(GhostGamesMultiAgentEnv, env_config={"game": "thelast", "players": 2})
            .env_runners(num_env_runners=0, rollout_fragment_length=64)
            .learners(num_learners=0)
            .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent, episode, **kw: "shared")
            .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                                   model_config={"fcnet_hiddens": [16]}))
            .training(train_batch_size_per_learner=64, minibatch_size=32, num_epochs=1)
        )
        algo = config.build_algo()
        before = {k: v.copy() for k, v in algo.get_module("shared").get_state().items()}
        for _ in range(2):
            result = algo.train()
        after = algo.get_module("shared").get_state()
        algo.stop()
    finally:
        ray.shutdown()
    assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 128
    assert any(not np.array_equal(before[k], after[k]) for k in before)  # the policy learned something
