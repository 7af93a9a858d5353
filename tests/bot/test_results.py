"""Results that explain, and one voice in every text a person reads.

Seeded whole games of every game, played to the end by computer players: each deal's
breakdown, as shown, adds up to the engine's scores; and nothing a person reads (event lines,
move labels, table texts, breakdowns, in English and Japanese) shows a raw card code or an
internal name.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from babel.messages.pofile import read_po

import games
from bot.i18n import plural, t
from bot.tables import results
from games import wording
from games.ai import get_player, observe
from games.core import Action, Rules, State

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Gina", "Hugo"]
#: what each game's breakdown must speak of (its own terms)
TERMS = {
    "finesse": {"tricks"},
    "bear": {"contract", "score"},
    "spar": {"last-trick", "deal-won"},
    "twenty-two": {"final", "penalty"},
    "1234": {"hand", "won"},
    "sugekari-21": {"captured"},
    "bhabhi": {"safe"},
}
# option mixes whose scoring differs (each must add up as well)
MIXES: dict[str, list[dict[str, Any]]] = {
    "spar": [{}, {"essilfy": True}, {"variant": "sipa"}, {"variant": "fapfap"},
             {"variant": "agram"}],
    "1234": [{}, {"scoring": "winner"}, {"scoring": "penalty"}],
    "twenty-two": [{}, {"rebuy": True}, {"scoring": "cucumber"}],
    "sugekari-21": [{}, {"mode": "two-decks"}, {"jokers": True, "best_of_three": True}],
}


def play(game_id: str, players: int, seed: int, options: dict[str, Any] | None = None,
         level: str = "normal") -> tuple[Rules, State, list[float]]:
    """A seeded game played to the end by computer players; its rules, end state and the
    scores it started from."""
    rules = games.get(game_id)
    state = rules.new_game(players, seed=seed, options=options)
    start = [float(x) for x in state.scores()]
    player = get_player(level, game_id)
    rng = random.Random(seed)
    while not state.over:
        seat = state.to_act[0]
        state.apply(seat, player.choose(observe(state, seat), rng))
    return rules, state, start


def cases() -> Iterator[tuple[str, int, dict[str, Any]]]:
    for game_id in games.ids():
        rules = games.get(game_id)
        counts = sorted({rules.min_players, rules.usual_players, rules.max_players})
        for options in MIXES.get(game_id, [{}]):
            valid = [n for n in counts if _valid(rules, n, options)]
            for n in valid:
                yield game_id, n, options


def _valid(rules: Rules, players: int, options: dict[str, Any]) -> bool:
    try:
        rules.validate_options(players, options)
    except ValueError:
        return False
    return True


SIGNED = re.compile(r"[+−]\d+(?:\.\d+)?|(?<![\w.])0(?![\w.])")


def number(text: str) -> float:
    return float(text.replace("−", "-"))


@pytest.mark.parametrize(("game_id", "players", "options"), list(cases()),
                         ids=lambda v: str(v) if not isinstance(v, dict) else
                         ",".join(f"{k}={x}" for k, x in v.items()) or "default")
def test_the_shown_breakdown_adds_up_to_the_engine_scores(
        game_id: str, players: int, options: dict[str, Any]) -> None:
    for seed in (1, 2):
        rules, state, start = play(game_id, players, seed, options)
        names = NAMES[:players]
        found = state.breakdown()
        assert found, "a finished game has at least one finished deal"
        outcome = state.outcome
        assert outcome is not None
        # the engine's own numbers: every tally's entries make its gains, and the gains,
        # deal after deal, the running scores, up to the outcome's
        running = list(start)
        for tally in found:
            for seat in range(players):
                mine = sum(e.points for e in tally.entries if seat in e.seats)
                assert mine == pytest.approx(tally.gains[seat])
                running[seat] += tally.gains[seat]
            assert running == pytest.approx(list(tally.totals))
        assert running == pytest.approx(list(outcome.scores))
        keys = {e.key for tally in found for e in tally.entries}
        assert TERMS[game_id] <= keys, keys
        # what is shown: deal by deal, each side's signed gain; they add up to the outcome
        sides = results.sides(rules, state)
        shown = [0.0] * len(sides)
        lines = results.deals_lines(rules, state, names, "en")
        assert len(lines) == len(found)
        for line, tally in zip(lines, found, strict=True):
            assert line.startswith(f"{tally.deal}: ")
            parts = line.split(": ", 1)[1].split(", ")
            assert len(parts) == len(sides)
            for i, (part, side) in enumerate(zip(parts, sides, strict=True)):
                assert part.startswith(results.who_text(side, names, "en") + " ")
                shown[i] += number(part.rsplit(" ", 1)[1])
        for i, side in enumerate(sides):
            assert start[side[0]] + shown[i] == pytest.approx(outcome.scores[side[0]])
        # and each deal's own lines: a side's items with points add up to its '= sum'
        for tally in found:
            for lang in ("en", "ja"):
                check_lines(rules, tally, names, lang)


def check_lines(rules: Rules, tally: Any, names: list[str], lang: str) -> None:
    lines = results.tally_lines(rules, tally, names, lang)
    assert lines and all(line.strip() for line in lines)
    if rules.id == "bhabhi":
        order = lines[0]
        places = sorted((int(e.value or 0), e.seats[0]) for e in tally.entries
                        if e.key == "safe")
        positions = [order.index(names[seat]) for _, seat in places]
        assert positions == sorted(positions), "seats appear in the order they went out"
        return
    groups: dict[tuple[int, ...], list[Any]] = {}
    for entry in tally.entries:
        if entry.seats:
            groups.setdefault(entry.seats, []).append(entry)
    for seats, entries in groups.items():
        who = results.who_text(seats, names, lang)
        line = next(x for x in lines if x.startswith(who + ("：" if lang == "ja" else ": ")))
        scored = [e for e in entries if e.points]
        if len(scored) > 1:
            total = line.rsplit("=" if lang == "en" else "＝", 1)[1].strip()
            assert number(total) == pytest.approx(sum(e.points for e in scored))
            assert number(total) == pytest.approx(tally.gains[seats[0]])
        for entry in scored:
            assert results.points_text(entry.points) in line, (line, entry)


def test_finesse_says_why_eight_tricks_can_score_nothing() -> None:
    """The points table, the last trick and the dregs, down to the floor at 0."""
    from games.core import Entry, Tally
    rules = games.get("finesse")
    tally = Tally(3, (Entry("trumps", value="S"),
                      Entry("tricks", (0, 2), 8, points=5),
                      Entry("dregs", (0, 2), 3, tuple(games.cards.parse_many("AS KS 7S")),
                            points=-9),
                      Entry("floor", (0, 2), points=4),
                      Entry("tricks", (1, 3), 5, points=0),
                      Entry("last-trick", (1, 3), points=4)),
                  (0.0, 4.0, 0.0, 4.0), (10.0, 14.0, 10.0, 14.0))
    en = results.tally_lines(rules, tally, NAMES[:4], "en")
    assert en == [
        "Trumps are spades.",
        "Alice and Carol: 8 tricks (+5) · 3 trumps in the dregs A♠ K♠ 7♠ (−9) · "
        "a deal never scores below 0 (+4) = 0",
        "Bob and Dave: 5 tricks (0) · last trick (+4)",
    ]
    ja = results.tally_lines(rules, tally, NAMES[:4], "ja")
    assert ja[1].startswith("Alice・Carol：8トリック（+5）") and "A♠ K♠ 7♠" in ja[1]
    assert results.deal_title(rules, tally, "ja") == "第3ディール"


def test_bear_words_the_contract_and_one_trick() -> None:
    from games.core import Entry, Tally
    rules = games.get("bear")
    tally = Tally(1, (Entry("contract", (2,), "95-grand-black"),
                      Entry("card-points", (2,), 70), Entry("discards", (2,), 10),
                      Entry("bond", (2,), 5), Entry("total", (2,), 85),
                      Entry("failed", (2,), "early"),
                      Entry("score", (0,), 0), Entry("score", (1,), 0),
                      Entry("score", (2,), -95, points=-95)),
                  (0.0, 0.0, -95.0), (0.0, 0.0, -95.0))
    line = results.tally_lines(rules, tally, NAMES[:3], "en")[0]
    assert line == ("Carol: contract 95 Grand (black) · card points 70 · discards 10 · Bond 5 · "
                    "total 85 · failed (certain before the end) · score −95")
    null = Tally(2, (Entry("contract", (0,), "null"), Entry("tricks", (0,), 1),
                     Entry("failed", (0,)), Entry("score", (0,), -100, points=-100)),
                 (-100.0, 0.0, 0.0), (-100.0, 0.0, 0.0))
    assert results.tally_lines(rules, null, NAMES[:3], "en")[0] == (
        "Alice: contract Null · 1 trick · failed · score −100")


def test_plural_forms() -> None:
    assert plural("rs-finesse-tricks", 1, "en", value=1, points="0") == "1 trick (0)"
    assert plural("rs-finesse-tricks", 2, "en", value=2, points="0") == "2 tricks (0)"
    assert plural("rs-finesse-tricks", 1, "ja", value=1, points="0") == "1トリック（0）"
    assert plural("st-forget-done", 1, "en", count=1).startswith("Done: 1 game record of")
    # the bot's singular forms ("-one") each have their plural (the games' catalogues use
    # "-one" for other things: "keep one", "one argument")
    games_parts = {"games.po", "tutorials.po", "cli.po", "cards.po"}
    for path in sorted((wording.LOCALES / "en").glob("*.po")):
        if path.name in games_parts:
            continue
        with path.open("rb") as handle:
            for message in read_po(handle):
                key = message.id
                if isinstance(key, str) and key.endswith("-one"):
                    assert wording.has(key.removesuffix("-one")), key


# -- one voice: no raw card codes or internal names in anything a person reads ------------
CODE = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[SHDC](?![A-Za-z0-9])"
                  r"|(?<![A-Za-z])[RB]J(?![A-Za-z])")
INTERNAL = re.compile(r"\b[a-z]+_[a-z_]+\b|\bgrand-(?:red|black)\b|\b(?:None|True|False)\b"
                      r"|\b[a-z]+=[A-Za-z0-9]|[{}]|\bAction\(|\bseat\(s\)")
ONE_MANY = re.compile(r"(?<![\d.])1 (?:cards|tricks|games|players|points|chips|jokers)\b"
                      r"|\(s\)")
SEAT_WORD = re.compile(r"\b[Ss]eats? \d|席\d|\d番")


@cache
def texts_of(game_id: str, players: int) -> tuple[tuple[str, str], ...]:
    """(where, text) for everything a seeded random game shows, in both languages."""
    rules = games.get(game_id)
    state = rules.new_game(players, seed=5)
    rng = random.Random(5)
    found: list[tuple[str, str]] = []
    steps = 0
    while not state.over and steps < 4000:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        for lang in ("en", "ja"):
            found += [("move", rules.action_text(a, lang)) for a in legal[:30]]
            if steps % 5 == 0:
                found.append(("table", rules.view_text(state.view(None), lang)))
                found.append(("hand", rules.view_text(state.view(seat), lang)))
        for event in state.apply(seat, rng.choice(legal)):
            public = event.for_seat(None)
            for lang in ("en", "ja"):
                for view in (public, event):
                    text = rules.event_text(view, lang, NAMES[:players])
                    if text is not None:
                        found.append((f"named:{event.kind}", text))
                    text = rules.event_text(view, lang)
                    if text is not None:
                        found.append((f"event:{event.kind}", text))
        steps += 1
    for lang in ("en", "ja"):
        found.append(("end", rules.view_text(state.view(None), lang)))
        for tally in state.breakdown():
            found += [("result", line) for line in
                      results.tally_lines(rules, tally, NAMES[:players], lang)]
        found += [("deals", line) for line in
                  results.deals_lines(rules, state, NAMES[:players], lang)]
    return tuple(found)


GAME_SIZES = [(g, n) for g in games.ids() for n in sorted(
    {games.get(g).min_players, games.get(g).max_players})]


@pytest.mark.parametrize(("game_id", "players"), GAME_SIZES)
def test_no_raw_card_code_internal_name_or_wrong_plural_in_any_text(game_id: str,
                                                                     players: int) -> None:
    found = texts_of(game_id, players)
    assert any(where == "result" for where, _ in found)
    for where, text in found:
        assert not CODE.search(text), (where, text)
        assert not INTERNAL.search(text), (where, text)
        assert not ONE_MANY.search(text), (where, text)


@pytest.mark.parametrize(("game_id", "players"), GAME_SIZES)
def test_a_log_line_names_its_player_once_and_no_seat_number(game_id: str,
                                                             players: int) -> None:
    named = [text for where, text in texts_of(game_id, players) if where.startswith("named:")]
    assert named
    for text in named:
        assert not SEAT_WORD.search(text), text
        for name in NAMES[:players]:
            assert text.count(name) <= 1 or "Seats" in text, text


def test_a_move_with_parts_is_named_in_words() -> None:
    bear = games.get("bear")
    assert bear.action_text(Action("bid", "95-grand-black")) == "95 Grand (black)"
    assert bear.action_text(Action("bid", "60-grand-red")) == "60 Grand (red)"
    assert t("pick-cards", "en", move="exchange") == "Choose the cards: exchange"


def test_unrated_says_why() -> None:
    person = {"user_id": 1, "computer": False}
    computer = {"user_id": None, "computer": True}
    assert results.unrated_text([person, {"user_id": 2}], "en", finished=False) == ""
    assert results.unrated_text([person, computer], "en", finished=False) == (
        "Unrated: a computer plays in it.")
    assert results.unrated_text([person, computer], "en", finished=True) == (
        "This game was unrated: a computer played in it.")
    assert results.unrated_text([person, person], "en", finished=True) == (
        "This game was unrated: someone holds two seats.")
    assert "レート対象外" in results.unrated_text([person, computer], "ja", finished=False)


@pytest.mark.parametrize("game_id", ["twenty-two", "spar", "1234", "finesse"])
def test_a_finished_deal_never_names_a_card_back_in_a_hand(game_id: str) -> None:
    """During play the last deal stays explained, but its cards are dealt again: those now in
    a hand (hidden) are left out of the words."""
    rules = games.get(game_id)
    state = rules.new_game(rules.usual_players, seed=4)
    player = get_player("normal", game_id)
    rng = random.Random(4)
    bare = 0
    while not state.over:
        seat = state.to_act[0]
        before = len(state.breakdown())
        state.apply(seat, player.choose(observe(state, seat), rng))
        if len(state.breakdown()) == before or state.over:
            continue
        hidden = results.hidden_now(state)
        found = results.last_deal(rules, state, NAMES, "en")
        assert found is not None
        for code in hidden:
            pretty = games.cards.pretty(games.cards.parse(code))
            assert not re.search(rf"(?<![0-9A-Za-z]){re.escape(pretty)}(?![0-9A-Za-z])",
                                 found[1]), (pretty, found[1])
        tally = state.breakdown()[-1]
        bare += any(str(c) in hidden for e in tally.entries for c in e.cards)
    if game_id == "spar":  # its tricks' cards are dealt again and not shown publicly
        assert bare > 0, "some deal's cards went back into hands"


def test_stats_name_partners_only_in_partnership_games() -> None:
    from types import SimpleNamespace

    from cogs.stats import StatsCog
    cog: Any = SimpleNamespace(bot=SimpleNamespace(rules_for=games.get))
    assert StatsCog.partnership(cog, "finesse")
    assert StatsCog.partnership(cog, "sugekari-21")  # four players play in pairs
    for game_id in ("twenty-two", "1234", "bhabhi", "bear", "spar", "no-such-game"):
        assert not StatsCog.partnership(cog, game_id), game_id
