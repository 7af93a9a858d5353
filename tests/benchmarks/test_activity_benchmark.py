"""The web table's benchmark (benchmarks/activity.py) runs at a tiny size and finds nothing
wrong: every move reaches the other viewers' sockets, no socket error, no error logged."""

from __future__ import annotations

import re

from tests.benchmarks import run


def test_the_web_tables_latency_is_measured() -> None:
    out = run("activity.py", "--tables", "3", "--seconds", "4", "--think", "0.05",
              "--warmup", "0.5")
    measured = re.search(r"each other viewer: p50 ([\d.]+) ms, p90 [\d.]+ ms, "
                         r"p99 ([\d.]+) ms, max ([\d.]+) ms \((\d+) arrivals\)", out)
    assert measured is not None, out
    assert int(measured.group(4)) > 20  # three other viewers of many moves
    assert float(measured.group(1)) <= float(measured.group(2)) <= float(measured.group(3))
    assert "errors: 0 on the sockets, 0 logged" in out
