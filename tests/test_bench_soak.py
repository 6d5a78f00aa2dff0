"""bench/soak.py plays only the option combinations a match may use."""

from __future__ import annotations

from game.config import get_config
from game.rulesets import make_rules
from tests.bench_module import load_bench

soak = load_bench("soak")


def test_soak_skips_the_combinations_no_match_may_use_and_keeps_the_rest():
    config = get_config()
    combos, skipped = soak.option_combinations(config)
    assert skipped > 0
    for gid, players, _decks, options in combos:
        make_rules(gid, None, players, options)  # every kept combination sets up a match
        spec = config.game(gid)
        for name, value in options.items():
            assert value in spec.options[name].allowed_for(players)
    # Scopone (and every option offered for four only) is never tried with two or three.
    for gid, players, _decks, options in combos:
        for name, value in options.items():
            opt = config.game(gid).options[name]
            if not opt.offered_for(players):
                assert value == opt.default, (gid, players, name, value)
    # Every value of every option is still played with some player count it is offered for.
    for gid, spec in config.games.items():
        for name, opt in spec.options.items():
            seen = {repr(o[name]) for g, _p, _d, o in combos if g == gid}
            assert seen == {repr(v) for v in opt.allowed}, (gid, name)
