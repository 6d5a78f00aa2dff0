"""The one hardened JSON reader (game.safejson), the file helpers (game.services.storage) and the
YAML scan (game.config.scan_yaml) on their own: each limit refuses what it should, with one
line naming the file, the line and the field, and lets everything real through."""

from __future__ import annotations

import json
import multiprocessing
import os
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import safejson
from game.config import ConfigError, default_rules_path, scan_yaml
from game.safejson import JSONError, exact_equal, loads
from game.services import storage
from game.services.i18n import message_problem


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("[" * 100_000 + "]" * 100_000, "nested deeper than 64 levels"),
        ('{"card": "XX", "seat": 0, "card": "7D"}', "field 'card': the key is given twice"),
        ('{"seed": NaN}', "NaN is not a JSON number"),
        ('{"seed": Infinity}', "Infinity is not a JSON number"),
        ('{"seed": -Infinity}', "-Infinity is not a JSON number"),
        ('{"seed": 1e999}', "too large"),
        ("9" * 5000, "too many digits"),
        ('{"a": 1', "not valid JSON"),
    ],
)
def test_the_loader_refuses_with_one_line_naming_file_line_and_field(text, fragment):
    with pytest.raises(JSONError) as e:
        loads(text, file="match.json", line=3)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("match.json, line 3") and fragment in msg


def test_the_loader_refuses_too_much_text_and_bad_utf8():
    with pytest.raises(JSONError, match="longer than 1 KB"):
        loads(" " * 2000, max_bytes=1024)
    with pytest.raises(JSONError, match="not UTF-8"):
        loads(b'{"a": "\xff"}')


def test_the_loader_reads_real_json_and_brackets_inside_texts():
    assert loads('{"a": "[[[[{{{{", "b": [1, 2.5, null, true]}') == {"a": "[[[[{{{{", "b": [1, 2.5, None, True]}
    assert loads(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}  # a byte-order mark some editors write
    deep = "[" * 64 + "]" * 64
    assert loads(deep)  # exactly at the limit


def test_exact_types_tell_true_from_1_and_minus_zero_from_0():
    assert safejson.is_int(3) and not safejson.is_int(True) and not safejson.is_int(3.0)
    assert not exact_equal(True, 1) and not exact_equal(-0.0, 0) and not exact_equal(-0.0, 0.0)
    assert not exact_equal([1, 2], [1, True]) and exact_equal([1, [2]], (1, (2,)))
    assert not exact_equal({"a": 0}, {"a": False}) and exact_equal({"a": [None]}, {"a": [None]})


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "settings.json"
    os.mkfifo(fifo)
    with pytest.raises(JSONError, match="not a regular file \\(a pipe\\)"):
        safejson.load_file(fifo)


def test_a_device_is_refused_unread():
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    with pytest.raises(JSONError, match="a device"):
        safejson.read_bytes("/dev/zero")


# ------------------------------------------------------------------ storage
def test_quarantine_never_overwrites_an_earlier_bad_copy(tmp_path):
    p = tmp_path / "stats.json"
    for n in range(3):
        p.write_text(f"damaged {n}", encoding="utf-8")
        data, problem = storage.read_json(p)
        assert data is None and problem.bad
    assert sorted(x.name for x in tmp_path.iterdir()) == ["stats.json-2.bad", "stats.json-3.bad", "stats.json.bad"]
    assert {x.read_text() for x in tmp_path.iterdir()} == {"damaged 0", "damaged 1", "damaged 2"}


def test_write_bytes_refuses_a_symlink_and_an_existing_file_without_overwrite(tmp_path):
    target = tmp_path / "victim.txt"
    target.write_text("precious", encoding="utf-8")
    link = tmp_path / "out.png"
    link.symlink_to(target)
    assert "symbolic link" in storage.write_bytes(link, b"x", overwrite=True)
    assert target.read_text() == "precious"
    assert "already exists" in storage.write_bytes(target, b"x", overwrite=False)
    assert target.read_text() == "precious"
    assert storage.write_bytes(target, b"new", overwrite=True) is None and target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_merge_changes_keeps_the_other_windows_change():
    base = {"volume": 80, "language": "en", "game_options": {"scopa": {"target": 11}, "briscola": {"x": 1}}}
    current = {"volume": 30, "language": "en", "game_options": {"scopa": {"target": 11}, "briscola": {"x": 2}}}
    mine = {"volume": 80, "language": "de", "game_options": {"scopa": {"target": 21}, "briscola": {"x": 1}}}
    merged = storage.merge_changes(current, base, mine)
    assert merged == {"volume": 30, "language": "de", "game_options": {"scopa": {"target": 21}, "briscola": {"x": 2}}}


def test_a_stale_home_lock_is_taken_over_and_a_live_one_is_not(tmp_path):
    (tmp_path / storage.HOME_LOCK).write_text("999999999\n")  # no such process
    mine = storage.claim_home(tmp_path)
    assert mine.owner
    parent = os.getppid()
    (tmp_path / storage.HOME_LOCK).write_text(f"{parent}\n")  # a live process that is not us
    other = storage.claim_home(tmp_path)
    assert not other.owner and other.other == parent
    mine.release()  # the lock is no longer ours: it stays
    assert (tmp_path / storage.HOME_LOCK).read_text().strip() == str(parent)


def _add_matches(home: str, n: int, start: multiprocessing.synchronize.Event) -> None:
    os.environ["CARDAVIA_HOME"] = home
    from game.services import stats

    start.wait()
    for _ in range(n):
        assert stats.record_result("scopa", "versus", "won", 1) is None


def test_two_processes_adding_matches_lose_none(tmp_path):
    """Two windows finishing matches at the same moment: every one is counted (55 in all)."""
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Event()
    procs = [ctx.Process(target=_add_matches, args=(str(tmp_path), n, start)) for n in (27, 28)]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    data = json.loads((tmp_path / "stats.json").read_text(encoding="utf-8"))
    assert data["scopa/versus"]["played"] == 55 and data["scopa/versus"]["won"] == 55


def test_orphaned_temp_files_are_cleaned_but_a_fresh_one_is_spared_for_a_second_window(tmp_path):
    old = tmp_path / ".match.json-abc123.tmp"
    fresh = tmp_path / ".stats.json-def456.tmp"
    mine = tmp_path / "notes.tmp"
    for p in (old, fresh, mine):
        p.write_text("x")
    hour_ago = time.time() - 7200
    os.utime(old, (hour_ago, hour_ago))
    assert storage.clean_temp_files([tmp_path], ("match.json", "stats.json"), min_age=3600) == 1
    assert not old.exists() and fresh.exists() and mine.exists()
    assert storage.clean_temp_files([tmp_path], ("match.json", "stats.json")) == 1
    assert not fresh.exists() and mine.exists()  # only our own names are ever touched


# ------------------------------------------------------------------ YAML
def test_the_shipped_rules_yaml_passes_the_scan_with_its_anchors():
    text = default_rules_path().read_text(encoding="utf-8")
    assert "&italian_suits" in text and "*italian_suits" in text
    lines = scan_yaml(text, "rules.yaml")
    assert lines[("decks", "piacentine", "aspect")] == text[: text.index("aspect:")].count("\n") + 1


@pytest.mark.parametrize(
    "text,fragment,aliases",
    [
        ("a: " + "[" * 100_000 + "]" * 100_000, "nested deeper than 32", True),
        (
            "a: &x [1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
            + "".join(f"b{i}: &x{i} [{', '.join([f'*x{i - 1}' if i > 1 else '*x'] * 9)}]\n" for i in range(1, 12)),
            "alias bomb",
            True,
        ),
        ("a: &x 1\nb: *x\n", "anchors and aliases are not allowed", False),
        ("a: 1\nb: 2\na: 3\n", "the key 'a' is given twice", True),
        ("? [1, 2]\n: x\n", "a key must be a plain text", True),
    ],
)
def test_the_yaml_scan_refuses_before_pyyaml_builds_anything(text, fragment, aliases):
    with pytest.raises(ConfigError, match=fragment):
        scan_yaml(text, "x.yaml", allow_aliases=aliases)


@pytest.mark.parametrize(
    "template,ok",
    [
        ("{value}%", True),
        ("{value:>8}", True),
        ("{count} cards", True),
        ("a {stray brace", True),
        ("{value:>300000000}", False),
        ("{value:.500f}", False),
        ("{value.__class__}", False),
        ("{value[0]}", False),
        ("{value:{width}}", False),
        ("bad \x00 char", False),
        ("x" * 5000, False),
    ],
)
def test_locale_messages_with_a_dangerous_format_are_refused(template, ok):
    assert (message_problem(template) is None) == ok


def test_the_streaming_reader_never_reads_past_the_line_asked_for(tmp_path):
    from game.record import open_record

    p = tmp_path / "r.jsonl"
    p.write_bytes(b'{"event": "match", "format": 1, "game": "nogame"}\n' + b"x" * 10_000_000)
    f, stream = open_record(p)
    with f:
        with pytest.raises(ValueError, match="unknown game"):
            stream.get(0)
        assert f.raw.tell() < 100_000  # what the operating system gave us: not the 10 MB after it


# ---- the writer: text_encoder is JSONEncoder.encode, the same text --------------------------------
_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=6) | st.integers(-5, 5) | st.booleans() | st.none(), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(_json_values, st.sampled_from([(", ", ": "), (",", ":")]))
def test_the_text_encoder_writes_what_jsonencoder_writes(value, separators):
    for allow_nan in (True, False):
        plain = json.JSONEncoder(ensure_ascii=False, separators=separators, allow_nan=allow_nan)
        assert safejson.text_encoder(separators, allow_nan=allow_nan)(value) == plain.encode(value)


def test_the_text_encoder_refuses_what_jsonencoder_refuses():
    strict = safejson.text_encoder((",", ":"), allow_nan=False)
    for bad in (float("nan"), [1, float("inf")], {"x": -float("inf")}):
        with pytest.raises(ValueError):
            strict(bad)
    assert safejson.text_encoder((",", ":"))([float("nan")]) == "[NaN]"  # as JSONEncoder with allow_nan
    with pytest.raises(TypeError):
        strict({"x": object()})
    with pytest.raises(TypeError):
        strict({(1, 2): 3})  # a key JSON cannot have


def _strict_reference(text: str) -> object:
    """What loads must read: json.loads, a key given twice refused, NaN and infinities refused."""

    def pairs(items: list) -> dict:
        keys = [k for k, _ in items]
        if len(set(keys)) != len(keys):
            raise ValueError("twice")
        return dict(items)

    return json.loads(text, object_pairs_hook=pairs, parse_constant=lambda c: 1 / 0)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.text(max_size=4), _json_values, max_size=4),
    st.sampled_from(["", " ", "\n", "x", "}", "{}", ',"a":1}']),
    st.sampled_from(["", " ", "\t"]),
    st.booleans(),
)
def test_an_object_reads_as_json_reads_it_whatever_comes_around_it(value, after, before, twice):
    """The reader's short way for a bare object (a client's message) reads what the long way
    reads, and refuses what it refuses: text after the object, a key given twice at any depth."""
    text = json.dumps(value, separators=(",", ":"), allow_nan=False)
    if twice and text != "{}":
        text = '{"k":0,"k":' + text + "}"
    text = before + text + after
    try:
        expected = _strict_reference(text)
    except (ValueError, ZeroDivisionError):
        with pytest.raises(JSONError):
            loads(text)
        return
    assert exact_equal(loads(text), expected)
