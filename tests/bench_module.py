"""A script of ``bench/`` loaded as a module, for the tests of the benchmarks (bench/ is no package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parent.parent / "bench"


def load_bench(name: str) -> ModuleType:
    """``bench/<name>.py``, imported once and registered under ``name`` (its dataclasses and
    worker processes look it up there). A script that imports its neighbours puts bench/ on
    the path itself (bench/ai_positions.py)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]  # a script that failed to load is not left half-made for the next test
        raise
    return module
