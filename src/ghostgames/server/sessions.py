"""The signed-in WebSocket connections of this process by name, so that a logout on any connection or
over HTTP, on any server process, ends the others too: a token is refused on new connections from the
database alone, but a connection already open checked its token only when it said hello."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any, Protocol

from ghostgames.server.auth import Grant
from ghostgames.server.fanout import Fanout
from ghostgames.server.people import People

TOPIC = "sessions"  # fan-out topic: {"user": id, "claimed": microseconds, "logouts": count after the logout}


class SignedIn(Protocol):
    """A connection's session, as far as logging out is concerned."""

    grant: Grant | None

    def logged_out(self) -> None:
        """The name's holder logged out somewhere: stop speaking for the name."""


class OpenSessions:
    def __init__(self) -> None:
        self._by_user: dict[int, set[SignedIn]] = defaultdict(set)

    def add(self, user_id: int, session: SignedIn) -> None:
        self._by_user[user_id].add(session)

    def discard(self, user_id: int, session: SignedIn) -> None:
        held = self._by_user.get(user_id)
        if held is not None:
            held.discard(session)
            if not held:
                del self._by_user[user_id]

    def end(self, user_id: int, claimed: int, logouts: int) -> int:
        """End the sessions of this creation of the name issued before its `logouts`-th logout; how many."""
        ending = [session for session in self._by_user.get(user_id, ())
                  if session.grant is not None and session.grant.claimed == claimed
                  and session.grant.logouts < logouts]
        for session in ending:
            session.logged_out()
        return len(ending)

    async def on_fanout(self, topic: str, message: dict[str, Any]) -> None:
        user_id, claimed, logouts = message.get("user"), message.get("claimed"), message.get("logouts")
        if isinstance(user_id, int) and isinstance(claimed, int) and isinstance(logouts, int):
            self.end(user_id, claimed, logouts)


async def log_out(people: People, sessions: OpenSessions, fanout: Fanout, grant: Grant) -> None:
    """Count the logout in the database (every token of the name issued before is refused from now on),
    end this process's connections of the name at once and tell the other processes to end theirs. A
    lost fan-out message leaves a connection elsewhere signed in until it closes or its token's lifetime
    ends; its token is refused on any new connection all the same."""
    logouts = await asyncio.to_thread(people.log_out, grant)
    if logouts is None:
        return  # the name was re-created meanwhile: its tokens are refused for that already
    sessions.end(grant.user_id, grant.claimed, logouts)
    await fanout.publish(TOPIC, {"user": grant.user_id, "claimed": grant.claimed, "logouts": logouts})
