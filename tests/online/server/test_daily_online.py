"""The club server's daily deal: a secret seed committed by its hash while the day is open and
revealed once the day has closed and every table dealt from it has ended (or its deadline
passed), one play per account a day, par and a leaderboard; the leaderboard refuses a second
play, a table the server did not deal, and a record that does not verify against the seed;
no message to a client holds the seed before then."""

from __future__ import annotations

import datetime as dt
import json

import pytest

import game.services.par
from game.ai.bots import make_bot
from game.match import Match
from game.online.server.daily import GRACE, SEED_BITS, DailyBoard, DailyRefusal, commitment
from game.online.server.serving import start_server_in_thread
from game.online.server.worker import choose_action
from game.online.wire.protocol import action_from_json, action_to_json
from game.services.par import Deal, house_bot, house_bots, par
from tests.online.wshelp import Client, Player, record_file

TODAY = dt.date.today()
DAY = TODAY.isoformat()
NOW = dt.datetime.combine(TODAY, dt.time(12))
TOMORROW_MORNING = NOW + dt.timedelta(hours=13)  # the day over, its deadline not yet
#: The house bots' budget the server's worker processes use (they are not monkeypatched).
HOUSE_BUDGET = game.services.par.HOUSE_ITERATIONS


@pytest.fixture(autouse=True)
def small_par(monkeypatch):
    monkeypatch.setattr(game.services.par, "PAR_ITERATIONS", 8)
    monkeypatch.setattr(game.services.par, "PAR_RUNS", 2)
    monkeypatch.setattr(game.services.par, "HOUSE_ITERATIONS", 8)


def played(deal) -> list[dict]:
    rules = deal.rules()
    bots = house_bots(rules, deal.seed, 0)
    bots[0] = make_bot("greedy", rules, 0, 1)
    m = Match(rules, deal.seed, bots, deals=1)
    return m.run()


def test_the_seed_is_secret_while_the_day_is_open_and_checks_out_after(tmp_path):
    board = DailyBoard(tmp_path)
    deal, word = board.rules_deal(DAY, "briscola", None)
    assert word == "standard" and deal.seed.bit_length() <= SEED_BITS == 256
    assert board.rules_deal(DAY, "briscola", None)[0].seed == deal.seed  # kept for the day
    open_ = board.public(DAY, "briscola", None, NOW)
    assert open_["seed"] is None and open_["nonce"] is None and len(open_["hash"]) == 64
    closed = board.public(DAY, "briscola", None, TOMORROW_MORNING)
    assert closed["seed"] == deal.seed and closed["hash"] == open_["hash"]
    assert commitment(DAY, "briscola", "standard", closed["seed"], closed["nonce"]) == open_["hash"]
    # Another game or day: another secret.
    assert board.rules_deal(DAY, "tressette", None)[0].seed != deal.seed


def test_the_seed_stays_secret_while_a_table_of_the_day_is_open_until_the_deadline(tmp_path):
    """A table begun at 23:59 is not played on with a published seed: the seed waits for it
    to end, or for the deadline — after which its result is refused."""
    board = DailyBoard(tmp_path)
    deal, word = board.rules_deal(DAY, "briscola", None)
    late = dt.datetime.combine(TODAY, dt.time(23, 59))
    board.begin(DAY, "briscola", word, "p:1", "LATETABLE1", late)
    assert board.public(DAY, "briscola", None, TOMORROW_MORNING)["seed"] is None  # still being played
    # Finished in time: accepted, and the seed is out.
    line = board.accept(
        DAY,
        "briscola",
        word,
        "p:1",
        "Anna",
        "LATETABLE1",
        played(deal),
        60.0,
        TOMORROW_MORNING - dt.timedelta(hours=11, minutes=30),
    )
    assert line["name"] == "Anna"
    assert board.public(DAY, "briscola", None, TOMORROW_MORNING)["seed"] == deal.seed
    # Another table past the deadline: the seed is published anyway and the result refused.
    board.begin(DAY, "briscola", word, "p:2", "LATETABLE2", late)
    assert board.public(DAY, "briscola", None, TOMORROW_MORNING)["seed"] is None
    past = dt.datetime.combine(TODAY + dt.timedelta(days=1), dt.time()) + GRACE
    assert board.public(DAY, "briscola", None, past)["seed"] == deal.seed
    with pytest.raises(DailyRefusal) as e:
        board.accept(DAY, "briscola", word, "p:2", "Bert", "LATETABLE2", played(deal), 60.0, past)
    assert e.value.code == "closed"
    with pytest.raises(DailyRefusal) as e:
        board.begin(DAY, "briscola", word, "p:3", "LATETABLE3", past)
    assert e.value.code == "closed"


def test_the_leaderboard_takes_one_verified_play_per_account_from_the_days_tables(tmp_path):
    board = DailyBoard(tmp_path)
    deal, word = board.rules_deal(DAY, "schnapsen", None)
    events = played(deal)
    for n, code in ((1, "TABLEANNA1"), (2, "TABLEBERT1"), (3, "TABLECLEO1"), (4, "TABLEDORA1")):
        board.begin(DAY, "schnapsen", word, f"p:{n}", code, NOW)
    line = board.accept(DAY, "schnapsen", word, "p:1", "Anna", "TABLEANNA1", events, 95.0, NOW)
    assert line["name"] == "Anna" and line["over_par"] == pytest.approx(line["score"] - line["par"], abs=1e-3)
    with pytest.raises(DailyRefusal) as e:  # the same account again (any name)
        board.accept(DAY, "schnapsen", word, "p:1", "Someone", "TABLEANNA1", events, 10.0, NOW)
    assert e.value.code == "played"
    with pytest.raises(DailyRefusal) as e:  # a table the server did not deal to this account
        board.accept(DAY, "schnapsen", word, "p:9", "Eve", "MADEUPCODE", events, 10.0, NOW)
    assert e.value.code == "record"
    # A record of another seed (it verifies, but it is not the day's deal) …
    other = played(type(deal)(deal.game, deal.deck, deal.players, deal.options, deal.seed + 1))
    with pytest.raises(DailyRefusal) as e:
        board.accept(DAY, "schnapsen", word, "p:2", "Bert", "TABLEBERT1", other, 10.0, NOW)
    assert e.value.code == "record"
    # … or the day's record with a score changed, or played with other options: refused.
    board.begin(DAY, "schnapsen", word, "p:5", "TABLEBERT2", NOW)
    bad = [dict(ev) for ev in events]
    end = next(ev for ev in bad if ev["event"] == "deal_end")
    end["points"] = [end["points"][0] + 1, end["points"][1]]
    with pytest.raises(DailyRefusal) as e:
        board.accept(DAY, "schnapsen", word, "p:5", "Bert", "TABLEBERT2", bad, 10.0, NOW)
    assert e.value.code == "record"
    # The day's Scopa played with house rules that score more (re bello, napola): refused.
    scopa, scopa_word = board.rules_deal(DAY, "scopa", None)
    board.begin(DAY, "scopa", scopa_word, "p:6", "TABLEBERT3", NOW)
    richer = type(scopa)(
        scopa.game, scopa.deck, scopa.players, {**scopa.options, "re_bello": True, "napola": True}, scopa.seed
    )
    with pytest.raises(DailyRefusal) as e:
        board.accept(DAY, "scopa", scopa_word, "p:6", "Bert", "TABLEBERT3", played(richer), 10.0, NOW)
    assert e.value.code == "record" and "settings" in str(e.value)
    board.accept(DAY, "schnapsen", word, "p:3", "Cleo", "TABLECLEO1", events, 30.0, NOW)
    lines = board.leaderboard(DAY, "schnapsen")
    # The same cards and play, so the same points over par: the quicker first.
    assert [ln["name"] for ln in lines] == ["Cleo", "Anna"] and lines[0]["over_par"] == lines[1]["over_par"]
    assert board.line_of(DAY, "schnapsen", None, "p:3")["name"] == "Cleo"


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
    """Dealt once per account: a player who leaves the day's table is not dealt its cards
    again (they would know them), whatever name they give; another account may play."""
    board = DailyBoard(tmp_path)
    board.begin(DAY, "briscola", "standard", "p:1", "CODEAAAAA1", NOW)
    with pytest.raises(DailyRefusal) as e:
        board.begin(DAY, "briscola", "standard", "p:1", "CODEAAAAA2", NOW)
    assert e.value.code == "played"
    board.begin(DAY, "briscola", "standard", "p:2", "CODEAAAAA3", NOW)
    board.begin(DAY, "tressette", "standard", "p:1", "CODEAAAAA4", NOW)  # another game's deal
    # Kept with the day: a restarted server remembers.
    with pytest.raises(DailyRefusal):
        DailyBoard(tmp_path).begin(DAY, "briscola", "standard", "p:1", "CODEAAAAA5", NOW)
    # Begun is not finished: the play is still taken once.
    deal, _ = board.rules_deal(DAY, "briscola", None)
    assert (
        board.accept(DAY, "briscola", "standard", "p:1", "Anna", "CODEAAAAA1", played(deal), 30.0, NOW)["name"]
        == "Anna"
    )


def signed_in(url: str, name: str, secret: str | None = None) -> tuple[Client, str]:
    """A connection signed in to ``name``'s account (made when ``secret`` is None)."""
    c = Client(url, name)
    made = c.request({"type": "account", "name": name, "secret": secret}, "account")
    return c, secret or made["secret"]


def test_a_daily_deal_on_the_server_end_to_end(tmp_path):
    handle = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1)
    try:
        nameless = Client(handle.url, "Anna")  # no account: no daily deal
        assert nameless.request({"type": "daily", "game": "briscola", "preset": None}, "error")["code"] == "account"
        nameless.close()
        host, secret = signed_in(handle.url, "Anna")
        created = host.request({"type": "daily", "game": "briscola", "preset": None}, "created")
        assert created["host_token"] is None  # the server alone sets the day's table up
        info = host.expect("daily_info")
        assert info["seed"] is None and info["nonce"] is None and info["date"] == DAY
        # Asked again before playing (a second window under another hello name, or after
        # looking at the cards): refused, by the account.
        again, _ = signed_in(handle.url, "somebody", secret)
        again.send({"type": "daily", "game": "briscola", "preset": None})
        assert again.expect("error")["code"] == "played"
        again.close()
        player = Player(
            handle.url, created["code"], created["tokens"]["0"], "Anna", seed=3, deadline=120, then="daily_result"
        ).start()
        player.join(120)
        result = player.after
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
        record = [json.loads(ln) for ln in open(record_file(tmp_path, player.record), encoding="utf-8")]
        assert record[0]["seed"] == seed
        handle.server.play.daily_board.check_record(
            handle.server.play.daily_board.rules_deal(DAY, "briscola", None)[0], record
        )
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
        host, _ = signed_in(handle.url, "Bert")
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
    """The worker seats a daily table's computers as game.services.par's house bots: what it chooses
    at every computer decision of a deal played offline against the house bots is what
    those bots chose."""
    rules = game.services.par.make_rules("briscola")
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
        chosen = choose_action(
            "briscola",
            d.deck,
            2,
            dict(d.options),
            d.seed,
            s,
            "normal",
            [[seat, action_to_json(a)] for seat, a in decisions[:k]],
            True,
        )
        assert action_from_json(chosen) == action, k


def test_online_par_is_the_same_on_every_machine_and_load(tmp_path, monkeypatch):
    """Par of the server's day is worked out with no clock: two servers (two data folders)
    holding the same deal agree, and a clock that jumps by minutes between two readings (a
    machine too loaded to think in time) changes nothing."""
    import time

    rules = game.services.par.make_rules("scopa")
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


def test_the_owners_par_budget_is_the_one_the_day_uses(tmp_path):
    """``serve --par-iterations``: the day's par is the hard player's average at that budget."""
    rules = game.services.par.make_rules("scopa")
    d = Deal("scopa", rules.deck.id, 2, rules.options, 99)
    small = DailyBoard(tmp_path / "a", par_iterations=3).par_of(DAY, d, "standard")
    assert small == par(d, 0, iterations=3).value
    assert small != par(d, 0, iterations=40).value  # the budget shows in this deal's par
