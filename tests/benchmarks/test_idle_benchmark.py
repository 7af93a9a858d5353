"""The idle correspondence tables benchmark (benchmarks/idle.py) runs at a tiny size: every
table it builds resumes waiting for a person, and its figures are printed."""

from __future__ import annotations

import re

from tests.benchmarks import run


def test_idle_tables_resume_and_are_measured() -> None:
    out = run("idle.py", "--tables", "40", "--idle-seconds", "1")
    assert re.search(r"^built 40 tables \(\d+ moves stored", out, re.M), out
    assert "resumed: 40 of 40 tables, 40 waiting for a person with a running deadline" in out
    per_table = re.search(r"([\d.]+) KiB per idle table", out)
    assert per_table is not None and float(per_table.group(1)) > 0
    assert re.search(r"^resume after a restart: [\d.]+ s for 40 tables .*: PASS$", out, re.M)
    assert re.search(r"^idle CPU: [\d.]+ s over [\d.]+ s: [\d.]+ % of a core .*: PASS$", out,
                     re.M)
    # one scheduler for all: a reminder and a deadline per table, no task per table
    assert "expire 40, remind 40" in out
    assert re.search(r"^asyncio tasks: \d+ after the resume, \d+ after .*: PASS$", out, re.M)
    assert out.rstrip().endswith("problems: 0")
