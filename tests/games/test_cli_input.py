"""Odd input never crashes ``python -m games``: '²' (``str.isdigit`` is true, ``int`` refuses
it), a 5,000-digit number (past Python's int-string limit), negative numbers, zero games, empty
lines and the end of the input each get a sentence, never a traceback nor a broken game (#48)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from games.cli import line_number, main, simulate, whole_number
from games.cli_text import say

LONG = "9" * 5000


def run(*argv: str, lines: tuple[str, ...] = ()) -> tuple[int, str, str]:
    """The real process with ``lines`` as its input (then the end of the input)."""
    done = subprocess.run([sys.executable, "-m", "games", *argv], capture_output=True,
                          text=True, timeout=120, check=False,
                          input="".join(f"{line}\n" for line in lines))
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("typed", ["²", "³", "٣", LONG, "-1", "0", "", "   ", "1.5", "x"])
def test_an_odd_answer_at_the_prompt_is_asked_again(typed: str) -> None:
    status, out, err = run("play", "bear", "--seed", "1", lines=(typed, "q"))
    assert status == 0 and "Traceback" not in out + err, err
    assert say("bad-number", "en", count=13) in out  # Bear's first list: 13 bids
    assert out.rstrip().endswith(say("bye", "en"))


def test_the_end_of_the_input_ends_the_game_with_a_word() -> None:
    status, out, err = run("play", "bear", "--seed", "1")
    assert status == 0 and out.rstrip().endswith(say("bye", "en")) and not err


@pytest.mark.parametrize("argv", [
    ("simulate", "bear", "-n", "²"), ("simulate", "bear", "-n", LONG),
    ("simulate", "bear", "--seed", LONG), ("play", "bear", "--seat", "²"),
    ("play", "bear", "--players", LONG), ("simulate", "bear", "--players", "³"),
])
def test_an_odd_number_on_the_command_line_is_one_sentence(argv: tuple[str, ...]) -> None:
    status, _, err = run(*argv)
    assert status == 2 and "Traceback" not in err
    value = argv[-1][:39] + ("…" if len(argv[-1]) > 40 else "")
    assert err.endswith(f"error: argument {argv[-2]}: invalid int value: '{value}'\n"), err
    assert len(err) < 2000  # not the 5,000 digits back
    status, _, err = run(*argv, "--lang", "ja")
    assert status == 2 and err.endswith(f"{argv[-2]} に「{value}」は使えません。\n"), err


@pytest.mark.parametrize(("n", "lang"), [("0", "en"), ("-3", "en"), ("0", "ja")])
def test_simulate_refuses_no_games_or_fewer(n: str, lang: str) -> None:
    status, out, err = run("simulate", "bear", "-n", n, "--lang", lang)
    assert (status, err) == (2, "")
    assert out == say("sim-count", lang, n=int(n)) + "\n"


@pytest.mark.parametrize("value", ["²", LONG, "-1", "0", "4"])
def test_an_odd_seat_option_is_refused_with_a_sentence(value: str) -> None:
    status, out, err = run("play", "bear", "--option", f"dealer={value}")
    assert status == 2 and not err
    assert out.startswith("Option 'dealer' is a seat from 1 to 3 or random, not ")
    assert len(out) < 200


@pytest.mark.parametrize("value", ["²", LONG])
def test_an_odd_whole_number_option_is_refused_with_a_sentence(value: str) -> None:
    # Spar's target is a whole-number option
    status, out, err = run("simulate", "spar", "-n", "1", "--option", f"target={value}")
    assert status == 2 and not err and "invalid literal" not in out and "Exceeds" not in out
    assert out.startswith("Option 'target' is a whole number"), out
    assert len(out) < 200


def test_the_numbers_a_person_types_are_read_only_when_int_takes_them() -> None:
    assert [whole_number(t) for t in ("12", " 7 ", "-4", "²", "٣", LONG, "", "-")] == [
        12, 7, -4, None, None, None, None, None]
    assert [line_number(t, 3) for t in ("1", "3", "0", "4", "-1", "²")] == [
        0, 2, None, None, None, None]


def test_simulate_refuses_zero_games_in_code_too() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        simulate("bear", 0, 3, {}, ["random"], 1)


def test_main_in_process_answers_odd_input_and_never_raises() -> None:
    import io
    out = io.StringIO()
    answers = iter(["²", LONG, "q"])
    assert main(["play", "bear", "--seed", "1"], out, lambda prompt: next(answers)) == 0
    assert out.getvalue().count(say("bad-number", "en", count=13)) == 2
