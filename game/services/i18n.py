"""Message lookup for every string the player reads, with fallback to English.

Locale files are ``locales/<lang>.yaml``: nested mappings flattened to dotted keys
(``menu.play``). A value may be a plural mapping ``{one: …, other: …}`` chosen by the
``count`` parameter. Nothing here raises on a missing key or parameter: the player sees
the English text, or at worst the key, never a traceback. No pygame here.
"""

from __future__ import annotations

import locale as _locale
import os
import re
import string
import sys
import unicodedata
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import SupportsFloat, TypeGuard

import yaml

from game.config_types import LANGUAGES, data_dir
from game.safeyaml import LOADER, MAX_YAML_BYTES, ConfigError, problem_line, scan_yaml

FALLBACK = "en"

#: Each language's name in its own language (what the language chooser shows).
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "nl": "Nederlands", "de": "Deutsch", "it": "Italiano"}

# Windows reports locale names like "Dutch_Netherlands"; map those too.
_LOCALE_WORDS = {"english": "en", "dutch": "nl", "german": "de", "italian": "it"}

PLURAL_FORMS = ("zero", "one", "two", "few", "many", "other")
#: Locales nest a few levels (``results.scopa.cards``); more is damage.
MAX_DEPTH = 12


def locales_dir() -> Path:
    return data_dir() / "locales"


#: A message as a locale holds it: one text, or a plural message's text per plural form.
Message = str | dict[str, str]


def _flatten(
    tree: Mapping[object, object], prefix: str = "", out: dict[str, Message] | None = None
) -> dict[str, Message]:
    out = {} if out is None else out
    for k, v in tree.items():
        key = f"{prefix}{k}"
        # A mapping whose keys are all plural forms is one plural message, not a branch.
        if isinstance(v, Mapping) and v and not set(map(str, v)) <= set(PLURAL_FORMS):
            _flatten(v, key + ".", out)
        elif isinstance(v, Mapping):
            out[key] = {str(pk): str(pv) for pk, pv in v.items()}
        elif v is not None:
            out[key] = str(v)
    return out


#: The longest message a locale may hold (the longest rules page paragraph is ~900).
MAX_MESSAGE = 4000
#: The widest field a message may format ("{value:>8}"); "{value:>300000000}" would
#: allocate 300 MB at every call (the process was killed).
MAX_FORMAT_WIDTH = 100
_FIELD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]*")


def message_problem(template: str) -> str | None:
    """Why a locale message cannot be used (None when it can): too long, a control
    character, or a replacement field that reaches into its value (``{v.__class__}``,
    ``{v[0]}``), nests another field in its format, or asks for a width or precision over
    MAX_FORMAT_WIDTH. A stray brace is allowed: the message is then shown as written."""
    if len(template) > MAX_MESSAGE:
        return f"the message is longer than {MAX_MESSAGE} characters"
    for ch in template:
        if unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\n\t":
            return f"the message holds the control character U+{ord(ch):04X}"
    try:
        fields = [(name, spec) for _, name, spec, _ in string.Formatter().parse(template) if name is not None]
    except ValueError:
        return None
    for name, spec in fields:
        if not _FIELD_NAME.fullmatch(name):
            return f"the field {{{name}}} may only name a value"
        if spec and "{" in spec:
            return f"the field {{{name}:{spec}}} nests another field in its format"
        if spec and any(int(n) > MAX_FORMAT_WIDTH for n in re.findall(r"[0-9]+", spec)):
            return f"the format {{{name}:{spec}}} is wider than {MAX_FORMAT_WIDTH}"
    return None


def load_locale(lang: str, folder: Path | None = None) -> tuple[dict[str, Message], str | None]:
    """The flattened messages of ``lang`` and a problem message (None when all is well).

    The file is checked before PyYAML builds anything (game.safeyaml.scan_yaml): no anchors or
    aliases at all (an alias bomb in an unused key hung the game), nesting and size bounded,
    no key given twice. A message that cannot be used (:func:`message_problem`) is left out
    (the English one, or the key, shows instead) and named in the problem."""
    from game.safejson import JSONError, read_bytes

    path = (folder or locales_dir()) / f"{lang}.yaml"
    try:
        raw = read_bytes(path, MAX_YAML_BYTES)
    except FileNotFoundError:
        return {}, f"{path.name}: file not found"
    except JSONError as e:
        return {}, f"{path.name}: cannot be read ({e.problem})"
    except OSError as e:
        return {}, f"{path.name}: cannot be read ({e})"
    key = (path.name, raw)
    if key not in _PARSED:
        if len(_PARSED) >= _PARSED_KEPT:
            del _PARSED[next(iter(_PARSED))]  # the oldest
        _PARSED[key] = _parse_locale(raw, path)
    table, problem = _PARSED[key]
    # A copy: callers may change their table (the plural forms' dicts too) without changing the next one's.
    return {k: dict(v) if isinstance(v, dict) else v for k, v in table.items()}, problem


#: Parsed locale files by name and content: every I18n (each window, each language switch,
#: and the tests' hundreds of apps) read and checked the same YAML again, some 30 ms a file.
#: Keyed by the bytes, so a changed file is parsed anew; a few kept (tests write damaged ones).
_PARSED: dict[tuple[str, bytes], tuple[dict[str, Message], str | None]] = {}
_PARSED_KEPT = 16


def _parse_locale(raw: bytes, path: Path) -> tuple[dict[str, Message], str | None]:
    try:
        text = raw.decode("utf-8")
        lines = scan_yaml(text, path.name, allow_aliases=False, max_depth=MAX_DEPTH)
        data = yaml.load(text, Loader=LOADER)
    except ConfigError as e:
        return {}, str(e)
    except UnicodeDecodeError as e:
        return {}, f"{path.name}: cannot be read ({e})"
    except yaml.YAMLError as e:
        line = problem_line(e)
        where = f", line {line}" if line else ""
        return {}, f"{path.name}{where}: not valid YAML"
    if data is None:
        return {}, None
    if not isinstance(data, Mapping):
        return {}, f"{path.name}: expected a mapping of messages"
    table = _flatten(data)
    problems = []
    for key, value in list(table.items()):
        for template in value.values() if isinstance(value, Mapping) else (value,):
            problem = message_problem(template)
            if problem:
                line = lines.get(tuple(key.split(".")))
                problems.append(f"{path.name}{f', line {line}' if line else ''} ({key}): {problem}")
                del table[key]
                break
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return table, problems[0] + more
    return table, None


def _plural_category(lang: str, count: object) -> str:
    # All four languages use the same rule: exactly 1 is "one", and so is a proper fraction
    # ("⅓ point", the thirds of Tressette); everything else "other".
    try:
        amount = abs(_amount(count))
    except (TypeError, ValueError):
        return "other"
    return "one" if amount == 1 or 0 < amount < 1 else "other"


def _amount(count: object) -> float:
    """A count as a number: 3, "3", or a mixed number as the thirds are written ("4 ⅔", "⅓")."""
    if not isinstance(count, str):
        if not isinstance(count, SupportsFloat):
            raise TypeError(f"not a count: {count!r}")
        return float(count)
    import unicodedata

    parts = count.split()
    if not parts:
        raise ValueError(count)
    return sum(unicodedata.numeric(p) if len(p) == 1 else float(p) for p in parts)


class _SafeParams(dict[str, object]):
    """format_map helper: an unknown {name} stays visible instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _format(template: str, params: Mapping[str, object]) -> str:
    try:
        return template.format_map(_SafeParams(params))
    except (ValueError, IndexError, AttributeError, TypeError):
        return template  # a stray brace in a translation: show it as written


class I18n:
    """Messages of the current language; ``t(key, **params)``; listeners hear a switch."""

    def __init__(self, language: str = FALLBACK, folder: Path | None = None):
        self.folder = folder
        self.problems: list[str] = []
        self._tables: dict[str, dict[str, Message]] = {}
        self._listeners: list[Callable[[str], None]] = []
        self.language = FALLBACK
        self.set_language(language)

    def _table(self, lang: str) -> dict[str, Message]:
        if lang not in self._tables:
            table, problem = load_locale(lang, self.folder)
            if problem:
                self.problems.append(problem)
                print(f"cardavia: {problem}; using English where needed", file=sys.stderr)
            self._tables[lang] = table
        return self._tables[lang]

    def set_language(self, lang: str) -> None:
        """Switch language (unknown codes fall back to English) and tell every listener."""
        lang = lang if lang in LANGUAGES else FALLBACK
        self._table(FALLBACK)
        self._table(lang)
        changed = lang != self.language
        self.language = lang
        if changed:
            for fn in list(self._listeners):
                fn(lang)

    def subscribe(self, fn: Callable[[str], None]) -> None:
        self._listeners.append(fn)

    def has(self, key: str, lang: str | None = None) -> bool:
        return key in self._table(lang or self.language)

    def raw(self, key: str, lang: str | None = None) -> Message | None:
        """The message as stored (text or plural mapping), with English fallback; None if absent."""
        value = self._table(lang or self.language).get(key)
        if value is None:
            value = self._table(FALLBACK).get(key)
        return value

    def t(self, key: str, lang: str | None = None, **params: object) -> str:
        """The message ``key`` in the current language, formatted with ``params``.

        A plural message picks its form from ``count``. A key missing from the language
        falls back to English, and one missing from English shows the key itself.
        """
        lang = lang or self.language
        value = self.raw(key, lang)
        if value is None:
            return key
        if isinstance(value, Mapping):
            cat = _plural_category(lang, params.get("count"))
            value = value.get(cat) or value.get("other") or next(iter(value.values()), key)
        return _format(value, params) if params else value.replace("{{", "{").replace("}}", "}")

    def keys(self, lang: str | None = None) -> set[str]:
        return set(self._table(lang or self.language))


def _language_of(name: str) -> str | None:
    """ "nl_NL.UTF-8" → "nl", "German_Germany.1252" → "de"; None if not one of ours."""
    code = name.strip().lower().replace("-", "_").split(".")[0].split("_")[0]
    if code in LANGUAGES:
        return code
    return _LOCALE_WORDS.get(code)


def _is_set(name: str | None) -> TypeGuard[str]:
    low = (name or "").strip().lower()
    return bool(low) and low not in ("c", "posix") and not low.startswith("c.")


def detect_system_language(environ: Mapping[str, str] | None = None) -> str:
    """The system locale's language if it is one of ours (en, nl, de, it), else English.

    Follows gettext's precedence: the LANGUAGE list, then the first set of LC_ALL,
    LC_MESSAGES, LANG; with none set (Windows, macOS apps) the locale module's answer.
    """
    env = os.environ if environ is None else environ
    for item in (env.get("LANGUAGE") or "").split(":"):
        if _is_set(item) and _language_of(item):
            return _language_of(item) or FALLBACK
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if _is_set(value):
            return _language_of(value) or FALLBACK
    if environ is None:
        try:
            loc = _locale.getlocale()[0]
        except (ValueError, TypeError):
            loc = None
        if _is_set(loc):
            return _language_of(loc) or FALLBACK
    return FALLBACK


__all__ = ["I18n", "LANGUAGE_NAMES", "FALLBACK", "detect_system_language", "load_locale", "locales_dir"]
