"""Learn: a guided first deal of each game.

- :mod:`~scenes.learn.choose` — the Learn screen ("learn"): the lessons, one per game, with a
  mark on those finished (kept in the settings' ``lessons_done``).
- :mod:`~scenes.learn.table` — a lesson ("lesson"): the ordinary table (scenes.table) on a
  :class:`game.lessons.session.LessonSession`, with the step's words beside it.
- :mod:`~scenes.learn.panel` — the words: where the panel goes, its lines, its buttons, the
  cards the step asks you to look at.

The lesson itself (its deal, its steps, which move is good) is game.lessons: pygame-free.
"""
