"""Train a small Geister policy with PPO against the `rules` bot, then measure it against three bots.

One file to read top to bottom: the batched environment (`GeisterVectorEnv` with a compiled opponent),
a network whose illegal actions get no probability, proximal policy optimisation with generalised
advantage estimates, and `ghostgames.evaluate` for the closing table. It needs PyTorch and the research
extra: `pip install -e '.[research,torch]'` (`make test` installs both).

    python examples/ppo_geister.py --seconds 180 --out geister-ppo.pt

The environment shows the learner only its own seat's view (`state.encode(seat)`), so the trained policy
plays at a table exactly as it trained: `PolicyBot` hands it the same arrays from a `SeatKnowledge`.
Trained against one bot, a policy learns that bot's weaknesses rather than Geister: docs/learning.md shows
the table of a three-minute run.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import deque
from pathlib import Path

import numpy as np
import torch
from torch import nn

import ghostgames
from ghostgames.envs import GeisterVectorEnv

OPTIONS = {"exit": "escape", "max_plies": 300}  # the tournament's Geister options, so training and table agree
OBSERVATION = 6 * 6 * 6 + 24  # the board planes flattened, then the vector
ACTIONS = 214  # Geister's fixed action index space (70 setups, then moves)
OPPONENTS = ["random", "charge", "rules"]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5_000_000, help="learner steps in all games together")
    parser.add_argument("--seconds", type=float, default=None, help="stop training after this long (or --steps)")
    parser.add_argument("--num-envs", type=int, default=64, help="games stepped together")
    parser.add_argument("--rollout", type=int, default=128, help="steps of every game between two updates")
    parser.add_argument("--opponent", default="rules", help="compiled opponent: random, charge, rules, defender")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval-games", type=int, default=100, help="games against each evaluation opponent")
    parser.add_argument("--out", type=Path, default=Path("geister-ppo.pt"), help="where the weights go")
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.995, help="discount; games last up to 150 own moves")
    parser.add_argument("--lam", type=float, default=0.95, help="GAE's trade of bias against variance")
    parser.add_argument("--epochs", type=int, default=4, help="passes over each rollout")
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--clip", type=float, default=0.2, help="how far one update may move a probability ratio")
    parser.add_argument("--entropy", type=float, default=0.01, help="bonus that keeps the policy exploring")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads for torch and the environment")
    return parser.parse_args(argv)


# --- the network --------------------------------------------------------------------------------------
class Policy(nn.Module):
    """A shared body with two heads: logits over the 214 action indices and a value (the learner's
    expected result, -1 to +1). The mask sets illegal logits to a huge negative number, so the softmax
    gives them probability zero and sampling can never pick them."""

    def __init__(self, hidden: int = 256) -> None:
        super().__init__()
        self.hidden = hidden
        self.body = nn.Sequential(nn.Linear(OBSERVATION, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.actor = nn.Linear(hidden, ACTIONS)
        self.critic = nn.Linear(hidden, 1)
        for layer, gain in ((self.body[0], 2**0.5), (self.body[2], 2**0.5), (self.critic, 1.0),
                            (self.actor, 0.01)):  # small actor weights: a nearly uniform first policy
            nn.init.orthogonal_(layer.weight, gain)
            nn.init.zeros_(layer.bias)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x)
        logits = self.actor(h).masked_fill(~mask, -1e9)
        return logits, self.critic(h).squeeze(-1)


def flatten(observation: dict[str, np.ndarray]) -> np.ndarray:
    """The board planes and the vector side by side; works on one observation or a batch of them."""
    board, vector = observation["board"], observation["vector"]
    return np.concatenate([board.reshape(*vector.shape[:-1], -1), vector], axis=-1).astype(np.float32)


def save(policy: Policy, path: Path) -> None:
    torch.save({"hidden": policy.hidden, "weights": policy.state_dict()}, path)


def load(path: Path) -> Policy:
    saved = torch.load(path, weights_only=True)
    policy = Policy(saved["hidden"])
    policy.load_state_dict(saved["weights"])
    return policy.eval()


def as_bot(policy: Policy, name: str = "ppo") -> ghostgames.PolicyBot:
    """The policy as a ghostgames bot: it samples from its distribution with the bot's seeded generator
    (so a tournament repeats), among the legal indices only."""

    def choose(obs: dict[str, np.ndarray], mask: np.ndarray, rng: random.Random) -> int:
        with torch.no_grad():
            logits, _ = policy(torch.from_numpy(flatten(obs))[None], torch.from_numpy(mask)[None])
        probs = torch.softmax(logits[0], -1).numpy()
        legal = np.flatnonzero(mask)
        return int(rng.choices(legal, weights=probs[legal])[0])

    return ghostgames.PolicyBot(choose, name)


# --- training -----------------------------------------------------------------------------------------
def train(args: argparse.Namespace) -> Policy:
    torch.manual_seed(args.seed)
    n, t_len = args.num_envs, args.rollout
    env = GeisterVectorEnv(n, OPTIONS, seed=args.seed, threads=args.threads, opponent=args.opponent,
                           learner_seat="alternate")
    policy = Policy(args.hidden)
    optimizer = torch.optim.Adam(policy.parameters(), lr=args.lr, eps=1e-5)

    # One rollout: t_len steps of each of the n games (the learner's decisions only).
    xs = torch.zeros(t_len, n, OBSERVATION)
    masks = torch.zeros(t_len, n, ACTIONS, dtype=torch.bool)
    actions = torch.zeros(t_len, n, dtype=torch.long)
    logps, values, rewards, ended = (torch.zeros(t_len, n) for _ in range(4))

    obs, _ = env.reset()
    x, mask = torch.from_numpy(flatten(obs["observation"])), torch.from_numpy(obs["action_mask"] == 1)
    results: deque[float] = deque(maxlen=500)  # the learner's last results: +1 win, -1 loss, 0 draw
    started, steps, update = time.monotonic(), 0, 0
    while steps < args.steps and (args.seconds is None or time.monotonic() - started < args.seconds):
        # 1. Play: sample from the masked policy; SAME_STEP autoreset starts finished games again at once.
        for t in range(t_len):
            xs[t], masks[t] = x, mask
            with torch.no_grad():
                logits, values[t] = policy(x, mask)
            dist = torch.distributions.Categorical(logits=logits)
            actions[t] = dist.sample()
            logps[t] = dist.log_prob(actions[t])
            obs, reward, terminated, truncated, _ = env.step(actions[t].numpy())
            rewards[t] = torch.from_numpy(reward)
            ended[t] = torch.from_numpy(terminated | truncated).float()
            results.extend(reward[terminated].tolist())
            x, mask = torch.from_numpy(flatten(obs["observation"])), torch.from_numpy(obs["action_mask"] == 1)
        steps += t_len * n

        # 2. Advantages (GAE): how much better each action did than the value expected. A game that
        # ended at step t does not look past it: the next observation belongs to a new game.
        with torch.no_grad():
            _, next_value = policy(x, mask)
        advantages = torch.zeros(t_len, n)
        running = torch.zeros(n)
        for t in reversed(range(t_len)):
            following = next_value if t == t_len - 1 else values[t + 1]
            alive = 1.0 - ended[t]
            delta = rewards[t] + args.gamma * following * alive - values[t]
            running = delta + args.gamma * args.lam * alive * running
            advantages[t] = running
        returns = advantages + values

        # 3. Learn: a few passes of clipped policy-gradient steps over shuffled minibatches.
        flat = [a.reshape(t_len * n, *a.shape[2:]) for a in (xs, masks, actions, logps, advantages, returns)]
        size = t_len * n // args.minibatches
        for _ in range(args.epochs):
            for batch in torch.randperm(t_len * n).split(size):
                b_x, b_mask, b_action, b_logp, b_adv, b_ret = (a[batch] for a in flat)
                logits, value = policy(b_x, b_mask)
                dist = torch.distributions.Categorical(logits=logits)
                ratio = (dist.log_prob(b_action) - b_logp).exp()
                b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
                policy_loss = -torch.min(ratio * b_adv, ratio.clamp(1 - args.clip, 1 + args.clip) * b_adv).mean()
                value_loss = 0.5 * (value - b_ret).pow(2).mean()
                loss = policy_loss + 0.5 * value_loss - args.entropy * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                optimizer.step()

        update += 1
        games = "no game finished yet"
        if results:
            wins = sum(r > 0 for r in results) / len(results)
            games = (f"last {len(results)} games against {args.opponent}: mean result {np.mean(results):+.2f}, "
                     f"won {wins:.0%}")
        print(f"update {update}: {steps:,} steps, {time.monotonic() - started:.0f} s, {games}", flush=True)
    env.close()
    return policy


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    policy = train(args)
    save(policy, args.out)
    print(f"weights saved to {args.out}")
    # Evaluate the saved weights, as anyone loading the file would play them.
    evaluation = ghostgames.evaluate(as_bot(load(args.out)), OPPONENTS, games=args.eval_games, seed=args.seed,
                                     options=OPTIONS)
    print(evaluation)


if __name__ == "__main__":
    main()

