"""The hostile-socket benchmark (benchmarks/hostile.py) runs at a tiny size: the players are
answered with and without the attackers, the attackers are closed and refused as the limits
say, nothing is logged as an error and no socket is left open."""

from __future__ import annotations

import re

from tests.benchmarks import run


def test_the_players_are_answered_beside_hostile_sockets() -> None:
    out = run("hostile.py", "--tables", "2", "--seconds", "3", "--think", "0.05",
              "--warmup", "0.5", "--attackers", "0,1")
    runs = re.findall(r"(\d) attackers: first response p50 ([\d.]+) ms, p99 ([\d.]+) ms, "
                      r"max [\d.]+ ms \((\d+) requests\)", out)
    assert [r[0] for r in runs] == ["0", "1"], out
    assert all(int(r[3]) > 10 and float(r[1]) <= float(r[2]) for r in runs), out
    assert out.count("errors: 0 of the players, 0 logged") == 2, out
    assert out.count("sockets open at the end: 0") == 2, out
    attacked = re.search(r"attackers: (flood.*)", out)
    assert attacked is not None, out
    # the flood is closed by its bucket, and a person's opens are held to their rate
    assert re.search(r"flood closed 1008: \d+", attacked.group(1)), out
    assert re.search(r"refused before the upgrade 429: \d+", attacked.group(1)), out
    assert "target (p99 within 1.2x of the run without):" in out
