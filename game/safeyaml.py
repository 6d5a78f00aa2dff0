"""The hardened YAML reader for rules.yaml and the locales.

Before PyYAML builds anything, one pass over its event stream (no recursion) refuses a file
over MAX_YAML_BYTES, nesting deeper than a limit, a key given twice, and an alias bomb (or,
for the locales, any anchor or alias). Every problem is a :class:`ConfigError` naming the
file and the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NoReturn, Protocol

import yaml

#: A key's place in the file: the keys (and list indexes) from the top down.
KeyPath = tuple[str | int, ...]


class ConfigError(Exception):
    """A YAML data file (rules.yaml, a locale) is broken; ``str(err)`` is a one-line message for the player."""

    def __init__(self, file: str, place: str, problem: str, line: int | None = None):
        self.file, self.place, self.problem, self.line = file, place, problem, line
        where = f"{file}, line {line}" if line else file
        super().__init__(f"{where} ({place}): {problem}" if place else f"{where}: {problem}")


LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available: 10x faster start-up

#: Limits for rules.yaml and the locales, checked on the event stream before PyYAML builds
#: anything (its composer recurses: 100,000 levels crash the process with no message).
MAX_YAML_BYTES = 1024 * 1024
MAX_YAML_DEPTH = 32
#: Values after expanding aliases: rules.yaml holds about 1,500; an alias bomb billions.
MAX_YAML_NODES = 100_000


class _Mark(Protocol):
    """Where a parsed event starts (PyYAML's own mark, or libyaml's)."""

    @property
    def line(self) -> int: ...


@dataclass(slots=True)
class _Open:
    """A collection open in the event stream: where it is, and where its reading stands."""

    mapping: bool
    path: KeyPath
    #: A mapping's next node is a key (else its value).
    expecting_key: bool = True
    keys_seen: set[str | int] = field(default_factory=set)
    key: str | int = ""
    #: A list's next item's index.
    index: int = 0


def scan_yaml(
    text: str, file: str, allow_aliases: bool = True, max_depth: int = MAX_YAML_DEPTH, max_nodes: int = MAX_YAML_NODES
) -> dict[KeyPath, int]:
    """Check a YAML text before it is loaded and return the line of every key path.

    One pass over PyYAML's event stream (which needs no recursion): refuses a text larger
    than MAX_YAML_BYTES, nesting deeper than ``max_depth``, a key given twice in one mapping
    (PyYAML would silently keep the last), a key that is not plain text, and — with
    ``allow_aliases`` — more than ``max_nodes`` values once aliases are expanded (an alias
    bomb is refused before anything expands it); without it, any anchor or alias. Raises
    ConfigError naming the file and line."""
    if len(text) > MAX_YAML_BYTES:
        raise ConfigError(file, "", f"the file is larger than {MAX_YAML_BYTES // 1024} KB")
    lines: dict[KeyPath, int] = {}
    stack: list[_Open] = []
    sizes: dict[str, int] = {}
    open_anchors: list[tuple[str, int, int]] = []  # (anchor, node count when its collection began, depth)
    count = 0

    def fail(problem: str, mark: _Mark | None) -> NoReturn:
        raise ConfigError(file, "", problem, mark.line + 1 if mark is not None else None)

    def child_path() -> KeyPath:
        top = stack[-1]
        return top.path + ((top.key,) if top.mapping else (top.index,))

    def done() -> None:
        """A whole node ended: its parent moves on to the next key, value or item."""
        if not stack:
            return
        top = stack[-1]
        if top.mapping:
            top.expecting_key = not top.expecting_key
        else:
            top.index += 1

    try:
        for ev in yaml.parse(text, Loader=LOADER):
            # A node starts: a scalar, an alias, a mapping or a list (PyYAML's NodeEvents).
            if not isinstance(ev, (yaml.ScalarEvent, yaml.AliasEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                if isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                    stack.pop()
                    _close_anchor(open_anchors, sizes, len(stack), count)
                    done()
                continue
            anchor = ev.anchor
            if not allow_aliases and anchor is not None:
                fail(f"YAML anchors and aliases are not allowed here (&{anchor} / *{anchor})", ev.start_mark)
            is_key = bool(stack) and stack[-1].mapping and stack[-1].expecting_key
            if is_key:
                top = stack[-1]
                if not isinstance(ev, yaml.ScalarEvent):
                    fail("a key must be a plain text, not a list, mapping or alias", ev.start_mark)
                key: str | int = ev.value
                if ev.tag is None and ev.implicit[0] and re.fullmatch(r"[-+]?[0-9]+", ev.value):
                    key = int(ev.value)
                if key in top.keys_seen or str(key) in top.keys_seen:
                    fail(f"the key {ev.value!r} is given twice in one mapping", ev.start_mark)
                top.keys_seen.add(key)
                top.keys_seen.add(str(key))
                top.key = key
                lines[top.path + (key,)] = _line(ev)
                done()
                continue
            path = child_path() if stack else ()
            if stack and not stack[-1].mapping:
                lines[path] = _line(ev)
            if isinstance(ev, yaml.AliasEvent):
                if not allow_aliases:
                    fail(f"YAML aliases are not allowed here (*{ev.anchor})", ev.start_mark)
                count += sizes.get(ev.anchor, 1) if ev.anchor is not None else 1
            else:
                count += 1
            if count > max_nodes:
                fail(f"the file expands to more than {max_nodes:,} values (an alias bomb?)", ev.start_mark)
            if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                if len(stack) >= max_depth:
                    fail(f"nested deeper than {max_depth} levels", ev.start_mark)
                if anchor is not None:
                    open_anchors.append((anchor, count - 1, len(stack)))
                stack.append(_Open(isinstance(ev, yaml.MappingStartEvent), path))
            else:
                if anchor is not None and isinstance(ev, yaml.ScalarEvent):
                    sizes[anchor] = 1  # (an alias event's anchor names what it refers to)
                done()
    except yaml.YAMLError as e:
        raise invalid_yaml(file, e) from None
    return lines


def problem_line(e: yaml.YAMLError) -> int | None:
    """The line (from 1) PyYAML places its problem on, when it places it."""
    mark = e.problem_mark if isinstance(e, yaml.MarkedYAMLError) else None
    return mark.line + 1 if mark else None


def invalid_yaml(file: str, e: yaml.YAMLError) -> ConfigError:
    """PyYAML's refusal of ``file`` as one line naming the line."""
    problem = (e.problem if isinstance(e, yaml.MarkedYAMLError) else None) or str(e).splitlines()[0]
    return ConfigError(file, "", f"not valid YAML: {problem}", problem_line(e))


def _line(ev: yaml.Event) -> int:
    """The line (from 1) where a parsed event starts: the parser marks every event."""
    mark = ev.start_mark
    if mark is None:
        raise ValueError(f"a YAML event without a position: {ev}")
    return mark.line + 1


def _close_anchor(open_anchors: list[tuple[str, int, int]], sizes: dict[str, int], depth: int, count: int) -> None:
    """A collection at ``depth`` ended: if it carried an anchor, remember how many values
    it expands to (an alias of it adds that many)."""
    if open_anchors and open_anchors[-1][2] == depth:
        anchor, start, _ = open_anchors.pop()
        sizes[anchor] = count - start


def load_yaml(
    text: str, file: str, allow_aliases: bool = True, max_depth: int = MAX_YAML_DEPTH
) -> tuple[object, dict[KeyPath, int]]:
    """The data of a checked YAML text (:func:`scan_yaml` first) and the line of every key
    path. Raises ConfigError naming the file and line."""
    known = scan_yaml(text, file, allow_aliases=allow_aliases, max_depth=max_depth)
    try:
        data = yaml.load(text, Loader=LOADER)
    except yaml.YAMLError as e:
        raise invalid_yaml(file, e) from None
    return data, known
