"""The Activity as players find it (#53): the page's controls where a finger expects them.

A whole game of 22 in two Activity pages, a phone's (390x844, touch) and a desktop's
(1280x800): at every turn of each person, and again once a move's cards are ticked, no button
of the page overlaps another button, a hand's card or a seat's box, nor leaves the viewport,
no seat's box or button lies on a card played on the felt, and every button and every hand
card gives a finger at least 24x24 px of itself (WCAG 2.5.8; measured from the page's own boxes
and where a tap lands, as the browser lays them out). 22's exchange is where the ticked cards'
button once sat on "Keep hand" (the felt's ``.play`` rule matched it). A game of Getaway for
three on two phones (360x640 and 390x844), whose 17-18 cards a hand once squeezed into 19 px
slivers, and whose known cards open larger on a tap."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from playwright.async_api import Browser

from bot.tables import FINISHED
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import button
from tests.bot.test_e2e_games import quick_options
from tests.browser.harness import DESKTOP, GALLERY, PHONE, Site, Viewer, fill_lobby, shown
from tests.browser.test_games import perform

pytestmark = pytest.mark.asyncio(loop_scope="module")

#: resolves once the frame's transitions have ended (a card rising, a play landing)
SETTLED = "() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => 0)))"
#: every button and seat box of the frame, as the page lays it out (getBoundingClientRect:
#: the box Playwright's bounding_box measures, less the frame's offset, which is none here:
#: the frame fills the page), in one call rather than two calls an element
BOXES = """() => [...document.querySelectorAll('button, .felt .seat, .felt .play .card')
].flatMap((e) => {
  const r = e.getBoundingClientRect();
  const shown = r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  if (!shown) return [];
  const kind = e.matches('.seat') ? 'seat' : e.matches('.hcard') ? 'card'
    : e.matches('.play .card') ? 'played' : 'control';
  const name = (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 40);
  // a control of a seat's own (its cards in front, opening larger) lies inside its box
  const within = kind === 'control' ? e.closest('.seat')?.dataset.seat ?? null : null;
  return [[kind, `${JSON.stringify(e.className)} ${JSON.stringify(name)}`,
    {x: r.x, y: r.y, width: r.width, height: r.height}, within ?? e.dataset.seat ?? null]];
})"""
#: the side of the square a finger is given (WCAG 2.5.8's 24 px)
TARGET = 24
#: every hand card whose part a tap reaches (where elementFromPoint finds it, every 4 px: the
#: cards after it in the row, the row below and a rising card cover the rest) holds no
#: TARGET-sided square: its name and the largest square's side found. A card that no other
#: card's box touches is sampled only at its middle (thousands of samples a check otherwise)
SMALL_CARDS = """(body, side) => {
  const step = 4, k = side / step + 1;
  const cards = [...document.querySelectorAll('.hand .hcard')];
  const boxes = cards.map((card) => card.getBoundingClientRect());
  const touch = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom
    && b.top < a.bottom;
  return cards.flatMap((card, at) => {
    let r = boxes[at];
    if (!boxes.some((other, i) => i !== at && touch(r, other))) {
      const x = r.left + r.width / 2 - side / 2, y = r.top + r.height / 2 - side / 2;
      r = {left: x, top: y, width: side + 1, height: side + 1};
    }
    const cols = Math.floor((r.width - 1) / step) + 1, rows = Math.floor((r.height - 1) / step) + 1;
    // sums[j][i]: the samples reaching the card above and left of (i, j)
    const sums = Array.from({length: rows + 1}, () => new Array(cols + 1).fill(0));
    for (let j = 0; j < rows; j++) {
      for (let i = 0; i < cols; i++) {
        const hit = document.elementFromPoint(r.left + 0.5 + i * step, r.top + 0.5 + j * step);
        const on = hit !== null && hit.closest('.hcard') === card ? 1 : 0;
        sums[j + 1][i + 1] = on + sums[j][i + 1] + sums[j + 1][i] - sums[j][i];
      }
    }
    let best = 0;
    for (let size = Math.min(k, cols, rows); size > best; size--) {
      for (let j = size; j <= rows && best < size; j++) {
        for (let i = size; i <= cols; i++) {
          if (sums[j][i] - sums[j - size][i] - sums[j][i - size] + sums[j - size][i - size]
              === size * size) { best = size; break; }
        }
      }
    }
    return best >= k ? [] : [[card.getAttribute('aria-label'), Math.max(best - 1, 0) * step]];
  });
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The area two boxes share (a pixel's rounding is not an overlap)."""
    w = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return w * h if w > 1 and h > 1 else 0.0


async def collisions(viewer: Viewer) -> list[str]:
    """Every button of the page that overlaps another button, a hand's card or a seat's
    box, or leaves the viewport (a hand's cards may overlap each other: it is a fan)."""
    body = viewer.page.frame_locator("#activity").locator("body")
    await body.evaluate(SETTLED)
    size = viewer.page.viewport_size or DESKTOP
    found: list[tuple[str, str, dict[str, float], str | None]] = await body.evaluate(BOXES)
    problems = []
    for i, (kind, name, box, seat) in enumerate(found):
        if kind == "seat":
            continue
        if kind == "played":
            # a card on the felt (the trick, the last trick, a game's last cards) is in sight:
            # no seat's box or control lies on it (its own play's cards may overlap it)
            problems += [f"{name} on the felt is under {other_kind} {other}"
                         for other_kind, other, other_box, _ in found
                         if other_kind in ("seat", "control") and overlap(box, other_box)]
            continue
        if box["x"] < -1 or box["y"] < -1 or box["x"] + box["width"] > size["width"] + 1 \
                or box["y"] + box["height"] > size["height"] + 1:
            problems.append(f"{name} leaves the viewport: {box}")
        if kind == "control" and min(box["width"], box["height"]) < TARGET - 0.5:
            problems.append(f"{name} is under {TARGET}x{TARGET} px: {box}")
        for j, (other_kind, other, other_box, other_seat) in enumerate(found):
            if j == i or (kind == "card" and other_kind in ("card", "seat")) \
                    or other_kind == "played":
                continue
            if other_kind == "control" and j < i:
                continue  # each pair of controls once
            if other_kind == "seat" and seat is not None and seat == other_seat:
                continue  # its own seat's control
            if overlap(box, other_box):
                problems.append(f"{name} overlaps {other_kind} {other}")
    for name, side in await body.evaluate(SMALL_CARDS, TARGET):
        problems.append(f"the hand's {name} gives a tap {side} px, under {TARGET}x{TARGET}")
    return problems


@pytest.fixture
def one_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same deal every run (a table's seed comes from secrets.randbits)."""
    monkeypatch.setattr("bot.tables.lobby.secrets.randbits", lambda bits: 5302)


#: a small phone's screen (an older Android's, in CSS pixels)
SMALL_PHONE = {"width": 360, "height": 640}


@contextlib.asynccontextmanager
async def pages(site: Site, browser: Browser, game_id: str,
                sizes: tuple[dict[str, int], dict[str, int]] = (PHONE, DESKTOP),
                players: int | None = None) -> AsyncIterator[tuple[Viewer, Viewer, int]]:
    """Alice and Bob at a started table of ``game_id`` (computers in the other seats), each
    in their own Activity page of the size given (a phone's by touch: under 700 px wide); the
    table's id."""
    site.fresh_visit()
    alice, bob = site.world.users[:2]
    channel = site.channel(f"layout-{game_id}")
    instance = site.sim.add_activity_instance(channel, [alice, bob])
    phone = await browser.new_context(viewport=sizes[0], has_touch=True, is_mobile=True)
    touch = sizes[1]["width"] < 700
    desktop = await browser.new_context(viewport=sizes[1], has_touch=touch, is_mobile=touch)
    try:
        a = await site.discord_page(phone, alice, channel, instance, "mobile")
        b = await site.discord_page(desktop, bob, channel, instance,
                                    "mobile" if touch else "desktop")
        r = await site.sim.slash(alice, channel, "play", {"game": game_id})
        assert r.status == "ok", r
        table = site.world.table_message()
        r = await site.sim.click(bob, table, button(table, "join")["custom_id"])
        assert r.status == "ok", r
        await fill_lobby(site.world, [alice, bob], players or lookup(game_id).usual_players,
                         quick_options(game_id), join=False)
        table_id = max(site.world.bot.manager.tables)
        for viewer in (a, b):
            await viewer.wait_for(lambda m: m.get("type") == "table" and m["status"] == "playing")
        yield a, b, table_id
    finally:
        await phone.close()
        await desktop.close()


async def test_no_control_overlaps_another_a_card_or_a_seat_in_a_game_of_22(
        table_site: Site, browser: Browser, one_deal: None) -> None:
    site = table_site
    manager = site.world.bot.manager
    rng = random.Random(53)
    checked = {"phone": 0, "desktop": 0}
    pictured: set[str] = set()
    ticked = 0
    async with pages(site, browser, "twenty-two") as (a, b, table_id):
        viewers = {"phone": a, "desktop": b}
        while True:
            table = manager.tables.get(table_id)
            if table is None or table.status == FINISHED:
                break
            turn: tuple[str, Viewer, dict[str, Any]] | None = None
            for name, viewer in viewers.items():
                model = viewer.latest
                if model and model["version"] == table.version and model["you"]["may_act"]:
                    turn = (name, viewer, model)
            if turn is None:  # the computers' turns, or a page a message behind
                await asyncio.sleep(0.02)
                continue
            name, viewer, model = turn
            await shown(viewer, model)
            problems = await collisions(viewer)
            assert problems == [], (name, problems)
            checked[name] += 1
            moves = model["you"]["moves"]
            several = [m for m in moves if len(m["cards"]) > 1]
            move = rng.choice(several if several and rng.random() < 0.7 else moves)

            async def between(viewer: Viewer = viewer, name: str = name,
                              move: dict[str, Any] = move) -> None:
                nonlocal ticked
                ticked += 1
                problems = await collisions(viewer)
                assert problems == [], (name, "ticked", problems)
                # the ticked cards' button says their move, as the chat's panel does
                chosen = viewer.ui.locator(f'button.move[data-move="{move["index"]}"]')
                assert await chosen.inner_text() == move["label"]
                if name not in pictured:
                    pictured.add(name)
                    GALLERY.mkdir(parents=True, exist_ok=True)
                    picture = GALLERY / f"twenty-two-ticked-{name}.png"
                    await viewer.page.screenshot(path=str(picture))

            await perform(viewer, move, between=between)
            await viewer.wait_for(lambda m, v=model["version"]: (
                m.get("type") == "table" and m["version"] > v) or m.get("type") == "error")
        for name, viewer in viewers.items():
            await viewer.wait_for(lambda m: m.get("type") == "table" and m["status"] == FINISHED)
            await viewer.ui.locator(".result .box").wait_for()
            problems = await collisions(viewer)
            assert problems == [], (name, "the end", problems)
            assert viewer.errors == []
    assert min(checked.values()) >= 5 and ticked >= 3, (checked, ticked)


async def known_open_larger(viewer: Viewer, name: str) -> bool:
    """A seat's cards in front of it open larger on a tap, whole inside the viewport, and
    close again at a tap elsewhere; whether the page showed any to open."""
    ui = viewer.ui
    fronts = ui.locator(".felt .seat button.front")
    if not await fronts.count():
        return False
    front = fronts.first
    tiny = await front.locator(".card").first.bounding_box()
    codes = await front.locator(".card").evaluate_all("(els) => els.map((e) => e.dataset.code)")
    await front.click()
    panel = ui.locator(".felt .known-cards")
    await panel.wait_for()
    await panel.evaluate(SETTLED)
    assert await panel.locator(".card").evaluate_all(
        "(els) => els.map((e) => e.dataset.code)") == codes
    size = viewer.page.viewport_size or DESKTOP
    # (a short phone shows the cards' count alone in the seat's box)
    wide = max(40.0, 1.5 * tiny["width"] if tiny else 0)
    for card in await panel.locator(".card").all():
        box = await card.bounding_box()
        assert box is not None
        assert box["width"] >= wide, (name, box, tiny)
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (name, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (name, box)
    if name not in KNOWN_PICTURED:
        KNOWN_PICTURED.add(name)
        GALLERY.mkdir(parents=True, exist_ok=True)
        await viewer.page.screenshot(path=str(GALLERY / f"bhabhi-known-{name}.png"))
    await ui.locator(".titles").click()
    await panel.wait_for(state="detached")
    return True


KNOWN_PICTURED: set[str] = set()
#: Getaway's turns checked by each page (a game for three lasts some 40 of a person's turns;
#: past these the game plays on through the pages unchecked, to its end)
GETAWAY_CHECKS = 14


async def test_getaway_on_two_phones_every_card_a_finger_wide(
        table_site: Site, browser: Browser, one_deal: None) -> None:
    site = table_site
    manager = site.world.bot.manager
    rng = random.Random(53)
    checked = {"small": 0, "phone": 0}
    rows = {"small": 0, "phone": 0}
    known = {"small": False, "phone": False}
    async with pages(site, browser, "bhabhi", (SMALL_PHONE, PHONE), players=3) as (a, b, tid):
        viewers = {"small": a, "phone": b}
        while True:
            table = manager.tables.get(tid)
            if table is None or table.status == FINISHED:
                break
            turn: tuple[str, Viewer, dict[str, Any]] | None = None
            for name, viewer in viewers.items():
                model = viewer.latest
                if model and model["version"] == table.version and model["you"]["may_act"]:
                    turn = (name, viewer, model)
            if turn is None:
                await asyncio.sleep(0.02)
                continue
            name, viewer, model = turn
            await shown(viewer, model)
            if checked[name] < GETAWAY_CHECKS:
                problems = await collisions(viewer)
                assert problems == [], (name, len(model["you"]["hand"]), problems)
                checked[name] += 1
                hand = viewer.ui.locator(".controls > .hand")
                rows[name] = max(rows[name], int(await hand.get_attribute("data-rows") or 1))
                if not known[name] and await known_open_larger(viewer, name):
                    known[name] = True
                    assert await collisions(viewer) == []
            await perform(viewer, rng.choice(model["you"]["moves"]))
            await viewer.wait_for(lambda m, v=model["version"]: (
                m.get("type") == "table" and m["version"] > v) or m.get("type") == "error")
        for name, viewer in viewers.items():
            await viewer.wait_for(lambda m: m.get("type") == "table" and m["status"] == FINISHED)
            await viewer.ui.locator(".result .box").wait_for()
            assert await collisions(viewer) == [], name
            assert viewer.errors == []
    # the deal's 17-18 cards took two rows on both phones, and known cards were opened
    assert checked == {"small": GETAWAY_CHECKS, "phone": GETAWAY_CHECKS}, checked
    assert min(rows.values()) >= 2 and all(known.values()), (rows, known)


#: a deal whose first lead is Alice's (seat 0) in Finesse: her A♥ may be played or led with no
#: trumps, and her J♦ played from hand or led from her partner's table (two packs)
FINESSE_DEAL = 20261202


@pytest.mark.parametrize("label", ["Play A♥", "Lead A♥, no trumps", "Play J♦",
                                   "Lead J♦ from partner's table"])
async def test_a_card_with_several_moves_offers_each_on_the_card(
        table_site: Site, browser: Browser, monkeypatch: pytest.MonkeyPatch, label: str) -> None:
    """Each of a card's moves, from the card's menu, is the move made (the same deal at a
    fresh table for each)."""
    monkeypatch.setattr("bot.tables.lobby.secrets.randbits", lambda bits: FINESSE_DEAL)
    site = table_site
    site.fresh_visit()
    alice = site.world.users[0]
    channel = site.channel("finesse-menu")
    instance = site.sim.add_activity_instance(channel, [alice])
    context = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        viewer = await site.discord_page(context, alice, channel, instance, "mobile")
        r = await site.sim.slash(alice, channel, "play", {"game": "finesse"})
        assert r.status == "ok", r
        await fill_lobby(site.world, [alice], 4, quick_options("finesse"))
        model = await viewer.wait_for(lambda m: m.get("type") == "table" and m["you"]["may_act"])
        moves = {m["label"]: m for m in model["you"]["moves"]}
        move = moves[label]
        code = move["cards"][0]
        both = sorted(m["label"] for m in moves.values() if m["cards"] == [code])
        assert len(both) == 2, both
        ui = viewer.ui
        await shown(viewer, model)
        card = ui.locator(f'.hand button.hcard[data-code="{code}"]')
        assert await card.get_attribute("aria-haspopup") == "menu"
        await card.click(position={"x": 8, "y": 24})
        menu = ui.locator(".card-menu")
        await menu.wait_for()
        assert sorted(await menu.locator("button").all_inner_texts()) == both
        assert await collisions(viewer) == []
        if label == "Play J♦":
            GALLERY.mkdir(parents=True, exist_ok=True)
            await viewer.page.screenshot(path=str(GALLERY / "finesse-card-menu-phone.png"))
        # a tap elsewhere closes it, changing nothing; the card opens it again
        await ui.locator(".titles").click()
        await menu.wait_for(state="detached")
        await card.click(position={"x": 8, "y": 24})
        await menu.locator(f'button[data-move="{move["index"]}"]').click()
        after = await viewer.wait_version(model["version"])
        # the move made is the one chosen: its event's words are the table's news
        rules = lookup("finesse")
        state = rules.new_game(4, seed=FINESSE_DEAL,
                               options={k: int(v) for k, v in quick_options("finesse").items()})
        action = next(a for a in state.legal_actions(0) if rules.action_text(a, "en") == label)
        names = [s["name"] for s in after["seats"]]
        told = [rules.event_text(e.for_seat(None), "en", names) for e in state.apply(0, action)]
        told = [t for t in told if t]
        assert told and all(t in after["log"] for t in told), (told, after["log"])
        assert viewer.errors == []
    finally:
        await context.close()
