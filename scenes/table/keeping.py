"""The table's match kept (the base of scenes.table.controller.TableController): saved after
every batch of events, and at its end counted in the statistics, kept for Replays and its
save cleared — each as far as the session's capabilities allow (an online seat's server
keeps its record; a daily or duplicate deal keeps its own result). Open hands make the match
practice. No pygame here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from scenes.scene import AppServices

if TYPE_CHECKING:
    from game.services.session import Session
    from game.services.table_session import TableSession


class MatchKeeping:
    def __init__(self, app: AppServices, session: TableSession):
        self.app = app
        self.session = session
        self.rules = session.rules
        #: All seats AI (the smoke test, demos): watch from seat 0, record no statistics.
        self.spectator = session.human_seat is None
        #: What this session offers (game.services.table_session): an online seat's server keeps the
        #: record, so it has no local save, statistics, replays, suggestions or undo.
        self.caps = session.capabilities
        self.human = session.human_seat if session.human_seat is not None else 0
        self.human_team = self.rules.team_of(self.human)
        self.finished = False  # stats recorded, save cleared
        self.problem: str | None = None

    def save(self) -> None:
        from game.services import saves

        if not self.caps.save:
            if self.session.over and not self.finished and self.session_context is not None:
                self.finish_match()  # a daily or duplicate deal: not saved, but its result is kept
            self.finished = self.finished or self.session.over
            return
        if self.session.over:
            if not self.finished:
                self.finish_match()
            return
        if self.spectator:
            return
        if saves.read_only:  # a second window: saving would overwrite the first one's match
            if self.problem != "open elsewhere":
                self.problem = "open elsewhere"
                self.app.toast(self.app.t("table.open_elsewhere"))
            return
        # capabilities.save: a match played here (game.services.session.Session) keeps itself.
        problem = saves.save_match(cast("Session", self.session).to_save())
        if problem and problem != self.problem:
            self.problem = problem
            self.app.toast(self.app.t("table.save_failed", reason=problem))

    def finish_match(self) -> None:
        """Once, when the match ends: statistics, and the save is cleared."""
        from game.services import saves

        self.finished = True
        if self.spectator:
            return
        if self.session_context is not None:  # a daily or duplicate deal: its own results
            self.session_context.finished(self.session)
        if self.caps.save:
            saves.clear_match()
        m = self.session.match
        winner = m.winner
        outcome = "drawn" if winner is None else ("won" if winner == self.human_team else "lost")
        totals = list(m.totals)
        mine = totals[self.human_team]
        others = [v for t, v in enumerate(totals) if t != self.human_team]
        margin = mine - max(others) if others else 0
        if self.rules.totals_count_down:
            margin = -margin  # fewer left is better (the Schnapsen Bummerl)
        problem = self._count_result(margin, outcome) if self.caps.statistics else None
        if problem:
            self.app.toast(problem)
        if self.caps.replays:
            self._keep_replay()

    @property
    def session_context(self) -> Any:
        """The daily or duplicate deal the session plays (game.services.challenge), or None."""
        return getattr(self.session, "context", None)

    def _count_result(self, margin: int, outcome: str) -> str | None:
        """The finished match in the statistics; the problem in words, None when counted."""
        from game.services import stats

        try:
            mode = self.rules.game.mode_for(self.rules.players).id
            # A match with a decision taken back is practice; one with suggestions says so.
            from game.variants import variant_key  # each preset / custom set keeps its own record

            problem = stats.record_result(
                self.rules.game_id,
                mode,
                outcome,
                abs(margin),
                practice=self.session.undos > 0 or self.session.open_hands,
                suggested=self.session.suggestions > 0,
                variant=variant_key(self.rules.game, self.rules.options, self.rules.players),
                roles=stats.roles_in(self.rules.game_id, self.session.match.events, self.human, self.human_team),
            )
        except (ValueError, OSError) as e:
            problem = str(e)
        return problem

    def _keep_replay(self) -> None:
        """Kept for Replays: the record, who played which seat, practice or not."""
        from game.services import replays

        path, kept = replays.keep_session(cast("Session", self.session), self.app.settings.replays_kept)
        if kept and path is None:
            self.app.toast(self.app.t("replay.kept_failed", reason=kept))
        elif kept:  # kept, after a file or link in the folder's place was set aside
            self.app.toast(self.app.t("replay.folder_set_aside", file=getattr(kept, "bad", None) or replays.FOLDER))

    def note_open_hands(self) -> None:
        """Open hands practice (Settings): once the computer's hands are shown, the
        match is practice, and the save says so (a resume keeps it)."""
        s = self.session
        shown = bool(self.app.settings.open_hands)
        if self.spectator or not self.caps.open_hands or s.over or s.open_hands or not shown:
            return
        s.open_hands = True
        self.app.toast(self.app.t("replay.open_hands_on"))
        self.save()


__all__ = ["MatchKeeping"]
