"""The rules shared by the games: ``base`` (actions, events, the GameRules contract), and the
family code of the capture games (``capture``) and the trick games (``trick``). Each game's
own rules are in ``game/games/<id>/rules.py``; ``game.rulesets.make_rules`` builds one.
"""
