"""What each test file of the suite costs in CPU (the test's process and the programs it waited
for), as a pytest plugin and its summary. CPU, not durations: on a shared machine a test's
duration is mostly other processes' turn on the cores.

    env -u PYTHONDONTWRITEBYTECODE SUITE_CPU=/tmp/cpu.jsonl PYTHONPATH=bench \\
        .venv/bin/python -m pytest -q -n 2 --dist loadgroup -p suite_cpu
    .venv/bin/python bench/suite_cpu.py /tmp/cpu.jsonl [TOP]

Each worker appends one line per test: node id, worker, start and end (seconds since the
session began) and CPU seconds (user + system, itself and its waited-for children). The
summary prints the total and the TOP files by CPU, then when each worker finished.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import Counter, defaultdict
from typing import Any

OUT = os.environ.get("SUITE_CPU", "suite_cpu.jsonl")
T0 = float(os.environ.setdefault("SUITE_CPU_T0", str(time.time())))  # the workers inherit the start


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


try:
    import pytest
except ImportError:  # the summary needs no pytest
    pytest = None

if pytest is not None:

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item: Any, nextitem: Any) -> Any:
        start, cpu = time.time(), _cpu()
        yield
        with open(OUT, "a", encoding="utf-8") as f:
            f.write(
                json.dumps(
                    {
                        "id": item.nodeid,
                        "w": _worker(),
                        "start": start - T0,
                        "end": time.time() - T0,
                        "cpu": _cpu() - cpu,
                    }
                )
                + "\n"
            )


def summary(path: str, top: int = 15) -> None:
    rows = [r for r in map(json.loads, open(path, encoding="utf-8")) if "::" in r["id"]]
    cpu: Counter = Counter()
    count: Counter = Counter()
    for r in rows:
        name = r["id"].split("::")[0]
        cpu[name] += r["cpu"]
        count[name] += 1
    print(f"{len(rows)} tests, {sum(cpu.values()):.1f} s of CPU")
    for name, seconds in cpu.most_common(top):
        print(f"{seconds:7.1f} s {count[name]:5d} tests  {name}")
    ends: dict[str, float] = defaultdict(float)
    for r in rows:
        ends[r["w"]] = max(ends[r["w"]], r["end"])
    print("last test ended: " + ", ".join(f"{w} {t:.0f} s" for w, t in sorted(ends.items())))


if __name__ == "__main__":
    summary(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 15)
