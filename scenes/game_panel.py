"""One game's block on the game screen (scenes.game_select): what the game offers and what
the player chose — its line (:func:`game_line`), the options in force (:func:`in_force`,
:func:`chosen_preset`), and :class:`GamePanel`, the block with its row of controls
(:class:`Slot`). Nothing here draws, and nothing knows a game by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pygame

from game.card_names import Translate
from game.config_types import GameConfig, OptionSpec, PresetSpec
from game.rules.vocabulary import JsonObject
from game.services.settings import GameChoice, Settings, game_choice
from game.variants import CUSTOM, preset_options
from sprites.widgets import Button, Choice, Widget

#: The right-hand column of the screen: the list of games, or one game's house rules.
RIGHT_X = 430
RIGHT_W = 1240 - RIGHT_X
LIST_TOP = 96
LIST_BOTTOM = 668


def in_language(mapping: Mapping[str, str], lang: str) -> str:
    """A name or text given per language (a deck's, a game's), in ``lang`` or else English."""
    return mapping.get(lang) or mapping.get("en") or ""


def game_line(t: Translate, game: GameConfig, options: JsonObject) -> str:
    """ "2–4 players · AI opponents / partner · Match to 11", from the config and chosen options.

    ``t(key, **params)`` is the message lookup (so the line follows the language).
    """
    players = list(game.players)
    if len(players) > 1 and players == list(range(min(players), max(players) + 1)):
        parts = [t("line.players_range", lo=min(players), hi=max(players))]
    elif len(players) > 1:  # 2 or 4: a range would promise a three-player game
        parts = [t("line.players_either", a=players[0], b=players[-1])]
    else:
        parts = [t("line.players", count=players[0])]
    mode_ids = {m.id for m in game.modes}
    if mode_ids == {"partners"}:
        parts.append(t("line.mode_partners"))
    elif "partners" in mode_ids:
        parts.append(t("line.mode_mixed"))
    else:
        # The words may name the opponents' number ("two AI opponents") where the game has
        # one player count and the language has a line for it; otherwise the general one.
        counted = f"line.mode_versus_{players[0]}" if len(players) == 1 else ""
        parts.append(t(counted) if counted and t(counted) != counted else t("line.mode_versus_many"))
    fmt = options.get("format")
    if fmt == "single":
        parts.append(t("line.single_deal"))
    elif "deals_to_win" in options and fmt in (None, "match"):
        parts.append(t("line.first_to_deals", count=options["deals_to_win"]))
    elif "target" in options:
        parts.append(t("line.match_to", target=options["target"]))
    elif "bummerl" in options:
        n = options["bummerl"]
        parts.append(t("line.bummerl_7") if n == 7 else t("line.bummerl", count=n))
    elif "deals" in options:  # a set number of deals, whoever leads
        parts.append(t("line.deals", count=options["deals"]))
    return " · ".join(parts)


def in_force(game: GameConfig, choice: GameChoice) -> JsonObject:
    """Every option the table will play with: the chosen ones, an option not offered for the
    player count at its default, and with a preset chosen its house rules as it sets them."""
    opts = {
        k: (choice.options.get(k, spec.default) if spec.offered_for(choice.players) else spec.default)
        for k, spec in game.options.items()
    }
    preset = chosen_preset(game, choice)
    if preset is not None:
        opts.update(preset_options(game, preset))
    return opts


def chosen_preset(game: GameConfig, choice: GameChoice) -> PresetSpec | None:
    """The preset in force (None: Custom, or a game without presets). A remembered preset that
    does not fit the player count gives way to the first that does (Scopone at two players:
    the classic game), and comes back when the count does."""
    if not game.presets or choice.preset == CUSTOM:
        return None
    fits = game.presets_for(choice.players)
    return next((p for p in fits if p.id == choice.preset), fits[0] if fits else None)


@dataclass
class Slot:
    """One control of a game's row: its widget, and whether it is shown now."""

    widget: Widget
    shown: Callable[[], bool]
    fixed_w: int = 0  # a button's width; 0 for a chooser (measured from its labels)
    always_compact: bool = False
    #: Its room is kept while it is hidden (Edit beside "Custom"), so the row never jumps.
    reserve: bool = False


class GamePanel:
    """The static part of one game's block (name, line, blurb) plus its widgets."""

    def __init__(self, settings: Settings, game: GameConfig, rect: pygame.Rect, players: int | None = None):
        self.game = game
        self.rect = rect
        self.choice: GameChoice = game_choice(settings, game)
        if players is not None and players in game.players:
            self.choice.players = players
        self.start: Button | None = None
        self.rules: Button | None = None
        self.preset_choice: Choice | None = None
        self.edit: Button | None = None
        self.slots: list[Slot] = []  # the row of controls, laid out left to right
        self.rule_choices: list[tuple[OptionSpec, Choice]] = []  # (option spec, chooser) of the house rules panel
        self.done: Button | None = None

    # Shorthands the widgets' callbacks use.
    @property
    def players(self) -> int:
        return self.choice.players

    @property
    def options(self) -> JsonObject:
        return self.choice.options

    def preset_id(self) -> str:
        """The preset shown: the one in force, or "custom"."""
        if not self.game.presets:
            return ""
        p = chosen_preset(self.game, self.choice)
        return CUSTOM if p is None else p.id

    def in_force(self) -> JsonObject:
        return in_force(self.game, self.choice)


__all__ = ["GamePanel", "Slot", "chosen_preset", "game_line", "in_force", "in_language"]
