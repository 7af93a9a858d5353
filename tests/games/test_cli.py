"""``python -m games``: list, rules, simulate and play, driven as a person would."""

from __future__ import annotations

import io
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest

import games
from games import ai, wording
from games.cards import parse_many, pretty, show
from games.cli import main, simulate
from games.cli_text import say as cli_say
from games.core import Action, Event, OptionError, View

# a card written as its code (TS, 7H) where a person reads
RAW_CODE = re.compile(r"\b[2-9TJQKA][SHDC]\b")
# seats counted from 0 somewhere a person reads
SEAT_ZERO = re.compile(r"[Ss]eats? 0\b|席0|\b0 ?番")
# an English word where only Japanese should be
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
# a menu line: '    12. Play 7♠'
MENU_LINE = re.compile(r"^\s+(\d+)\. (.*)$")


def run(*argv: str, answers: Iterable[str] = (), then: str | None = "1") -> tuple[int, str]:
    """Run the command line with scripted answers; after them ``then`` forever, or the end of
    input when ``then`` is None."""
    out = io.StringIO()
    replies = iter(answers)

    def read(prompt: str) -> str:
        out.write(prompt)
        answer = next(replies, then)
        if answer is None:
            raise EOFError
        out.write(answer + "\n")
        return answer

    code = main(list(argv), out=out, read=read)
    return code, out.getvalue()


class Person:
    """A scripted player who reads the last menu before answering: each step of ``plan`` is a
    function from the transcript so far to an answer; after the plan, they quit."""

    def __init__(self, plan: Iterable[Callable[[str], str]]) -> None:
        self.out = io.StringIO()
        self.plan: Iterator[Callable[[str], str]] = iter(plan)

    def read(self, prompt: str) -> str:
        self.out.write(prompt)
        step = next(self.plan, None)
        answer = "q" if step is None else step(self.out.getvalue())
        self.out.write(answer + "\n")
        return answer

    def play(self, *argv: str) -> str:
        assert main(["play", *argv], out=self.out, read=self.read) == 0
        return self.out.getvalue()


def last_menu(text: str) -> list[str]:
    """The labels of the last numbered list in a transcript."""
    lines = text.splitlines()
    end = max(i for i, line in enumerate(lines) if MENU_LINE.match(line))
    start = end
    while start > 0 and MENU_LINE.match(lines[start - 1]):
        start -= 1
    found = [MENU_LINE.match(line) for line in lines[start:end + 1]]
    return [m.group(2) for m in found if m]


def line_of(pattern: str) -> Callable[[str], str]:
    """An answer: the number of the last menu's line matching ``pattern``."""
    def answer(text: str) -> str:
        labels = last_menu(text)
        for number, label in enumerate(labels, 1):
            if re.search(pattern, label):
                return str(number)
        raise AssertionError(f"no line matches {pattern!r} in {labels}")
    return answer


def say(text: str) -> Callable[[str], str]:
    """An answer typed as it is."""
    return lambda _: text


# -- list and rules ------------------------------------------------------------------------------
def test_list_names_every_game_with_its_player_counts() -> None:
    code, text = run("list")
    assert code == 0
    for gid in games.ids():
        assert gid in text and games.get(gid).name in text
    assert re.search(r"^finesse\s+Finesse\s+4 players$", text, re.M)
    assert re.search(r"^twenty-two\s+22\s+2 to 8 players$", text, re.M)
    code, text = run("list", "--lang", "ja")
    assert code == 0 and "players" not in text
    for gid in games.ids():
        assert games.get(gid).title("ja") in text
    assert re.search(r"^finesse\s+フィネス\s+4 人$", text, re.M)


@pytest.mark.parametrize("gid", games.ids())
def test_rules_prints_the_summary_and_every_option(gid: str) -> None:
    rules = games.get(gid)
    for lang, summary in (("en", rules.summary("en")), ("ja", rules.summary("ja"))):
        code, text = run("rules", gid, "--lang", lang)
        assert code == 0
        assert summary.strip().splitlines()[0] in text
        for opt in rules.options:
            assert f"  {opt.name}={rules.default_text(opt, lang)} (" in text
            if opt.kind == "seat":
                assert ("1〜" if lang == "ja" else "seat 1 to") in text
        assert "from 0" not in text


def test_rules_show_spars_target_as_the_engine_sets_it() -> None:
    rules = games.get("spar")
    code, text = run("rules", "spar")
    assert code == 0 and "target=random" not in text
    line = next(line for line in text.splitlines() if line.startswith("  target="))
    stated = dict(re.findall(r"([a-z-]+) (\d+)", line.split(";")[0]))
    without = re.search(r"none for ([a-z, -]+), which", line)
    assert stated and without
    for variant in rules.option("variant").choices:
        state = rules.new_game(4, seed=1, options={"variant": variant})
        target = state.view(0)["target"]
        if variant in stated:
            assert target == int(stated[variant]), variant
        else:
            assert variant in without.group(1) and target is None, variant
    code, text = run("rules", "spar", "--lang", "ja")
    assert "target=ゲームごと（spar 30、benin 24" in text


def test_a_game_for_one_count_of_players_says_so() -> None:
    with pytest.raises(ValueError, match=r"^Finesse is for 4 players, not 3$"):
        games.get("finesse").validate_options(3)
    code, text = run("play", "finesse", "--players", "3")
    assert code == 2 and text == "Finesse is for 4 players, not 3.\n"
    code, text = run("play", "finesse", "--players", "3", "--lang", "ja")
    assert code == 2 and text == "フィネス は 4 人用です（3 人ではできません）。\n"
    code, text = run("play", "bhabhi", "--players", "9")
    assert code == 2 and "2 to 7 players, not 9" in text


def test_unknown_game_and_bad_option_get_a_clear_answer() -> None:
    code, text = run("rules", "poker")
    assert code == 2 and text.startswith("There is no game 'poker'. The games: twenty-two")
    code, text = run("play", "poker", "--lang", "ja")
    assert code == 2 and text.startswith("「poker」というゲームはありません。")
    code, text = run("simulate", "spar", "-n", "1", "--option", "nonsense=1")
    assert code == 2 and "nonsense" in text
    code, text = run("simulate", "spar", "-n", "1", "--option", "novalue")
    assert code == 2 and "name=value" in text


@pytest.mark.parametrize(("option", "en", "ja"), [
    ("nonsense=1", "22 has no option 'nonsense' (its options: dealer, last_out, rebuy, scoring).",
     "22（トゥエンティ・ツー） にオプション「nonsense」はありません"),
    ("rebuy=maybe", "Option 'rebuy' is true or false, not 'maybe'.",
     "オプション「rebuy」は true か false です"),
    ("last_out=zz", "Option 'last_out' is one of shared | lowest, not 'zz'.",
     "オプション「last_out」は shared | lowest のどれかです"),
    ("dealer=x", "Option 'dealer' is a seat from 1 to 4 or random, not 'x'.",
     "オプション「dealer」は 1〜4 の席番号か random です"),
])
def test_a_bad_option_value_is_answered_in_the_readers_language(option: str, en: str,
                                                                 ja: str) -> None:
    code, text = run("play", "twenty-two", "--option", option)
    assert code == 2 and text == en + "\n"
    code, text = run("play", "twenty-two", "--option", option, "--lang", "ja")
    assert code == 2 and text.startswith(ja) and text.endswith("。\n")
    code, text = run("play", "spar", "--option", "target=0")
    assert code == 2 and text == "Option 'target' is a whole number from 1 to 1000, not '0'.\n"


# option combinations a game refuses, typed as a person types them (seats from 1)
REFUSED_MIXES = [
    ("twenty-two", 2, ["rebuy=true"], "rebuy-players"),
    ("bhabhi", 4, ["shootout=true", "taker_stays=true"], "shootout-taker-stays"),
    ("1234", 4, ["scoring=winner", "chips=50"], "only-with-scoring"),
    ("1234", 4, ["target=50"], "only-with-scoring"),
    ("spar", 4, ["variant=agram", "peek=true"], "spar-only"),
    ("spar", 4, ["variant=agram", "target=10"], "target-counts-deals"),
    ("spar", 4, ["deals=3"], "deals-only"),
    ("spar", 6, ["hand=7"], "hand-seven"),
    ("spar", 7, ["variant=agram"], "variant-players"),
    ("sugekari-21", 3, [], "sugekari-three"),
    ("sugekari-21", 2, ["mode=teams"], "teams-four"),
    ("sugekari-21", 4, ["mode=refill"], "mode-two"),
    ("sugekari-21", 2, ["mode=refill", "exchange=partner"], "partner-teams"),
    ("sugekari-21", 4, ["jokers=true"], "jokers-best-of-three"),
    ("sugekari-21", 2, ["mode=two-decks", "best_of_three=true"], "best-of-three-two-decks"),
]


def test_every_refused_combination_is_tried() -> None:
    # every combination a game's check_options refuses (the engine's own refusals of a value,
    # a player count or an unknown option are in games.core)
    refusals = {key for path in Path(games.__file__).parent.glob("*.py") if path.name != "core.py"
                for key in re.findall(r'OptionError\(\s*"([^"]+)"', path.read_text())}
    assert {key for *_, key in REFUSED_MIXES} == refusals
    assert all(f"opt-{key}" in wording.catalogue("ja") for key in refusals)


@pytest.mark.parametrize(("gid", "players", "typed", "key"), REFUSED_MIXES)
def test_a_refused_combination_is_answered_in_the_readers_language(
        gid: str, players: int, typed: list[str], key: str) -> None:
    rules = games.get(gid)
    given = dict(pair.split("=") for pair in typed)
    with pytest.raises(OptionError) as refused:
        rules.validate_options(players, given)
    assert refused.value.key == key
    # the rules interface is unchanged: a ValueError whose English text names the option
    assert isinstance(refused.value, ValueError)
    assert any(f"'{name}'" in str(refused.value) for name in given) or not given
    if players not in rules.player_counts():  # the terminal refuses the count first
        code, text = run("play", gid, "--players", str(players), "--lang", "ja")
        assert code == 2 and text == "菅刈21 は 2か4 人用です（3 人ではできません）。\n"
        code, text = run("play", gid, "--players", str(players))
        assert code == 2 and text == "Sugekari 21 is for 2 or 4 players, not 3.\n"
        return
    argv = ["play", gid, "--players", str(players)]
    for pair in typed:
        argv += ["--option", pair]
    code, text = run(*argv)
    assert code == 2 and text == f"These options are not accepted: {refused.value}\n"
    code, text = run(*argv, "--lang", "ja")
    assert code == 2 and text.startswith("このオプションは使えません：オプション「")
    # what is left once the option names and values a person types (in 「」) are taken out
    words = ENGLISH_WORD.findall(re.sub(r"「[^」]*」", "", text))
    assert not words, (words, text)
    assert all(f"「{name}」" in text for name in given)


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
    assert "seat 1 (easy)" in text and not SEAT_ZERO.search(text)


def test_simulate_reports_in_japanese() -> None:
    code, text = run("simulate", "twenty-two", "-n", "2", "--levels", "easy,normal",
                     "--lang", "ja")
    assert code == 0
    lines = text.splitlines()
    assert lines[0] == "22（トゥエンティ・ツー）：2 ゲーム、4 人、レベル やさしい、ふつう"
    assert re.fullmatch(r"  1番席（やさしい）：勝率 \d+\.\d%", lines[1])
    assert re.fullmatch(r"  4番席（ふつう）：勝率 \d+\.\d%", lines[4])
    assert re.fullmatch(r"  1ゲームの平均手数：\d+\.\d", lines[5])
    assert lines[6].startswith("  1手にかかる時間の中央値") and lines[6].endswith("マイクロ秒")
    assert len(lines) == 7 and not ENGLISH_WORD.findall(text) and not SEAT_ZERO.search(text)
    code, text = run("simulate", "twenty-two", "-n", "1", "--levels", "easy,pro", "--lang", "ja")
    assert code == 2 and text == ("--levels は random, easy, normal, hard をコンマで区切って"
                                  "並べたものです（「easy,pro」ではありません）。\n")
    code, text = run("simulate", "twenty-two", "-n", "1", "--levels", "pro")
    assert code == 2 and text == (
        "--levels is a comma-separated list of random, easy, normal, hard, not 'pro'.\n")


@pytest.mark.parametrize(("argv", "said"), [
    (["play", "twenty-two", "--players", "x"], "--players に「x」は使えません。"),
    (["play"], "次の引数を書いてください：game"),
    (["play", "twenty-two", "--level", "pro"],
     "--level に「pro」は選べません（'random', 'easy', 'normal', 'hard' から選んでください）。"),
    (["poker"], "コマンド に「poker」は選べません（'list', 'rules', 'simulate', 'play' から"
                "選んでください）。"),
    (["play", "twenty-two", "--bogus", "3"], "知らない引数です：--bogus 3"),
    (["play", "twenty-two", "--seat"], "--seat のあとに値を1つ書いてください。"),
])
def test_the_command_lines_own_refusals_read_in_japanese(
        argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    for lang_args in (["--lang", "ja"], ["--lang=ja"]):
        with pytest.raises(SystemExit) as stopped:
            main([*argv, *lang_args], out=io.StringIO())
        assert stopped.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("使い方：python -m games") and err.endswith(said + "\n"), err
        assert "usage" not in err and "error" not in err and "argument" not in err
    with pytest.raises(SystemExit) as stopped:  # English: argparse's own words
        main(argv, out=io.StringIO())
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and err.startswith("usage: python -m games")
    assert "python -m games" in err and ": error: " in err


# -- playing -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("gid", games.ids())
def test_a_person_plays_to_the_end_and_reads_only_their_language(gid: str, lang: str) -> None:
    code, text = run("play", gid, "--seed", "3", "--lang", lang,
                     answers=["", "x", "999", "?"])
    assert code == 0
    def words(key: str) -> str:
        return wording.template(f"cli-{key}", lang)

    assert text.count(words("bad-number").split("{")[0]) >= 3
    assert words("you-win") in text or words("your-place").split("{")[0] in text
    assert text.startswith(words("you-are").split("{")[0])
    if lang == "ja":
        assert not ENGLISH_WORD.findall(text), sorted(set(ENGLISH_WORD.findall(text)))[:20]
    assert not RAW_CODE.search(text), RAW_CODE.findall(text)[:10]
    assert not SEAT_ZERO.search(text)
    assert not re.search(r"\s\.$|\(s\)|\b1 cards\b", text, re.M)
    menus = [int(m.group(1)) for m in map(MENU_LINE.match, text.splitlines()) if m]
    assert max(menus) <= 25, "no list longer than the bot's select menu"


MIXES = [(gid, players, mix) for gid in games.ids()
         for players, mix in getattr(games.get(gid), "test_mixes", ())]


@pytest.mark.parametrize(("gid", "players", "mix"), MIXES)
def test_every_option_mix_reads_in_japanese(gid: str, players: int,
                                             mix: dict[str, object]) -> None:
    rules = games.get(gid)
    argv = ["play", gid, "--players", str(players), "--lang", "ja", "--level", "random"]
    for name, value in mix.items():
        seat = rules.option(name).kind == "seat" and isinstance(value, int)
        typed = value + 1 if seat and isinstance(value, int) else value
        argv += ["--option", f"{name}={str(typed).lower()}"]
    code, text = run(*argv, "--seed", "2")
    assert code == 0, text
    assert cli_say("you-win", "ja") in text or "あなたの順位" in text
    assert not ENGLISH_WORD.findall(text), sorted(
        set(ENGLISH_WORD.findall(text)))[:20]
    assert not RAW_CODE.search(text) and not SEAT_ZERO.search(text)


def test_the_22_exchange_is_chosen_one_card_at_a_time() -> None:
    person = Person([
        line_of(r"^Exchange cards…$"),
        say("zzz"),
        line_of(r"^[0-9JQKA]+.$"),  # the first card offered
        line_of(r"^Start over$"),
        line_of(r"^[0-9JQKA]+.$"),
        line_of(r"^[0-9JQKA]+.$"),  # the next card offered
        line_of(r"^Done: "),
    ])
    text = person.play("twenty-two", "--seed", "5", "--players", "4")
    first_menu = text.split("Your moves:\n", 1)[1].split("Choose a number", 1)[0]
    assert first_menu.splitlines() == ["    1. Keep hand", "    2. Exchange cards…"]
    hand = re.search(r"^Your hand: (.*)$", text, re.M)
    assert hand
    cards = hand.group(1).split()
    # the cards are offered in the hand's order, one line each, with no subsets listed
    offered = last_menu(text.split("Chosen so far: none")[1].split("Choose a number")[0] + "\n")
    assert offered == [*cards, "Back"]
    # a wrong answer is answered in one line, and the list is not printed again
    before_wrong = text.split("zzz\n", 1)[1]
    assert before_wrong.startswith("Type a number from 1 to 8 (? shows the list again, q quits).\n"
                                   "Choose a number")
    exchange = text.split("· Seat 1 exchanges")[0]
    assert exchange.count("Chosen so far: none") == 2, "start over clears the choice"
    assert f"Chosen so far: {cards[0]}\n" in text
    assert f"Chosen so far: {cards[0]} {cards[1]}\n" in text
    assert f"Done: Exchange {cards[0]} {cards[1]}" in text
    exchanged = re.search(r"· Seat 1 exchanges (.*)\.$", text, re.M)
    assert exchanged and sorted(exchanged.group(1).split()) == sorted(cards[:2])
    assert re.search(r"· Seat 1 draws \S+ \S+\.$", text, re.M)


def test_back_leaves_the_cards_untouched() -> None:
    person = Person([line_of("^Exchange cards…$"), line_of("^[0-9JQKA]+.$"), line_of("^Back$"),
                     line_of("^Keep hand$")])
    text = person.play("twenty-two", "--seed", "5", "--players", "4")
    assert text.count("Your moves:") >= 2
    assert "· Seat 1 keeps their hand." in text


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_bears_bid_comes_in_two_steps(lang: str) -> None:
    ja = lang == "ja"
    bid = "{} をビッド…" if ja else "Bid {}…"
    person = Person([
        line_of("^" + bid.format(40)),
        line_of("^戻る$" if ja else "^Back$"),
        line_of("^" + bid.format(45)),
        line_of("^45 ハート$" if ja else "^45 hearts$"),
    ])
    # the dealer is the third seat, so the first seat bids first
    text = person.play("bear", "--seed", "2", "--option", "dealer=3", "--lang", lang)
    menu = text.split(cli_say("your-moves", lang) + "\n", 1)[1].split(
        "\n" + cli_say("prompt", lang))[0]
    labels = [m.group(2) for m in map(MENU_LINE.match, menu.splitlines()) if m]
    assert labels[0] == ("パス" if ja else "Pass")
    assert labels[1:4] == [bid.format(n) for n in (40, 45, 50)]
    assert ("ヌル" if ja else "Null") in labels and len(labels) == 15
    step = text.split(cli_say("step-title-bid", lang, first=40) + "\n", 1)[1]
    games_40 = last_menu(step.split(cli_say("prompt", lang))[0] + "\n")
    names = (["スペード", "ハート", "ダイヤ", "クラブ", "グランド・レッド", "グランド・ブラック"]
             if ja else ["spades", "hearts", "diamonds", "clubs", "Grand (red)", "Grand (black)"])
    assert games_40 == [f"40 {name}" for name in names] + [cli_say("back", lang)]
    assert text.count(cli_say("your-moves", lang)) >= 2, "back returns to the moves"
    assert ("· 席1:45 ハート。" if ja else "· Seat 1 bids 45 hearts.") in text


def test_seats_are_counted_from_one_where_people_type_them() -> None:
    code, text = run("play", "twenty-two", "--players", "4", "--seat", "4", "--option",
                     "dealer=2", "--seed", "1", answers=["q"])
    assert code == 0 and text.startswith("You play seat 4 of 4;")
    assert "Deal 1 (exchange); dealer seat 2," in text
    code, text = run("play", "twenty-two", "--players", "4", "--seat", "4", "--option",
                     "dealer=2", "--seed", "1", "--lang", "ja", answers=["q"])
    assert text.startswith("あなたは 4 席中の 4 番席です。") and "ディーラー：2番席" in text
    code, text = run("play", "spar", "--option", "dealer=random", "--seed", "1", answers=["q"])
    assert code == 0
    for seat in ("0", "5"):
        code, text = run("play", "spar", "--players", "4", "--seat", seat)
        assert code == 2 and text == f"--seat is a seat from 1 to 4, not {seat}.\n"
        code, text = run("play", "spar", "--players", "4", "--option", f"dealer={seat}")
        assert code == 2 and text == (
            f"Option 'dealer' is a seat from 1 to 4 or random, not '{seat}'.\n")
    code, text = run("play", "spar", "--players", "4", "--seat", "0", "--lang", "ja")
    assert code == 2 and text == "--seat は 1〜4 の席番号です（0 ではありません）。\n"


def test_quit_and_the_end_of_input_leave_cleanly() -> None:
    code, text = run("play", "1234", "--seed", "1", answers=["q"])
    assert code == 0 and text.endswith("\nBye.\n")
    code, text = run("play", "1234", "--seed", "1", "--lang", "ja", then=None)
    assert code == 0 and text.endswith("\n終了します。\n")


# -- hands, hidden cards and counts ---------------------------------------------------------------
def _order(gid: str, codes: str, **view: object) -> str:
    rules = games.get(gid)
    return show(sorted(parse_many(codes), key=rules.hand_key(View({"hand": [], **view}))))


def test_hands_sort_by_suit_and_each_games_rank_order() -> None:
    assert _order("twenty-two", "AS 2S KH 3C TD") == "A♠ K♥ 10♦ 3♣ 2♠", "ranks alone"
    assert _order("bhabhi", "3C AS 2S 4D 5H") == "A♠ 2♠ 5♥ 3♣ 4♦", "colours alternate"
    assert _order("1234", "KS AS 5S 2H") == "K♠ 5♠ A♠ 2♥", "an ace counts 1 in 1234"
    assert _order("sugekari-21", "KS RJ AS 2S") == "Red Joker 2♠ A♠ K♠", "by the number"
    assert _order("finesse", "AS 2D KH JD 3C", trumps="D") == "J♦ 2♦ A♠ K♥ 3♣", "trumps first"
    assert _order("finesse", "AS 2D KH JD", trumps=None) == "A♠ K♥ J♦ 2♦"
    assert _order("spar", "AS 3S TS", variant="agram") == "A♠ 10♠ 3♠"
    assert _order("spar", "KS JS TS", variant="agram-mali") == "K♠ 10♠ J♠", "Mali: A K T Q 9 8 J 7"


@pytest.mark.parametrize(("lang", "red", "black"), [
    ("en", "Red Joker", "Black Joker"), ("ja", "赤ジョーカー", "黒ジョーカー")])
def test_jokers_are_named_in_the_readers_language(lang: str, red: str, black: str) -> None:
    rj, bj = parse_many("RJ BJ")
    assert (str(rj), str(bj)) == ("RJ", "BJ"), "the card codes stay as they are"
    assert (pretty(rj, lang), pretty(bj, lang)) == (red, black)
    assert show(parse_many("AS RJ BJ"), lang) == f"A♠ {red} {black}"
    rules = games.get("sugekari-21")
    copy = rules.action_text(Action("play", "7", (rj,)), lang)
    assert copy == (f"Play {red} as 7" if lang == "en" else f"{red}を7として出す")
    code, text = run("play", "sugekari-21", "--players", "4", "--option", "jokers=true",
                     "--option", "best_of_three=true", "--seed", "2", "--lang", lang)
    assert code == 0 and "Joker(" not in text
    played = [line for line in text.splitlines() if red in line or black in line]
    assert played and all(" as " in line or "として出す" in line for line in played), played
    if lang == "ja":
        assert not ENGLISH_WORD.findall(text)


def test_bears_trumps_sit_together_honours_included() -> None:
    rules = games.get("bear")
    for seed in range(30):
        state = rules.new_game(3, seed=seed)
        rng = random.Random(seed)
        while not state.over and state.view(0)["trumps"] is None:
            seat = state.to_act[0]
            state.apply(seat, ai.get_player("normal", "bear").choose(ai.observe(state, seat), rng))
        view = state.view(0)
        if state.over or view["trumps"] not in ("D", "C"):
            continue
        order = view["trump_order"]
        hand = [str(c) for c in rules.sorted_hand(view)]
        trumps = [c for c in hand if c in order]
        assert hand[:len(trumps)] == sorted(trumps, key=order.index), "strongest first"
        if any(c[0] in "AKQJ" for c in trumps) and any(c[1] == view["trumps"] for c in trumps):
            assert "Hand " + show(rules.sorted_hand(view)) in rules.view_text(view)
            return
    pytest.fail("no deal with honours and a minor-suit trump game among 30 seeds")


@pytest.mark.parametrize("gid", games.ids())
def test_the_table_shows_the_hand_sorted_with_symbols(gid: str) -> None:
    rules = games.get(gid)
    state = rules.new_game(rules.usual_players, seed=7)
    view = state.view(0)
    hand = rules.sorted_hand(view)
    assert sorted(hand) == sorted(parse_many(view["hand"]))
    for lang in ("en", "ja"):
        assert show(hand) in rules.view_text(view, lang)


def test_hidden_cards_are_counted_in_words() -> None:
    rules = games.get("twenty-two")
    dealt = Event("hand", 3, tuple(parse_many("2S 3S 4S 5S 6S")), private=True).for_seat(0)
    assert rules.event_text(dealt, "en") == "Seat 4 is dealt 5 cards."
    assert rules.event_text(dealt, "ja") == "4番席に5枚配りました。"
    one = Event("exchange", 1, tuple(parse_many("2S")), private=True).for_seat(0)
    assert rules.event_text(one, "en") == "Seat 2 exchanges 1 card."
    assert rules.event_text(one._replace(kind="draw"), "en") == "Seat 2 draws 1 card."
    mine = Event("hand", 0, tuple(parse_many("2S TH")), private=True).for_seat(0)
    assert rules.event_text(mine, "en") == f"Seat 1 is dealt 2♠ {pretty(parse_many('TH')[0])}."


# -- the real process ----------------------------------------------------------------------------
def _start(*argv: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "games", *argv], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _read_until(proc: subprocess.Popen[bytes], marker: str, seconds: float = 30) -> str:
    assert proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + seconds
    while marker.encode() not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"no {marker!r} in {seen.decode()[-500:]!r}"
        ready, _, _ = select.select([proc.stdout], [], [], left)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 65536)
            assert chunk, f"the process ended before {marker!r}: {seen.decode()[-500:]!r}"
            seen += chunk
    return seen.decode()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_ctrl_c_stops_the_real_process_with_a_sentence(lang: str) -> None:
    proc = _start("play", "twenty-two", "--seed", "1", "--lang", lang)
    try:
        _read_until(proc, cli_say("prompt", lang).strip())
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert out.decode().endswith(cli_say("interrupted", lang) + "\n")
    assert err == b"", err.decode()


def test_the_end_of_input_ends_the_real_process_cleanly() -> None:
    done = subprocess.run([sys.executable, "-m", "games", "play", "bear", "--seed", "1"],
                          input=b"2\n", capture_output=True, timeout=60)
    assert done.returncode == 0 and done.stderr == b""
    assert done.stdout.decode().endswith("\nBye.\n")


def test_module_entry_point_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "games", "list"], capture_output=True,
                          text=True, check=True)
    assert all(gid in done.stdout for gid in games.ids())


def test_a_closed_pipe_is_no_error() -> None:
    """Like ``| head``: the reader leaves while a whole game (far more than a pipe holds) is
    still being written."""
    with subprocess.Popen([sys.executable, "-m", "games", "play", "finesse", "--seed", "1",
                           "--level", "random"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdin and proc.stdout and proc.stderr
        proc.stdin.write(b"1\n" * 5000)
        proc.stdin.close()
        assert proc.stdout.read(100).startswith(b"You play seat 1 of 4")
        proc.stdout.close()
        err = proc.stderr.read()
        assert proc.wait(timeout=60) == 0 and err == b"", err.decode()
