"""What one seat may receive of a match's record, as the online layer names it: the one
definition in game.seat_view (each record event's declared audience, run in record order).

The server sends each seat only its stream (docs/ONLINE.md, "What a seat sees"): the
record's events with what the seat may not see replaced by ``null`` (the seed, the other
hands, the stock but the face-up card, another seat's draw where draws are hidden); a
spectator's is the stream of no seat (``SPECTATOR``). The rules' own ``view`` is the oracle
the tests hold this against (tests/online/wire/test_redact_leak.py).
"""

from __future__ import annotations

from game.seat_view import SPECTATOR, SeatStream, seat_events

#: One seat's stream of a table, event by event in record order (the server keeps one per
#: seat, and one per watched table for its spectators).
SeatRedactor = SeatStream

__all__ = ["SPECTATOR", "SeatRedactor", "seat_events"]
