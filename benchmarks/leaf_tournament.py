"""stream_tournament.py with the expert's candidate leaves as bots: `expert-blend:N` scores a cut-short
playout by the mean of the hand evaluation and the learned value (`fast_search.BLEND`), `expert-learned:N` by
the learned value alone (`LEARNED`); `expert-prior:N` keeps the hand leaf and starts each new tree node from
the learned value counted as `--prior-visits M` visits (default 4), scored when the node is made or, with
`--prior-after 1`, on its second visit; `expert-playout:N` keeps the hand leaf and plays its playouts with
the learned playout policy in `--playout FILE` (`playout_policy.py`); N iterations, everything else as
`expert`. The games are those of stream_tournament.py with the same arguments. `--value FILE` gives these
bots other weights than the shipped ones (a file `GeisterValue.save` wrote); `--rollout-limit K` cuts their
playouts after K plies (0: the leaf scores the node itself, with no playout) instead of the expert's 14.
These options are written into the output file's first line next to the spec.

    .venv/bin/python benchmarks/leaf_tournament.py --playout benchmarks/results/playout-policy-20000.npz \\
        --bots expert-playout:153000,rules --games 100 --seed 1 --out benchmarks/results/hard-vs-rules.jsonl
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from stream_tournament import main

from ghostgames.bots import BOTS, Bot, Budget
from ghostgames.bots.geister.fast_search import BLEND, HAND, LEARNED, FastExpertBot
from ghostgames.bots.geister.playout_policy import PlayoutPolicy
from ghostgames.bots.geister.value import GeisterValue
from ghostgames.bots.search_bots import expert_policy

LEAVES = {"expert-blend": BLEND, "expert-learned": LEARNED, "expert-prior": HAND, "expert-playout": HAND}
PRIOR_VISITS = 4.0  # expert-prior's default: the learned value counts as this many visits of a new node


def register(name: str, weights: str | None, rollout_limit: int | None, prior_visits: float = PRIOR_VISITS,
             prior_after: int = 0, playout: str | None = None) -> None:
    """Make `name` (e.g. expert-blend:190000) a bot the tournament can seat, with the value in `weights`
    (None: the shipped one), playouts of `rollout_limit` plies (None: the expert's) and, for expert-prior,
    the learned value counted as `prior_visits` visits of a node, scored once the node has `prior_after`
    visits, and for expert-playout the learned playout policy in `playout`."""
    base, _, count = name.partition(":")
    evaluator, iterations = LEAVES[base], int(count)
    value = GeisterValue.load(weights).kernel_arrays if weights else None
    table = PlayoutPolicy.load(Path(playout)).table if playout and base == "expert-playout" else None

    def make(seconds: float | None) -> Bot:
        bot = FastExpertBot(Budget(iterations=iterations), expert_policy, exploration=0.5, evaluator=evaluator,
                            value=value, rollout_limit=rollout_limit,
                            prior_visits=prior_visits if base == "expert-prior" else 0.0, prior_after=prior_after,
                            playout_table=table)
        bot.name = base
        return bot

    BOTS[name] = make


if __name__ == "__main__":
    # This script's own options are read here and taken out; stream_tournament.main reads the rest.
    own = argparse.ArgumentParser(add_help=False)
    own.add_argument("--value", default=None)
    own.add_argument("--rollout-limit", type=int, default=None)
    own.add_argument("--prior-visits", type=float, default=PRIOR_VISITS)
    own.add_argument("--prior-after", type=int, default=0, choices=(0, 1))
    own.add_argument("--playout", default=None)
    own.add_argument("--bots", required=True)
    args, rest = own.parse_known_args()
    sys.argv = [sys.argv[0], "--bots", args.bots, *rest]
    names = args.bots.split(",")
    for name in names:
        if name.partition(":")[0] in LEAVES:
            register(name, args.value, args.rollout_limit, args.prior_visits, args.prior_after, args.playout)
    leaf: dict[str, object] = {"value": args.value or "shipped", "rollout_limit": args.rollout_limit}
    if any(name.startswith("expert-prior:") for name in names):
        leaf["prior_visits"] = args.prior_visits
        if args.prior_after:
            leaf["prior_after"] = args.prior_after
    if any(name.startswith("expert-playout:") for name in names):
        if not args.playout:
            own.error("expert-playout needs --playout FILE (a policy `ghostgames train geister-playout` wrote)")
        leaf["playout"] = args.playout
    main(leaf)
