"""The club's ratings at its tables (docs/ONLINE.md, "The club"): what a seat's plate shows,
the end of a rated match (:meth:`ClubRatings.rate_finished`) and a found quick match not
joined (:meth:`ClubRatings.dodged`). game.online.server.ratings is the arithmetic; this module
applies it to a table's seats inside the store's transaction (``ClubStore.rate_match(…,
settle)``, on SQLite and PostgreSQL alike) and tells the seats their new ratings.

game.online.server.club builds one :class:`ClubRatings` and calls it; it calls nothing back.
"""

from __future__ import annotations

import logging
import time

from game.online.server.accounts import ClubStore, Rating
from game.online.server.ratings import (
    COMPUTER_SHARE,
    FEW_MATCHES,
    PROVISIONAL_MATCHES,
    REPEAT_WINDOW,
    SeatOutcome,
    computer_display,
    display,
    guarded,
    new_rating,
    rate,
)
from game.online.server.seats import Table
from game.online.wire import messages as M
from game.rules.vocabulary import JsonObject

log = logging.getLogger("cardavia.server")


def rating_view(r: Rating | None) -> JsonObject:
    r = r or new_rating()
    return {"rating": display(r.mu, r.sigma), "matches": r.matches, "provisional": r.matches < PROVISIONAL_MATCHES}


class ClubRatings:
    def __init__(self, db: ClubStore):
        self.db = db

    def all_ratings(self, player: int) -> dict[str, JsonObject]:
        """The player's rating in every game (a new player's where they have none yet)."""
        from game.rulesets import game_ids

        return {g: self.ratings_of(player, g) for g in game_ids()}

    def ratings_of(self, player: int, game: str) -> JsonObject:
        return rating_view(self.db.rating(f"p:{player}", game))

    def plates(self, table: Table) -> list[JsonObject]:
        """Per seat: name or computer level, and the rating shown on the plate."""
        game = table.rules.game_id
        players = (table.club or {}).get("players", {})
        out: list[JsonObject] = []
        for i, s in enumerate(table.seats):
            if s.kind == "ai":
                if s.level is None:  # a computer's seat always names its level
                    raise ValueError(f"table {table.code}: seat {i} is the computer's but names no level")
                out.append(
                    {
                        "name": None,
                        "level": s.level,
                        "rating": computer_display(s.level),
                        "provisional": False,
                        "by_ai": False,
                    }
                )
            else:
                pid = players.get(str(i))
                view = self.ratings_of(pid, game) if pid is not None else {"rating": None, "provisional": True}
                out.append(
                    {
                        "name": s.name,
                        "level": None,
                        "rating": view["rating"],
                        "provisional": view["provisional"],
                        "by_ai": s.by_ai,
                    }
                )
        return out

    def rate_finished(self, table: Table) -> None:
        """A club table's match is over: keep it in the store (its players' recent matches),
        rated when the table is, and tell each seated player their rating's change."""
        club = table.club
        m = table.match
        if club is None or m is None:
            return
        players = {int(k): int(v) for k, v in club["players"].items()}
        game = table.rules.game_id
        made = [0] * len(table.seats)
        for seat, _action in m.decisions:
            made[seat] += 1
        outcomes = []
        for i, s in enumerate(table.seats):
            team = table.rules.team_of(i)
            if s.kind == "friend" and i in players:
                by_computer = table.computer_made.get(i, 0)
                mostly_computer = made[i] > 0 and by_computer > COMPUTER_SHARE * made[i]
                outcomes.append(
                    SeatOutcome(team, player=players[i], left=(s.by_ai and s.conn is None) or mostly_computer)
                )
            else:
                outcomes.append(SeatOutcome(team, level=s.level or "normal"))
        from game.online.server.ratings import pair_subject

        subjects = [f"p:{o.player}" for o in outcomes if o.player is not None]
        team_subjects: dict[str, int] = {}
        for t in sorted({o.team for o in outcomes}):
            subject = pair_subject([o for o in outcomes if o.team == t])
            if subject is not None:
                subjects.append(subject)
                team_subjects[subject] = t
        rated = bool(club.get("rated"))
        plates = self.plates(table)
        meetings = self._meetings(table, outcomes, game) if rated else {}
        anyone_left = any(o.left for o in outcomes if o.player is not None)
        # Sides that change every deal (a hidden partner): the match totals rank the players.
        sign = -1 if table.rules.totals_count_down else 1
        totals = {t: sign * v for t, v in enumerate(m.totals)} if table.rules.teams_rule.kind == "hidden" else None

        def result_of(o: SeatOutcome) -> str:
            won = m.winner is not None and o.team == m.winner and not o.left
            if not o.left and m.winner is None and totals is not None and totals[o.team] < max(totals.values()):
                return "lost"  # no winner, as the top is shared, but not among those who share it
            return "left" if o.left else "draw" if m.winner is None else "won" if won else "lost"

        def settle(current: dict[str, Rating | None]) -> tuple[dict, list, dict[str, Rating]]:
            # Run by the database inside the transaction that holds these ratings (two
            # processes finishing two matches of one player never lose an update).
            held = {s: current.get(s) or new_rating() for s in subjects}
            new = rate(held, outcomes, m.winner, totals) if rated else {}
            for subject, after in list(new.items()):
                if subject in team_subjects:
                    team = [o for o in outcomes if o.team == team_subjects[subject]]
                    result = "left" if any(o.left for o in team) else result_of(team[0])
                    new[subject] = guarded(
                        held[subject], after, result, anyone_left=anyone_left, meetings=0, fresh_opponent=False
                    )
                    continue
                o = next(o for o in outcomes if f"p:{o.player}" == subject)
                fresh = any(
                    x.player is not None and x.team != o.team and held[f"p:{x.player}"].matches < FEW_MATCHES
                    for x in outcomes
                )
                new[subject] = guarded(
                    held[subject],
                    after,
                    result_of(o),
                    anyone_left=anyone_left,
                    meetings=meetings.get(o.player or 0, 0),
                    fresh_opponent=fresh,
                )
            rows = []
            for i, o in enumerate(outcomes):
                if o.player is None:
                    continue
                result = result_of(o)
                old, later = held[f"p:{o.player}"], new.get(f"p:{o.player}")
                rows.append(
                    (
                        o.player,
                        i,
                        result,
                        display(old.mu, old.sigma) if rated else None,
                        display(later.mu, later.sigma) if later else None,
                    )
                )
            summary = {
                "players": [{"seat": i, **p} for i, p in enumerate(plates)],
                "winner": m.winner,
                "totals": list(m.totals),
            }
            return summary, rows, new

        try:
            settled = self.db.rate_match(table.code, game, club.get("preset"), rated, subjects, settle)
        except Exception:  # noqa: BLE001 - the database's trouble must not stop the table's end
            log.exception("table %s: the match could not be kept in the database", table.code)
            return
        if settled is None:
            return  # rated before (a process that took the table over finished its end again)
        _summary, rows, new = settled
        for pid, i, result, old, after in rows:
            conn = table.seats[i].conn
            if conn is not None and conn.player == pid:
                r = new.get(f"p:{pid}")
                conn.send(
                    M.RATED(
                        game=game,
                        rated=rated,
                        result=result,
                        old=old,
                        new=after,
                        matches=r.matches if r else None,
                        provisional=(r.matches < PROVISIONAL_MATCHES) if r else None,
                    )
                )

    def _meetings(self, table: Table, outcomes: list[SeatOutcome], game: str) -> dict[int, int]:
        """Per person at ``table``: their rated matches of ``game`` within REPEAT_WINDOW against
        any person now on another side (the recent list's opponents, by account name)."""
        names = {i: (s.name or "").casefold() for i, s in enumerate(table.seats)}
        since = time.time() - REPEAT_WINDOW
        out: dict[int, int] = {}
        for o in outcomes:
            if o.player is None:
                continue
            opponents = {names[k] for k, x in enumerate(outcomes) if x.player is not None and x.team != o.team}
            try:
                recent = self.db.recent_matches(o.player, 50)
            except Exception:  # noqa: BLE001 - the database away: counted as a first meeting
                log.warning("table %s: the recent matches could not be read", table.code)
                recent = []
            count = 0
            for row in recent:
                if row.get("game") != game or not row.get("rated") or float(row.get("finished") or 0) < since:
                    continue
                seats = (row.get("summary") or {}).get("players") or []
                met = {str(p.get("name") or "").casefold() for p in seats if p.get("seat") != row.get("seat")}
                if opponents & met:
                    count += 1
            out[o.player] = count
        return out

    def dodged(self, table: Table, player: int, seat: int, level: str | None) -> None:
        """A found match not joined counts against the dodger: rated as a loss to the
        computer that took the seat (nobody else gains)."""
        game = table.rules.game_id
        outcomes = [SeatOutcome(0, player=player, left=True), SeatOutcome(1, level=level)]
        subject = f"p:{player}"

        def settle(current: dict[str, Rating | None]) -> tuple[dict, list, dict[str, Rating]]:
            old = current.get(subject) or new_rating()
            after = guarded(
                old,
                rate({subject: old}, outcomes, 1)[subject],
                "left",
                anyone_left=False,
                meetings=0,
                fresh_opponent=False,
            )
            summary = {
                "players": [
                    {"seat": seat, "name": table.seats[seat].name, "level": None},
                    {"seat": -1, "name": None, "level": level},
                ],
                "winner": None,
                "dodged": True,
            }
            return (
                summary,
                [(player, seat, "left", display(old.mu, old.sigma), display(after.mu, after.sigma))],
                {subject: after},
            )

        try:
            self.db.rate_match(f"{table.code}-{seat}", game, (table.club or {}).get("preset"), True, [subject], settle)
        except Exception:  # noqa: BLE001 - the database's trouble must not stop the table
            log.exception("table %s: a dodged seat could not be rated", table.code)


__all__ = ["ClubRatings", "rating_view"]
