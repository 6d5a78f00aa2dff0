"""The card table: every game played with mouse and keyboard against the computer.

The table never decides what is legal or what scores: it asks the session (a
:class:`game.services.table_session.TableSession`, whose ``capabilities`` say what the table may offer)
and through it the rules. It is built in parts:

- :mod:`~scenes.table.model` — what the table shows (hands, table cards, trick, stock,
  piles, scores), changed by the record events through plain functions; no pygame.
- :mod:`~scenes.table.motion` — the events animated: each becomes a few steps (its kind's
  handler in :mod:`~scenes.table.animate`) that change the model while the card sprites fly
  to where the layout puts them.
- :mod:`~scenes.table.controller` — the session (bots think in a worker thread while frames
  keep coming), the save after every batch, the statistics, the human's choice (one click
  chooses a card, a second plays it), the suggestion, the undo, the questions before a
  decision that cannot be taken back.
- the views: :mod:`~scenes.table.hud` (plates, scores, status, match over),
  :mod:`~scenes.table.board` (the cards on the felt), :mod:`~scenes.table.buttons`,
  :mod:`~scenes.table.assist` (the suggested move, the question "Close the stock?").
- the story: :mod:`~scenes.table.narrate` (what happened, in words, from the record events:
  the captions, the log; no pygame), :mod:`~scenes.table.story` (the keys L, T, S, the pile
  clicks, a finished trick's click), the panels :mod:`~scenes.table.overlays` (the play
  log, the last trick or capture, your pile) and :mod:`~scenes.table.sheet` (the score sheet).
- :mod:`~scenes.table.reading` — the table read aloud: the reading keys (A, D, F, V, W, E,
  I, O, ↑/↓, F1), the lines a screen reader gets as the table opens, the focus in words.
- :mod:`~scenes.table.view` — the seams: the read-only :class:`~scenes.table.view.TableView`
  the views get, the hosts the controller and the motion call up into, the names in words.
- :mod:`~scenes.table.scene` — the scene that holds them and maps keys and clicks;
  :mod:`~scenes.table.factory` — ``create(app, **params)``, what the registry calls for "table".

What differs between games comes from the rules' facts (``family``, ``decisions``,
``has_stock``, ``hud_scores``, ``match_goal()``, ``bonus_callouts`` …), never from their names.
"""

from __future__ import annotations

from scenes.table.factory import create
from scenes.table.scene import TableScene

__all__ = ["TableScene", "create"]
