"""The production benchmarks run end to end at a tiny size and find nothing wrong.

Each script is run as its own process, as it is run by hand, and must exit 0 (it exits 1 on
any lost or doubled action, corrupted table, unanswered interaction, logged error or spec
error) and print its figures.
"""

from __future__ import annotations

import re

import pytest

from tests.benchmarks import run


def test_bad_input_is_refused_without_harm() -> None:
    out = run("badinput.py", "--count", "200", "--games", "high-card", "--concurrency", "8")
    sent = int(re.search(r"^(\d+) bad interactions", out, re.M).group(1))  # type: ignore[union-attr]
    assert 200 <= sent < 200 + 8  # at least the count asked for (up to one per worker more)
    assert "unfinished after play: 0" in out and "errors logged: 0" in out
    assert "not answered in time: 0" in out
    assert "corrupted: 0" in out
    assert "applied twice: 0" in out


def test_killed_bot_loses_and_doubles_nothing() -> None:
    out = run("faults.py", "--runs", "3", "--tables", "2", "--games", "1234",
              "--window", "0.3,1")
    assert "3 runs" in out
    assert "lost: 0; applied twice or made up: 0; rewritten: 0" in out
    assert "unfinished at the end: 0" in out


def test_load_figures_are_measured() -> None:
    out = run("load.py", "--tables", "4", "--minutes", "0.15", "--ramp", "2",
              "--think", "0.2,0.5")
    assert "interactions (steady):" in out
    assert "bot CPU:" in out and "bot memory:" in out
    assert "errors the bot logged: 0" in out
    # the computers' waits, per level, include their pause (1 s by default)
    waited = re.search(r"normal computers: (\d+) moves; applied p50 ([\d.]+) s", out)
    assert waited is not None and int(waited.group(1)) > 0 and float(waited.group(2)) >= 1.0


@pytest.mark.timeout(600)  # the run itself may take up to 400 s
def test_two_shard_processes_share_one_postgresql() -> None:
    out = run("shards.py", "--guilds", "2", "--games", "1", timeout=400.0)
    assert "problems: 0" in out
    assert "leaderboards identical across the switch: 2/2" in out


def test_the_bot_benchmark_times_answers_and_pictures() -> None:
    out = run("bot.py", "--tables", "4", "--moves", "2")
    assert re.search(r"first response request: p50 [\d.]+ ms, p95 [\d.]+ ms, p99 [\d.]+ ms", out)
    pictures = re.search(r"a hand's picture, after the panel's answer: (\d+) answers, "
                         r"p50 (\d+) ms", out)
    assert pictures is not None and int(pictures.group(1)) > 0
    assert ("errors: 0 interactions not answered in time or refused, 0 error lines logged by "
            "the bot, 0 spec errors") in out
