"""The hardened YAML reader for rules.yaml and the locales.

Before PyYAML builds anything, one pass over its event stream (no recursion) refuses a file
over MAX_YAML_BYTES, nesting deeper than a limit, a key given twice, and an alias bomb (or,
for the locales, any anchor or alias). Every problem is a :class:`ConfigError` naming the
file and the line.
"""

from __future__ import annotations

import re
from typing import Any, NoReturn

import yaml


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


def scan_yaml(
    text: str, file: str, allow_aliases: bool = True, max_depth: int = MAX_YAML_DEPTH, max_nodes: int = MAX_YAML_NODES
) -> dict[tuple, int]:
    """Check a YAML text before it is loaded and return the line of every key path.

    One pass over PyYAML's event stream (which needs no recursion): refuses a text larger
    than MAX_YAML_BYTES, nesting deeper than ``max_depth``, a key given twice in one mapping
    (PyYAML would silently keep the last), a key that is not plain text, and — with
    ``allow_aliases`` — more than ``max_nodes`` values once aliases are expanded (an alias
    bomb is refused before anything expands it); without it, any anchor or alias. Raises
    ConfigError naming the file and line."""
    if len(text) > MAX_YAML_BYTES:
        raise ConfigError(file, "", f"the file is larger than {MAX_YAML_BYTES // 1024} KB")
    lines: dict[tuple, int] = {}
    # Per open collection: [is_mapping, path, expecting_a_key, keys_seen, current_key, index]
    stack: list[list[Any]] = []
    sizes: dict[str, int] = {}
    open_anchors: list[tuple[str, int, int]] = []  # (anchor, node count when its collection began, depth)
    count = 0

    def fail(problem: str, mark: Any) -> NoReturn:
        raise ConfigError(file, "", problem, mark.line + 1 if mark is not None else None)

    def child_path() -> tuple:
        top = stack[-1]
        return top[1] + ((top[4],) if top[0] else (top[5],))

    def done() -> None:
        """A whole node ended: its parent moves on to the next key, value or item."""
        if not stack:
            return
        top = stack[-1]
        if top[0]:
            top[2] = not top[2]
        else:
            top[5] += 1

    try:
        for ev in yaml.parse(text, Loader=LOADER):
            starts = isinstance(
                ev, (yaml.ScalarEvent, yaml.AliasEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)
            )
            if not starts:
                if isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                    stack.pop()
                    _close_anchor(open_anchors, sizes, len(stack), count)
                    done()
                continue
            anchor = getattr(ev, "anchor", None)
            if not allow_aliases and anchor is not None:
                fail(f"YAML anchors and aliases are not allowed here (&{anchor} / *{anchor})", ev.start_mark)
            is_key = bool(stack) and stack[-1][0] and stack[-1][2]
            if is_key:
                top = stack[-1]
                if not isinstance(ev, yaml.ScalarEvent):
                    fail("a key must be a plain text, not a list, mapping or alias", ev.start_mark)
                key: Any = ev.value
                if ev.tag is None and ev.implicit[0] and re.fullmatch(r"[-+]?[0-9]+", key):
                    key = int(key)
                if key in top[3] or str(key) in top[3]:
                    fail(f"the key {ev.value!r} is given twice in one mapping", ev.start_mark)
                top[3].add(key)
                top[3].add(str(key))
                top[4] = key
                lines[top[1] + (key,)] = _line(ev)
                done()
                continue
            path = child_path() if stack else ()
            if stack and not stack[-1][0]:
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
                stack.append([isinstance(ev, yaml.MappingStartEvent), path, True, set(), None, 0])
            else:
                if anchor is not None and isinstance(ev, yaml.ScalarEvent):
                    sizes[anchor] = 1  # (an alias event's anchor names what it refers to)
                done()
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise ConfigError(file, "", f"not valid YAML: {problem}", mark.line + 1 if mark else None) from None
    return lines


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
) -> tuple[Any, dict[tuple, int]]:
    """The data of a checked YAML text (:func:`scan_yaml` first) and the line of every key
    path. Raises ConfigError naming the file and line."""
    known = scan_yaml(text, file, allow_aliases=allow_aliases, max_depth=max_depth)
    try:
        data = yaml.load(text, Loader=LOADER)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        line = mark.line + 1 if mark else None
        raise ConfigError(file, "", f"not valid YAML: {problem}", line) from None
    return data, known
