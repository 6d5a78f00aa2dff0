"""The product's source files, each read and parsed once per test process.

The structure test and the locale test both walk every module's syntax tree; they share this
cache (and the xdist group "source-tree", so that one worker parses for both).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("game", "scenes", "sprites", "audio")
GROUP = "source-tree"  # the xdist group of the tests that read this


@dataclass(frozen=True)
class Source:
    """One product file, read and parsed (the tree is shared: read it, never change it)."""

    path: Path
    rel: str  # "game/config.py"
    module: str  # "game.config" ("" for main.py)
    lines: int
    tree: ast.Module
    nodes: tuple[ast.AST, ...]  # every node of the tree, as ast.walk gives them (walked once)


def module_name(rel: str) -> str:
    parts = Path(rel).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def sources() -> tuple[Source, ...]:
    """main.py and every module of the product packages, in a fixed order."""
    files = [ROOT / "main.py"]
    for pkg in PACKAGES:
        files += sorted((ROOT / pkg).rglob("*.py"))
    out = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(text, filename=rel)
        out.append(
            Source(
                path,
                rel,
                "" if rel == "main.py" else module_name(rel),
                len(text.splitlines()),
                tree,
                tuple(ast.walk(tree)),
            )
        )
    return tuple(out)
