"""The structure rules of docs/DESIGN.md, checked on the source itself.

- Outside a game's own modules (its folder game/games/<id>/, or a file whose name holds the
  game id), no code compares or names game ids: at most three string literals in all (the registry itself).
- The rules core never imports pygame; the table model neither.
- No import cycles between our modules (top-level imports, as a reader sees them).
- No file in scenes/ or sprites/ grows past about 600 lines.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from game.rules import game_ids

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("game", "scenes", "sprites", "audio")
MAX_LINES = 620  # "about 600"


def _sources() -> list[Path]:
    files = [ROOT / "main.py"]
    for pkg in PACKAGES:
        files += sorted((ROOT / pkg).rglob("*.py"))
    return files


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _docstring_nodes(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def game_id_literals() -> list[str]:
    """Every string literal equal to a registered game id outside that game's own modules."""
    ids = set(game_ids())
    found = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstring_nodes(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                if node.value in ids and node.value not in path.stem and node.value not in path.relative_to(ROOT).parts:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    return found


def test_at_most_three_game_id_literals_outside_the_games_own_modules():
    found = game_id_literals()
    assert len(found) <= 3, "game ids named outside their own modules:\n" + "\n".join(found)


def _imports(path: Path) -> set[str]:
    """Our modules that ``path`` imports, at module level or inside functions (a lazy import
    still ties two modules together); ``if TYPE_CHECKING:`` blocks never run and are left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for n in ast.walk(node)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for n in names:
            if n.split(".")[0] in PACKAGES:
                out.add(n)
    return out


def test_no_import_cycles():
    modules = {_module_name(p): p for p in _sources() if p.name != "main.py"}
    graph = {m: {i for i in _imports(p) if i in modules and i != m} for m, p in modules.items()}
    # A package's __init__ runs before its submodules: importing a.b imports a first.
    for m in list(graph):
        parent = m.rpartition(".")[0]
        if parent in graph and parent != m:
            graph[m] = graph[m] | {parent}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if n.startswith(m + "."):
                continue  # a package importing its own submodule is not a cycle back to it
            if state.get(n) == 1:
                cycles.append(stack[stack.index(n):] + [n])
            elif n not in state:
                visit(n, stack)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


#: Pure Python by design: the rules core, and the table's model and controller (the replay
#: viewer and online tables reuse them without a window).
PURE = ("game", "scenes/table/model.py", "scenes/table/controller.py", "scenes/table/view.py")


@pytest.mark.parametrize("place", PURE)
def test_pure_modules_never_import_pygame(place):
    target = ROOT / place
    files = sorted(target.rglob("*.py")) if target.is_dir() else [target]
    assert files
    offenders = [str(p.relative_to(ROOT)) for p in files if "pygame" in {n.split(".")[0] for n in _all_imports(p)}]
    assert not offenders


def _all_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def test_window_files_stay_small():
    big = []
    for pkg in ("scenes", "sprites"):
        for p in sorted((ROOT / pkg).rglob("*.py")):
            n = len(p.read_text(encoding="utf-8").splitlines())
            if n > MAX_LINES:
                big.append(f"{p.relative_to(ROOT)}: {n} lines")
    assert not big, "files over about 600 lines: " + ", ".join(big)
