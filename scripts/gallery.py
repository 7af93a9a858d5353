"""Screenshots of the Activity for people to look at (#53): every game mid-game and at its end,
on a phone (390x844), a small phone (360x640) and a desktop (1280x800), in English and in
Japanese, into gallery/activity/ as ``<game>-<mid|end>-<size>-<en|ja>.png``.

    .venv/bin/python scripts/gallery.py [--game ID ...] [--full-colour]

Not a test (it asserts nothing and takes a few minutes): the browser tests check the layout's
rules; this is for the eye. It runs the real bot on the simulated Discord as the browser tests
do (tests/browser/harness.py): Alice (English) and Hanako (Japanese) seated with computers,
each watching the table in three pages, one of each size; their moves are made through the
desktop pages. Each game is dealt the same deal every run. The pictures are saved with a
palette of 256 colours (a third of the size, no difference an eye finds in a flat interface)
unless --full-colour.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from unittest import mock

# The repository first: scripts/ is no package and the tests' harness is imported from it.
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402
from playwright.async_api import Browser, async_playwright  # noqa: E402

import games  # noqa: E402
from bot.tables import FINISHED  # noqa: E402
from tests.bot.fakegame import lookup  # noqa: E402
from tests.bot.test_e2e_games import quick_options  # noqa: E402
from tests.browser.harness import GALLERY, Site, Viewer, fill_lobby, launch, site  # noqa: E402
from tests.browser.test_games import perform  # noqa: E402

SIZES = {"phone": {"width": 390, "height": 844}, "small": {"width": 360, "height": 640},
         "desktop": {"width": 1280, "height": 800}}
#: the seats of a game when not its usual count: Getaway for three deals 17-18 cards a hand,
#: the long hand a phone must show
PLAYERS = {"bhabhi": 3}
#: the people's moves before the mid-game pictures
MID = 4
#: the deal of every table (a table's seed comes from secrets.randbits)
DEAL = 5302
SETTLED = "() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => 0)))"


async def pages_of(site: Site, browser: Browser, game_id: str
                   ) -> tuple[dict[tuple[str, str], Viewer], int, list[Any]]:
    """A started table of ``game_id``: Alice's and Hanako's pages of every size, the table's
    id, the browser contexts to close."""
    world = site.world
    alice, hanako = world.users[0], world.users[3]
    channel = site.channel(f"gallery-{game_id}")
    instance = site.sim.add_activity_instance(channel, [alice, hanako])
    viewers: dict[tuple[str, str], Viewer] = {}
    contexts = []
    for size, viewport in SIZES.items():
        phone = size != "desktop"
        context = await browser.new_context(viewport=viewport,  # type: ignore[arg-type]
                                            has_touch=phone, is_mobile=phone)
        contexts.append(context)
        for lang, user in (("en", alice), ("ja", hanako)):
            # each page signs in: a fresh budget of sign-ins for each (harness.fresh_visit)
            site.fresh_visit()
            viewers[(size, lang)] = await site.discord_page(
                context, user, channel, instance, "mobile" if phone else "desktop")
    r = await site.sim.slash(alice, channel, "play", {"game": game_id})
    assert r.status == "ok", r
    await fill_lobby(world, [alice, hanako], PLAYERS.get(game_id, lookup(game_id).usual_players),
                     quick_options(game_id))
    table_id = max(world.bot.manager.tables)
    for viewer in viewers.values():
        await viewer.wait_for(lambda m: m.get("type") == "table" and m["status"] == "playing")
    return viewers, table_id, contexts


async def shoot(viewers: dict[tuple[str, str], Viewer], version: int, name: str,
                full: bool) -> list[Path]:
    """Every page once it shows ``version``, its cards landed."""
    GALLERY.mkdir(parents=True, exist_ok=True)
    saved = []
    for (size, lang), viewer in viewers.items():
        view = viewer.ui.locator(f'.table-view[data-version="{version}"]')
        await view.wait_for()
        await view.evaluate(SETTLED)
        path = GALLERY / f"{name}-{size}-{lang}.png"
        await viewer.page.screenshot(path=str(path))
        if not full:
            Image.open(path).convert("RGB").quantize(256).save(path, optimize=True)
        saved.append(path)
    return saved


async def one_game(site: Site, browser: Browser, game_id: str, full: bool) -> list[Path]:
    manager = site.world.bot.manager
    viewers, table_id, contexts = await pages_of(site, browser, game_id)
    movers = [viewers[("desktop", "en")], viewers[("desktop", "ja")]]
    rng = random.Random(DEAL)
    saved: list[Path] = []
    moves = 0
    began = time.monotonic()
    try:
        while True:
            table = manager.tables.get(table_id)
            if table is None or table.status == FINISHED:
                break
            assert time.monotonic() - began < 300, f"{game_id}: not finished in 300 s"
            turn = next((v for v in movers if v.latest and v.latest["version"] == table.version
                         and v.latest["you"]["may_act"]), None)
            if turn is None:  # the computers' turns, or a page a message behind
                await asyncio.sleep(0.02)
                continue
            model = turn.latest
            assert model is not None
            if moves == MID:
                saved += await shoot(viewers, model["version"], f"{game_id}-mid", full)
            await turn.ui.locator(f'.table-view.my-turn:not(.frozen)'
                                  f'[data-version="{model["version"]}"]').wait_for()
            await perform(turn, rng.choice(model["you"]["moves"]))
            await turn.wait_for(lambda m, v=model["version"]: (
                m.get("type") == "table" and m["version"] > v) or m.get("type") == "error")
            moves += 1
        final = await movers[0].wait_for(
            lambda m: m.get("type") == "table" and m["status"] == FINISHED)
        for viewer in viewers.values():
            await viewer.wait_for(lambda m: m.get("type") == "table" and m["status"] == FINISHED)
            await viewer.ui.locator(".result .box").wait_for()
        saved += await shoot(viewers, final["version"], f"{game_id}-end", full)
        errors = [e for v in viewers.values() for e in v.errors]
        assert not errors, errors
    finally:
        for context in contexts:
            await context.close()
    return saved


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=games.ids(),
                        help="only this game (again for more); every game by default")
    parser.add_argument("--full-colour", action="store_true",
                        help="keep the screenshots' every colour (larger files)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, \
            mock.patch("bot.tables.lobby.secrets.randbits", lambda bits: DEAL):
        async with site(Path(folder)) as running, async_playwright() as playwright:
            browser = await launch(playwright)
            try:
                for game_id in args.game or games.ids():
                    began = time.monotonic()
                    running.fresh_visit()
                    saved = await one_game(running, browser, game_id, args.full_colour)
                    size = sum(p.stat().st_size for p in saved)
                    print(f"{game_id}: {len(saved)} pictures, {size / 1e6:.1f} MB, "
                          f"{time.monotonic() - began:.0f} s")
            finally:
                await browser.close()


if __name__ == "__main__":
    asyncio.run(main())
