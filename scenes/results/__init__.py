"""The results screen (:mod:`scenes.results.scene`) and the rows it shows
(:mod:`scenes.results.breakdown`, pygame-free; drawn by :mod:`scenes.results.rows`). A game's
own sentences about a deal live in its folder, ``game/games/<id>/results.py``."""
