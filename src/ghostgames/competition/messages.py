"""The protocol's messages: what the server says, and reading what a client answers.

Server to client: `SET?`, `OK ` / `NG ` (note the space), `OKR` / `OKB` (a capture of a red / blue
ghost; for a ghost leaving the board, what its last move got), `MOV?<board>`, and at the end
`WON:<board>` / `LST:<board>` / `DRW:<board>`. Client to server: `SET:XXXX` (four different letters
A-H: the red ghosts) and `MOV:<letter>,<direction>`. Every message is one line ending in CR LF.
"""

from __future__ import annotations

from dataclasses import dataclass

from ghostgames.competition.frames import BOARD_LENGTH, LETTERS, protocol_direction

EOL = "\r\n"
SET_QUESTION = "SET?"
MOVE_QUESTION = "MOV?"
OK = "OK "
NG = "NG "
OK_RED = "OKR"
OK_BLUE = "OKB"
WON = "WON:"
LOST = "LST:"
DRAW = "DRW:"
ACKS = (OK, NG, OK_RED, OK_BLUE)
ENDINGS = (WON, LOST, DRAW)


class BadMessage(ValueError):
    """A client line the protocol does not accept (answered with `NG `)."""


def parse_set(line: str) -> frozenset[int]:
    """`SET:XXXX` as the ghost numbers (0..7) of the four red ghosts.

    Letters A-H in either case, as the reference server takes them; exactly four, each once (unlike the
    reference, a letter named twice is refused, so a typo cannot silently leave a player with fewer than
    four red ghosts), nothing before or after.
    """
    if not line.startswith("SET:"):
        raise BadMessage(f"expected SET:XXXX, got {line!r}")
    letters = line[4:].upper()
    if len(letters) != 4 or any(c not in LETTERS for c in letters):
        raise BadMessage(f"SET names four of the letters A-H, got {letters!r}")
    if len(set(letters)) != 4:
        raise BadMessage(f"SET names a letter twice: {letters!r}")
    return frozenset(LETTERS.index(c) for c in letters)


@dataclass(frozen=True, slots=True)
class ProtocolMove:
    """`MOV:<letter>,<direction>`: own ghost number 0..7 and N/E/S/W in the mover's frame."""

    ghost: int
    direction: str

    def __str__(self) -> str:
        return f"MOV:{LETTERS[self.ghost]},{self.direction}"


def parse_move(line: str) -> ProtocolMove:
    """`MOV:A,N`; the ghost letter in either case (`MOV:a,N`, as the reference server takes it), the
    direction N/E/W/S or NORTH/EAST/WEST/SOUTH in any case. Anything else (spaces, a trailing space) is
    refused."""
    if not line.startswith("MOV:"):
        raise BadMessage(f"expected MOV:<letter>,<direction>, got {line!r}")
    letter, comma, word = line[4:].partition(",")
    letter = letter.upper()
    if not comma or len(letter) != 1 or letter not in LETTERS:
        raise BadMessage(f"expected MOV:<letter A-H>,<direction>, got {line!r}")
    direction = protocol_direction(word)
    if direction is None:
        raise BadMessage(f"the direction is N, E, W or S (or NORTH, EAST, WEST, SOUTH), not {word!r}")
    return ProtocolMove(LETTERS.index(letter), direction)


class MessageSplitter:
    """Cuts the server's byte stream into messages for a client.

    Works whether or not the server ends messages with CR LF and however the stream is chunked: every
    server message has a known length once its first four characters are seen.
    """

    def __init__(self) -> None:
        self._buffer = ""

    def feed(self, data: str) -> list[str]:
        self._buffer += data
        out: list[str] = []
        while True:
            buffer = self._buffer.lstrip("\r\n")
            self._buffer = buffer
            if len(buffer) < 3:
                return out
            if buffer[:3] in ACKS:
                size = 3
            elif len(buffer) < 4:
                return out
            elif buffer[:4] == SET_QUESTION:
                size = 4
            elif buffer[:4] in (MOVE_QUESTION, *ENDINGS):
                size = 4 + BOARD_LENGTH
            else:  # unknown: take the rest of the line as one message
                end = buffer.find("\n")
                if end < 0:
                    return out
                size = end
            if len(buffer) < size:
                return out
            out.append(buffer[:size])
            self._buffer = buffer[size:]
