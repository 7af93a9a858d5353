"""The terminal front end (``python -m bot.terminal``) on the table service: every game played
to its end from typed lines, its lists checked against the stored game replayed, bad answers
answered, Japanese, a game broken off (end of input, Ctrl-C) kept stored, and no game state
ever in its hands."""

from __future__ import annotations

import ast
import asyncio
import io
import os
import re
from pathlib import Path

import pytest

import games
from bot import terminal
from bot.storage.store import Storage
from games.cli import menu

#: options that keep each game short (a target or a number of deals, where it has one)
SHORT: dict[str, list[str]] = {
    "1234": ["games=1"],
    "finesse": ["target=5"],
    "bear": ["deals=1"],
    "spar": ["target=3"],
}
#: a number on every line: always the first move of each list
ALWAYS_FIRST = "1\n" * 5000
PROMPT = {"en": "Choose a number (q to quit): ", "ja": "番号を選んでください（q で終了）："}
MOVES = {"en": "Your moves:", "ja": "選べる手："}
ITEM = re.compile(r"^ +\d+\. (.+)$")


async def play(tmp_path: Path, game: str, typed: str, *more: str,
               lang: str = "en") -> tuple[int, str, Path]:
    """A game at the terminal from ``typed`` lines: the exit status, the transcript and the
    database it was stored in."""
    db = tmp_path / "terminal.sqlite3"
    options = [word for option in SHORT.get(game, []) for word in ("--option", option)]
    out = io.StringIO()
    status = await terminal.run(
        [game, "--seed", "3", "--level", "easy", "--name", "Ann", "--lang", lang,
         "--db", str(db), *options, *more], io.StringIO(typed), out)
    return status, out.getvalue(), db


def listed_blocks(transcript: str, lang: str) -> list[list[str]]:
    """The lists shown under "Your moves:", in order, each as its labels."""
    lines = transcript.splitlines()
    blocks = []
    for at, line in enumerate(lines):
        if line == MOVES[lang]:
            labels = []
            for item in lines[at + 1:]:
                found = ITEM.match(item)
                if not found:
                    break
                labels.append(found.group(1))
            blocks.append(labels)
    return blocks


async def expected_blocks(db: Path, lang: str) -> tuple[list[list[str]], int]:
    """The lists the person should have been shown, from the stored game replayed: at each of
    the person's turns, the legal moves as the bot's panel groups them (a turn whose only entry
    is a choice of cards opens that choice at once, without a list); and how many moves the
    person made."""
    store = await Storage.open(str(db))
    try:
        row = await store.table(1)
        assert row is not None
        assert row.status == "finished"
        assert await store.result(1) is not None
        stored = await store.actions(1)
    finally:
        await store.close()
    rules = games.get(row.game)
    state = rules.new_game(len(row.seats), seed=row.seed, options=row.options)
    blocks = []
    for action in stored:
        if 0 in state.to_act:
            assert action.seat == 0 and action.how == "player", action
            entries = menu(rules, state.legal_actions(0), state.view(0), lang)
            if not (len(entries) == 1 and entries[0].action is None):
                blocks.append([entry.label for entry in entries])
        else:
            assert action.how == "computer", action
        state.apply(action.seat, games.Action.parse(action.action))
    assert state.over
    return blocks, sum(1 for a in stored if a.how == "player")


def check_prompts(transcript: str, lang: str) -> int:
    """Every prompt comes right after a numbered list (its last line just above it): the
    number of prompts."""
    lines = transcript.splitlines()
    prompts = [at for at, line in enumerate(lines) if line.startswith(PROMPT[lang])]
    for at in prompts:
        assert ITEM.match(lines[at - 1]), lines[at - 3:at + 1]
    return len(prompts)


@pytest.mark.parametrize("game", games.ids())
async def test_every_game_plays_to_its_end_in_the_terminal(tmp_path: Path, game: str) -> None:
    status, transcript, db = await play(tmp_path, game, ALWAYS_FIRST)
    assert status == 0, transcript[-2000:]
    result = [line for line in transcript.splitlines()
              if line.startswith("The game is over. 1. ")]
    assert len(result) == 1, transcript[-2000:]
    assert "Ann (" in result[0]
    assert transcript.rstrip().endswith(("You win!", " of 4.", " of 3.")), transcript[-500:]
    assert "Bye." not in transcript
    # the lists shown were the person's legal moves at each turn of the game stored
    expected, person_moves = await expected_blocks(db, "en")
    assert listed_blocks(transcript, "en") == expected
    assert expected, "the person was never asked for a move"
    assert check_prompts(transcript, "en") >= person_moves
    # the computers' moves reached the terminal as events, named by their seat's name
    assert re.search(r"^  · CPU \d", transcript, re.MULTILINE)


async def test_bad_answers_are_answered_and_the_game_goes_on(tmp_path: Path) -> None:
    typed = "hello\n0\n99\nplay:2C\npass\n?\n" + ALWAYS_FIRST
    status, transcript, db = await play(tmp_path, "spar", typed)
    assert status == 0
    lines = transcript.splitlines()
    prompt = PROMPT["en"]
    first = lines.index(prompt + "hello")
    # each bad line is answered in a sentence, then asked again
    assert lines[first + 1] == "Type a number from 1 to 1 (? shows the list again, q quits)."
    assert lines[first + 2] == prompt + "0"
    assert lines[first + 3] == lines[first + 1]
    assert lines[first + 4] == prompt + "99"
    assert lines[first + 5] == lines[first + 1]
    # a move written in its text form that the rules refuse: the rules' reason, and the list
    assert lines[first + 6] == prompt + "play:2C"
    assert lines[first + 7] == "You can't do that: You do not hold 2♣."
    assert lines[first + 8] == "Your moves:"
    assert lines[first + 9] == "    1. Play 6♠"
    # a word that is no move on offer, then "?" lists the moves again
    assert lines[first + 10] == prompt + "pass"
    assert lines[first + 11] == lines[first + 1]
    assert lines[first + 12] == prompt + "?"
    assert lines[first + 13] == "    1. Play 6♠"
    assert lines[first + 14] == prompt + "1"
    assert lines[first + 15] == "  · Ann plays 6♠."
    assert any(line.startswith("The game is over. 1. ") for line in lines)
    _, person_moves = await expected_blocks(db, "en")
    assert person_moves > 1


async def test_a_seat_option_is_typed_from_1(tmp_path: Path) -> None:
    status, transcript, _ = await play(tmp_path, "bear", "q\n", "--option", "dealer=3")
    assert status == 0
    assert "Deal 1 (dealer seat 3)" in transcript


async def test_a_move_in_its_text_form_is_played(tmp_path: Path) -> None:
    status, transcript, _ = await play(tmp_path, "spar", "play:6S\n" + ALWAYS_FIRST)
    assert status == 0
    assert f"{PROMPT['en']}play:6S\n  · Ann plays 6♠.\n" in transcript


async def test_a_game_in_japanese(tmp_path: Path) -> None:
    status, transcript, db = await play(tmp_path, "sugekari-21", ALWAYS_FIRST, lang="ja")
    assert status == 0
    assert transcript.startswith("菅刈21 — 卓 1\nあなたは 4 席中の 1 番席です。"
                                 "ほかの席はコンピューター（やさしい）が打ちます。\n")
    assert "得点（席順）: Ann — 0, CPU 1 — 0, CPU 2 — 0, CPU 3 — 0" in transcript
    assert re.search(r"^ゲーム終了。1位 ", transcript, re.MULTILINE)
    assert transcript.rstrip().endswith(("あなたの勝ちです！", "位。"))
    assert "Choose" not in transcript and "Your" not in transcript
    expected, _ = await expected_blocks(db, "ja")
    assert listed_blocks(transcript, "ja") == expected
    check_prompts(transcript, "ja")


async def test_the_end_of_the_input_leaves_the_game_stored(tmp_path: Path) -> None:
    status, transcript, db = await play(tmp_path, "spar", "1\n1\n")
    assert status == 0
    assert transcript.endswith(PROMPT["en"] + "\nBye.\n")
    store = await Storage.open(str(db))
    try:
        row = await store.table(1)
        assert row is not None and row.status == "playing"
        moves = [a.action for a in await store.actions(1) if a.how == "player"]
    finally:
        await store.close()
    assert moves[0] == "play:6S" and len(moves) == 2


async def test_q_quits(tmp_path: Path) -> None:
    status, transcript, _ = await play(tmp_path, "bear", "q\n")
    assert status == 0
    assert transcript.endswith(PROMPT["en"] + "q\nBye.\n")


async def test_ctrl_c_stops_and_keeps_the_game_stored(tmp_path: Path) -> None:
    """Ctrl-C (asyncio.run cancels the game) while the person thinks: a sentence, the computers
    stopped, the table kept."""
    read_end, write_end = os.pipe()
    db = tmp_path / "terminal.sqlite3"
    out = io.StringIO()
    with os.fdopen(read_end) as keyboard, os.fdopen(write_end, "w") as typing:
        game = asyncio.create_task(terminal.run(
            ["bear", "--seed", "3", "--level", "easy", "--db", str(db)], keyboard, out))
        for _ in range(500):
            if out.getvalue().endswith(PROMPT["en"]):
                break
            await asyncio.sleep(0.01)
        assert out.getvalue().endswith(PROMPT["en"]), out.getvalue()
        game.cancel()
        with pytest.raises(asyncio.CancelledError):
            await game
        typing.write("\n")  # the reading thread ends with the input
    assert out.getvalue().endswith(PROMPT["en"] + "\nStopped. Bye.\n")
    store = await Storage.open(str(db))
    try:
        row = await store.table(1)
        assert row is not None and row.status == "playing"
    finally:
        await store.close()


async def test_a_table_the_service_refuses_is_said_in_a_sentence(tmp_path: Path) -> None:
    status, transcript, _ = await play(tmp_path, "bear", "", "--players", "9")
    assert status == 2
    assert transcript.endswith("The table is full (3 players at most).\n"), transcript
    status, transcript, _ = await play(tmp_path, "spar", "", "--option", "deals=2")
    assert status == 2
    assert transcript.endswith("That option can't be used: option 'deals' applies only to "
                               "agram, sink-sink and agram-mali, not to variant 'spar'.\n")
    status, transcript, _ = await play(tmp_path, "bear", "", "--option", "dealer=4")
    assert status == 2
    assert transcript.endswith("Option 'dealer' is a seat from 1 to 3 or random, not '4'.\n")
    status, transcript, _ = await play(tmp_path, "bear", "", "--option", "bogus=1", lang="ja")
    assert status == 2
    assert transcript.endswith("ベア にオプション「bogus」はありません"
                               "（オプション：dealer, all_pass, failed, deals, target）。\n")
    status, transcript, _ = await play(tmp_path, "spar", "", "--option", "deals")
    assert status == 2
    assert transcript == "Write options as name=value, not 'deals'.\n"


def test_the_terminal_never_holds_a_game_state() -> None:
    """Positions and events only: no ``.state`` read anywhere, no State imported."""
    source = Path(terminal.__file__).read_text()
    tree = ast.parse(source)
    touched = [node.lineno for node in ast.walk(tree)
               if isinstance(node, ast.Attribute) and node.attr == "state"]
    assert touched == []
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
             for alias in node.names}
    assert "State" not in names
    assert re.search(r"\.state\b", source) is None


async def test_a_game_broken_off_is_taken_up_again(tmp_path: Path) -> None:
    """--resume rebuilds the latest game from its stored moves (the service's restart) and
    plays it on to its end."""
    status, first, db = await play(tmp_path, "spar", "1\n1\n")
    assert status == 0 and first.endswith("Bye.\n")
    out = io.StringIO()
    status = await terminal.run(["--resume", "--db", str(db)], io.StringIO(ALWAYS_FIRST), out)
    again = out.getvalue()
    assert status == 0, again[-2000:]
    assert again.startswith("Spar — table 1\nYou play seat 1 of 4; the computer (easy) plays "
                            "the others.\n"), again[:300]
    assert any(line.startswith("The game is over. 1. ") for line in again.splitlines())
    # the list left unanswered is shown again, and the two sittings together listed every
    # turn of the one game stored
    before, after = listed_blocks(first, "en"), listed_blocks(again, "en")
    assert before[-1] == after[0]
    expected, person_moves = await expected_blocks(db, "en")
    assert before[:-1] + after == expected
    assert person_moves > 2
    out = io.StringIO()
    status = await terminal.run(["--resume", "--db", str(db)], io.StringIO(""), out)
    assert status == 2
    assert out.getvalue() == "There is no open table here any more.\n"
