"""The players' part of the HTTP API: profiles, a player's games (paged), leaderboards (paged), a
player's own records to download, and a finished game replayed from the seat its reader sat in."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import JSONResponse

from ghostgames.games import GAMES
from ghostgames.server.api import (
    MAX_RECORD_ID,
    Count,
    Start,
    _address,
    _hub,
    _identity,
    error_response,
    record_number,
    replay_page,
    replays,
)
from ghostgames.server.auth import Identity
from ghostgames.storage import StoredRecord, final_position
from ghostgames.storage.ratings import BOT_PREFIX, person_key
from ghostgames.storage.replay import PAGE_STEPS
from ghostgames.tables import TableError

router = APIRouter(prefix="/api")


def _key(name: str) -> str:
    """A path's player: a person's name (any case), or a bot level as "bot:hard" or "hard bot"."""
    found = re.fullmatch(r"(\S+) bot(?: \d+)?", name.lower())
    if found and ":" not in name:
        return BOT_PREFIX + found.group(1)
    return person_key(name)


def _no_player(name: str) -> JSONResponse:
    return error_response(TableError(
        "no_such_player", f"there is no profile for {name!r}: profiles are for accounts and bot levels "
        "(e.g. 'bot:hard'); guests have none", name=name))


def _no_game(game: str) -> JSONResponse | None:
    """404 `unknown_game` naming the games there are, when the address names a game there is not: the
    resource asked for does not exist (a bad body, as in POST /api/tables, stays 400)."""
    if game in GAMES:
        return None
    return error_response(TableError(
        "unknown_game", f"there is no game {game[:40]!r}; the games are: {', '.join(GAMES)}",
        game=game[:40], games=list(GAMES)), status=404)


@router.get("/players/{name}")
async def player(name: str, request: Request) -> Any:
    """A profile: the shown rating (and its uncertainty) per game with its recent history, games played."""
    found = await asyncio.to_thread(_hub(request).repo.profile, _key(name))
    return _no_player(name) if found is None else found


@router.get("/players/{name}/games")
async def player_games(name: str, request: Request, game: str | None = None,
                       before: int | None = Query(None, ge=1, le=MAX_RECORD_ID),
                       limit: int = Query(20, ge=1, le=100)) -> Any:
    """The player's finished games, newest first; pass the answer's `next` as `before` for the next page."""
    refused = _no_game(game) if game is not None else None
    if refused is not None:
        return refused
    found = await asyncio.to_thread(_hub(request).repo.player_games, _key(name), game, before, limit)
    return _no_player(name) if found is None else found


@router.get("/players/{name}/records")
async def player_records(name: str, request: Request, authorization: str | None = Header(None),
                         limit: int = Query(200, ge=1, le=1000)) -> Any:
    """Your own games as full records (`GameRecord.from_json(r["record"]).replay()` replays each), as a
    file. Only for yourself, and only games against bots: a record holds every secret of its game."""
    try:
        identity = await _identity(request, authorization)
        if person_key(identity.name) != _key(name):
            raise TableError("not_yours", f"only {name} may download their records; sign in as them",
                             name=name)
    except TableError as err:
        return error_response(err)
    found = await asyncio.to_thread(_hub(request).repo.own_records, person_key(identity.name), limit)
    filename = f"ghostgames-{identity.name.replace(' ', '_')}.json"
    return JSONResponse({"name": identity.name, **found},
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@router.get("/ratings/{game}")
async def ratings(game: str, request: Request, offset: int = Query(0, ge=0, le=MAX_RECORD_ID),
                  limit: int = Query(50, ge=1, le=100)) -> Any:
    """A game's leaderboard, best first (`place` counts from 1); pass `next` as `offset` for more."""
    refused = _no_game(game)
    if refused is not None:
        return refused
    return await asyncio.to_thread(_hub(request).repo.leaderboard, game, offset, limit)


MAX_SEAT = 15  # seats count from 0 and a table has at most 16


@router.get("/records/{record_id}/replay/{seat}")
async def my_seat_replay(record_id: str, request: Request, seat: int = Path(ge=0, le=MAX_SEAT),
                         start: Start = 0, count: Count = PAGE_STEPS,
                         authorization: str | None = Header(None)) -> Any:
    """A page of a finished game from the seat you sat in (seats count from 0 here): what you saw, step by
    step, in the same paged form as the spectator's replay."""
    hub = _hub(request)
    try:
        replays(request).count(_address(request))
        number = record_number(record_id)
        identity = await _identity(request, authorization)
        stored = await asyncio.to_thread(hub.repo.get_record, number)
        if stored is None:
            raise TableError("no_such_record", f"there is no record {number}", record=number)
        await check_own_seat(request, stored, seat, identity, "watch its spectator replay instead")
    except TableError as err:
        return error_response(err)
    return await replay_page(request, stored, seat, start, count)


async def check_own_seat(request: Request, stored: StoredRecord, seat: int, identity: Identity, instead: str) -> None:
    """Raise `not_seated` unless `identity` is the person who sat in `seat` of the stored game: the seat's
    player key is theirs, and their name was not claimed again since the game (by someone else, maybe).
    `instead` tells what they may read instead."""
    keys = stored.seat_keys or []
    if not 0 <= seat < len(keys) or keys[seat] != person_key(identity.name):
        raise TableError("not_seated", f"you did not sit in seat {seat} of game {stored.id}; {instead}",
                         record=stored.id, seat=seat)
    user = await asyncio.to_thread(_hub(request).repo.get_user, identity.name)
    if user is None or stored.created_at < user.created_at:
        raise TableError("not_seated", "that game was played by an earlier holder of your name",
                         record=stored.id, seat=seat)


@router.get("/tables/{table_id}/final")
async def table_final(table_id: str, request: Request, authorization: str | None = Header(None)) -> Any:
    """The last game finished at a table, for its address once the table has closed (and for the rating
    changes of a rated game at its end): the result, the rating changes by seat, and the final position
    as the reader may see it: their own seat's view when they played one (a token says who reads),
    otherwise the spectator's; always made by the game's `view`, never the record itself."""
    hub = _hub(request)
    found = await asyncio.to_thread(hub.repo.table_record, table_id[:64])
    if found is None:
        return error_response(TableError("no_such_table", f"there is no table {table_id[:40]!r}",
                                         table=table_id[:40]))
    stored, changes = found
    seat: int | None = None
    if authorization:
        try:
            identity = await _identity(request, authorization)
        except TableError:
            identity = None  # an expired token reads what anybody reads
        if identity is not None:
            key = person_key(identity.name)
            keys = stored.seat_keys or []
            user = await asyncio.to_thread(hub.repo.get_user, identity.name)
            if key in keys and user is not None and user.created_at <= stored.created_at:
                seat = keys.index(key)
    return await asyncio.to_thread(final_position, stored, changes, seat)
