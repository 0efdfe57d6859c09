"""Quick play over HTTP: "Play now" puts a person in the queue of one game (storage/quickplay.py, shared by
every server process on the database); people of close rating are seated together at a new two-seat
table that starts at once; after a wait the person may take a bot of their strength instead."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Header, Request

from ghostgames.games import GAMES
from ghostgames.server.api import _address, _hub, _identity, error_response
from ghostgames.server.hub import Hub
from ghostgames.storage import quickplay
from ghostgames.storage.quickplay import Entry
from ghostgames.storage.ratings import person_key
from ghostgames.tables import Context, Decision, Table, TableError
from ghostgames.tables.commands import BotAdd, Join, Start

router = APIRouter(prefix="/api")
SEATS = 2  # quick play pairs two people (or a person and a bot)
LEVELS = ("easy", "medium", "hard")  # the table bot levels a waiting person may be offered


def _answer(entry: Entry | None, hub: Hub) -> dict[str, Any]:
    """What a waiting page is told (called off the event loop: the bot offer reads the ratings)."""
    if entry is None:
        return {"status": "idle"}
    if entry.table_id is not None:
        return {"status": "seated", "game": entry.game, "table": entry.table_id}
    answer: dict[str, Any] = {"status": "waiting", "game": entry.game, "rating": round(entry.rating),
                              "waited": round(entry.waited, 1), "window": quickplay.window(entry.waited)}
    if entry.waited >= quickplay.BOT_OFFER_AFTER:
        answer["bot"] = hub.repo.quick_bot(entry.game, entry.rating, LEVELS)
    return answer


async def _seat(hub: Hub, game: str, names: list[str], address: str | None, bot: str | None = None) -> str:
    """A new table of `game`, the people seated in order (and a bot), started. It counts against the
    limits of the address whose request seated it, like any table made there (docs/server.md)."""
    table = await hub.create(names[0], game, SEATS, {}, None, address)
    for name in names:
        def join(t: Table, ctx: Context, name: str = name) -> Decision:
            return t.decide(name, Join(None), None, ctx)

        await hub.run(table.id, join)
    if bot is not None:
        await hub.run(table.id, lambda t, ctx: t.decide(names[0], BotAdd(bot), None, ctx))
    await hub.run(table.id, lambda t, ctx: t.decide(names[0], Start(), None, ctx))
    for name in names:
        hub.expect(table.id, name)  # somebody who never comes is played by a bot after the grace period
    return table.id


def _playing(hub: Hub, name: str) -> None:
    """Refuse a second quick game to somebody who still plays one (their own seat, not a bot's): they
    would be seated at two tables at once and lose one of them on the clock."""
    for table in list(hub.tables.values()):
        seat = table.seat_of(name)
        if table.status == "started" and seat is not None and seat.takeover is None:
            raise TableError("already_playing", f"you are playing at table {table.id}; finish or resign that "
                             "game first, then play another", table=table.id)


async def _pair(hub: Hub, key: str, address: str | None) -> None:
    """Seat this person with the closest opponent in their window, if there is one."""
    claimed = await asyncio.to_thread(hub.repo.quick_claim, key)
    if claimed is None:
        return
    claim, me, them = claimed
    table_id: str | None = None
    try:
        table_id = await _seat(hub, me.game, [them.name, me.name], address)  # the longer waiter takes seat 1
    finally:
        await asyncio.to_thread(hub.repo.quick_settle, claim, table_id)


def _checked_game(game: str) -> None:
    if game not in GAMES:
        raise TableError("unknown_game", f"there is no game {game!r}; the games are: {', '.join(GAMES)}",
                         game=game, games=list(GAMES))


@router.post("/quick/{game}")
async def quick_join(game: str, request: Request, authorization: str | None = Header(None)) -> Any:
    """Wait for an opponent in `game`; the answer is `waiting` or, when paired at once, `seated`."""
    hub = _hub(request)
    try:
        _checked_game(game)
        identity = await _identity(request, authorization)
        _playing(hub, identity.name)
        key = person_key(identity.name)
        await asyncio.to_thread(hub.repo.quick_join, game, key, identity.name)
        await _pair(hub, key, _address(request))
    except TableError as err:
        return error_response(err)
    return await asyncio.to_thread(lambda: _answer(hub.repo.quick_look(key), hub))


@router.get("/quick")
async def quick_status(request: Request, authorization: str | None = Header(None)) -> Any:
    """Ask about once a second while waiting: pairs if someone fits now; offers a `bot` after a while."""
    hub = _hub(request)
    try:
        key = person_key((await _identity(request, authorization)).name)
        await _pair(hub, key, _address(request))
    except TableError as err:
        return error_response(err)
    return await asyncio.to_thread(lambda: _answer(hub.repo.quick_look(key), hub))


@router.delete("/quick")
async def quick_leave(request: Request, authorization: str | None = Header(None)) -> Any:
    hub = _hub(request)
    try:
        key = person_key((await _identity(request, authorization)).name)
    except TableError as err:
        return error_response(err)
    await asyncio.to_thread(hub.repo.quick_leave, key)
    return {"status": "idle"}


@router.post("/quick/{game}/bot")
async def quick_bot(game: str, request: Request, authorization: str | None = Header(None)) -> Any:
    """Stop waiting and play the bot level whose rating is closest to yours, at once."""
    hub = _hub(request)
    try:
        _checked_game(game)
        identity = await _identity(request, authorization)
        key = person_key(identity.name)
        entry = await asyncio.to_thread(hub.repo.quick_look, key)
        if entry is not None and entry.table_id is not None:
            return {"status": "seated", "game": entry.game, "table": entry.table_id}
        _playing(hub, identity.name)
        await asyncio.to_thread(hub.repo.quick_leave, key)
        rating = entry.rating if entry is not None else 1000.0
        level = await asyncio.to_thread(hub.repo.quick_bot, game, rating, LEVELS)
        table_id = await _seat(hub, game, [identity.name], _address(request), bot=level)
    except TableError as err:
        return error_response(err)
    return {"status": "seated", "game": game, "table": table_id, "bot": level}
