"""The game screen's house rules panel (scenes.game_select): with "Custom" chosen, "Edit"
opens one game's house rules over the list of games as toggles, each with its one-line
explanation (the option's ``describe`` key), only the ones offered for the player count, and
says what the choice is called (a preset's name when the rules are one's). Every choice is
remembered per game in the settings.
"""

from __future__ import annotations

from functools import partial

import pygame

from game.services.settings import remember_game_choice
from game.variants import CUSTOM, house_rules, preset_of, rule_value_label, variant_name
from scenes.game_panel import LIST_BOTTOM, LIST_TOP, RIGHT_W, RIGHT_X, GamePanel, in_language
from scenes.scene import UIScene
from sprites import theme
from sprites.widgets import Button, Choice

#: The house rules panel, over the list of games while it is open.
CUSTOM_RECT = pygame.Rect(RIGHT_X, LIST_TOP, RIGHT_W, LIST_BOTTOM - LIST_TOP)
RULE_W = 290  # a house rule's chooser; its explanation runs to its right
RULE_TOP = 112  # the first rule's row, below the panel's heading
RULE_STEP = 76


class HouseRulesScene(UIScene):
    """The game screen's base: its house rules panel and the memory of every game's choice."""

    #: The game whose house rules panel is open (None: the list of games is shown).
    custom: GamePanel | None = None

    def _remember(self, panel: GamePanel) -> None:
        remember_game_choice(self.app.settings, panel.game, panel.choice, panel.in_force())
        self.app.save_settings()

    def open_custom(self, p: GamePanel) -> None:
        """Show the house rules of ``p``'s game as toggles (Custom is then the choice)."""
        if not p.game.presets:
            return
        p.choice.preset = CUSTOM
        self.custom = p
        self._reflow_custom(p)
        first = next((c for spec, c in p.rule_choices if spec.offered_for(p.players)), p.done)
        self.ui.focus(first)
        self._remember(p)

    def close_custom(self) -> None:
        p = self.custom
        self.custom = None
        if p is not None:
            self._remember(p)
            self.ui.focus(p.edit)

    def _set_rule(self, p: GamePanel, key: str, value: object) -> None:
        """A toggle of the house rules panel (Custom's own rules)."""
        p.options[key] = value
        p.choice.preset = CUSTOM
        self._remember(p)

    def _build_custom(self, p: GamePanel) -> None:
        """The house rules panel of ``p``'s game: a chooser per rule, and Done."""
        if not p.game.presets:
            return
        gid = p.game.id
        for spec in house_rules(p.game):
            shown = lambda s=spec: self.custom is p and s.offered_for(p.players)  # noqa: E731
            values = [(v, self._rule_value_label(spec.name, v)) for v in spec.allowed]

            def rule(k: str = spec.name) -> object:
                return p.options[k]

            c = self.ui.add(
                Choice(
                    (CUSTOM_RECT.x + 28, 0, RULE_W, 58),
                    self.label(f"option.{spec.name}"),
                    values,
                    rule,
                    partial(self._set_rule, p, spec.name),
                    visible=shown,
                    name=f"rule:{spec.name}:{gid}",
                )
            )
            p.rule_choices.append((spec, c))
        r = CUSTOM_RECT
        p.done = self.ui.add(
            Button(
                (r.right - 28 - 170, r.bottom - 66, 170, 46),
                self.label("common.done"),
                self.close_custom,
                style="primary",
                size=16,
                name=f"done:{gid}",
                visible=lambda: self.custom is p,
            )
        )
        self._reflow_custom(p)

    def _reflow_custom(self, p: GamePanel) -> None:
        y = CUSTOM_RECT.y + RULE_TOP
        for spec, c in p.rule_choices:
            if spec.offered_for(p.players):
                c.rect.y = y
                y += RULE_STEP

    def _rule_value_label(self, key: str, value: object):
        return lambda: rule_value_label(self.app.i18n, key, value)

    def _draw_custom(self, surface: pygame.Surface, p: GamePanel, lang: str) -> None:
        """The house rules panel: heading, a line on what it is, each rule's explanation beside
        its chooser, the rules kept for other player counts, and what the choice is called."""
        r = CUSTOM_RECT
        inner = r.w - 56
        surface.blit(theme.shadow(r.size, 14, 8, 120), (r.x - 8, r.y - 8 + 5))
        surface.blit(theme.panel(r.size, 14, (10, 30, 20, 240), theme.BRASS), r)
        title = self.t("house_rules.title")
        head = f"{in_language(p.game.name, lang)} · {self.t('line.players', count=p.players)}"
        hw = theme.text_width(head, "cond_bold", 13, 13 * 0.16, True)
        size = theme.fit(title, "serif_bold", 26, inner - hw - 24, 16, 0.22, True)
        theme.heading(surface, title, (r.x + 28, r.y + 20), size)
        theme.small_caps(surface, head, (r.right - 28, r.y + 30), 13, theme.BRASS_LIGHT, anchor="topright")
        intro = self.t("house_rules.intro")
        for i, ln in enumerate(theme.wrap(intro, "sans", 14, inner, max_lines=2)):
            theme.blit_text(surface, ln, (r.x + 28, r.y + 62 + i * 18), "sans", 14, theme.CREAM_DIM)
        ex = r.x + 28 + RULE_W + 28
        ew = r.right - 28 - ex
        hidden = []
        for spec, c in p.rule_choices:
            if not spec.offered_for(p.players):
                hidden.append(self.t(f"option.{spec.name}"))
                continue
            about = self.t(spec.describe) if spec.describe else ""
            size = 14 if len(theme.wrap(about, "sans", 14, ew)) <= 2 else 13
            for i, ln in enumerate(theme.wrap(about, "sans", size, ew, max_lines=3)):
                theme.blit_text(surface, ln, (ex, c.rect.y + 20 + i * (size + 4)), "sans", size, theme.CREAM)
        y = r.bottom - 62
        name = variant_name(self.app.i18n, p.game, p.in_force(), p.players)
        if name is None:  # every rule as written: the preset that says so (Classic Scopa)
            found = preset_of(p.game, p.in_force(), p.players)
            name = self.t(found.name) if found is not None else in_language(p.game.name, lang)
        room = p.done.rect.x - 24 - (r.x + 28) if p.done is not None else inner
        now = self.t("house_rules.now", name=name)
        theme.blit_text(
            surface, now, (r.x + 28, y), "sans_bold", theme.fit(now, "sans_bold", 15, room, 11), theme.BRASS_LIGHT
        )
        if hidden:
            counts = sorted({n for spec, _ in p.rule_choices if not spec.offered_for(p.players) for n in spec.players})
            note = self.t("house_rules.only_for", players=" / ".join(map(str, counts)), rules=", ".join(hidden))
            theme.blit_text(
                surface, note, (r.x + 28, y + 24), "sans", theme.fit(note, "sans", 13, room, 10), theme.CREAM_DIM
            )


__all__ = ["CUSTOM_RECT", "HouseRulesScene"]
