"""The four locales are complete and consistent with the code and with each other.

- every message key the code asks for (literal keys, and keys built from a prefix plus known
  ids: refusal rule ids, AI levels, speeds, options, rule sections…) exists in en, nl, de, it;
- no locale has keys the others lack; placeholders and plural forms match across languages;
- no message is empty, and none is still the English text in another language (apart from a
  short list of words that really are the same);
- the localized strings in rules.yaml (deck names, regions, descriptions, suits, courts) are
  complete too.
"""

from __future__ import annotations

import ast
import re
import string
from functools import cache
from pathlib import Path

import pytest

from game.config import LANGUAGES, get_config
from game.services.i18n import PLURAL_FORMS, I18n, load_locale
from tests.source_tree import GROUP, Source, sources

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "nl", "de", "it")
CODE_DIRS = ("scenes", "sprites", "game", "audio")
TABLES = {lang: load_locale(lang)[0] for lang in LANGS}
SECTIONS = sorted({k.split(".")[0] for k in TABLES["en"]})

#: Texts that are rightly the same as the English: names, the games' own words, and words
#: these languages share with English.
SAME_AS_ENGLISH = {
    "Cardavia",
    "Scopa · Cìcera · Briscola · Schnapsen · Tressette",
    "{value}%",
    "OK",
    "Contrast",  # nl
    "Start",  # nl, de
    "West",  # nl, de
    "Normal",  # de
    "Menu",  # it
    "Partner",  # de
    "Computer {n}",  # nl, de, it: the same word (an online table's computer seat)
    "Computer",  # nl, de, it: the duplicate's other side
    "Par",  # nl, de, it: the golfer's word, as in the daily deal's sentences
    "Score",  # nl
    "{count} scope",  # it: Scopa is an Italian word
    "Scopone scientifico",
    "Scopa d'assi",
    "Scopa a quindici",  # the variants' own names
    "Scopone",
    "Scopone a 10",
    "Re bello",
    "Napola",  # the house rules' own names (issue 18)
    "Version {version}",  # de: the menu's foot
    "April",
    "August",
    "September",
    "November",  # de: the same month names
    "{day} {month}",  # nl, it: a date written as in English ("1 maart", "1 marzo")
}


# ---------------------------------------------------------------------- keys the code uses
def _sources() -> list[Source]:
    return [s for s in sources() if s.rel.split("/")[0] in CODE_DIRS]


def _key_shaped(s: str) -> bool:
    return (
        bool(re.fullmatch(r"[a-z]+(\.[A-Za-z0-9_]+)+", s))
        and s.split(".")[0] in SECTIONS
        and not re.search(r"\.(ya?ml|py|json|png|txt)$", s)
    )


def _loop_values(nodes: tuple[ast.AST, ...]) -> dict[ast.AST, dict[str, list[str]]]:
    """For every node inside ``for x in ("a", "b")`` loops (and comprehensions): {name: values}."""
    out: dict[ast.AST, dict[str, list[str]]] = {}

    def consts(it: ast.AST) -> list[str] | None:
        if isinstance(it, (ast.Tuple, ast.List, ast.Set)):
            vals = []
            for e in it.elts:
                if isinstance(e, ast.Constant) and isinstance(e.value, str):
                    vals.append(e.value)
                elif isinstance(e, ast.Tuple) and e.elts and isinstance(e.elts[0], ast.Constant):
                    vals.append(e.elts[0].value)  # for key, fn in (("rules", …), …)
                else:
                    return None
            return vals
        return None

    def bind(target: ast.AST, it: ast.AST) -> dict[str, list[str]]:
        vals = consts(it)
        if vals is None:
            return {}
        if isinstance(target, ast.Name):
            return {target.id: vals}
        if isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name):
            return {target.elts[0].id: vals}
        return {}

    for node in nodes:
        scopes: dict[str, list[str]] = {}
        if isinstance(node, ast.For):
            scopes = bind(node.target, node.iter)
        elif isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)):
            for gen in node.generators:
                scopes.update(bind(gen.target, gen.iter))
        if scopes:
            for inner in ast.walk(node):
                out.setdefault(inner, {}).update(scopes)
    return out


@cache
def code_keys() -> tuple[frozenset[str], frozenset[str]]:
    """(full keys, prefixes of keys built at run time) found in the code (scanned once, when a
    test first asks: not while the tests are collected)."""
    keys: set[str] = set()
    prefixes: set[str] = set()
    for src in _sources():
        loops = _loop_values(src.nodes)
        # The literal pieces of an f-string are prefixes, not keys.
        pieces = {id(v) for n in src.nodes if isinstance(n, ast.JoinedStr) for v in n.values}
        for node in src.nodes:
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and _key_shaped(node.value)
                and id(node) not in pieces
            ):
                keys.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                head = str(node.values[0].value)
                if not _key_shaped(head.rstrip("._") + ".x" if head.endswith(".") else head.rstrip("_") or "x"):
                    continue
                parts = node.values
                # f"pause.{key}" inside `for key in ("resume", …)`: every expansion is a key.
                if (
                    len(parts) == 2
                    and isinstance(parts[1], ast.FormattedValue)
                    and isinstance(parts[1].value, ast.Name)
                ):
                    vals = loops.get(node, {}).get(parts[1].value.id)
                    if vals:
                        keys.update(head + v for v in vals)
                        continue
                prefixes.add(head)
    return frozenset(keys), frozenset(prefixes)


def expected_keys() -> set[str]:
    """Keys built from a prefix and the ids the program knows (config, rules, levels…)."""
    from game.services.settings import AI_LEVELS
    from scenes.registry import scene_names
    from scenes.rules import SECTIONS as RULE_SECTIONS
    from sprites.tween import SPEED_FACTORS

    cfg = get_config()
    keys: set[str] = set()
    for path in sorted((ROOT / "game" / "rules").glob("*.py")) + sorted((ROOT / "game" / "games").glob("*/rules.py")):
        keys.update(f"refusals.{r}" for r in re.findall(r'IllegalAction\(\s*"([a-z_]+)"', path.read_text()))
    keys.update(f"ai.{lvl}" for lvl in AI_LEVELS)
    keys.update(f"settings.speed_{s}" for s in SPEED_FACTORS)
    keys.update(f"scene.{name}" for name in scene_names())
    for gid, game in cfg.games.items():
        keys.add(f"blurb.{gid}")
        keys.update(f"rules.{gid}.{sec}.{part}" for sec in RULE_SECTIONS for part in ("title", "body"))
        for oid, spec in game.options.items():
            keys.add(f"option.{oid}")
            if oid == "format":
                keys.update(f"option.format_{v}" for v in spec.allowed)
    keys.update(f"table.keys_{g}" for g in ("scopa", "cicera", "briscola", "schnapsen"))
    for reason in ("66", "closed_won", "closed_lost", "last_trick"):
        keys.update({f"results.schnapsen.reason_{reason}", f"results.schnapsen.reason_{reason}_you"})
    keys.update({"results.schnapsen.why_closed_lost_2", "results.schnapsen.why_closed_lost_3"})
    return keys


@pytest.mark.xdist_group(GROUP)
def test_the_scan_finds_the_code_keys():
    CODE_KEYS, CODE_PREFIXES = code_keys()
    # The scan itself works: literal, conditional and loop-built keys are all seen.
    assert {"menu.play", "table.thinking", "table.to_play", "pause.quit", "results.scopa.cards"} <= CODE_KEYS
    assert any(p.startswith("refusals.") for p in CODE_PREFIXES)
    assert len(CODE_KEYS) > 100


@pytest.mark.xdist_group(GROUP)
@pytest.mark.parametrize("lang", LANGS)
def test_every_key_the_code_uses_exists(lang):
    CODE_KEYS, CODE_PREFIXES = code_keys()
    table = TABLES[lang]
    missing = sorted(k for k in CODE_KEYS | expected_keys() if k not in table)
    assert not missing, f"{lang}.yaml lacks {missing}"
    # Keys built at run time from a prefix: at least the prefix is there.
    lost = sorted(p for p in CODE_PREFIXES if not any(k.startswith(p) for k in table))
    assert not lost, f"{lang}.yaml has no key starting with {lost}"


# ---------------------------------------------------------------------- the locales agree
@pytest.mark.parametrize("lang", ("nl", "de", "it"))
def test_same_keys_as_english(lang):
    en, other = set(TABLES["en"]), set(TABLES[lang])
    assert not sorted(en - other), f"{lang}.yaml lacks {sorted(en - other)}"
    assert not sorted(other - en), f"{lang}.yaml has keys English lacks: {sorted(other - en)}"


def _fields(text: str) -> set[str]:
    try:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}
    except ValueError:
        return {"<broken braces>"}


def _all_fields(value) -> set[str]:
    if isinstance(value, dict):
        return set().union(*(_fields(v) for v in value.values()))
    return _fields(value)


@pytest.mark.parametrize("lang", ("nl", "de", "it"))
def test_placeholders_match_english(lang):
    bad = []
    for key, en in TABLES["en"].items():
        other = TABLES[lang].get(key)
        if other is None:
            continue
        if _all_fields(other) != _all_fields(en):
            bad.append(f"{key}: {sorted(_all_fields(en))} vs {sorted(_all_fields(other))}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("lang", LANGS)
def test_plural_messages_have_one_and_other(lang):
    bad = []
    for key, en in TABLES["en"].items():
        value = TABLES[lang].get(key)
        if isinstance(en, dict) or isinstance(value, dict):
            if not isinstance(value, dict) or not {"one", "other"} <= set(value) or not set(value) <= set(PLURAL_FORMS):
                bad.append(key)
            elif "count" not in _all_fields(value) and "1" not in value["one"]:
                bad.append(f"{key}: the count is not shown")
    assert not bad, bad


def test_plurals_read_naturally():
    i = I18n("en")
    assert i.t("decks.cards", count=1) == "1 card" and i.t("decks.cards", count=40) == "40 cards"
    i.set_language("de")
    assert i.t("decks.cards", count=1) == "1 Karte" and i.t("decks.cards", count=2) == "2 Karten"
    i.set_language("nl")
    assert i.t("table.won_cards", count=1) == "1 kaart gewonnen"
    i.set_language("it")
    assert i.t("line.players", count=4) == "4 giocatori"
    assert i.t("results.leftover", count=1, team="Tu").startswith("Rimasta in tavola: 1 carta")


@pytest.mark.parametrize("lang", LANGS)
def test_no_value_is_empty(lang):
    empty = []
    for key, value in TABLES[lang].items():
        texts = value.values() if isinstance(value, dict) else [value]
        if any(not str(t).strip() for t in texts):
            empty.append(key)
    assert not empty, empty


@pytest.mark.parametrize("lang", ("nl", "de", "it"))
def test_nothing_is_left_in_english(lang):
    left = []
    for key, en in TABLES["en"].items():
        value = TABLES[lang].get(key)
        if value == en and (en if isinstance(en, str) else en.get("other", "")) not in SAME_AS_ENGLISH:
            # Placeholders alone ("{rank} · {seat}") are no English words.
            if isinstance(en, dict) or re.search(r"[A-Za-z]{2}", re.sub(r"\{[a-z_]+\}", "", en)):
                left.append(f"{key}: {en!r}")
    assert not left, "still English:\n" + "\n".join(left)


def test_sentences_with_a_subject_have_a_form_for_you():
    """A name in a verb phrase needs the verb's "you" form in nl/de/it: the code picks a
    separate *_you message when the subject is the player."""
    for key in TABLES["en"]:
        if key.endswith("_you"):
            assert key[: -len("_you")] in TABLES["en"], key
    i = I18n("it")
    assert i.t("results.schnapsen.reason_66_you") == "Hai raggiunto 66"
    assert i.t("results.schnapsen.reason_66", name=i.t("results.subject.opponent")) == "L'avversario ha raggiunto 66"
    i.set_language("de")
    assert i.t("callouts.close_sub_you").startswith("Du drehst zu")


# ---------------------------------------------------------------------- rules.yaml strings
def test_deck_and_game_strings_in_every_language():
    cfg = get_config()
    assert set(LANGUAGES) == set(LANGS)
    problems = []
    for did, deck in cfg.decks.items():
        for lang in LANGS:
            for what, table in (("name", deck.name), ("region", deck.region), ("description", deck.description)):
                if not str(table.get(lang, "")).strip():
                    problems.append(f"{did}.{what}.{lang}")
            for s in "DCSB":
                if not deck.suit_name(s, lang).strip():
                    problems.append(f"{did}.suits.{lang}.{s}")
            for r in "JQK":
                if not deck.court_name(r, lang).strip():
                    problems.append(f"{did}.courts.{lang}.{r}")
        for lang in ("nl", "de", "it"):
            if deck.description.get(lang) == deck.description.get("en"):
                problems.append(f"{did}.description.{lang} is English")
    for gid, game in cfg.games.items():
        problems += [f"{gid}.name.{lang}" for lang in LANGS if not str(game.name.get(lang, "")).strip()]
    assert not problems, problems


def test_pattern_names_per_suit_system():
    """The names the issue asks for: Fante / Cavallo / Re; Boer / Vrouw / Heer; Bube / Dame / König;
    Unter / Ober; the French, German and Italian suits."""
    cfg = get_config()
    d = cfg.decks
    assert [d["piacentine"].court_name(r, "it") for r in "JQK"] == ["Fante", "Cavallo", "Re"]
    assert [d["schnapsen-french"].court_name(r, "nl") for r in "JQK"] == ["Boer", "Vrouw", "Heer"]
    assert [d["schnapsen-french"].court_name(r, "de") for r in "JQK"] == ["Bube", "Dame", "König"]
    assert [d["schnapsen-german"].court_name(r, "de") for r in "JQK"] == ["Unter", "Ober", "König"]
    assert [d["schnapsen-german"].suit_name(s, "de") for s in "DCSB"] == ["Schellen", "Herz", "Laub", "Eichel"]
    assert [d["piacentine"].suit_name(s, "it") for s in "DCSB"] == ["Denari", "Coppe", "Spade", "Bastoni"]
    assert [d["schnapsen-french"].suit_name(s, "en") for s in "DCSB"] == ["Diamonds", "Hearts", "Spades", "Clubs"]
