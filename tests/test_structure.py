"""The structure rules of docs/DESIGN.md, checked on the source itself.

- Outside a game's own modules (its folder game/games/<id>/, or a file whose name holds the
  game id), no code compares or names game ids: at most three string literals in all (the registry itself).
- The rules core never imports pygame; the table model neither.
- No product file (main.py, game/, scenes/, sprites/, audio/) is longer than 650 lines, and
  none in scenes/ or sprites/ grows past about 600.
- No import circle among our modules. Every way one module can load another counts:
  * top-level imports and imports inside functions (a lazy import still ties two modules);
  * imports under ``if TYPE_CHECKING:`` (they never run, but the two modules still need
    each other: a reader, a type checker and the next refactor see the circle);
  * ``importlib.import_module(...)`` / ``import_module(...)`` / ``__import__(...)`` calls.
    Their names are followed *conservatively but accurately*: a literal names its module; an
    f-string or ``+`` concatenation whose text parts (and names bound to string constants in
    the same module or function) give a known prefix or suffix, such as
    ``f"game.games.{id}.{part}"`` or ``f"{package}.tuning"``, stands for every product module
    that fits that pattern (each unknown part matching any dotted name) and no other; a plain
    variable is followed to its assignments in the same function or module. A name that comes from data (``BOTS[name]``, a registry entry) counts
    as every product module named by a string constant of that module (``"scenes.menu"``,
    ``"game.ai.levels:HardBot"``): its table is where such names live. A dynamic import with
    no literal to go by at all fails the check, since a circle could hide behind it.
  Importing ``a.b.c`` also loads the packages ``a.b`` and ``a`` first; those count as imported
  too, except the importer's own enclosing packages (already loading when it runs).

Open for shape (docs/DESIGN.md's last section):

- No product file outside a game's own folder (game/games/<id>/) compares the player count
  with a number (``players == 4``, ``players in (3, 4)``, ``4 in game.players`` …): shared
  code asks the game's declarations (its teams rule, its seats).
- The core (game/ outside game/services and game/online) imports no service or network
  module beyond an explicit list that may only shrink.
- The name ``Any`` stays under a ceiling that is only ever lowered.

Every product file is read and parsed once per test process (``tests/source_tree.py``), and
all the checks (and tests/test_locales.py) share that parse.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.rulesets import game_ids
from tests.source_tree import GROUP, Source, module_name, sources

MAX_LINES = 620  # "about 600", for the window code in scenes/ and sprites/
MAX_PRODUCT_LINES = 650  # every product file

pytestmark = pytest.mark.xdist_group(GROUP)  # one worker parses the tree for all of these (and test_locales)


# ---------------------------------------------------------------------- game-id literals
def _docstring_nodes(nodes: Iterable[ast.AST]) -> set[int]:
    ids = set()
    for node in nodes:
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def game_id_literals() -> list[str]:
    """Every string literal equal to a registered game id outside that game's own modules."""
    ids = set(game_ids())
    found = []
    for src in sources():
        docs = _docstring_nodes(src.nodes)
        for node in src.nodes:
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                if node.value in ids and node.value not in src.path.stem and node.value not in src.rel.split("/"):
                    found.append(f"{src.rel}:{node.lineno}: {node.value!r}")
    return found


def test_at_most_three_game_id_literals_outside_the_games_own_modules():
    found = game_id_literals()
    assert len(found) <= 3, "game ids named outside their own modules:\n" + "\n".join(found)


# ---------------------------------------------------------------------- the import graph
@dataclass(frozen=True)
class Edge:
    """``source`` imports ``target`` at ``line``; ``how`` says how when it is not a plain import."""

    source: str
    target: str
    rel: str
    line: int
    how: str = ""

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} ({self.rel}:{self.line}{', ' + self.how if self.how else ''})"


_IMPORT_CALLS = {"import_module", "__import__"}
_ANY_NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"


def _string_bindings(tree: ast.AST) -> dict[str, list[ast.expr]]:
    """Simple ``name = value`` bindings directly in ``tree``'s body (not in nested functions)."""
    out: dict[str, list[ast.expr]] = {}
    stack = list(ast.iter_child_nodes(tree))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    out.setdefault(t.id, []).append(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            out.setdefault(node.target.id, []).append(node.value)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _patterns(expr: ast.expr, scopes: list[dict[str, list[ast.expr]]], depth: int = 0) -> list[str] | None:
    """Regular expressions for the module names ``expr`` can take, or None when it cannot be told."""
    if depth > 5:
        return None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [re.escape(expr.value)]
    if isinstance(expr, ast.Name):
        for scope in scopes:
            if expr.id in scope:
                found: list[str] = []
                for value in scope[expr.id]:
                    p = _patterns(value, scopes, depth + 1)
                    if p is None:
                        return None
                    found += p
                return found
        return None
    parts: list[ast.expr]
    if isinstance(expr, ast.JoinedStr):
        parts = list(expr.values)
    elif isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        parts = [expr.left, expr.right]
    else:
        return None
    out = [""]
    for part in parts:
        inner = part.value if isinstance(part, ast.FormattedValue) else part
        p = _patterns(inner, scopes, depth + 1)
        if p is None:
            if not isinstance(part, ast.FormattedValue) and not isinstance(expr, ast.BinOp):
                return None
            p = [_ANY_NAME]  # an unknown part: any dotted name
        out = [a + b for a in out for b in p]
    return out


def _module_strings(nodes: Iterable[ast.AST], modules: Iterable[str]) -> set[str]:
    """Product modules named by a string constant of the file (``"pkg.mod"`` or ``"pkg.mod:attr"``)."""
    known = set(modules)
    out = set()
    for node in nodes:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            name = node.value.split(":")[0]
            if name in known:
                out.add(name)
    return out


def _names_type_checking(test: ast.expr) -> bool:
    return any(
        isinstance(n, ast.Name)
        and n.id == "TYPE_CHECKING"
        or isinstance(n, ast.Attribute)
        and n.attr == "TYPE_CHECKING"
        for n in ast.walk(test)
    )


def _type_checking_nodes(nodes: Iterable[ast.AST]) -> set[int]:
    inside: set[int] = set()
    for node in nodes:
        if isinstance(node, ast.If) and _names_type_checking(node.test):
            for stmt in node.body:
                inside |= {id(n) for n in ast.walk(stmt)}
    return inside


def _functions(tree: ast.AST) -> dict[int, ast.AST]:
    """id(node) -> the innermost function around it (for lazy imports and local bindings)."""
    owner: dict[int, ast.AST] = {}

    def walk(node: ast.AST, fn: ast.AST | None) -> None:
        for child in ast.iter_child_nodes(node):
            if fn is not None:
                owner[id(child)] = fn
            walk(child, child if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) else fn)

    walk(tree, None)
    return owner


def import_edges(
    tree: ast.Module,
    module: str,
    rel: str,
    modules: set[str],
    is_package: bool = False,
    nodes: tuple[ast.AST, ...] | None = None,
) -> tuple[list[Edge], list[str]]:
    """The product modules that ``module`` imports, each with its line and how; and the dynamic
    imports whose names cannot be told (``"rel:line: text"``). ``nodes``: the tree, walked."""
    nodes = tuple(ast.walk(tree)) if nodes is None else nodes
    lazy = _functions(tree)
    typing_only = _type_checking_nodes(nodes)
    module_scope = _string_bindings(tree)
    package = module if is_package else module.rpartition(".")[0]
    own_packages = {module.rsplit(".", i)[0] for i in range(module.count(".") + 1)}
    edges: list[Edge] = []
    unknown: list[str] = []

    def add(target: str, node: ast.AST, how: str) -> None:
        notes = [how] if how else []
        if id(node) in typing_only:
            notes.append("under TYPE_CHECKING")
        elif id(node) in lazy:
            notes.append("inside a function")
        how = ", ".join(notes)
        # Loading a.b.c runs a/__init__ and a/b/__init__ first (unless they are our own packages).
        chain = [target.rsplit(".", i)[0] for i in range(target.count(".") + 1)]
        for name in chain:
            if name in modules and name != module and name not in own_packages:
                edges.append(Edge(module, name, rel, node.lineno, how))

    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node, "")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                add(sub if sub in modules else base, node, "")
        elif isinstance(node, ast.Call) and node.args:
            fn = node.func
            name = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else ""
            if name not in _IMPORT_CALLS:
                continue
            owner = lazy.get(id(node))
            scopes = ([_string_bindings(owner)] if owner is not None else []) + [module_scope]
            patterns = _patterns(node.args[0], scopes)
            if patterns is not None and all(re.search(r"\w", p.replace(_ANY_NAME, "")) for p in patterns):
                regexes = [re.compile(p) for p in patterns]
                targets = sorted(m for m in modules if any(r.fullmatch(m) for r in regexes))
                shown = " | ".join(p.replace(_ANY_NAME, "*").replace("\\", "") for p in patterns)
                for t in targets:
                    add(t, node, "importlib" if "*" not in shown else f"importlib {shown}")
                continue
            named = _module_strings(nodes, modules) - {module}
            if not named:
                unknown.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
            for t in sorted(named):
                add(t, node, "importlib, by a name from this module's table")
    return edges, unknown


def import_graph(srcs: Iterable[Source]) -> tuple[dict[str, list[Edge]], list[str]]:
    """module -> its import edges among ``srcs``; and the dynamic imports that cannot be told."""
    srcs = [s for s in srcs if s.module]
    modules = {s.module for s in srcs}
    graph: dict[str, list[Edge]] = {}
    unknown: list[str] = []
    for s in srcs:
        edges, blind = import_edges(s.tree, s.module, s.rel, modules, s.path.name == "__init__.py", s.nodes)
        graph[s.module] = edges
        unknown += blind
    return graph, unknown


def import_groups(graph: dict[str, list[Edge]]) -> list[set[str]]:
    """The groups of modules that import each other (each reaches every other through imports)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def connect(m: str) -> None:  # Tarjan's strongly connected components
        index[m] = low[m] = len(index)
        stack.append(m)
        on_stack.add(m)
        for e in graph.get(m, []):
            if e.target not in index:
                connect(e.target)
                low[m] = min(low[m], low[e.target])
            elif e.target in on_stack:
                low[m] = min(low[m], index[e.target])
        if low[m] == index[m]:
            group = set()
            while True:
                n = stack.pop()
                on_stack.discard(n)
                group.add(n)
                if n == m:
                    break
            if len(group) > 1:
                groups.append(group)

    for m in sorted(graph):
        if m not in index:
            connect(m)
    return groups


def import_circles(graph: dict[str, list[Edge]]) -> list[list[Edge]]:
    """One circle (as its edges) for each group of modules that import each other, shortest first."""
    circles = []
    for group in import_groups(graph):
        # The shortest circle through the group's first module (breadth first, inside the group).
        start = min(group)
        paths: dict[str, list[Edge]] = {start: []}
        queue = [start]
        found = None
        while queue and found is None:
            m = queue.pop(0)
            for e in sorted(graph[m], key=lambda e: (e.target, e.line)):
                if e.target not in group:
                    continue
                if e.target == start:
                    found = paths[m] + [e]
                    break
                if e.target not in paths:
                    paths[e.target] = paths[m] + [e]
                    queue.append(e.target)
        circles.append(found or [])
    return sorted(circles, key=len)


def describe(circle: list[Edge]) -> str:
    return (
        " -> ".join([circle[0].source] + [e.target for e in circle])
        + "\n      "
        + "\n      ".join(str(e) for e in circle)
    )


def test_no_import_circles():
    graph, unknown = import_graph(sources())
    assert not unknown, (
        "dynamic imports whose module this test cannot tell (give them a literal prefix or suffix):\n"
        + "\n".join(unknown)
    )
    circles = import_circles(graph)
    groups = sorted(", ".join(sorted(g)) for g in import_groups(graph) if len(g) > 2)
    assert not circles, (
        f"{len(circles)} import circle(s):\n"
        + "\n".join("  " + describe(c) for c in circles)
        + "".join(f"\n  (all in one circle: {g})" for g in groups)
    )


def _graph_of(files: dict[str, str]) -> tuple[dict[str, list[Edge]], list[str]]:
    trees = {rel: ast.parse(text) for rel, text in files.items()}
    srcs = [
        Source(Path(rel), rel, module_name(rel), len(text.splitlines()), trees[rel], tuple(ast.walk(trees[rel])))
        for rel, text in files.items()
    ]
    return import_graph(srcs)


def test_the_circle_check_sees_type_checking_and_importlib():
    """The check is real: circles closed by each kind of import are found and named."""
    through_typing = {
        "pk/__init__.py": "",
        "pk/a.py": "from pk.b import thing\n",
        "pk/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pk.a import other\n",
    }
    circles = import_circles(_graph_of(through_typing)[0])
    assert [[(e.source, e.target, e.how) for e in c] for c in circles] == [
        [("pk.a", "pk.b", ""), ("pk.b", "pk.a", "under TYPE_CHECKING")]
    ]
    literal = {
        "pk/__init__.py": "",
        "pk/a.py": "import pk.b\n",
        "pk/b.py": "import importlib\ndef f():\n    return importlib.import_module('pk.a')\n",
    }
    assert len(import_circles(_graph_of(literal)[0])) == 1
    prefixed = {
        "pk/__init__.py": "",
        "pk/hooks_x.py": "import pk.core\n",
        "pk/other.py": "import pk.core\n",
        "pk/core.py": "from importlib import import_module\nPREFIX = 'pk'\n"
        "def f(g):\n    name = f'{PREFIX}.hooks_{g}'\n    return import_module(name)\n",
    }
    graph, unknown = _graph_of(prefixed)
    assert not unknown
    assert {e.target for e in graph["pk.core"]} == {"pk.hooks_x"}  # the pattern's modules, not pk.other
    assert [[e.source for e in c] for c in import_circles(graph)] == [["pk.core", "pk.hooks_x"]]
    blind = {"pk/__init__.py": "", "pk/a.py": "import importlib\ndef f(n):\n    return importlib.import_module(n)\n"}
    assert _graph_of(blind)[1] == ["pk/a.py:3: importlib.import_module(n)"]
    suffixed = {
        "pk/__init__.py": "",
        "pk/x/__init__.py": "",
        "pk/x/tuning.py": "import pk.a\n",
        "pk/x/other.py": "",
        "pk/a.py": "import importlib\ndef f(m):\n    return importlib.import_module(f'{m.__name__}.tuning')\n",
    }
    graph, unknown = _graph_of(suffixed)
    assert not unknown and {e.target for e in graph["pk.a"]} == {"pk.x", "pk.x.tuning"}
    assert len(import_circles(graph)) == 1
    table = {
        "pk/__init__.py": "",
        "pk/b.py": "import pk.a\n",
        "pk/a.py": "import importlib\nT = {'x': 'pk.b:Cls'}\ndef f(n):\n"
        "    return importlib.import_module(T[n].split(':')[0])\n",
    }
    graph, unknown = _graph_of(table)
    assert not unknown and len(import_circles(graph)) == 1
    # A package's own __init__ is not imported back by its submodules' absolute imports of siblings.
    package = {"pk/__init__.py": "from pk.a import x\n", "pk/a.py": "from pk.b import y\n", "pk/b.py": ""}
    assert import_circles(_graph_of(package)[0]) == []


# ---------------------------------------------------------------------- pygame-free parts
#: Pure Python by design: the rules core, and the table's model and controller (the replay
#: viewer and online tables reuse them without a window).
PURE = ("game", "scenes/table/model.py", "scenes/table/controller.py", "scenes/table/view.py")


def _all_imports(nodes: Iterable[ast.AST]) -> set[str]:
    out = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


@pytest.mark.parametrize("place", PURE)
def test_pure_modules_never_import_pygame(place):
    picked = [s for s in sources() if s.rel == place or s.rel.startswith(place + "/")]
    assert picked
    offenders = [s.rel for s in picked if "pygame" in {n.split(".")[0] for n in _all_imports(s.nodes)}]
    assert not offenders


# ---------------------------------------------------------------------- file sizes
def test_window_files_stay_small():
    big = [
        f"{s.rel}: {s.lines} lines"
        for s in sources()
        if s.rel.split("/")[0] in ("scenes", "sprites") and s.lines > MAX_LINES
    ]
    assert not big, "files over about 600 lines: " + ", ".join(big)


def test_no_product_file_over_650_lines():
    big = [f"{s.rel}: {s.lines} lines" for s in sources() if s.lines > MAX_PRODUCT_LINES]
    assert not big, f"product files over {MAX_PRODUCT_LINES} lines:\n" + "\n".join(big)


# ---------------------------------------------------------------------- open for shape
def _names_player_count(expr: ast.expr) -> bool:
    """``players``, ``rules.players``, ``n_players``…: a name that holds the player count (or
    the counts a game allows)."""
    name = expr.attr if isinstance(expr, ast.Attribute) else expr.id if isinstance(expr, ast.Name) else ""
    return "players" in name.lower()


def _is_number(expr: ast.expr) -> bool:
    """A number literal (``4``, ``-1``) or a tuple, list or set of them (``(3, 4)``, ``[2]``)."""
    if isinstance(expr, ast.Constant):
        return type(expr.value) is int
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        return _is_number(expr.operand)
    if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
        return bool(expr.elts) and all(_is_number(e) for e in expr.elts)
    return False


def _compares_player_count(node: ast.Compare) -> bool:
    """Some pair of neighbours in the comparison is the player count and a number."""
    sides = [node.left, *node.comparators]
    return any(
        (_names_player_count(a) and _is_number(b)) or (_is_number(a) and _names_player_count(b))
        for a, b in zip(sides, sides[1:])
    )


def _in_a_games_folder(rel: str) -> bool:
    return re.match(r"game/games/[^/]+/", rel) is not None


def player_count_comparisons() -> list[str]:
    """Every comparison of the player count with a number outside a game's own folder:
    ``players == 4``, ``rules.players != 4``, ``players > 3``, ``4 < players``,
    ``players in (3, 4)``, ``4 in game.players`` (each side of a chained comparison counts)."""
    found = []
    for src in sources():
        if _in_a_games_folder(src.rel):
            continue
        for node in src.nodes:
            if isinstance(node, ast.Compare) and _compares_player_count(node):
                found.append(f"{src.rel}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_player_count_check_sees_each_way_of_writing_it():
    """The check is real: each form is found, a comparison with a name or a length is not."""
    flagged = [
        "players == 4",
        "rules.players != 4",
        "self.players > 3",
        "players < 4",
        "2 <= n_players",
        "players in (3, 4)",
        "players not in [2]",
        "4 in game.players",
        "0 < x < players == 4",
    ]
    fine = ["players == other.players", "len(hands) == rules.players", "seat < players", "teams < players"]
    for text in flagged + fine:
        node = ast.parse(text, mode="eval").body
        assert isinstance(node, ast.Compare)
        assert _compares_player_count(node) == (text in flagged), text
    assert _in_a_games_folder("game/games/scopa/rules.py") and not _in_a_games_folder("game/rules/trick.py")


def test_no_player_count_compared_with_a_number_outside_the_games_folders():
    """Shared code (the mechanism modules included: a trick, a capture, the table's layout)
    asks the game's declarations (its teams rule, its seats) and never compares the player
    count with a number: a game for 5 or 6 players must need no change outside its folder."""
    found = player_count_comparisons()
    assert not found, f"{len(found)} comparison(s) of the player count with a number:\n" + "\n".join(found)


#: The imports of the application's services and the club's network layer from the core (game/
#: outside game/services and game/online) that were there when this check came: the list may
#: only shrink. The core is what the services and the server are built on, never the other way.
CORE_IMPORTS_ALLOWED = frozenset(
    {
        ("game.coach.cli", "game.services.i18n"),
        ("game.lessons.session", "game.services.session"),
        ("game.lessons.session", "game.services.table_session"),
        ("game.puzzles.cli", "game.services.daily"),
        ("game.puzzles.cli", "game.services.storage"),
        ("game.puzzles.progress", "game.services.settings"),
        ("game.puzzles.progress", "game.services.storage"),
        ("game.puzzles.store", "game.services.storage"),
        ("game.record", "game.services.storage"),
    }
)
_OUTER = ("game.services", "game.online")


def _is_core(module: str) -> bool:
    return module.split(".")[0] == "game" and not any(module == p or module.startswith(p + ".") for p in _OUTER)


def core_imports_of_outer_layers() -> dict[tuple[str, str], str]:
    """(core module, services or online module) -> where: every import of the outer layers by
    the core, lazy and TYPE_CHECKING ones included (each import statement by the deepest
    module it names, not the packages loaded on the way)."""
    graph, _ = import_graph(sources())
    out: dict[tuple[str, str], str] = {}
    for module, edges in graph.items():
        if not _is_core(module):
            continue
        deepest: dict[int, Edge] = {}
        for e in edges:
            if any(e.target == p or e.target.startswith(p + ".") for p in _OUTER):
                if e.line not in deepest or len(e.target) > len(deepest[e.line].target):
                    deepest[e.line] = e
        for e in deepest.values():
            out.setdefault((e.source, e.target), f"{e.rel}:{e.line}")
    return out


def test_the_core_imports_no_new_service_or_network_module():
    found = core_imports_of_outer_layers()
    new = sorted(
        f"{where}: {src} imports {dst}" for (src, dst), where in found.items() if (src, dst) not in CORE_IMPORTS_ALLOWED
    )
    assert not new, (
        "the rules core (game/ outside game/services and game/online) imports the outer layers: pass what it "
        "needs in, or move the code out:\n" + "\n".join(new)
    )


#: The most uses of the name ``Any`` the product's code may hold (main.py, game/, scenes/,
#: sprites/, audio/; an import of it counts, a word in a comment or docstring does not).
#: Lowered as real types replace it: raise it never.
MAX_ANY = 180


def any_uses() -> dict[str, int]:
    """Per product file, how many times its code names ``typing.Any`` (``Any``, ``typing.Any``,
    ``import Any``)."""
    out: dict[str, int] = {}
    for src in sources():
        n = sum(
            1
            for node in src.nodes
            if (isinstance(node, ast.Name) and node.id == "Any")
            or (isinstance(node, ast.Attribute) and node.attr == "Any")
            or (isinstance(node, ast.alias) and node.name == "Any")
        )
        if n:
            out[src.rel] = n
    return out


def test_any_stays_under_its_ceiling():
    uses = any_uses()
    total = sum(uses.values())
    worst = sorted(uses.items(), key=lambda kv: -kv[1])[:10]
    assert total <= MAX_ANY, (
        f"{total} uses of Any in the product, over the ceiling of {MAX_ANY}: give the new code a real type "
        "(JsonObject from game.rules.vocabulary for a JSON object, a Protocol for a duck type). Most in: "
        + ", ".join(f"{rel} {n}" for rel, n in worst)
    )
