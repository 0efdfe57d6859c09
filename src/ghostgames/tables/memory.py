"""What a bot at a table may remember: the earlier games at the table against the same people.

A person who plays a bot again and again (`/rematch`) should meet a bot that reads them as a good player
would: Geister's `expert` learns the setups it saw whole at the ends of earlier games
(bots/geister/memory.py). The table keeps its last finished games, each with who held every seat when it
started; a bot about to move is handed the final positions of those where the same bot level held its seat
against the same people in the same seats. It reads them only through its own seat's knowledge
(`Bot.game_over`), so it learns nothing its seat did not see at the end of each game.

Only games played out count, as for ratings (every seat made the game's minimum of its own moves,
tables/fair_play.py), and only those rated as the game at hand is: otherwise a person could show the bot a
setup in games resigned at once, or in unrated ones, for free, and then play another in a rated game.

Pure: the table fills it as it applies its events, so a rebuild from the store remembers the same games. Only
games with a bot seated are kept, and only of games whose players choose a secret starting position
(`Game.chosen_setup`: Geister), the habit a memory can read; in a dealt game there is none, and a final
Ghooost! state is some 18 KB (benchmarks/table_memory.py). The server hands the games only to a bot that
learns from them (`ghostgames.bots.remembers`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ghostgames.tables.seat import Seat

REMEMBERED = 10  # finished games a table keeps for its bots (a long evening of rematches)

# Who held each seat when a game started: (the person's lower-case name, the seated bot's level).
Lineup = tuple[tuple[str | None, str | None], ...]


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A game that ended at the table: its final state as JSON (the whole truth: it never leaves the
    server but for a bot's worker, which reads it through a seat's knowledge), its lineup and whether it
    was rated."""

    final: Mapping[str, Any]
    lineup: Lineup
    rated: bool


def lineup_of(seats: Iterable[Seat]) -> Lineup:
    return tuple((s.name.lower() if s.name is not None else None, s.bot) for s in seats)


def remembered(games: Iterable[FinishedGame], lineup: Lineup, rated: bool, seat: int) -> Sequence[Mapping[str, Any]]:
    """The final states, oldest first, that the bot holding `seat` in a game started with `lineup` (rated
    or not) may learn from: the earlier games with the same lineup, rated alike. A person's seat that a bot
    plays for them (a takeover, a turn whose clock ran out) remembers nothing: those games were the person's."""
    if not 0 <= seat < len(lineup) or lineup[seat][1] is None:
        return []
    return [game.final for game in games if game.lineup == lineup and game.rated == rated]
