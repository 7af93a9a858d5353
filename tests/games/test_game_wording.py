"""The games word nothing themselves: moves, events and refusals are data (a catalogue key and
its fields) and every sentence is in games/locales, in English and in Japanese."""

from __future__ import annotations

import functools
import pickle
import random
import re
from pathlib import Path

import pytest

import games
from games import wording
from games.cards import parse
from games.core import Action, IllegalAction, Msg, OptionError, State, msg

GAMES_DIR = Path(games.__file__).parent
SOURCES = sorted(GAMES_DIR.rglob("*.py"))
#: every move kind of every game, and some no game has: refused moves to try
KINDS = ("play", "pass", "bid", "exchange", "discard", "take", "draw", "decline", "refill",
         "table", "redeal", "keep", "peek", "rebuy", "out", "knock")


def test_no_sentence_is_chosen_by_language_in_the_code() -> None:
    """No `lang == "ja"` left: a sentence is found by its key in the reader's catalogue."""
    branch = re.compile(r'==\s*"ja"|"ja"\s*==|!=\s*"ja"|\bja\s*=\s*lang\b|\bif ja\b')
    found = [f"{path.relative_to(GAMES_DIR)}:{n}" for path in SOURCES
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if branch.search(line)]
    assert found == []


def test_no_refusal_is_a_bare_sentence() -> None:
    """Every IllegalAction the rules raise names a catalogue message, never an English text."""
    bare = re.compile(r'IllegalAction\(\s*f?["\']')
    found = [str(path.relative_to(GAMES_DIR)) for path in SOURCES
             if bare.search(path.read_text(encoding="utf-8"))]
    assert found == []


def test_every_key_the_games_name_is_in_every_language() -> None:
    """Each literal key given to msg() (and each key prefix an f-string builds on) is in the
    English and the Japanese catalogues."""
    english, japanese = set(wording.keys("en")), set(wording.keys("ja"))
    named: set[str] = set()
    prefixes: set[str] = set()
    for path in SOURCES:
        if path.name == "wording.py":  # its examples name no real message
            continue
        source = path.read_text(encoding="utf-8")
        for call in re.finditer(r'\bmsg\(\s*([^,)]*)', source):
            head = call.group(1)  # the key, or 'a if phase == "b" else c': keys have a dash
            named.update(re.findall(r'(?<![f\w])"([a-z0-9]+-[a-z0-9_-]*)"', head))
            prefixes.update(re.findall(r'\bf"([a-z0-9][a-z0-9_-]*)\{', head))
    assert len(named) > 150 and len(prefixes) > 10  # the scan reads the calls
    assert named - english == set() and named - japanese == set()
    for prefix in prefixes:
        assert any(key.startswith(prefix) for key in japanese), prefix


@functools.cache
def _refusals(gid: str, seeds: int = 3) -> tuple[IllegalAction, ...]:
    """Refused moves met while playing a few games at random: each move kind with each card
    of the hand, a malformed one and a move out of turn. Kept per game: two tests read them,
    and finding them is most of this file's time."""
    rules = games.get(gid)
    found: list[IllegalAction] = []
    # One copy of the position takes every try: a refused move leaves a state untouched
    # (test_conformance checks it), so a copy is made again only after a move it accepted.
    scratch: list[State] = []

    def tried(state: State, seat: int, move: Action | str) -> None:
        if not scratch:
            scratch.append(state.clone())
        try:
            scratch[0].apply(seat, move)
        except IllegalAction as exc:
            found.append(exc)
            return
        scratch.clear()

    for seed in range(seeds):
        players = rules.usual_players
        state = rules.new_game(players, seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if state.over:
                break
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            hand = [parse(c) for c in state.view(seat)["hand"]]
            for kind in KINDS:
                for card in hand[:3]:
                    move = Action(kind, None, (card,))
                    if not any(move.same_as(a) for a in legal):
                        tried(state, seat, move)
                tried(state, seat, Action(kind, "zz"))
            tried(state, (seat + 1) % players, legal[0])
            tried(state, seat, "play:ZZ")
            state.apply(seat, rng.choice(legal))
            scratch.clear()
    return tuple(found)


@pytest.mark.parametrize("gid", games.ids())
def test_a_japanese_player_reads_every_refusal_in_japanese(gid: str) -> None:
    """Each refusal met in play is a catalogue message, Japanese in Japanese (not the English
    fallen back to), with str() the English sentence the rules contract promises."""
    refusals = _refusals(gid)
    keys = {exc.message.key for exc in refusals}
    assert len(keys) >= 5, keys
    japanese = wording.catalogue("ja")
    for exc in refusals:
        assert exc.message.key in japanese, exc.message.key
        assert isinstance(exc, ValueError) and str(exc) == exc.text("en")
        said = exc.text("ja")
        assert said != str(exc) and not said.isascii(), said
        assert "{" not in said and "{" not in str(exc)


def test_a_refusal_keeps_its_message_across_a_process() -> None:
    """A computer's search runs in a pool of processes: its refusal comes back as data."""
    exc = IllegalAction(msg("move-not-held", cards=parse("TS")))
    again = pickle.loads(pickle.dumps(exc))
    assert isinstance(again, IllegalAction) and again.message == exc.message
    assert str(again) == "You do not hold 10♠." and again.text("ja") == "10♠を持っていません。"


def test_an_option_refusal_keeps_its_message_across_a_process() -> None:
    option = games.get("twenty-two").option("rebuy")
    with pytest.raises(OptionError) as refused:
        option.coerce("maybe", 4)
    again = pickle.loads(pickle.dumps(refused.value))
    assert again.key == "value-bool" and str(again) == str(refused.value)
    assert again.text("ja") == "オプション「rebuy」は true か false です（'maybe' ではありません）"


def test_a_plain_sentence_still_refuses_in_every_language() -> None:
    exc = IllegalAction("Not now.")
    assert str(exc) == exc.text("ja") == "Not now." and exc.message == Msg("Not now.")


@pytest.mark.parametrize(("gid", "english", "japanese"), [
    ("spar", r"You must follow suit \((spades|hearts|diamonds|clubs)\)\.",
     r"リードと同じスート（(スペード|ハート|ダイヤ|クラブ)）を出してください。"),
    ("bhabhi", r"You must follow suit: you hold (spades|hearts|diamonds|clubs)\.",
     r"リードと同じスートを出してください：(スペード|ハート|ダイヤ|クラブ)を持っています。"),
    ("finesse", r"You must follow suit: play a (spade|heart|diamond|club) card\.",
     r"リードと同じスート（(スペード|ハート|ダイヤ|クラブ)）のカードを出してください。"),
])
def test_a_suit_to_follow_is_named_in_the_readers_language(
        gid: str, english: str, japanese: str) -> None:
    """Spar said 'You must follow suit (H).': the suit's letter, in every language."""
    follows = [exc for exc in _refusals(gid) if exc.message.key.endswith("-follow")]
    assert follows
    for exc in follows:
        assert re.fullmatch(english, str(exc)), str(exc)
        assert re.fullmatch(japanese, exc.text("ja")), exc.text("ja")
        assert not re.search(r"\([SHDC]\)", str(exc) + exc.text("ja"))


@pytest.mark.parametrize("gid", games.ids())
def test_a_move_that_plays_cards_reads_alike_in_japanese(gid: str) -> None:
    """One Japanese form for playing cards in every game, '8♠を出す' (the games said
    '出す 8♠', '3♠を出す', '7♥ を出す' and 'プレイ Q♥ A♠'); English 'Play 8♠'."""
    rules = games.get(gid)
    labels: dict[str, str] = {}
    for seed in range(2):
        state = rules.new_game(rules.usual_players, seed=seed)
        rng = random.Random(seed)
        for _ in range(200):
            if state.over:
                break
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            for action in legal:
                if action.kind == "play" and action.arg is None and action.cards:
                    shown = wording.word(list(action.cards), "ja")
                    labels[rules.action_text(action, "ja")] = shown
                    assert rules.action_text(action, "en").startswith("Play ")
            state.apply(seat, rng.choice(legal))
    assert labels
    for label, shown in labels.items():
        assert label.startswith(shown + "を出す"), label
        assert "プレイ" not in label and not label.startswith("出す")


def test_no_key_is_in_two_catalogues_of_a_language() -> None:
    """A language's catalogues are read as one: a key in two files (a game's and the bot's)
    would word one of them with the other's sentence."""
    from babel.messages.pofile import read_po

    for lang in wording.languages():
        seen: dict[str, str] = {}
        for path in sorted((wording.LOCALES / lang).glob("*.po")):
            with path.open("rb") as handle:
                for message in read_po(handle):
                    if message.id:
                        key = str(message.id)
                        assert key not in seen, f"{lang}: {key} in {seen.get(key)} and {path.name}"
                        seen[key] = path.name
