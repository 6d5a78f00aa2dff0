"""Card puzzles: positions from real deals with one right move — made by the games' exact
solvers where every card is known and by the coach's valuation where cards are hidden —
rated, one a day, and the player's own blunders to try again (docs/PUZZLES.md).

The API (pygame-free; the window's scenes/puzzles/ draws what this holds):

- :mod:`~game.puzzles.model` — ``Puzzle`` (frozen): ``id``, ``game``, ``deck``, ``players``,
  ``options``, ``seed``, ``prefix`` (the record up to the position: it verifies), ``seat``,
  ``line`` ((seat, action JSON) per move: the seat's answers and the other seats' replies),
  ``answer_moves``, ``margin`` (the game's points), ``theme``, ``question`` (a key under
  ``puzzles.question.``), ``known``, ``rating``, ``rd``, ``values`` (every first move's value),
  ``origin`` ("made" or "mistake"), ``played``; ``THEMES``, ``QUESTIONS``; ``action_from_json``.
- :mod:`~game.puzzles.store` — ``shipped(game=None)`` (cached; a damaged file gives none and
  ``problems()`` one line per file), ``by_id(pid)``, ``position(p) -> Match`` (rebuilt from
  the prefix's decisions; ``position_at(p, step)`` after the line's first moves),
  ``judge(p, step, action) -> Judgement`` (``ok``, ``right``, ``refutation`` [(seat, Action)],
  ``reason`` (key, params) for game.coach.words.Words.reason, ``done``, ``next_step``,
  ``loss``, ``units``), ``reply(p, step) -> (seat, Action) | None``, ``check(p)``.
  ``step`` is an index into ``p.line``: judge the seat's move at ``step``; after a right
  move, play ``reply(p, i)`` for i = step + 1 … while it gives a move; ``next_step`` is the
  seat's next move.
- :mod:`~game.puzzles.rating` — Glicko-2: ``Rating``, ``update(player, puzzle, solved)``.
- :mod:`~game.puzzles.progress` — ``PuzzleProgress`` (the player's file ``puzzles.json``):
  ``load``, ``save``, ``record_attempt``, ``next_puzzle``, ``add_mistake_puzzles``,
  ``dashboard``, ``mistakes_due``, ``puzzle(pid)``, ``with_rating``, ``puzzle_rating``.
- :mod:`~game.puzzles.daily` — ``daily_puzzle(date, game)`` by a published rule.
- :mod:`~game.puzzles.mistakes` — ``from_analysis(events, seat, analysis)``: the coach's
  blunders as puzzles; ``keep_blunders(events, seat, analysis)`` (or ``keep_from_job(job)``)
  puts them in "Your mistakes" when an analysis of the player's deal ends.
- :mod:`~game.puzzles.make` — the generator (``make(game, count, seed)``, the figures);
  :mod:`~game.puzzles.cli` — ``main.py puzzles check|make|daily``.
- :mod:`~game.puzzles.exact` — exact play where every card is known; :mod:`~game.puzzles.themes`.
"""
