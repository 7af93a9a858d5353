"""The computer-player benchmarks run end to end at a tiny size and print sound figures.

Each script runs as its own process, as it is run by hand; the figures are checked for shape
and range, not for strength (a few games or positions say nothing about strength).
"""

from __future__ import annotations

import re

from tests.benchmarks import launch, run


def test_ai_benchmark_prints_a_share_line() -> None:
    out = run("ai.py", "--game", "1234", "-n", "4", "--iterations", "20", "--jobs", "1",
              "--solo-only")
    line = next(x for x in out.splitlines() if x.startswith("1234 "))
    fields = line.split()
    assert fields[1:3] == ["one", "hard"] and fields[3] == "4p" and fields[4] == "4"
    share = float(fields[5])
    assert 0.0 <= share <= 1.0 and fields[6].startswith("±")
    # single deals of a series do not end the match: no place
    assert fields[-1] == "-"


def test_ai_benchmark_plays_with_a_game_option() -> None:
    # 1234 as a single game: each game played is a whole match of one deal
    out = run("ai.py", "--game", "1234", "-n", "2", "--iterations", "20", "--jobs", "1",
              "--option", "games=1")
    assert "options={'games': '1'}" in out
    line = next(x for x in out.splitlines() if x.startswith("1234 "))
    assert line.split()[4] == "2" and 0.0 <= float(line.split()[5]) <= 1.0
    # every game ended its match, so the hard seat's mean place is printed: 1 to 4
    assert 1.0 <= float(line.split()[-1]) <= 4.0


def test_ai_benchmark_refuses_an_unknown_option_by_name() -> None:
    done = launch("ai.py", "--game", "1234", "-n", "2", "--iterations", "20", "--jobs", "1",
                  "--option", "gamez=1")
    assert done.returncode != 0
    assert "unknown option 'gamez'" in done.stderr and "Traceback" not in done.stderr
    done = launch("ai.py", "--game", "1234", "-n", "2", "--option", "games")
    assert done.returncode != 0
    assert "--option takes NAME=VALUE, not 'games'" in done.stderr
    assert "Traceback" not in done.stderr


def test_ai_benchmark_measures_another_level_without_a_verdict() -> None:
    out = run("ai.py", "--game", "bear", "-n", "3", "--jobs", "1", "--level", "easy")
    assert "level=easy" in out
    line = next(x for x in out.splitlines() if x.startswith("bear "))
    fields = line.split()
    assert fields[1:3] == ["one", "easy"] and 0.0 <= float(fields[5]) <= 1.0
    assert fields[9] == "-"  # the targets are the hard level's: no verdict
    done = launch("ai.py", "--game", "bear", "-n", "1", "--level", "easy", "--set",
                  "confidence=0")
    assert done.returncode != 0 and "only the hard level" in done.stderr


def test_benchmarks_refuse_an_unknown_game_by_name() -> None:
    for script in ("ai.py", "regret.py"):
        done = launch(script, "--game", "12345", "-n", "2", "--iterations", "20")
        assert done.returncode != 0
        assert "unknown game '12345'; the games are: twenty-two, 1234," in done.stderr
        assert "Traceback" not in done.stderr and "positions=" not in done.stdout


def test_regret_benchmark_prints_each_level() -> None:
    out = run("regret.py", "--game", "1234", "-n", "5", "--rounds", "30", "--iterations", "30",
              "--jobs", "1")
    found = re.search(r"positions=(\d+)", out)
    assert found is not None and 1 <= int(found.group(1)) <= 5
    rows = {x.split()[0] + (" " + x.split()[1] if x.startswith("hard") else ""): x.split()[-2:]
            for x in out.splitlines()[2:]}
    assert set(rows) == {"basic", "hard 30"}
    for judge, win in rows.values():
        # a loss against the reference's best move: never negative, never more than all
        assert 0.0 <= float(judge) <= 1.0 and 0.0 <= float(win) <= 1.0


def test_ai_benchmark_compares_budgets_on_the_same_games() -> None:
    # iterations matched to each budget at 400 playouts a second: 20 and 40
    out = run("ai.py", "--game", "1234", "--budgets", "0.1,0.05:3", "-n", "2", "--per-second",
              "400", "--jobs", "1", "--solo-only")
    assert "budgets=0.1,0.05:3 per_second=400.0" in out
    lines = [x.split() for x in out.splitlines() if x.startswith("1234 ")]
    # shortest budget first, each with its own iterations and games
    assert [(x[3], x[4], x[5]) for x in lines] == [("0.05", "20", "3"), ("0.1", "40", "2")]
    for fields in lines:
        assert 0.0 <= float(fields[6]) <= 1.0 and fields[7].startswith("±")
    # the first line has nothing shorter to compare with; the second compares the 2 games
    # both played, a difference of two shares
    assert lines[0][8] == "-"
    assert -1.0 <= float(lines[1][8]) <= 1.0 and lines[1][9].startswith("±")
    assert lines[1][10] == "2"
    assert float(lines[1][-1]) > 0  # playouts per CPU second


def test_ai_benchmark_refuses_bad_budgets_by_name() -> None:
    for args, said in ((("--budgets", "0.1,fast"), "not 'fast'"),
                       (("--budgets", "0.1:0"), "positive seconds and games, not '0.1:0'"),
                       (("--per-second", "400"), "a single --game"),
                       (("--game", "bear", "--per-second", "400", "--iterations", "9"),
                        "give it or --iterations")):
        done = launch("ai.py", *args, "-n", "1")
        assert done.returncode != 0 and said in done.stderr
        assert "Traceback" not in done.stderr and "share" not in done.stdout
