"""What a save must hold to be resumed (game.services.saves reads it, game.services.session.Session.from_save
replays it): checked before anything is replayed, so a save naming a seat, deck, bot or
option that cannot be is refused with one line instead of crashing the menu at every start.
"""

from __future__ import annotations

from typing import TypedDict

from game.rules.base import Event
from game.safejson import is_int

SAVE_VERSION = 1


class SaveData(TypedDict, total=False):
    """A save as :func:`check_save` accepts it (game.services.session.Session.to_save writes
    it; ``version`` is added by game.services.saves)."""

    version: int
    game: str
    deck: str
    players: int
    options: dict[str, object]
    seed: int
    human_seat: int | None
    bot: str
    partner_bot: str | None
    undos: int
    suggestions: int
    open_hands: bool
    events: list[Event]


def _seat_text(value: object) -> str:
    return repr(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)


def check_save(data: object) -> str | None:
    """Why ``data`` cannot be a save (one line), or None: every fact a resume uses must be
    one that can be — a registered game, a deck offering it, a player count and options it
    allows, seeds and seats that are whole numbers in range, known bots, and events each a
    well-formed record line."""
    from game.ai.bots import bot_names
    from game.config import get_config
    from game.record import RecordFormatError, check_event

    if not isinstance(data, dict):
        return "it is not an object"
    if not is_int(data.get("version")) or data.get("version") != SAVE_VERSION:
        return f"version {_seat_text(data.get('version'))} is not {SAVE_VERSION}"
    config = get_config()
    game_id, deck_id, players = data.get("game"), data.get("deck"), data.get("players")
    if not isinstance(game_id, str) or game_id not in config.games:
        return f"game {_seat_text(game_id)} is not a game"
    game = config.games[game_id]
    if not isinstance(deck_id, str) or deck_id not in config.decks or game_id not in config.decks[deck_id].games:
        return f"deck {_seat_text(deck_id)} cannot play {game_id}"
    if not is_int(players) or players not in game.players:
        return f"{_seat_text(players)} players cannot play {game_id}"
    options = data.get("options")
    if not isinstance(options, dict):
        return "its options are not an object"
    try:
        game.resolve_options(options, players)
    except ValueError as e:
        return str(e)
    seed = data.get("seed")
    if not is_int(seed) or not 0 <= seed < 2**63:
        return f"seed {_seat_text(seed)} is not a whole number from 0"
    seat = data.get("human_seat", 0)
    if seat is not None and (not is_int(seat) or not 0 <= seat < players):
        return f"seat {_seat_text(seat)} is not a seat (0..{players - 1})"
    bots = bot_names()
    if data.get("bot", "greedy") not in bots or not isinstance(data.get("bot", "greedy"), str):
        return f"bot {_seat_text(data.get('bot'))} is not a bot"
    partner = data.get("partner_bot")
    if partner is not None and (not isinstance(partner, str) or partner not in bots):
        return f"bot {_seat_text(partner)} is not a bot"
    for k in ("undos", "suggestions"):
        v = data.get(k, 0)
        if not is_int(v) or not 0 <= v < 2**31:
            return f"{k} {_seat_text(v)} is not a count"
    events = data.get("events")
    if not isinstance(events, list) or not events:
        return "it holds no events"
    rules_cls = None
    try:
        for i, ev in enumerate(events, start=1):
            rules_cls = check_event(ev, i, rules_cls)
    except RecordFormatError as e:
        return f"event {e.line}: {e.reason}"
    head = events[0]
    if (
        head.get("game") != game_id
        or head.get("deck") != deck_id
        or head.get("players") != players
        or head.get("seed") != seed
    ):
        return "its first event does not describe the saved match"
    return None
