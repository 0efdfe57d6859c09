"""How much a belief read from the others' moves knows about their hands: The Last at a recorded table.

A belief of this kind weighs the worlds a seat can deduce (`sample_world`) by how likely the others' moves of
the round so far were in each: the round is replayed from the world's cards (its start rebuilt from the world:
each hand now, the cards played, the cards laid face down, less the points cards taken in), and every move of
a seat other than the observer, with more than one legal action, counts with the probability a model of
choosing gives it. The model is a mix: `rules`' move with chance r, a move of the playout logit (the expert's
shipped weights) with chance l, a uniform one with chance u. Variants (docs/research/thelast-multiplayer.md,
"What the others' moves tell about their hands at 4 players"):

- U: every world alike (today's expert);
- S: the expert's own playout mix at 4-5 players, r, l, u = 0.4, 0.4, 0.2;
- F: one mix for every player, fitted by maximum likelihood (EM) on the training games' true positions;
- B: a mix per bot, fitted the same way;
- L: per bot, its own logit over the playout features (fitted to its moves) in place of the shipped one, mixed by EM;
- T and TL: S and L with their log-likelihood times a power (TEMPERS) chosen on the training games.

The measure: at the held-out decisions, for each card the observer cannot place, -ln of the probability its
variant gives the card's true place (one of the other hands, or elsewhere), from the weighted worlds smoothed
by half a world spread over the places. Recovery = (loss of U - loss) / loss of U: the share of what an oracle
(loss 0) knows. Games come from `openspiel_cards.py --json` files, which keep each game's actions; the files in
seed order, the first half trains, the rest is held out.

    D=$(ls benchmarks/results/thelast4-belief-data-seed*.json)
    PYTHONPATH=src:. .venv/bin/python benchmarks/thelast_belief_calibration.py --data $D --on train --json train.json
    PYTHONPATH=src:. .venv/bin/python benchmarks/thelast_belief_calibration.py --data $D --percentile --json held.json
    PYTHONPATH=src:. .venv/bin/python benchmarks/thelast_belief_calibration.py --report held.json \\
        --tempered-from train.json

`--shard K/N` measures every N-th game from the K-th (run N of them side by side, report them together);
`--worlds`, `--observers all` (every seat's decisions, not only the expert's); `--check N` only checks the replay.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from benchmarks.openspiel_cards import deal, load
from numpy.typing import NDArray

from ghostgames.bots.thelast.fast_rules import rules_action
from ghostgames.bots.thelast.playout_policy import K, action_features, logit_scores, shipped_weights
from ghostgames.games.thelast import fast
from ghostgames.games.thelast.cards import VALUE_OF
from ghostgames.games.thelast.deductions import slot_cards
from ghostgames.games.thelast.encoding import SWAP_BASE
from ghostgames.games.thelast.state import TheLastState

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]
VARIANTS = ("U", "S", "F", "B", "L")
MODELS = ("S", "F", "B", "L")  # the variants that weigh worlds by a model of choosing
TEMPERS = (0.1, 0.2, 0.3, 0.5, 0.7, 1.0)  # T (TL): S's (L's) log-likelihood times one, chosen on training games
SEARCH_MIX = (0.4, 0.4, 0.2)
SMOOTH = 0.5  # worlds spread evenly over the places of each card
VALUE_CLASSES = ((1, 4), (5, 8), (9, 12))  # the cards' values, scored apart too (high cards decide tricks)


@fast.compiled
def move_terms(start: Ints, actions: Ints, root: int, weights: Floats, own: Floats, out: Floats,
               actors: Ints) -> int:
    """Replay `actions` from the row `start`; for each move of a seat other than `root` with more than one legal
    action, its terms into `out` (is it `rules`' move; its probability under the logit `weights`; 1 / legal
    actions; its probability under the seat's own logit, row `own[seat]`) and its seat into `actors`. Returns
    how many, or -1 - k when action k is not legal (a broken replay)."""
    s = start.copy()
    legal = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    scores = np.empty(fast.MAX_ACTIONS, dtype=np.float64)
    m = 0
    for k in range(actions.shape[0]):
        a = actions[k]
        actor = fast.seat_to_act(s)
        n = fast.legal_actions(s, legal)
        found = -1
        for j in range(n):
            if legal[j] == a:
                found = j
        if found < 0:
            return -1 - k
        if actor != root and n > 1:
            out[m, 0] = 1.0 if rules_action(s) == a else 0.0
            total = logit_scores(s, legal, n, weights, scores)  # fills scores first
            out[m, 1] = scores[found] / total
            out[m, 2] = 1.0 / n
            total = logit_scores(s, legal, n, own[actor], scores)
            out[m, 3] = scores[found] / total
            actors[m] = actor
            m += 1
        fast.apply_action(s, a)
    return m


@fast.compiled
def move_features(start: Ints, actions: Ints, features: Floats, counts: Ints, chosen: Ints, actors: Ints) -> int:
    """Replay `actions` from `start`; for each move with more than one legal action, the features of every legal
    action (features[m, j]), their count, the index of the one played and the seat. Returns how many moves."""
    s = start.copy()
    legal = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    m = 0
    for k in range(actions.shape[0]):
        a = actions[k]
        n = fast.legal_actions(s, legal)
        if n > 1:
            for j in range(n):
                action_features(s, legal[j], features[m, j])
                if legal[j] == a:
                    chosen[m] = j
            counts[m] = n
            actors[m] = fast.seat_to_act(s)
            m += 1
        fast.apply_action(s, a)
    return m


def fit_logit(features: Floats, counts: Ints, chosen: Ints, l2: float = 1.0, steps: int = 50) -> Floats:
    """The multinomial logit of largest L2-penalised likelihood of these moves (Newton's method from zero)."""
    w = np.zeros(K)
    mask = np.arange(features.shape[1])[None, :] < counts[:, None]
    picked = features[np.arange(len(chosen)), chosen]
    for _ in range(steps):
        z = np.where(mask, features @ w, -np.inf)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        mean = (p[:, :, None] * features).sum(axis=1)
        gradient = (picked - mean).sum(axis=0) - l2 * w
        second = np.einsum("dj,djf,djg->fg", p, features, features) - np.einsum("df,dg->fg", mean, mean)
        step = np.linalg.solve(second + l2 * np.eye(K), gradient)
        w += step
        if float(np.abs(step).max()) < 1e-8:
            break
    return w


@dataclass
class Game:
    seed: int
    seats: list[str]
    actions: list[int]


def read_games(files: list[Path]) -> list[list[Game]]:
    """The games of each file (a block), the files in seed order."""
    blocks = []
    for path in sorted(files, key=lambda p: json.loads(p.read_text())["summary"]["seed"]):
        data = json.loads(path.read_text())
        blocks.append([Game(g["seed"], g["seats"], g["actions"]) for g in data["games"]])
    return blocks


def halves(blocks: list[list[Game]]) -> tuple[list[list[Game]], list[list[Game]]]:
    """The training blocks (the first half, rounded up) and the held-out ones."""
    cut = (len(blocks) + 1) // 2
    return blocks[:cut], blocks[cut:]


def sharded(games: list[Game], spec: str) -> tuple[int, list[Game]]:
    """`--shard K/N`: K, and games K, K + N, ... of these."""
    shard, shards = (int(x) for x in spec.split("/"))
    return shard, games[shard::shards]


def positions(game: Game, spiel_game: Any) -> list[TheLastState]:
    """The game's position before each of its actions (then the last one), replayed from its seed."""
    state = spiel_game.new_initial_state()
    deal(state, np.random.RandomState(game.seed))
    out = []
    for a in game.actions:
        out.append(state.inner.clone())
        state.apply_action(a)
    out.append(state.inner.clone())
    return out


def start_row(state: TheLastState) -> Ints:
    """A fresh row dealt from `state`'s cards at the start of its round (one round: the table's matches)."""
    players = state.players
    played: list[set[int]] = [set() for _ in range(players)]
    taken_in: list[set[int]] = [set() for _ in range(players)]
    revealed = []
    for _, plays, points, winner, how in state.tricks:
        revealed.append(points)
        for who, card in plays:
            played[who].add(card)
        if how == "swap":
            taken_in[winner].add(points)
    for who, card in zip(state.trick_who, state.trick_cards, strict=True):
        played[who].add(card)
    if state.points_card >= 0 and state.points_card not in revealed:
        revealed.append(state.points_card)
    hands = []
    for p in range(players):
        laid = set(slot_cards(state.piles[p], state.shown_pile[p]))
        hand = (set(state.hands[p]) | played[p] | laid) - taken_in[p]
        hands.extend(sorted(hand))
    deck = np.array(hands + state.points + revealed[::-1] + state.spare, dtype=np.int64)
    row = np.zeros(fast.FIELDS, dtype=np.int64)
    fast.new_game(row, *fast.config(players, state.options))
    fast.deal_round(row, deck, state.round_leaders[-1])
    return row


def world_actions(world: TheLastState, actions: list[int], positions_before: list[TheLastState], root: int) -> Ints:
    """The game's actions as they were in `world`: a swap of another seat lays down the world's card."""
    laid = {p: slot_cards(world.piles[p], world.shown_pile[p]) for p in range(world.players) if p != root}
    used = dict.fromkeys(laid, 0)
    out = []
    for a, before in zip(actions, positions_before, strict=True):
        seat = before.actor
        if a >= SWAP_BASE and seat != root:
            a = SWAP_BASE + laid[seat][used[seat]]
            used[seat] += 1
        out.append(a)
    return np.array(out, dtype=np.int64)


def em_mix(terms: Floats, steps: int = 200) -> tuple[float, float, float]:
    """The mix (r, l, u) of largest likelihood of moves with these terms, by EM from equal shares."""
    mix = np.full(3, 1.0 / 3.0)
    for _ in range(steps):
        parts = terms * mix
        share = parts / parts.sum(axis=1, keepdims=True)
        mix = share.mean(axis=0)
    return float(mix[0]), float(mix[1]), float(mix[2])


@dataclass
class Fitted:
    """What the training games teach: the mixes of F ("*") and B (per bot name) over (rules, the shipped logit,
    uniform); per bot its own logit's weights and L's mix over (rules, its own logit, uniform)."""

    mixes: dict[str, tuple[float, float, float]]
    logits: dict[str, list[float]]
    own_mixes: dict[str, tuple[float, float, float]]


def fit(blocks: list[list[Game]], spiel_game: Any, weights: Floats) -> Fitted:
    """F, B and L's models from the true positions of these games."""
    games = [g for block in blocks for g in block]
    starts = [fast.from_state(positions(g, spiel_game)[0]) for g in games]
    moves: dict[str, list[tuple[Floats, int, int]]] = {}
    features = np.zeros((64, fast.MAX_ACTIONS, K))
    counts = np.empty(64, dtype=np.int64)
    chosen = np.empty(64, dtype=np.int64)
    actors = np.empty(64, dtype=np.int64)
    for game, start in zip(games, starts, strict=True):
        features[:] = 0.0
        m = move_features(start, np.array(game.actions, dtype=np.int64), features, counts, chosen, actors)
        for i in range(m):
            moves.setdefault(game.seats[actors[i]], []).append((features[i].copy(), int(counts[i]), int(chosen[i])))
    logits = {name: fit_logit(np.array([f for f, _, _ in rows]), np.array([n for _, n, _ in rows]),
                              np.array([c for _, _, c in rows])) for name, rows in moves.items()}
    terms: dict[str, list[Floats]] = {}
    out = np.empty((64, 4))
    for game, start in zip(games, starts, strict=True):
        own = np.array([logits[name] for name in game.seats])
        m = move_terms(start, np.array(game.actions, dtype=np.int64), -1, weights, own, out, actors)
        assert m >= 0
        for i in range(m):
            terms.setdefault(game.seats[actors[i]], []).append(out[i].copy())
    mixes = {name: em_mix(np.array(rows)[:, :3]) for name, rows in terms.items()}
    mixes["*"] = em_mix(np.array([r[:3] for rows in terms.values() for r in rows]))
    own_mixes = {name: em_mix(np.array(rows)[:, [0, 3, 2]]) for name, rows in terms.items()}
    return Fitted(mixes, {k: [float(x) for x in v] for k, v in logits.items()}, own_mixes)


def variant_mixes(game: Game, fitted: Fitted) -> dict[str, Floats]:
    """Per variant, the weight of each of move_terms' four terms for each seat of this game."""
    def rows(mixes: list[tuple[float, float, float]], own: bool = False) -> Floats:
        return np.array([(r, 0.0, u, g) if own else (r, g, u, 0.0) for r, g, u in mixes])

    return {"S": rows([SEARCH_MIX] * len(game.seats)), "F": rows([fitted.mixes["*"]] * len(game.seats)),
            "B": rows([fitted.mixes[name] for name in game.seats]),
            "L": rows([fitted.own_mixes[name] for name in game.seats], own=True)}


def place(state: TheLastState, others: list[int], card: int) -> int:
    """Where `card` is: i for the hand of others[i], len(others) for anywhere else (face down, points, spare)."""
    for i, p in enumerate(others):
        if card in state.hands[p]:
            return i
    return len(others)


def weigh(loglik: Floats) -> tuple[Floats, bool]:
    """Weights summing to the worlds' count from log-likelihoods; equal ones (and True) if every world has none."""
    if not np.isfinite(loglik.max()):
        return np.ones_like(loglik), True
    w = np.exp(loglik - loglik.max())
    return w * (len(w) / w.sum()), False


def measure(game: Game, spiel_game: Any, fitted: Fitted, weights: Floats,
            worlds: int, observers: str, rng: random.Random, percentile: bool) -> dict[str, Any]:
    """Losses per variant summed over the cards of this game's observer decisions, the ESS summed over them,
    and the checks (T<b>: S tempered by the power b)."""
    before = positions(game, spiel_game)
    mixes = variant_mixes(game, fitted)
    names = [*VARIANTS, *(f"T{b}" for b in TEMPERS), *(f"TL{b}" for b in TEMPERS)]
    loss = dict.fromkeys(names, 0.0)
    by_value = {v: [0.0] * len(VALUE_CLASSES) for v in names}  # the loss of the cards of each class of values
    ess = dict.fromkeys(names, 0.0)
    ranks: dict[str, list[float]] = {v: [] for v in MODELS}
    cards = decisions = broken = no_weight = 0
    out = np.empty((64, 4))
    actors = np.empty(64, dtype=np.int64)
    own = np.array([fitted.logits[name] for name in game.seats])

    def likelihoods(world: TheLastState, t: int, obs: int) -> dict[str, float] | None:
        m = move_terms(start_row(world), world_actions(world, game.actions[:t], before[:t], obs), obs, weights, own,
                       out, actors)
        if m < 0:
            return None
        with np.errstate(divide="ignore"):
            return {v: float(np.log((out[:m] * mixes[v][actors[:m]]).sum(axis=1)).sum()) for v in MODELS}

    for t, state in enumerate(before[:-1]):
        obs = state.actor
        if observers == "expert" and game.seats[obs] != "expert":
            continue
        if len(state.legal_actions(obs)) < 2:
            continue
        decisions += 1
        others = [p for p in range(state.players) if p != obs]
        public = {c for p in others for c in state.shown_hand[p]}
        hidden = {c for p in others for c in state.hands[p] + slot_cards(state.piles[p], state.shown_pile[p])}
        hidden |= set(state.points) | set(state.spare)
        unseen = sorted(hidden - public)
        truth = np.array([place(state, others, c) for c in unseen])
        classes = np.array([next(k for k, (low, high) in enumerate(VALUE_CLASSES) if low <= VALUE_OF[c] <= high)
                            for c in unseen])
        places = np.empty((worlds, len(unseen)), dtype=np.int64)
        loglik = {v: np.zeros(worlds) for v in names}
        for w in range(worlds):
            world = state.sample_world(obs, rng)
            places[w] = [place(world, others, c) for c in unseen]
            found = likelihoods(world, t, obs)
            if found is None:
                broken += 1
                continue
            for v in MODELS:
                loglik[v][w] = found[v]
            for b in TEMPERS:
                loglik[f"T{b}"][w] = b * found["S"]
                loglik[f"TL{b}"][w] = b * found["L"]
        if percentile:
            true = likelihoods(state, t, obs)
            assert true is not None
            for v in MODELS:
                ranks[v].append(float((loglik[v] < true[v]).mean() + 0.5 * (loglik[v] == true[v]).mean()))
        for v in names:
            w_, none = weigh(loglik[v])
            no_weight += none
            ess[v] += float(w_.sum() ** 2 / (w_ ** 2).sum())
            hit = (places == truth[None, :]) * w_[:, None]
            p = (hit.sum(axis=0) + SMOOTH / (len(others) + 1)) / (worlds + SMOOTH)
            loss[v] += float(-np.log(p).sum())
            for k in range(len(VALUE_CLASSES)):
                by_value[v][k] += float(-np.log(p[classes == k]).sum())
        cards += len(unseen)
    return {"seed": game.seed, "seats": game.seats, "decisions": decisions, "cards": cards, "loss": loss,
            "loss_by_value": by_value, "ess": ess, "broken": broken, "no_weight": no_weight,
            "true_world_percentiles": ranks}


def check_replay(game: Game, spiel_game: Any, rng: random.Random, samples: int = 3) -> int:
    """How many sampled worlds' replays (to each of the game's positions) play a move that is not legal in the world
    or do not reach the world's own row."""
    before = positions(game, spiel_game)
    bad = 0
    fields = [fast.HAND, fast.PILE, fast.SHOWN_HAND, fast.SHOWN_PILE, fast.MIXED, fast.PLAYED]
    weights = shipped_weights()
    own = np.tile(weights, (len(game.seats), 1))
    out = np.empty((64, 4))
    actors = np.empty(64, dtype=np.int64)
    for t, state in enumerate(before[:-1]):
        obs = state.actor
        for _ in range(samples):
            world = state.sample_world(obs, rng)
            row = start_row(world)
            acts = world_actions(world, game.actions[:t], before[:t], obs)
            if move_terms(row, acts, obs, weights, own, out, actors) < 0:
                bad += 1
                continue
            s = row.copy()
            for a in acts:
                fast.apply_action(s, a)
            target = fast.from_state(world)
            count = int(target[fast.COUNT])
            same = all(np.array_equal(s[f:f + count], target[f:f + count]) for f in fields)
            if not same or s[fast.POINTS_CARD] != target[fast.POINTS_CARD] or s[fast.SPARE] != target[fast.SPARE]:
                bad += 1
    return bad


def recovery_interval(base: Floats, loss: Floats, resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    """95% bootstrap interval over games of the pooled recovery, sum(base - loss) / sum(base)."""
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(base), size=(resamples, len(base)))
    ratios = 1.0 - loss[picks].sum(axis=1) / base[picks].sum(axis=1)
    return float(np.quantile(ratios, 0.025)), float(np.quantile(ratios, 0.975))


def report(files: list[Path], tempered: list[Path] | None) -> dict[str, Any]:
    """The table of measured rows (several shards together); T and TL at the power of lowest loss in the rows of
    `tempered` (the training games')."""
    parts = [json.loads(f.read_text()) for f in files]
    rows = [r for part in parts for r in part["games"]]
    head = parts[0]["summary"]
    cards = sum(r["cards"] for r in rows)
    decisions = sum(r["decisions"] for r in rows)
    worlds = head["worlds"]
    powers: dict[str, float] = {}
    if tempered is not None:
        trained = [r for path in tempered for r in json.loads(path.read_text())["games"]]
        for kind in ("T", "TL"):
            powers[kind] = min(TEMPERS, key=lambda b: sum(r["loss"][f"{kind}{b}"] for r in trained))
    shown = [*VARIANTS, *(f"{kind}{b}" for kind, b in powers.items())]
    base = np.array([r["loss"]["U"] for r in rows])
    summary: dict[str, Any] = {**{k: head[k] for k in ("observers", "worlds", "on", "fitted")},
                               "games": len(rows), "decisions": decisions, "cards": cards, "tempered_powers": powers,
                               "broken_replays": sum(r["broken"] for r in rows),
                               "decisions_without_weight": sum(r["no_weight"] for r in rows), "variants": {}}
    print(f"{len(rows)} games ({head['on']}), {decisions} decisions ({head['observers']}), {cards} cards, {worlds} "
          f"worlds, {summary['broken_replays']} broken replays, {summary['decisions_without_weight']} weighings "
          f"without weight; tempered by {powers}")
    print(f"{'variant':8} {'loss/card':>10} {'recovery (95%)':>26} {'ESS/worlds':>11} {'true world':>11}")
    for v in shown:
        loss = np.array([r["loss"][v] for r in rows])
        recovery = 1.0 - loss.sum() / base.sum()
        low, high = recovery_interval(base, loss)
        ess = sum(r["ess"][v] for r in rows) / decisions / worlds
        ranks = [x for r in rows for x in r["true_world_percentiles"].get(v, [])]
        rank = float(np.mean(ranks)) if ranks else None
        summary["variants"][v] = {"loss_per_card": float(loss.sum() / cards), "recovery": recovery,
                                  "recovery_95": [low, high], "ess_share": ess, "true_world_percentile": rank}
        print(f"{v:8} {loss.sum() / cards:10.4f} {recovery:9.1%} ({low:+.1%}..{high:+.1%}) {ess:11.3f} "
              f"{'' if rank is None else f'{rank:10.1%}'}")
    if all("loss_by_value" in r for r in rows):
        print("recovery by the cards' values (95%): " + ", ".join(f"{a}-{b}" for a, b in VALUE_CLASSES))
        for v in shown:
            cells = []
            for k in range(len(VALUE_CLASSES)):
                class_base = np.array([r["loss_by_value"]["U"][k] for r in rows])
                class_loss = np.array([r["loss_by_value"][v][k] for r in rows])
                recovery = 1.0 - class_loss.sum() / class_base.sum()
                low, high = recovery_interval(class_base, class_loss)
                summary["variants"][v].setdefault("recovery_by_value", []).append([recovery, low, high])
                cells.append(f"{recovery:+.1%} ({low:+.1%}..{high:+.1%})")
            print(f"{v:8} " + "  ".join(cells))
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, nargs="+", default=None, help="openspiel_cards.py files of the table")
    parser.add_argument("--on", choices=("train", "held"), default="held", help="which games to measure")
    parser.add_argument("--worlds", type=int, default=128)
    parser.add_argument("--observers", choices=("expert", "all"), default="expert")
    parser.add_argument("--percentile", action="store_true", help="also the true world's likelihood percentile")
    parser.add_argument("--shard", default="0/1", help="K/N: measure games K, K+N, ... of the set")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--check", type=int, default=0, help="only check the replay on this many games of the set")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--report", type=Path, nargs="+", default=None, help="print these measured files as one table")
    parser.add_argument("--tempered-from", type=Path, nargs="+", default=None,
                        help="measured training rows (files) that choose T's and TL's powers")
    args = parser.parse_args()
    if args.report is not None:
        summary = report(args.report, args.tempered_from)
        if args.json is not None:
            args.json.write_text(json.dumps(summary, indent=1))
        return
    if args.data is None:
        parser.error("--data names the games to measure")
    blocks = read_games(args.data)
    train, held = halves(blocks)
    shard, games = sharded([g for block in (train if args.on == "train" else held) for g in block], args.shard)
    spiel_game = load("thelast", 4, 0)
    rng = random.Random(args.seed * 1000 + shard)
    if args.check:
        bad = sum(check_replay(g, spiel_game, rng) for g in games[:args.check])
        print(f"replays that miss the world's row: {bad}")
        return
    weights = shipped_weights()
    fitted = fit(train, spiel_game, weights)
    print("fitted mixes (r, l, u):", {k: tuple(round(x, 3) for x in v) for k, v in fitted.mixes.items()})
    print("own logits' mixes (r, l, u):", {k: tuple(round(x, 3) for x in v) for k, v in fitted.own_mixes.items()},
          flush=True)
    rows = []
    for i, game in enumerate(games):
        rows.append(measure(game, spiel_game, fitted, weights, args.worlds, args.observers, rng, args.percentile))
        if (i + 1) % 20 == 0:
            print(f"{i + 1} of {len(games)} games", flush=True)
    summary = {"observers": args.observers, "worlds": args.worlds, "on": args.on, "fitted": asdict(fitted),
               "train_games": sum(map(len, train)), "shard": args.shard, "data": [str(p) for p in args.data]}
    if args.json is not None:
        tmp = args.json.with_suffix(".tmp")
        tmp.write_text(json.dumps({"summary": summary, "games": rows}, indent=1))
        tmp.replace(args.json)


if __name__ == "__main__":
    main()
