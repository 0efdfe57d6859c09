"""Train the `runner` sparring partner: PPO on the batched Geister env against our compiled bots and itself.

Read it top to bottom as examples/ppo_geister.py, of which it is the reproducible version: one group of games per
opponent (`random`, `charge`, `rules`, `defender`, and a frozen copy of the policy refreshed every few updates,
so it also meets its own style), the learner on alternate seats, a masked policy and a value head, clipped
policy-gradient steps on generalised advantages. Only the policy layers are shipped (bots/geister/runner.py
plays them in numpy).

The reward is the game's: +1 for a win, whatever the way (escape, four good taken, four bad given), -1 for a
loss, and a draw (the move limit) counts `draw` (below zero: waiting out the clock is not winning). The
discount makes a quick win worth more than a slow one; nothing in the reward names a ghost, a square or an
exit, so whatever style it finds (running, against `defender`) is its own.

Reproducible: the same seed gives the same weights, bit for bit, on the same machine and library versions.
The games are seeded, torch draws from its own seeded generator, runs on one thread with deterministic
algorithms, and the frozen opponent samples from a numpy generator of the same seed. Needs torch (the
`torch` extra).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import torch
from numpy.typing import NDArray
from torch import nn

from ghostgames.bots.geister.runner import RunnerPolicy, flatten
from ghostgames.envs.vector import GeisterVectorEnv
from ghostgames.games.geister.encoding import ACTION_COUNT, PLANES, VECTOR

OPTIONS = {"exit": "escape", "max_plies": 300}  # the tournament's Geister options
OBSERVATION = PLANES * 36 + VECTOR
SELF = "self"  # the opponent that is a frozen copy of the learner


@dataclass(frozen=True)
class RunnerSpec:
    """Everything a run depends on (with the seed, it names the weights)."""

    seed: int = 1
    updates: int = 600
    opponents: tuple[str, ...] = ("random", "charge", "rules", "defender", SELF)
    games: int = 16  # games stepped together against each opponent
    rollout: int = 64  # steps of every game between two updates
    hidden: int = 128
    rate: float = 3e-4
    gamma: float = 0.99
    lam: float = 0.95
    epochs: int = 3
    minibatches: int = 4
    clip: float = 0.2
    entropy: float = 0.01
    draw: float = -0.5
    refresh: int = 10  # updates between two copies of the learner as the SELF opponent

    def recipe(self) -> str:
        return " ".join(f"{k}={v}" for k, v in asdict(self).items())


class Network(nn.Module):
    """The shipped policy (two tanh layers, then a logit per action) and a value head for training only."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.body1 = nn.Linear(OBSERVATION, hidden)
        self.body2 = nn.Linear(hidden, hidden)
        self.actor = nn.Linear(hidden, ACTION_COUNT)
        self.critic = nn.Linear(hidden, 1)
        for layer, gain in ((self.body1, 2**0.5), (self.body2, 2**0.5), (self.critic, 1.0), (self.actor, 0.01)):
            nn.init.orthogonal_(layer.weight, gain)  # small actor weights: a nearly uniform first policy
            nn.init.zeros_(layer.bias)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = torch.tanh(self.body2(torch.tanh(self.body1(x))))
        return self.actor(h).masked_fill(~mask, -1e9), self.critic(h).squeeze(-1)

    def policy(self) -> RunnerPolicy:
        """The policy layers as numpy arrays, (in, out) as RunnerPolicy multiplies them."""
        arrays: list[NDArray[np.float32]] = []
        for layer in (self.body1, self.body2, self.actor):
            arrays += [layer.weight.detach().numpy().T.copy(), layer.bias.detach().numpy().copy()]
        return RunnerPolicy(tuple(arrays))


def frozen_opponent(holder: list[RunnerPolicy], rng: np.random.Generator) -> Callable[..., int]:
    """The vector env's Python opponent: samples the policy in `holder[0]` (replaced as training goes)."""

    def act(observation: dict[str, NDArray[np.float32]], mask: NDArray[np.int8]) -> int:
        probs = holder[0].probabilities(flatten(observation), mask.astype(bool))
        return int(rng.choice(ACTION_COUNT, p=probs))

    return act


def train(spec: RunnerSpec, report: Callable[[int, dict[str, float]], None] | None = None
          ) -> tuple[RunnerPolicy, dict[str, Any]]:
    """Run PPO; `report(update, win rates)` after each update. Returns the policy and the run's curve."""
    torch.manual_seed(spec.seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    generator = torch.Generator().manual_seed(spec.seed)
    network = Network(spec.hidden)
    optimizer = torch.optim.Adam(network.parameters(), lr=spec.rate, eps=1e-5)
    holder = [network.policy()]
    envs = [GeisterVectorEnv(spec.games, OPTIONS, seed=spec.seed * 1_000_003 + 10_007 * k, threads=1,
                             opponent=frozen_opponent(holder, np.random.default_rng([spec.seed, k]))
                             if name == SELF else name, learner_seat="alternate")
            for k, name in enumerate(spec.opponents)]
    n, t_len = spec.games * len(envs), spec.rollout
    xs = torch.zeros(t_len, n, OBSERVATION)
    masks = torch.zeros(t_len, n, ACTION_COUNT, dtype=torch.bool)
    actions = torch.zeros(t_len, n, dtype=torch.long)
    logps, values, rewards, ended = (torch.zeros(t_len, n) for _ in range(4))
    results = {name: deque[float](maxlen=400) for name in spec.opponents}

    def observe(observations: list[dict[str, Any]]) -> tuple[torch.Tensor, torch.Tensor]:
        x = np.concatenate([flatten(o["observation"]) for o in observations])
        mask = np.concatenate([o["action_mask"] for o in observations]) == 1
        return torch.from_numpy(x), torch.from_numpy(mask)

    x, mask = observe([env.reset()[0] for env in envs])
    curve: list[dict[str, Any]] = []
    for update in range(1, spec.updates + 1):
        for t in range(t_len):  # 1. play: the learner's decisions in every game
            xs[t], masks[t] = x, mask
            with torch.no_grad():
                logits, values[t] = network(x, mask)
            probs = torch.softmax(logits, -1)
            actions[t] = torch.multinomial(probs, 1, generator=generator).squeeze(-1)
            logps[t] = torch.log(probs.gather(1, actions[t, :, None]).squeeze(-1))
            stepped = []
            for k, env in enumerate(envs):
                chosen = actions[t, k * spec.games:(k + 1) * spec.games].numpy()
                observation, reward, terminated, _, _ = env.step(chosen)
                reward = np.where(terminated & (reward == 0), spec.draw, reward).astype(np.float32)
                rewards[t, k * spec.games:(k + 1) * spec.games] = torch.from_numpy(reward)
                ended[t, k * spec.games:(k + 1) * spec.games] = torch.from_numpy(terminated.astype(np.float32))
                results[spec.opponents[k]].extend(np.sign(reward[terminated]).tolist())
                stepped.append(observation)
            x, mask = observe(stepped)
        with torch.no_grad():  # 2. advantages; a game that ended does not look into the next one
            _, following = network(x, mask)
        advantages = torch.zeros(t_len, n)
        running = torch.zeros(n)
        for t in reversed(range(t_len)):
            alive = 1.0 - ended[t]
            delta = rewards[t] + spec.gamma * following * alive - values[t]
            running = delta + spec.gamma * spec.lam * alive * running
            advantages[t] = running
            following = values[t]
        returns = advantages + values
        flat = [a.reshape(t_len * n, *a.shape[2:]) for a in (xs, masks, actions, logps, advantages, returns)]
        size = t_len * n // spec.minibatches
        for _ in range(spec.epochs):  # 3. learn: clipped steps over shuffled minibatches
            order = torch.randperm(t_len * n, generator=generator)
            for start in range(0, t_len * n, size):
                batch = order[start:start + size]
                b_x, b_mask, b_action, b_logp, b_adv, b_ret = (a[batch] for a in flat)
                logits, value = network(b_x, b_mask)
                log_probs = torch.log_softmax(logits, -1)
                ratio = (log_probs.gather(1, b_action[:, None]).squeeze(-1) - b_logp).exp()
                b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
                policy_loss = -torch.min(ratio * b_adv, ratio.clamp(1 - spec.clip, 1 + spec.clip) * b_adv).mean()
                value_loss = 0.5 * (value - b_ret).pow(2).mean()
                entropy = -(log_probs.exp() * log_probs.clamp(min=-1e4)).sum(-1).mean()
                loss = policy_loss + 0.5 * value_loss - spec.entropy * entropy
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(network.parameters(), 0.5)
                optimizer.step()
        if update % spec.refresh == 0:
            holder[0] = network.policy()
        rates = {name: float(np.mean(r)) if r else 0.0 for name, r in results.items()}
        curve.append({"update": update, "steps": update * t_len * n, "mean_result": rates})
        if report is not None:
            report(update, rates)
    for env in envs:
        env.close()
    return network.policy(), {"recipe": spec.recipe(), "curve": curve}
