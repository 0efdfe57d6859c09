"""Replays and profiles hold nothing their reader may not know, as a property over many recorded games
of all three games (stored and read back through the real repository).

A replay frame for a reader (a spectator, or the seat a player sat in) must be exactly what that reader
saw live, `view(reader)` of the position, and the same in every world the reader cannot tell apart from
the real one (`sample_world`, as in tests/security/secrecy.py); no per-game secret (unrevealed colours,
other hands, the crypt's order, ...) and never the seed or another seat's secret setup may appear in it.
A replay is sent in pages of deltas (storage/replay.py): the views checked here are the ones a client
rebuilds from the pages' bytes, so the deltas reveal exactly what the views do, no more and no less. A
last test makes a replay that leaks and shows the check catches it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from ghostgames.bench.records import random_record
from ghostgames.storage import Repository, StoredRecord, seat_replay
from ghostgames.storage.replay import PAGE_STEPS, encode_replay, rebuild_views
from tests.security.secrecy import ViewFacts, dumps
from tests.security.test_secrecy import SETUPS

RECORDS_PER_CONFIG = 3
Build = Callable[[StoredRecord, int | None], list[dict[str, Any]]]


def paged(stored: StoredRecord, reader: int | None, count: int | None = None) -> list[dict[str, Any]]:
    """Every page of a replay, as a client reads them (decoded from the bytes): pages of 7 steps for odd
    record ids, so that many pages start mid-game, and of the full page size for even ones."""
    count = count or (7 if stored.id % 2 else PAGE_STEPS)
    out: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        out.append(json.loads(encode_replay(seat_replay(stored, reader, start, count))))
        start = out[-1]["next"]
    return out


def fill(repo: Repository) -> list[int]:
    """Recorded games of every game and configuration of the live secrecy suite, among accounts."""
    for i in range(6):
        repo.create_account(f"p{i}", "hash", timedelta(days=1))
    ids = []
    seeds = random.Random(500)  # long seeds, as the server draws them: a short one could be any number
    for game, (configs, _) in SETUPS.items():
        for players, options in configs:
            for _ in range(RECORDS_PER_CONFIG):
                seed = seeds.randrange(10**15, 2**62)
                record, outcome = random_record(game, players, seed, options)
                keys = [f"p{i}" for i in range(players)]
                ids.append(repo.save_record(record, "table", keys, outcome.to_json(), seat_keys=keys, rated=True))
    return ids


def check_replays(repo: Repository, ids: list[int], build: Build, game: str | None = None) -> dict[str, Any]:
    tally: dict[str, Any] = {"frames": 0, "worlds": 0, "worlds_that_differ": 0, "secrets": 0, "problems": []}
    rng = random.Random(5)
    for record_id in ids:
        stored = repo.get_record(record_id)
        assert stored is not None
        record = stored.record
        if game is not None and record.game != game:
            continue
        _, secrets = SETUPS[record.game]
        readers: list[int | None] = [None, *range(record.players)]
        states = list(record.states())
        for reader in readers:
            pages = build(stored, reader)
            text = json.dumps(pages)
            label = f"record {record_id} ({record.game}, {record.players} players), reader {reader}"
            if str(record.seed) in text:
                tally["problems"].append(f"{label}: the seed is in the replay")
            for seat, action in record.actions:
                if action.startswith("setup") and seat != reader and f'"{action}"' in text:
                    tally["problems"].append(f"{label}: seat {seat}'s setup {action!r} is in the replay")
            views = [view for page in pages for view in rebuild_views(page)]
            assert len(views) == len(states) == pages[0]["total"]
            for step, (view, state) in enumerate(zip(views, states, strict=True)):
                tally["frames"] += 1
                if view != state.view(reader):
                    tally["problems"].append(f"{label}, step {step}: not what the reader saw live")
                sampler = reader if reader is not None else rng.randrange(record.players)
                world = state.sample_world(sampler, rng)
                tally["worlds"] += 1
                tally["worlds_that_differ"] += world.to_json() != state.to_json()
                if world.view(reader) != view:
                    tally["problems"].append(f"{label}, step {step}: differs in a world the reader cannot tell apart")
                facts = ViewFacts(view, dumps(view))
                for name, holds in secrets(state, reader):
                    tally["secrets"] += 1
                    if holds(facts):
                        tally["problems"].append(f"{label}, step {step}: holds the secret {name}")
                if len(tally["problems"]) > 20:
                    return tally
    return tally


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Repository, list[int]]:
    repo = Repository(str(Path(tmp_path_factory.mktemp("replays")) / "records.db"))
    return repo, fill(repo)


def test_every_replay_frame_is_what_its_reader_saw_and_holds_no_secret(recorded: tuple[Repository, list[int]]) -> None:
    repo, ids = recorded
    tally = check_replays(repo, ids, paged)
    assert tally["problems"] == []
    # the property was really exercised: many frames, worlds that really differed, secrets looked for
    assert len(ids) == RECORDS_PER_CONFIG * sum(len(configs) for configs, _ in SETUPS.values())
    assert tally["frames"] > 5_000
    assert tally["worlds_that_differ"] > tally["worlds"] // 2
    assert tally["secrets"] > 5_000


def test_profiles_and_game_lists_hold_no_seed_and_no_action(recorded: tuple[Repository, list[int]]) -> None:
    repo, ids = recorded
    texts = []
    for i in range(6):
        texts.append(json.dumps(repo.profile(f"p{i}")))
        page = repo.player_games(f"p{i}", limit=100)
        assert page is not None and page["items"]
        texts.append(json.dumps(page))
    texts.append(json.dumps([repo.leaderboard(game) for game in SETUPS]))
    for record_id in ids:
        stored = repo.get_record(record_id)
        assert stored is not None
        for text in texts:
            assert str(stored.record.seed) not in text
        setups = [a for _, a in stored.record.actions if a.startswith("setup")]
        assert not any(f'"{a}"' in text for a in setups for text in texts)


def test_the_check_catches_a_spectator_replay_drawn_from_a_seat(recorded: tuple[Repository, list[int]]) -> None:
    repo, ids = recorded

    def leaky(stored: StoredRecord, reader: int | None) -> list[dict[str, Any]]:
        return paged(stored, 0 if reader is None else reader)

    tally = check_replays(repo, ids[:RECORDS_PER_CONFIG], leaky, game="geister")
    assert any("reader None" in problem for problem in tally["problems"])
