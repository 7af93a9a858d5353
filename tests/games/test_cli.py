"""``python -m games``: list, rules, simulate and play, driven as a person would."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys

import pytest

import games
from games.cli import main, simulate


def run(*argv: str, answers: list[str] | None = None) -> tuple[int, str]:
    out = io.StringIO()
    replies = iter(answers or [])
    code = main(list(argv), out=out, read=lambda prompt: next(replies, "1"))
    return code, out.getvalue()


def test_list_names_every_game() -> None:
    code, text = run("list")
    assert code == 0
    for gid in games.ids():
        assert gid in text and games.get(gid).name in text


@pytest.mark.parametrize("gid", games.ids())
def test_rules_prints_the_summary_and_every_option(gid: str) -> None:
    rules = games.get(gid)
    for lang, summary in (("en", rules.summary_en), ("ja", rules.summary_ja)):
        code, text = run("rules", gid, "--lang", lang)
        assert code == 0
        assert summary.strip().splitlines()[0] in text
        for opt in rules.options:
            assert opt.name in text


def test_unknown_game_and_bad_option_get_a_clear_answer() -> None:
    code, text = run("rules", "poker")
    assert code == 2 and "Unknown game" in text
    if games.ids():
        code, text = run("simulate", games.ids()[0], "-n", "1", "--option", "nonsense=1")
        assert code == 2 and "nonsense" in text
        code, text = run("simulate", games.ids()[0], "-n", "1", "--option", "novalue")
        assert code == 2 and "name=value" in text


@pytest.mark.parametrize("gid", games.ids())
def test_simulate_reports_win_shares_that_add_up(gid: str) -> None:
    rules = games.get(gid)
    result = simulate(gid, 3, rules.usual_players, {}, ["random", "normal"], seed=4)
    shares = result["win_share"]
    assert isinstance(shares, list) and len(shares) == rules.usual_players
    assert all(0 <= share <= 1 for share in shares)
    teams = rules.teams(rules.usual_players, rules.validate_options(rules.usual_players))
    for team in teams or []:
        assert len({shares[seat] for seat in team}) == 1, "partners win together"
    code, text = run("simulate", gid, "-n", "2", "--levels", "easy,normal")
    assert code == 0 and "win share" in text and "µs" in text


@pytest.mark.parametrize("gid", games.ids())
def test_a_person_plays_to_the_end_and_bad_input_is_answered(gid: str) -> None:
    answers = itertools.chain(["", "zzz", "999", "play:ZZ"], itertools.repeat("1"))
    out = io.StringIO()
    code = main(["play", gid, "--seed", "3"], out=out, read=lambda prompt: next(answers))
    text = out.getvalue()
    assert code == 0
    assert text.count("Not allowed") >= 3
    assert "You win!" in text or "Game over" in text


def test_quit_leaves_cleanly() -> None:
    if not games.ids():
        return
    code, text = run("play", games.ids()[0], "--seed", "1", answers=["q"])
    assert code == 0 and "Bye." in text


def test_module_entry_point_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "games", "list"], capture_output=True,
                          text=True, check=True)
    assert all(gid in done.stdout for gid in games.ids())
