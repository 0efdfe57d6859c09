"""The HTTP JSON API under /api (OpenAPI at /api/docs): names and tokens, games, tables, records."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from ghostgames.server.auth import Grant, Identity
from ghostgames.server.hub import Hub
from ghostgames.server.lobby import games_list
from ghostgames.server.people import People
from ghostgames.server.ratelimit import PerAddress
from ghostgames.server.replays import Replays
from ghostgames.server.sessions import log_out
from ghostgames.server.throttle import LoginThrottle
from ghostgames.storage import StoredRecord
from ghostgames.storage.replay import MAX_START, PAGE_STEPS
from ghostgames.tables import TableError

router = APIRouter(prefix="/api")
MAX_RECORD_ID = 2**63 - 1  # the largest id a database integer column holds
STATUS = {
    "auth_required": 401, "bad_token": 401, "bad_login": 401, "name_taken": 409, "no_such_table": 404,
    "no_such_record": 404, "not_seated": 403, "create_limited": 429, "too_many_tables": 409,
    "too_many_tries": 429, "names_limited": 429, "name_confusable": 409, "already_playing": 409,
    "no_such_player": 404, "not_yours": 403, "replays_limited": 429, "no_such_step": 404,
    "no_such_reader": 404, "no_spectator_analysis": 409, "analyses_limited": 429, "analysis_busy": 503,
}


class NameIn(BaseModel):
    name: str = Field(max_length=64)


class AccountIn(BaseModel):
    name: str = Field(max_length=64)
    password: str = Field(max_length=200)


class TableIn(BaseModel):
    game: str = Field(max_length=32)
    seats: int = Field(ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict)
    clock: str | int | float | None = None


class TokenOut(BaseModel):
    token: str
    name: str
    guest: bool


def error_response(err: TableError, status: int | None = None) -> JSONResponse:
    """The refusal as JSON; `status` overrides the code's usual one (`unknown_game` is 400 for a bad body
    but 404 for a path or filter that names a game there is not)."""
    retry_after = err.args_.get("retry_after")
    headers = {"Retry-After": str(retry_after)} if isinstance(retry_after, int) else None
    return JSONResponse(err.to_json(), status_code=status or STATUS.get(err.code, 400), headers=headers)


def _people(request: Request) -> People:
    people: People = request.app.state.people
    return people


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _token_out(people: People, grant: Grant) -> TokenOut:
    return TokenOut(token=people.token(grant), name=grant.name, guest=grant.guest)


async def _grant(request: Request, authorization: str | None) -> Grant:
    """The session the request's bearer token stands for, checked against the database (people.py)."""
    if not authorization or not authorization.lower().startswith("bearer "):
        raise TableError("auth_required", "send 'Authorization: Bearer TOKEN'")
    return await asyncio.to_thread(_people(request).read_token, authorization.split(None, 1)[1].strip())


async def _identity(request: Request, authorization: str | None) -> Identity:
    return (await _grant(request, authorization)).identity


def _address(request: Request) -> str | None:
    return request.client.host if request.client else None


async def _new_name(request: Request, step: Callable[[People], Grant]) -> Any:
    """Run one step that makes a name (counted per address, server/ratelimit.py) off the event loop
    (argon2 is slow on purpose) and answer with a token."""
    people = _people(request)
    new_names: PerAddress = request.app.state.new_names
    try:
        new_names.take(_address(request))
        return _token_out(people, await asyncio.to_thread(step, people))
    except TableError as err:
        return error_response(err)


@router.post("/guest", response_model=TokenOut)
async def guest(body: NameIn, request: Request) -> Any:
    """Take a free guest name; the answer's token identifies you on the WebSocket."""
    return await _new_name(request, lambda people: people.guest(body.name))


@router.post("/register", response_model=TokenOut)
async def register(body: AccountIn, request: Request) -> Any:
    return await _new_name(request, lambda people: people.register(body.name, body.password))


@router.post("/login", response_model=TokenOut)
async def login(body: AccountIn, request: Request) -> Any:
    """Wrong passwords are throttled per name and per address (docs/protocol.md): 429 `too_many_tries`
    with `retry_after`, even for the right password while the lock lasts."""
    throttle: LoginThrottle = request.app.state.login_throttle
    address = _address(request) or "unknown"
    sign_ins: PerAddress = request.app.state.sign_ins
    try:
        sign_ins.take(address)
    except TableError as err:
        return error_response(err)
    async with throttle.turn(body.name):
        wait = throttle.wait(body.name, address)
        if wait:
            return _too_many_tries(wait)
        people = _people(request)
        try:
            grant = await asyncio.to_thread(people.login, body.name, body.password)
        except TableError as err:
            locked = throttle.failed(body.name, address) if err.code == "bad_login" else 0
            return _too_many_tries(locked) if locked else error_response(err)
        throttle.succeeded(body.name)
        return _token_out(people, grant)


def _too_many_tries(seconds: int) -> JSONResponse:
    response = error_response(TableError("too_many_tries", f"too many tries; try again in {seconds} s",
                                         retry_after=seconds))
    response.headers["Retry-After"] = str(seconds)
    return response


@router.get("/me")
async def me(request: Request, authorization: str | None = Header(None)) -> Any:
    try:
        identity = await _identity(request, authorization)
    except TableError as err:
        return error_response(err)
    return {"name": identity.name, "guest": identity.guest}


@router.post("/logout")
async def logout(request: Request, authorization: str | None = Header(None)) -> Any:
    """End the bearer token's session, and every other session of the same name: the token and any
    issued to that name before are refused from now on, on every server process. Sign in again for a
    new one. A guest keeps the name until its time runs out (seats are held by name)."""
    state = request.app.state
    try:
        grant = await _grant(request, authorization)
        await log_out(state.people, state.sessions, state.hub.fanout, grant)
    except TableError as err:
        return error_response(err)
    return {"name": grant.name, "guest": grant.guest, "logged_out": True}


@router.get("/games")
async def games(request: Request) -> list[dict[str, Any]]:
    """Each game's name, player counts and option schema (`vote: true` marks per-player votes)."""
    return games_list(_hub(request).config.default_clock)


@router.get("/tables")
async def tables(request: Request) -> list[dict[str, Any]]:
    hub = _hub(request)
    return [hub.summary(table) for table in hub.tables.values()]


@router.get("/tables/{table_id}")
async def table(table_id: str, request: Request) -> Any:
    hub = _hub(request)
    try:
        return hub.summary(hub.get(table_id))
    except TableError as err:
        return error_response(err)


@router.post("/tables")
async def create_table(body: TableIn, request: Request, authorization: str | None = Header(None)) -> Any:
    """Create a table (nobody seated yet); join it over the WebSocket."""
    hub = _hub(request)
    try:
        identity = await _identity(request, authorization)
        address = _address(request)
        created = await hub.create(identity.name, body.game, body.seats, body.options, body.clock, address)
    except TableError as err:
        return error_response(err)
    return hub.summary(created)


@router.get("/records")
async def records(request: Request, game: str | None = None, source: str | None = None,
                  limit: int = Query(50, ge=1, le=500)) -> list[dict[str, Any]]:
    """Finished games, newest first (no seeds, no actions: those may hold secrets)."""
    found = await asyncio.to_thread(_hub(request).repo.list_records, game, limit, source)
    return [stored.summary() for stored in found]


def record_number(record_id: str) -> int:
    """A path's record id as a number, or `no_such_record` naming the range ids take: plain ASCII digits
    from 1 to MAX_RECORD_ID (anything else is no record; a larger number would overflow the database)."""
    number = int(record_id) if record_id.isascii() and record_id.isdigit() and len(record_id) < 20 else 0
    if not 1 <= number <= MAX_RECORD_ID:
        raise TableError("no_such_record", f"there is no record {record_id[:40]!r}: record ids are whole numbers "
                         f"from 1 to {MAX_RECORD_ID}, as GET /api/records lists them", record=record_id[:40])
    return number


def replays(request: Request) -> Replays:
    found: Replays = request.app.state.replays
    return found


async def replay_page(request: Request, stored: StoredRecord, seat: int | None, start: int, count: int) -> Any:
    """A page of a replay, cached (server/replays.py); 404 `no_such_step` when `from` is past the end."""
    total = len(stored.record.actions) + 1
    if start >= total:
        return error_response(TableError(
            "no_such_step", f"record {stored.id} has steps 0 to {total - 1}; 'from' must be one of them",
            record=stored.id, total=total, last=total - 1))
    return await replays(request).page(stored, seat, start, count)


# `from`: the first step of the page (0 is the position before the first action); `count`: steps in it.
Start = Annotated[int, Query(alias="from", ge=0, le=MAX_START, description="first step of the page (0: before "
                                                                         "the first action)")]
Count = Annotated[int, Query(ge=1, le=PAGE_STEPS, description=f"steps in the page, at most {PAGE_STEPS}")]


@router.get("/records/{record_id}/replay")
async def replay(record_id: str, request: Request, start: Start = 0, count: Count = PAGE_STEPS) -> Any:
    """A page of a finished game step by step, as a spectator saw it: view(None) at its first step, then
    what changed at each step after it (docs/protocol.md); `next` is where the next page starts."""
    try:
        replays(request).count(_address(request))
        number = record_number(record_id)
    except TableError as err:
        return error_response(err)
    cached = replays(request).cached((number, None, start, count))
    if cached is not None:
        return cached
    stored = await asyncio.to_thread(_hub(request).repo.get_record, number)
    if stored is None:
        return error_response(TableError("no_such_record", f"there is no record {number}", record=number))
    return await replay_page(request, stored, None, start, count)
