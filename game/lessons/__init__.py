"""Lessons: a guided first deal of every game, step by step.

- :mod:`~game.lessons.lesson` — a lesson's data (``data/<game>.yaml``: the hand-built deal,
  the other seats' scripted moves, the steps with their good moves and the explanation of
  every tempting wrong one), read and checked on load against the real rules.
- :mod:`~game.lessons.session` — :class:`~game.lessons.session.LessonSession`, the
  table's session for a lesson: the scripted seats play, the player's move is judged
  (good, or wrong and waiting to be taken back), the steps go on.

Pure Python: no pygame here. The rules decide what is legal and what scores; a lesson only
says which legal move is the one it teaches.
"""
