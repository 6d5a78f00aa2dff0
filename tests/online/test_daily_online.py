"""The club server's daily deal (issue 31): a secret seed committed by its hash while the day
is open and revealed once it has closed, one play per player a day, par and a leaderboard;
the leaderboard refuses a second play and a record that does not verify against the seed;
no message to a client holds the seed before the day closes."""
from __future__ import annotations

import datetime as dt
import json

import pytest

import game.par
from game.ai.bots import make_bot
from game.match import Match
from game.online.daily import SEED_BITS, DailyBoard, DailyRefusal, commitment
from game.online.protocol import action_from_json, action_to_json
from game.online.serving import start_server_in_thread
from game.online.worker import choose_action
from game.par import Deal, house_bot, house_bots, par
from tests.online.wshelp import Client, Player

TODAY = dt.date.today()
DAY = TODAY.isoformat()
#: The house bots' budget the server's worker processes use (they are not monkeypatched).
HOUSE_BUDGET = game.par.HOUSE_ITERATIONS


@pytest.fixture(autouse=True)
def small_par(monkeypatch):
    monkeypatch.setattr(game.par, "PAR_ITERATIONS", 8)
    monkeypatch.setattr(game.par, "PAR_RUNS", 2)
    monkeypatch.setattr(game.par, "HOUSE_ITERATIONS", 8)


def played(deal) -> list[dict]:
    rules = deal.rules()
    bots = house_bots(rules, deal.seed, 0)
    bots[0] = make_bot("greedy", rules, 0, 1)
    m = Match(rules, deal.seed, bots, deals=1)
    return m.run()


def test_the_seed_is_secret_while_the_day_is_open_and_checks_out_after(tmp_path):
    board = DailyBoard(tmp_path)
    deal, word = board.rules_deal(DAY, "briscola", None)
    assert word == "standard" and deal.seed.bit_length() <= SEED_BITS
    assert board.rules_deal(DAY, "briscola", None)[0].seed == deal.seed  # kept for the day
    open_ = board.public(DAY, "briscola", None, TODAY)
    assert open_["seed"] is None and open_["nonce"] is None and len(open_["hash"]) == 64
    closed = board.public(DAY, "briscola", None, TODAY + dt.timedelta(days=1))
    assert closed["seed"] == deal.seed and closed["hash"] == open_["hash"]
    assert commitment(DAY, "briscola", "standard", closed["seed"], closed["nonce"]) == open_["hash"]
    # Another game or day: another secret.
    assert board.rules_deal(DAY, "tressette", None)[0].seed != deal.seed


def test_the_leaderboard_takes_one_verified_play_per_player(tmp_path):
    board = DailyBoard(tmp_path)
    deal, word = board.rules_deal(DAY, "schnapsen", None)
    events = played(deal)
    line = board.accept(DAY, "schnapsen", None, "Anna", events, 95.0)
    assert line["name"] == "Anna" and line["over_par"] == pytest.approx(line["score"] - line["par"], abs=1e-3)
    with pytest.raises(DailyRefusal) as e:
        board.accept(DAY, "schnapsen", None, "anna", events, 10.0)  # the same player, another case
    assert e.value.code == "played"
    # A record of another seed (it verifies, but it is not the day's deal) …
    other = played(type(deal)(deal.game, deal.deck, deal.players, deal.options, deal.seed + 1))
    with pytest.raises(DailyRefusal) as e:
        board.accept(DAY, "schnapsen", None, "Bert", other, 10.0)
    assert e.value.code == "record"
    # … or the day's record with the seed kept but a score changed: refused.
    bad = [dict(ev) for ev in events]
    end = next(ev for ev in bad if ev["event"] == "deal_end")
    end["points"] = [end["points"][0] + 1, end["points"][1]]
    with pytest.raises(DailyRefusal) as e:
        board.accept(DAY, "schnapsen", None, "Bert", bad, 10.0)
    assert e.value.code == "record"
    # A record whose match line claims the seed but deals other cards: refused.
    swapped = [dict(ev) for ev in other]
    swapped[0]["seed"] = deal.seed
    with pytest.raises(DailyRefusal):
        board.accept(DAY, "schnapsen", None, "Bert", swapped, 10.0)
    board.accept(DAY, "schnapsen", None, "Cleo", events, 30.0)
    lines = board.leaderboard(DAY, "schnapsen")
    # The same cards and play, so the same points over par: the quicker first.
    assert [ln["name"] for ln in lines] == ["Cleo", "Anna"] and lines[0]["over_par"] == lines[1]["over_par"]


def _ints(value) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_ints(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_ints(v) for v in value)) if value else set()
    return set()


def test_a_deal_begun_and_left_is_the_days_play(tmp_path):
    """Dealt once per name: a player who leaves the day's table is not dealt its cards again
    (they would know them), under another case of the name either; another name may play."""
    board = DailyBoard(tmp_path)
    board.begin(DAY, "briscola", "standard", "Anna")
    with pytest.raises(DailyRefusal) as e:
        board.begin(DAY, "briscola", "standard", "ANNA")
    assert e.value.code == "played"
    board.begin(DAY, "briscola", "standard", "Bert")
    board.begin(DAY, "tressette", "standard", "Anna")  # another game's deal
    # Kept with the day: a restarted server remembers.
    with pytest.raises(DailyRefusal):
        DailyBoard(tmp_path).begin(DAY, "briscola", "standard", "anna")
    # Begun is not finished: the play is still taken once.
    deal, _ = board.rules_deal(DAY, "briscola", None)
    assert board.accept(DAY, "briscola", None, "Anna", played(deal), 30.0)["name"] == "Anna"


def test_a_daily_deal_on_the_server_end_to_end(tmp_path):
    handle = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1)
    try:
        host = Client(handle.url, "Anna")
        created = host.request({"type": "daily", "game": "briscola", "preset": None}, "created")
        info = host.expect("daily_info")
        assert info["seed"] is None and info["nonce"] is None and info["date"] == DAY
        # Asked again before playing (a second window, or after looking at the cards): refused.
        again = Client(handle.url, "anna")
        again.send({"type": "daily", "game": "briscola", "preset": None})
        assert again.expect("error")["code"] == "played"
        again.close()
        player = Player(handle.url, created["code"], created["tokens"]["0"], "Anna", seed=3).start()
        player.join(120)
        result = host.expect("daily_result", timeout=60)
        assert result["name"] == "Anna" and "par" in result and "over_par" in result
        # One play a day: the second is refused.
        host.send({"type": "daily", "game": "briscola", "preset": None})
        err = host.expect("error")
        assert err["code"] == "played"
        board = host.request({"type": "daily_board", "game": "briscola", "preset": None, "date": None}, "daily_board")
        assert board["mine"]["name"] == "Anna" and board["lines"][0]["name"] == "Anna"
        assert board["info"]["hash"] == info["hash"] and board["info"]["seed"] is None
        # Nothing a client was sent names the seed before the day closes.
        seed = handle.server.play.daily_board.rules_deal(DAY, "briscola", None)[0].seed
        sent = host.seen + [{"events": player.events}]
        assert all(seed not in _ints(m) for m in sent)
        assert player.events[0]["seed"] is None and player.events[0]["deals"] == 1
        deal = next(e for e in player.events if e["event"] == "deal")
        assert deal["hands"][1] == [None] * len(deal["hands"][1])
        # The server's own record verifies against the seed (it is the one on the leaderboard).
        record = [json.loads(ln) for ln in open(player.record, encoding="utf-8")]
        assert record[0]["seed"] == seed
        handle.server.play.daily_board.check_record(handle.server.play.daily_board.rules_deal(DAY, "briscola", None)[0],
                                                    record)
        # The server's computers were the house bots par is worked out against (a fixed
        # budget, no clock), not its time-capped computer seats: each of their decisions is
        # the one the house bot makes at that point of the record.
        rules = handle.server.tables[created["code"]].rules
        decisions = handle.server.tables[created["code"]].match.decisions
        for k, (s, action) in enumerate(decisions):
            if s == 0:
                continue
            m = Match.rebuild(rules, seed, decisions[:k])
            m.bots[s] = house_bot(rules, seed, s, iterations=HOUSE_BUDGET)
            _, view, legal = m.bot_turn()
            assert m.bots[s].choose(view, legal) == action, k
        host.close()
    finally:
        assert handle.stop(timeout=10)


def test_a_daily_table_resumed_after_a_restart_stays_a_daily_table(tmp_path):
    import time

    handle = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1)
    try:
        host = Client(handle.url, "Bert")
        created = host.request({"type": "daily", "game": "tressette", "preset": None}, "created")
        code, token = created["code"], created["tokens"]["0"]
        first = Player(handle.url, code, token, "Bert", seed=5, stop_after=4).start()
        first.join(120)
        daily = dict(handle.server.tables[code].daily)
        host.close()
    finally:
        assert handle.stop(timeout=10)
    handle = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1)
    try:
        table = handle.server.tables[code]
        assert table.daily == daily and table.match.deal_limit == 1
        again = Player(handle.url, code, first.token, "Bert", seed=6).start()
        again.join(120)
        board = handle.server.play.daily_board
        deadline = time.monotonic() + 60
        while not board.leaderboard(DAY, "tressette") and time.monotonic() < deadline:
            time.sleep(0.2)
        assert [ln["name"] for ln in board.leaderboard(DAY, "tressette")] == ["Bert"]
    finally:
        assert handle.stop(timeout=10)


def test_the_servers_daily_computers_are_the_house_bots():
    """The worker seats a daily table's computers as game.par's house bots: what it chooses
    at every computer decision of a deal played offline against the house bots is what
    those bots chose."""
    rules = game.par.make_rules("briscola")
    d = Deal("briscola", rules.deck.id, 2, rules.options, 424242)
    bots = house_bots(rules, d.seed, 0)
    bots[0] = make_bot("greedy", rules, 0, 1)
    m = Match(rules, d.seed, bots, deals=1)
    m.run()
    decisions = list(m.decisions)
    assert len(decisions) == 40
    for k, (s, action) in enumerate(decisions):
        if s == 0:
            continue
        chosen = choose_action("briscola", d.deck, 2, dict(d.options), d.seed, s, "normal",
                               [[seat, action_to_json(a)] for seat, a in decisions[:k]], True)
        assert action_from_json(chosen) == action, k


def test_online_par_is_the_same_on_every_machine_and_load(tmp_path, monkeypatch):
    """Par of the server's day is worked out with no clock: two servers (two data folders)
    holding the same deal agree, and a clock that jumps by minutes between two readings (a
    machine too loaded to think in time) changes nothing."""
    import time

    rules = game.par.make_rules("scopa")
    d = Deal("scopa", rules.deck.id, 2, rules.options, 99)
    first = DailyBoard(tmp_path / "a").par_of(DAY, d, "standard")
    real = time.perf_counter
    jumps = [0.0]

    def jumping() -> float:
        jumps[0] += 120.0
        return real() + jumps[0]

    with monkeypatch.context() as mp:
        mp.setattr(time, "perf_counter", jumping)
        second = DailyBoard(tmp_path / "b").par_of(DAY, d, "standard")
    assert jumps[0] > 0  # the search did read the clock
    assert second == first == par(d, 0).value
