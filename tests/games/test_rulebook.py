"""The rule book in docs/rules/ agrees with the engine, with /rules and with the command line.

Every game has a page in English (docs/rules/) and in Japanese (docs/rules/ja/); every page's
Options table lists exactly the options its game declares, with the values the engine accepts
and the defaults it really uses; the bot's /rules text and ``python -m games rules`` show the
same options with the same defaults; and no tracked file of the repository points at a path
outside it.
"""

from __future__ import annotations

import io
import random
import re
import subprocess
from pathlib import Path

import pytest

import games
from bot.i18n import t
from cogs.rules_text import rulebook_page, rules_embed
from games.cli import main as cli_main
from games.core import Option, OptionValue, Rules

ROOT = Path(__file__).resolve().parents[2]
BOOKS = {"en": ROOT / "docs" / "rules", "ja": ROOT / "docs" / "rules" / "ja"}
LANGS = list(BOOKS)
#: the headings every page has, in each language: options, Decisions, moves and deck order
HEADINGS = {
    "en": ("Options", "Decisions", "For contributors: moves and deck order"),
    "ja": ("オプション", "裁定(Decisions)", "開発者向け(操作と配札順)"),
}
#: how each language's Options table names a seat option's values
SEAT_WORD = {"en": "seat", "ja": "席"}
GAME_IDS = games.ids()
ALL_OPTIONS = [(gid, opt.name, lang) for gid in GAME_IDS for opt in games.get(gid).options
               for lang in LANGS]
_ROW = re.compile(r"^\|\s*`(?P<name>[a-z_]+)`\s*\|(?P<values>[^|]*)\|(?P<default>[^|]*)\|")
_CODE = re.compile(r"`([^`]+)`")


def page(gid: str, lang: str = "en") -> str:
    return (BOOKS[lang] / f"{gid}.md").read_text(encoding="utf-8")


def options_table(gid: str, lang: str = "en") -> dict[str, tuple[str, str]]:
    """The page's Options table: option name -> (values cell, default cell)."""
    text = page(gid, lang)
    heading = f"\n## {HEADINGS[lang][0]}\n"
    assert heading in text, f"the {lang} page of {gid} has no {heading.strip()!r} section"
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    rows: dict[str, tuple[str, str]] = {}
    for line in section.splitlines():
        found = _ROW.match(line)
        if found:
            name = found["name"]
            assert name not in rows, f"{gid}: option {name} listed twice"
            rows[name] = (found["values"].strip(), found["default"].strip())
    return rows


def value_of_token(opt: Option, token: str) -> OptionValue:
    """What a value written in the rule book means to the engine (``none``: no value set)."""
    if token == "none" and opt.kind == "int":
        return None
    return opt.coerce(token, players=8)


def page_default(gid: str, opt: Option, lang: str = "en") -> OptionValue:
    """The default the page gives for an option: the first value written in its default cell."""
    _values, default = options_table(gid, lang)[opt.name]
    tokens = _CODE.findall(default)
    assert tokens, f"{gid}: option {opt.name} has no `value` in its default cell: {default!r}"
    return value_of_token(opt, tokens[0])


def real_defaults(rules: Rules, opt: Option) -> set[OptionValue]:
    """Every value the engine gives an unset option, over all the table sizes it allows."""
    found: set[OptionValue] = set()
    for players in rules.player_counts():
        try:
            found.add(rules.validate_options(players, {})[opt.name])
        except ValueError:
            continue  # a table size that needs other options (e.g. a mode) to be playable
    return found


# -- the pages -------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("gid", GAME_IDS)
def test_every_game_has_a_page_listed_in_the_index(gid: str, lang: str) -> None:
    assert (BOOKS[lang] / f"{gid}.md").is_file()
    heading = page(gid, lang).splitlines()[0]
    assert heading.startswith("# ") and f"`{gid}`" in heading
    assert f"]({gid}.md)" in (BOOKS[lang] / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGS)
def test_the_index_lists_no_page_that_is_not_a_game(lang: str) -> None:
    index = (BOOKS[lang] / "README.md").read_text(encoding="utf-8")
    assert set(re.findall(r"\]\(([a-z0-9-]+)\.md\)", index)) == set(GAME_IDS)
    assert {p.stem for p in BOOKS[lang].glob("*.md")} == set(GAME_IDS) | {"README"}


def test_the_english_index_leads_to_the_japanese_book() -> None:
    assert "](ja/README.md)" in (BOOKS["en"] / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("gid", GAME_IDS)
def test_every_page_has_the_sections_players_and_contributors_need(gid: str, lang: str) -> None:
    text = page(gid, lang)
    for heading in (f"\n## {h}\n" for h in HEADINGS[lang]):
        assert heading in text, f"the {lang} page of {gid} lacks {heading.strip()!r}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("gid", GAME_IDS)
def test_page_lists_exactly_the_options_the_engine_offers(gid: str, lang: str) -> None:
    rules = games.get(gid)
    assert list(options_table(gid, lang)) == [opt.name for opt in rules.options]
    assert {d["name"] for d in rules.describe_options()} == set(options_table(gid, lang))


@pytest.mark.parametrize(("gid", "name", "lang"), ALL_OPTIONS)
def test_page_gives_the_engines_default(gid: str, name: str, lang: str) -> None:
    rules = games.get(gid)
    opt = rules.option(name)
    described = next(d for d in rules.describe_options() if d["name"] == name)
    assert page_default(gid, opt, lang) == described["default"] == opt.default
    # Where the default depends on the table (Sugekari's mode at two players), the page names
    # every value the engine really uses.
    _values, cell = options_table(gid, lang)[name]
    written = {value_of_token(opt, token) for token in _CODE.findall(cell)}
    assert real_defaults(rules, opt) <= written


@pytest.mark.parametrize(("gid", "name", "lang"), ALL_OPTIONS)
def test_page_gives_the_values_the_engine_accepts(gid: str, name: str, lang: str) -> None:
    opt = games.get(gid).option(name)
    values, _default = options_table(gid, lang)[name]
    tokens = _CODE.findall(values)
    if opt.kind == "choice":
        assert tokens == list(opt.choices)
    elif opt.kind == "bool":
        assert set(tokens) == {"on", "off"}
        assert {value_of_token(opt, token) for token in tokens} == {True, False}
    elif opt.kind == "seat":
        assert SEAT_WORD[lang] in values and tokens == ["random"]
        assert value_of_token(opt, "random") is None
    else:
        assert f"{opt.minimum}–{opt.maximum}" in values


# -- /rules ----------------------------------------------------------------------------------
def rules_lines(gid: str, lang: str) -> dict[str, str]:
    """The option lines of the /rules text: name -> the default as shown."""
    description = rules_embed(games.get(gid), lang).description or ""
    return {m[1]: m[2] for m in re.finditer(r"^`([a-z_]+)` = \*\*(.+?)\*\*", description, re.M)}


def shown_default(opt: Option, value: OptionValue, lang: str) -> str:
    """A default with one fixed value, in the bot's words (as its Options menu shows it)."""
    if value is None:
        return t("random-seat" if opt.kind == "seat" else "rules-option-own", lang)
    if isinstance(value, bool):
        return t("on" if value else "off", lang)
    return str(value)


def depends(rules: Rules, opt: Option, lang: str) -> bool:
    """True when the game words this default itself (it depends on other options or players)."""
    return rules.default_text(opt, lang) != Rules.default_text(rules, opt, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("gid", GAME_IDS)
def test_rules_command_shows_the_pages_options_and_defaults(gid: str, lang: str) -> None:
    rules = games.get(gid)
    shown = rules_lines(gid, lang)
    assert list(shown) == list(options_table(gid, lang))
    for opt in rules.options:
        if not depends(rules, opt, lang):
            assert shown[opt.name] == shown_default(opt, page_default(gid, opt, lang), lang)
            continue
        # A default that depends (Sugekari's mode, Spar's target): /rules gives the game's
        # own words, which name every value and number the page's default cell names.
        _values, cell = options_table(gid, lang)[opt.name]
        assert shown[opt.name] == rules.default_text(opt, lang)
        named = [tok for tok in _CODE.findall(cell) if tok != "none"]
        numbers = re.findall(r"\d+", _CODE.sub("", cell))
        assert named or numbers
        for word in named + numbers:
            edge = "A-Za-z0-9_-"
            assert re.search(rf"(?<![{edge}]){re.escape(word)}(?![{edge}])", shown[opt.name]), word


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("gid", GAME_IDS)
def test_rules_command_names_the_games_page_in_the_askers_language(gid: str, lang: str) -> None:
    footer = rules_embed(games.get(gid), lang).footer.text or ""
    assert rulebook_page(gid, lang) in footer
    assert (ROOT / rulebook_page(gid, lang)) == BOOKS[lang] / f"{gid}.md"
    assert (ROOT / rulebook_page(gid, lang)).is_file()


# -- python -m games rules --------------------------------------------------------------------
def cli_rules(gid: str, lang: str) -> str:
    out = io.StringIO()
    assert cli_main(["rules", gid, "--lang", lang], out=out) == 0
    return out.getvalue()


def cli_renderings(opt: Option, value: OptionValue, lang: str) -> set[str]:
    """Ways a terminal may write a default: the value itself, true/false or on/off, in words
    of either language (the bot's words for on, off and a random seat)."""
    if isinstance(value, bool):
        word = "on" if value else "off"
        return {str(value), str(value).lower(), word, t(word, lang)}
    if value is None:
        return {"random", t("random-seat", lang)} if opt.kind == "seat" else set()
    return {str(value)}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("gid", GAME_IDS)
def test_cli_rules_shows_the_pages_options_and_defaults(gid: str, lang: str) -> None:
    lines = cli_rules(gid, lang).splitlines()
    for opt in games.get(gid).options:
        word = re.compile(rf"(?<![\w-]){re.escape(opt.name)}(?![\w-])")
        own = [line for line in lines if word.search(line)]
        assert own, f"python -m games rules {gid} does not show option {opt.name}"
        wanted = cli_renderings(opt, page_default(gid, opt, lang), lang)
        # A default with no fixed value (Spar's target: each variant's own) has no single
        # word to look for; every other default must stand on the option's own line.
        if wanted:
            assert any(re.search(rf"(?<![\w.]){re.escape(w)}(?![\w.])", line)
                       for line in own for w in wanted), (opt.name, wanted, own)


# -- nothing outside the repository --------------------------------------------------------
OUTSIDE = ("../shared", "/work/")


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    found = []
    for name in listed:
        path = ROOT / name
        if not name or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data[:8000]:
            continue  # a picture or another binary file
        found.append(path)
    return found


def waived(rel: str, line: str) -> bool:
    """The one line allowed to name an outside path: the patterns of this test."""
    return rel == "tests/games/test_rulebook.py" and "OUTSIDE = " in line


def test_no_tracked_file_points_outside_the_repository() -> None:
    files = tracked_text_files()
    assert ROOT / "README.md" in files and ROOT / "docs" / "rules" / "bear.md" in files
    offenders = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        for line_no, line in enumerate(text.splitlines(), 1):
            if any(pattern in line for pattern in OUTSIDE) and not waived(rel, line):
                offenders.append(f"{rel}:{line_no}: {line.strip()}")
    assert offenders == []


# -- moves -------------------------------------------------------------------------------------
def offered_kinds(gid: str) -> set[str]:
    """Every kind of move the engine offers in random games of each of its test option mixes."""
    rules = games.get(gid)
    found: set[str] = set()
    mixes = [(rules.usual_players, {}), *getattr(rules, "test_mixes", ())]
    for seed, (players, options) in enumerate(mixes):
        state = rules.new_game(players, seed=seed, options=dict(options))
        rng = random.Random(seed)
        for _ in range(3000):
            if state.over:
                break
            for seat in range(players):
                found.update(a.kind for a in state.legal_actions(seat))
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return found


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("gid", GAME_IDS)
def test_contributors_section_names_every_move_the_engine_offers(gid: str, lang: str) -> None:
    # e.g. 22's `rebuy` / `out`, Spar's `peek_agree` / `peek_refuse`, Getaway's `draw`
    section = page(gid, lang).split(f"\n## {HEADINGS[lang][2]}\n", 1)[1]
    named = {m.split(":")[0].split("=")[0] for m in _CODE.findall(section)}
    missing = offered_kinds(gid) - named
    assert not missing, f"the {lang} page of {gid} does not name the moves {sorted(missing)}"
