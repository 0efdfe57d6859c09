"""Ratings per game: a fold over the rated records in the order they were stored (Weng-Lin, openskill's
Plackett-Luce model), so `rebuild` and the live ratings agree by construction.

A player is a key: a person's name in lower case (names are unique ignoring case and hold no ':'), or
"bot:LEVEL" for a bot, each level its own player. A record is rated when its table was rated and every
person at it had an account; its `seat_keys` say who sat where. A rated record counts only when the
fair-play rules (ghostgames/tables/fair_play.py) pass: its verdict is stored with it (`records.fair_play`), live
and by `rebuild` alike. Every change is stored with its record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import bindparam, delete, func, insert, select, update
from sqlalchemy.orm import Session, aliased

from ghostgames.storage.models import RatingChangeRow, RatingRow, RecordPlayerRow, RecordRow, UserRow
from ghostgames.tables import fair_play

MODEL = PlackettLuce()
# The shown rating: the ordinal (mu - 3 sigma, a cautious estimate that only rises as games confirm it)
# stretched so a newcomer shows SHOWN_BASE and one ordinal point is SHOWN_SCALE points on the page.
SHOWN_BASE = 1000
SHOWN_SCALE = 40
BOT_PREFIX = fair_play.BOT_PREFIX


def person_key(name: str) -> str:
    return name.lower()


def bot_key(level: str) -> str:
    return f"{BOT_PREFIX}{level}"


def is_bot(key: str) -> bool:
    return key.startswith(BOT_PREFIX)


def key_label(key: str) -> str:
    """How a key reads on a page when no name is at hand: "hard bot" for "bot:hard"."""
    return f"{key[len(BOT_PREFIX):]} bot" if is_bot(key) else key


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @classmethod
    def new(cls) -> Skill:
        return cls(float(MODEL.mu), float(MODEL.sigma))

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def shown(self) -> dict[str, int]:
        """The rating people read: one number and its uncertainty (three standard deviations, scaled)."""
        return {"rating": round(SHOWN_BASE + SHOWN_SCALE * self.ordinal),
                "uncertainty": round(SHOWN_SCALE * 3 * self.sigma)}


@dataclass(frozen=True, slots=True)
class Change:
    player: str
    seat: int
    rank: int
    win: bool
    before: Skill
    after: Skill


def rate_game(skills: Mapping[str, Skill], keys: Sequence[str], outcome: Mapping[str, Any]) -> list[Change]:
    """The changes one finished game makes. Every seat is its own team, ranked by the outcome (equal
    ranks are ties). A key seated more than once (two bots of one level) plays, but keeps its rating:
    a game against itself says nothing about its strength."""
    results = list(outcome["results"])
    ranks = [int(r["rank"]) for r in results]
    before = [skills.get(key) or Skill.new() for key in keys]
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    after = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    seated = Counter(keys)
    return [
        Change(key, seat, ranks[seat], results[seat].get("result") == "win", before[seat],
               Skill(float(after[seat][0].mu), float(after[seat][0].sigma)))
        for seat, key in enumerate(keys) if seated[key] == 1
    ]


def may_rate(session: Session, keys: Sequence[str]) -> bool:
    """Every person seated has an account (guests play unrated)."""
    people = {key for key in keys if not is_bot(key)}
    if not people:
        return False  # bots among themselves: nothing a person would read
    found = session.scalars(select(UserRow.name_key).where(UserRow.name_key.in_(people), UserRow.guest.is_(False)))
    return set(found) == people


def index_players(session: Session, record_id: int, game: str, keys: Sequence[str]) -> None:
    session.execute(insert(RecordPlayerRow), [
        {"record_id": record_id, "seat": seat, "player": key, "game": game} for seat, key in enumerate(keys)
    ])


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def own_moves_of(players: int, own_moves: Sequence[int] | None, actions: Iterable[Sequence[Any]]) -> list[int]:
    """A record's own moves per seat: as stored with it, or (a record stored before they were kept) every
    move its seat made."""
    if own_moves is not None:
        return [int(m) for m in own_moves]
    return fair_play.moves_in_actions(players, actions)


def _counted_before(session: Session, record_id: int, game: str, pairs: Sequence[tuple[str, str]],
                    when: datetime) -> dict[tuple[str, str], int]:
    """For each pair, its earlier records in `game` that counted with both rated (each has a rating change
    there) and were stored after `when - PAIR_WINDOW`: what `fair_play.PairHistory` answers in a rebuild."""
    since = _utc(when) - fair_play.PAIR_WINDOW
    counts = {}
    for a, b in pairs:
        first, second = aliased(RatingChangeRow), aliased(RatingChangeRow)
        counts[(a, b)] = int(session.scalar(
            select(func.count()).select_from(first)
            .join(second, (second.record_id == first.record_id) & (second.player == b))
            .join(RecordRow, RecordRow.id == first.record_id)
            .where(first.player == a, first.game == game, first.record_id < record_id, RecordRow.created_at > since)
        ) or 0)
    return counts


def judge_record(session: Session, row: RecordRow, keys: Sequence[str]) -> fair_play.Verdict:
    """The live verdict on a rated record just stored (its earlier records are all stored and folded)."""
    own = own_moves_of(int(row.players), row.own_moves, row.actions)
    pairs = fair_play.rated_pairs(keys)
    problems = fair_play.record_problems(row.game, int(row.players), row.options, own)
    counted = {} if problems else _counted_before(session, int(row.id), row.game, pairs, row.created_at)
    return fair_play.judge(row.game, int(row.players), row.options, own, counted)


def fold_record(session: Session, record_id: int, game: str, keys: Sequence[str], names: Sequence[str],
                outcome: Mapping[str, Any]) -> list[Change]:
    """Apply one rated record to the stored ratings (the live step of the fold)."""
    rows = {row.player: row for row in session.scalars(
        select(RatingRow).where(RatingRow.game == game, RatingRow.player.in_(set(keys))))}
    skills = {key: Skill(row.mu, row.sigma) for key, row in rows.items()}
    changes = rate_game(skills, keys, outcome)
    for change in changes:
        row = rows.get(change.player)
        name = _shown_name(change, names)
        if row is None:
            row = RatingRow(game=game, player=change.player, name=name, games=0, wins=0)
            session.add(row)
        row.name, row.mu, row.sigma, row.ordinal = name, change.after.mu, change.after.sigma, change.after.ordinal
        row.games, row.wins, row.last_record = row.games + 1, row.wins + int(change.win), record_id
    _store_changes(session, record_id, game, changes)
    return changes


def _shown_name(change: Change, names: Sequence[str]) -> str:
    """The name a rating row shows: a person's as seated, a bot level's as its key reads ("hard bot", never
    a seat's "hard bot 2")."""
    if is_bot(change.player) or change.seat >= len(names):
        return key_label(change.player)
    return str(names[change.seat])


def _store_changes(session: Session, record_id: int, game: str, changes: Iterable[Change]) -> None:
    rows = [{"record_id": record_id, "player": c.player, "game": game, "seat": c.seat, "rank": c.rank,
             "mu_before": c.before.mu, "sigma_before": c.before.sigma, "mu": c.after.mu, "sigma": c.after.sigma}
            for c in changes]
    if rows:
        session.execute(insert(RatingChangeRow), rows)


@dataclass(slots=True)
class _Standing:
    name: str
    skill: Skill
    games: int = 0
    wins: int = 0
    last_record: int = 0


def rebuild(session: Session) -> int:
    """Forget every rating and verdict, and judge and fold all rated records again, in id order (the order
    they were stored and folded live). Returns the records that counted."""
    session.execute(delete(RatingChangeRow))
    session.execute(delete(RatingRow))
    standings: dict[tuple[str, str], _Standing] = {}
    history = fair_play.PairHistory()
    verdicts: list[dict[str, Any]] = []
    folded = 0
    query = (select(RecordRow.id, RecordRow.game, RecordRow.players, RecordRow.options, RecordRow.seat_keys,
                    RecordRow.names, RecordRow.outcome, RecordRow.own_moves, RecordRow.created_at)
             .where(RecordRow.rated.is_(True)).order_by(RecordRow.id))
    for record_id, game, players, options, keys, names, outcome, own_moves, created in session.execute(query).all():
        actions = () if own_moves is not None else session.scalar(select(RecordRow.actions).where(
            RecordRow.id == record_id)) or ()
        own = own_moves_of(int(players), own_moves, actions)
        pairs = fair_play.rated_pairs(keys)
        when = _utc(created)
        problems = fair_play.record_problems(game, int(players), options, own)
        counted = {} if problems else history.counted_before(game, pairs, when)
        verdict = fair_play.judge(game, int(players), options, own, counted)
        verdicts.append({"b_id": record_id, "b_verdict": verdict.to_json()})
        if not verdict.counts:
            continue
        history.add(game, pairs, when)
        skills = {key: standings[(game, key)].skill for key in keys if (game, key) in standings}
        changes = rate_game(skills, keys, outcome)
        for change in changes:
            name = _shown_name(change, names)
            standing = standings.setdefault((game, change.player), _Standing(name, change.after))
            standing.name, standing.skill = name, change.after
            standing.games, standing.wins = standing.games + 1, standing.wins + int(change.win)
            standing.last_record = int(record_id)
        _store_changes(session, int(record_id), str(game), changes)
        folded += 1
    if verdicts:
        records = RecordRow.metadata.tables["records"]
        session.execute(update(records).where(records.c.id == bindparam("b_id"))
                        .values(fair_play=bindparam("b_verdict")), verdicts)
    rows = [{"game": game, "player": key, "name": s.name, "mu": s.skill.mu, "sigma": s.skill.sigma,
             "ordinal": s.skill.ordinal, "games": s.games, "wins": s.wins, "last_record": s.last_record}
            for (game, key), s in standings.items()]
    if rows:
        session.execute(insert(RatingRow), rows)
    return folded


def snapshot(session: Session) -> dict[str, Any]:
    """Every current rating and every stored change, for comparing live with rebuilt."""
    ratings = sorted((r.game, r.player, r.name, r.mu, r.sigma, r.ordinal, r.games, r.wins, r.last_record)
                     for r in session.scalars(select(RatingRow)))
    changes = sorted((c.record_id, c.player, c.game, c.seat, c.rank, c.mu_before, c.sigma_before, c.mu, c.sigma)
                     for c in session.scalars(select(RatingChangeRow)))
    verdicts = [(int(i), v) for i, v in session.execute(
        select(RecordRow.id, RecordRow.fair_play).where(RecordRow.rated.is_(True)).order_by(RecordRow.id))]
    return {"ratings": ratings, "changes": changes, "verdicts": verdicts}
