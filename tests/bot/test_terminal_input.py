"""Odd input never crashes ``python -m bot.terminal``: '²' (``str.isdigit`` is true, ``int``
refuses it), a 5,000-digit number, negative numbers, empty lines, the end of the input, a
``--db`` that is not a database or cannot be written, odd seat counts and option values each
get a sentence and no traceback (#48)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import terminal
from games.cli_text import say

LONG = "9" * 5000


async def run(tmp_path: Path, *argv: str, typed: str = "", lang: str = "en") -> tuple[int, str]:
    out = io.StringIO()
    status = await terminal.run(["--lang", lang, "--level", "easy", "--seed", "3",
                                 *argv], io.StringIO(typed), out)
    return status, out.getvalue()


@pytest.mark.parametrize("answer", ["²", "³", LONG, "-1", "0", "", "  ", "1.5"])
async def test_an_odd_answer_is_asked_again(tmp_path: Path, answer: str) -> None:
    status, out = await run(tmp_path, "bear", "--db", str(tmp_path / "t.db"),
                            typed=f"{answer}\nq\n")
    assert status == 0
    said = out.rsplit(say("prompt", "en"), 2)
    # the answer is echoed after the prompt, then asked again with the list's range
    assert said[-2].startswith(answer) and "Type a number from 1 to " in said[-2], out[-500:]
    assert said[-1] == "q\n" + say("bye", "en") + "\n"


async def test_the_end_of_the_input_ends_the_game_with_a_word(tmp_path: Path) -> None:
    status, out = await run(tmp_path, "bear", "--db", str(tmp_path / "t.db"))
    assert status == 0 and out.rstrip().endswith(say("bye", "en"))


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_db_that_is_not_a_database_is_one_sentence(tmp_path: Path, lang: str) -> None:
    other = tmp_path / "passwd"
    other.write_text("root:x:0:0:root:/root:/bin/bash\n" * 50)
    status, out = await run(tmp_path, "bear", "--db", str(other), lang=lang)
    assert (status, out) == (2, say("db-not-database", lang, path=other) + "\n")
    assert other.read_text().startswith("root:x:0:0")  # left as it was


@pytest.mark.parametrize("where", ["folder", "under-a-file"])
async def test_a_db_that_cannot_be_made_is_one_sentence(tmp_path: Path, where: str) -> None:
    (tmp_path / "file").write_text("x")
    target = tmp_path if where == "folder" else tmp_path / "file" / "t.db"
    status, out = await run(tmp_path, "bear", "--db", str(target))
    assert status == 2
    assert out.startswith(f"The games cannot be kept at {target} (") and out.endswith(
        "): give --db a file in a folder you may write to.\n"), out


@pytest.mark.parametrize("players", ["-2", "-1", "0"])
async def test_a_negative_seat_count_is_refused_before_a_table_opens(tmp_path: Path,
                                                                 players: str) -> None:
    db = tmp_path / "t.db"
    status, out = await run(tmp_path, "bear", "--db", str(db), "--players", players)
    if players == "0":  # 0: the game's usual count, as python -m games takes it
        assert status == 0
        return
    assert (status, out) == (2, f"Bear is for 3 players, not {players}.\n")


@pytest.mark.parametrize("value", ["²", LONG, "0", "-1"])
async def test_an_odd_seat_option_is_refused_with_a_sentence(tmp_path: Path, value: str) -> None:
    status, out = await run(tmp_path, "bear", "--db", str(tmp_path / "t.db"),
                            "--option", f"dealer={value}")
    assert status == 2
    assert out.startswith("Option 'dealer' is a seat from 1 to 3 or random, not ")
    assert len(out) < 200


@pytest.mark.parametrize("value", ["²", LONG])
async def test_an_odd_whole_number_option_is_refused_with_a_sentence(tmp_path: Path,
                                                                     value: str) -> None:
    status, out = await run(tmp_path, "spar", "--db", str(tmp_path / "t.db"),
                            "--option", f"target={value}")
    assert status == 2 and "target" in out and "invalid literal" not in out


@pytest.mark.parametrize("argv", [("bear", "--players", "²"), ("bear", "--seed", LONG),
                                  ("--resume", "³"), ("bear", "--players", LONG)])
def test_an_odd_number_on_the_command_line_is_one_sentence(tmp_path: Path,
                                                           argv: tuple[str, ...]) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "bot.terminal", *argv], capture_output=True,
                          text=True, timeout=120, check=False, env=env, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"argument {argv[-2]}: invalid int value: '" in done.stderr
    assert len(done.stderr) < 2000


def test_the_real_process_answers_a_passwd_db_without_a_traceback(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "bot.terminal", "bear", "--db", "/etc/passwd"],
                          capture_output=True, text=True, timeout=120, check=False, env=env,
                          stdin=subprocess.DEVNULL)
    assert (done.returncode, done.stderr) == (2, "")
    assert done.stdout == say("db-not-database", "en", path="/etc/passwd") + "\n"
