"""A whole game of every game in the Activity: two people, each in their own Activity page
inside (a stand-in for) Discord's client — one on a phone (390x844 and 360x640 in turn, by
touch), one on a desktop (1280x800, by keyboard) — with computers in the other seats and the
same deal every run. Each plays through the page alone: a tap on a card, ticked cards and
their move's button, a card's menu of its moves, or a move's own button; every kind of move of
each game is made at least once, each checked against the move the table service applied. At
each screen state of a person's turn (and once cards are ticked or a menu opened, and at the
end) the layout check (tests/browser/layout.py): no control on another, a card or a seat, none
off the screen, every target 24x24 px. The chat's table message is edited along the way; no
page receives a card that neither the public view nor its own hand shows; screenshots mid-game
and at the end."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.async_api import Browser

import games
from bot.tables import FINISHED
from games.core import Action
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import button, in_channel
from tests.bot.test_e2e_games import quick_options
from tests.browser.harness import DESKTOP, GALLERY, PHONE, Site, Truth, Viewer, fill_lobby, shown
from tests.browser.layout import SMALL_PHONE, collisions, known_open_larger, resize, screen_state

pytestmark = pytest.mark.asyncio(loop_scope="module")

#: human moves before the mid-game screenshots
MID = 3
#: counts, in the Activity's frame, the plays (or cards of the middle) whose flight from their
#: seat begins
FLIGHTS = """
window.flights = 0;
document.addEventListener('DOMContentLoaded', () => {
  new MutationObserver((changes) => {
    for (const change of changes) {
      const el = change.target;
      // the start is set and cleared in one go: the later change's old value shows it
      if (el.classList && (el.classList.contains('play') || el.classList.contains('card'))
          && (change.oldValue || '').includes('translate(calc')) window.flights += 1;
    }
  }).observe(document.body, {attributes: true, attributeFilter: ['style'],
    attributeOldValue: true, subtree: true});
});
"""


async def perform(viewer: Viewer, move: dict[str, Any], keys: bool = False,
                  between: Callable[[], Awaitable[None]] | None = None) -> None:
    """Make a move through the page as a person would: tapping, or (``keys``) with the
    keyboard alone — Tab's focus on a card or a button, Enter or Space. A move is a button
    with its words, or its cards: one tapped (played at once, or offering its moves in a
    menu on the card when it has several), or several ticked, then the button that says
    the move. ``between``: called once the cards are tapped or ticked, before that button."""
    ui = viewer.ui

    async def press(target: Any, corner: bool = False) -> None:
        if keys:
            await target.focus()
            await viewer.page.keyboard.press("Enter")
        elif corner:  # a hand's cards overlap: a person taps the corner that shows
            await target.click(position={"x": 8, "y": 24})
        else:
            await target.click()

    # the move's button on the table drawn now (a tap that played the move freezes it, and
    # the next table may have a button of the same index)
    version = await ui.locator(".table-view").get_attribute("data-version")
    button = ui.locator(f'.table-view[data-version="{version}"]:not(.frozen) '
                        f'button.move[data-move="{move["index"]}"]')
    if await button.count():
        await press(button)
        viewer.ways.add("button")
        return
    for code in move["cards"]:
        await press(ui.locator(f'.hand button.hcard[data-code="{code}"]:not(.ticked)').first,
                    corner=True)
    # the cards' own move (the page draws it in the click's handler, so it is there now):
    # an item of the card's menu, or the button of the ticked cards; else the tap played
    if await button.count():
        if between is not None:
            await between()
        menu = await ui.locator(".card-menu").count() > 0
        await press(button)
        viewer.ways.add("menu" if menu else "tick")
    else:
        viewer.ways.add("tap")
    if keys:
        viewer.ways.add("keyboard")


async def shoot(viewers: list[Viewer], name: str) -> None:
    GALLERY.mkdir(parents=True, exist_ok=True)
    await asyncio.sleep(0.5)  # the move's card lands
    for viewer, size in zip(viewers, ("phone", "desktop"), strict=True):
        await viewer.page.screenshot(path=str(GALLERY / f"{name}-{size}.png"))


#: options beyond the quick ones (short matches) that bring a game's other move kinds to the
#: table: Getaway's take of a hand, Sugekari's exchange of three cards, Spar's peek and
#: redeal; and the people at a table when not the game's usual count (Getaway for three: a
#: phone's hand of 17-18 cards, the longest of any game)
MORE_KINDS: dict[str, dict[str, str]] = {
    "bhabhi": {"take_hand": "any"},
    "sugekari-21": {"exchange": "rotate"},
    "spar": {"peek": "true", "under_ten": "true"},
}
PLAYERS = {"bhabhi": 3}
#: the same deal every run for each game (a table's seed comes from secrets.randbits): one
#: whose walk offers the pages every kind of KINDS
DEALS = {"twenty-two": 5302, "1234": 7, "bhabhi": 7, "finesse": 205,
         "sugekari-21": 7, "bear": 7, "spar": 3}
#: every kind of move each game's walk plays from the pages at least once: the action's kind,
#: whether it names more than its cards (Finesse's lead with no trumps, a bid, whose hand
#: Getaway's take takes) and its cards (none, one, several). The kinds that need other options
#: and deals longer than a whole game's walk (22's rebuy and out, Sugekari's discard, Getaway's
#: decline and draw, Spar's keep) are made from a page in test_rare_moves.py
KINDS: dict[str, tuple[str, ...]] = {
    "twenty-two": ("exchange", "exchange:1", "exchange:n", "play:1", "play:n"),
    "1234": ("play:1", "play:n", "pass:1", "pass:n"),
    "bhabhi": ("play:1", "take="),
    "finesse": ("play=:1", "table:1", "refill:1", "play:1"),
    "sugekari-21": ("exchange:n", "pass", "play:1"),
    "bear": ("bid=", "pass", "discard:n", "play:1"),
    "spar": ("redeal", "peek", "peek_agree", "peek_refuse", "play:1"),
}
#: kinds a walk makes only once the pages have made LATER_AFTER moves (Getaway's take of a
#: hand early on leaves its taken person out of the game, whose page then plays nothing)
LATER = {"take="}
LATER_AFTER = 12
#: the sizes each walk checks: the phone's page (by touch) at both phone sizes, the desktop's
SIZES = {"phone": (PHONE, SMALL_PHONE), "desktop": (DESKTOP,)}


def kind_of(action: Action) -> str:
    """A move's kind as KINDS names it."""
    count = len(action.cards)
    return action.kind + ("=" if action.arg else "") + \
        ("" if not count else ":1" if count == 1 else ":n")


@dataclass
class Walk:
    """What a walk through a game did: the screen states whose layout it checked (each once),
    the kinds of move the pages made, the greatest number of rows a phone's hand took, and
    whether each page opened a seat's cards in front of it."""

    game_id: str
    checked: set[str] = field(default_factory=set)
    kinds: set[str] = field(default_factory=set)
    rows: dict[str, int] = field(default_factory=dict)
    known: set[str] = field(default_factory=set)
    #: each page's turns (the phone's size alternates with its person's)
    turns: dict[str, int] = field(default_factory=dict)
    #: the seconds the checks took
    spent: float = 0.0

    async def check(self, viewer: Viewer, name: str, model: dict[str, Any],
                    note: str = "", every: bool = False) -> None:
        """The layout check of a screen state not checked yet at its size. The phone's page
        is turned from one phone's size to the other at each of its person's turns (each size
        sees half the game; ``every``: both sizes now), and with ``note`` (cards ticked or a
        menu open) checked at the size they were chosen at; a seat's cards in front of it
        opened larger once at each size."""
        began = time.monotonic()
        sizes = list(SIZES[name])
        if not every:
            turn = self.turns[name] = self.turns.get(name, 0) + (note == "")
            # (at a person's first turn at every size: one whose game ends early, by a take or
            # out of cards, has seen each size in play all the same)
            sizes = [viewer.page.viewport_size or sizes[0]] if note \
                else sizes if turn == 1 else [sizes[turn % len(sizes)]]
        try:
            await self._check(viewer, name, model, note, sizes)
        finally:
            self.spent += time.monotonic() - began

    async def _check(self, viewer: Viewer, name: str, model: dict[str, Any], note: str,
                     sizes: list[dict[str, int]]) -> None:
        for size in sizes:
            state = note + screen_state(model, size)
            if state in self.checked:
                continue
            await resize(viewer, size)
            problems = await collisions(viewer)
            if problems:  # what the person saw, for whoever reads the failure
                GALLERY.mkdir(parents=True, exist_ok=True)
                await viewer.page.screenshot(path=str(GALLERY / f"failed-{self.game_id}.png"))
            assert problems == [], (self.game_id, size, note, problems)
            self.checked.add(state)
            label = f"{size['width']}x{size['height']}"
            hand = viewer.ui.locator(".controls > .hand")
            if name == "phone" and await hand.count():
                rows = int(await hand.get_attribute("data-rows") or 1)
                self.rows[label] = max(self.rows.get(label, 0), rows)
            if not note and label not in self.known and await known_open_larger(viewer, label):
                self.known.add(label)
                assert await collisions(viewer) == [], (self.game_id, size, "known")


class Applied:
    """Each person's move as the table service applied it (its listener: the bot runs in this
    process), to check that the page made the move the person chose."""

    def __init__(self, site: Site) -> None:
        self.moves: list[tuple[int, int, Action]] = []
        self.listeners = site.world.bot.manager.listeners
        self.listeners.insert(0, self.record)

    def close(self) -> None:
        self.listeners.remove(self.record)

    async def record(self, update: Any) -> None:
        for move in update.moves:
            if move.how == "player":
                self.moves.append((update.table_id, move.seat, move.action))


async def play_through(site: Site, table_id: int, viewers: list[Viewer], game_id: str,
                       rng: random.Random, walk: Walk, limit: float = 240.0) -> int:
    """Play until the table is finished, each person through their page; their moves. At each
    of a person's turns: its layout checked at every size (each screen state once), and a
    kind of move not made yet chosen when one is offered (else any, several cards half the
    time they are offered), checked against the move the service applied."""
    applied = Applied(site)
    try:
        return await walk_on(site, table_id, viewers, game_id, rng, walk, applied, limit)
    finally:
        applied.close()


async def walk_on(site: Site, table_id: int, viewers: list[Viewer], game_id: str,
                  rng: random.Random, walk: Walk, applied: Applied, limit: float) -> int:
    manager = site.world.bot.manager
    names = dict(zip(SIZES, viewers, strict=True))
    moves = 0
    shot = False
    began = time.monotonic()
    while True:
        table = manager.tables.get(table_id)
        if table is None or table.status == FINISHED:
            return moves
        assert time.monotonic() - began < limit, f"{game_id}: not finished in {limit} s"
        acted = False
        for name, viewer in names.items():
            model = viewer.latest
            if model is None or model["version"] != table.version or not model["you"]["may_act"]:
                continue
            seat = model["you"]["seat"]
            position = await manager.position(table_id, seat)
            if position.version != model["version"]:
                break  # the table moved on meanwhile
            actions = {m.index: m.action for m in position.moves}
            choices = model["you"]["moves"]
            assert choices and {m["index"] for m in choices} == set(actions), model["you"]
            if not shot and moves >= MID and viewer is viewers[0]:
                await shoot(viewers, f"{game_id}-mid")
                shot = True
            await shown(viewer, model)
            await walk.check(viewer, name, model)
            # a kind not made yet: the first of KINDS offered (a rare kind before a common one
            # offered at the same turn), else any
            new = [m for m in choices if kind_of(actions[m["index"]]) not in walk.kinds]
            for kind in KINDS[game_id]:
                wanted = [m for m in new if kind_of(actions[m["index"]]) == kind]
                if wanted:
                    new = wanted
                    break
            several = [m for m in choices if len(m["cards"]) > 1]
            if new and all(kind_of(actions[m["index"]]) in LATER for m in new) \
                    and moves < LATER_AFTER:
                new = []
            move = rng.choice(new or (several if several and rng.random() < 0.5 else choices))

            async def between(viewer: Viewer = viewer, name: str = name,
                              model: dict[str, Any] = model,
                              move: dict[str, Any] = move) -> None:
                # the ticked cards' button (or the card's menu) lies clear of the rest
                await walk.check(viewer, name, model, f"ticked {len(move['cards'])} ")
                chosen = viewer.ui.locator(f'button.move[data-move="{move["index"]}"]')
                assert await chosen.inner_text() == move["label"]

            # the desktop's person plays by keyboard alone
            done = len(applied.moves)
            await perform(viewer, move, keys=name == "desktop", between=between)
            after = await viewer.wait_for(lambda m, v=model["version"]: (
                m.get("type") == "table" and m["version"] > v) or m.get("type") == "error")
            assert after.get("type") == "table", after
            made = [(t, s, a) for t, s, a in applied.moves[done:] if t == table_id and s == seat]
            assert made and made[0][2].same_as(actions[move["index"]]), (move, made)
            walk.kinds.add(kind_of(actions[move["index"]]))
            moves += 1
            acted = True
            break
        if not acted:
            await asyncio.sleep(0.02)


@pytest.mark.parametrize("game_id", games.ids())
async def test_a_whole_game_in_two_activity_pages(table_site: Site, browser: Browser,
                                                  game_id: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.tables.lobby.secrets.randbits", lambda bits: DEALS[game_id])
    site = table_site
    site.fresh_visit()
    truth = Truth(site)
    alice, bob = site.world.users[:2]
    channel = site.channel(game_id)
    instance = site.sim.add_activity_instance(channel, [alice, bob])
    # the phone's person asks for less motion (a card lands at once): its layout is checked
    # at many more turns than the desktop's, none of them waiting out a card's flight
    phone = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                                      reduced_motion="reduce")
    desktop = await browser.new_context(viewport=DESKTOP)
    for context in (phone, desktop):
        await context.add_init_script(FLIGHTS)
    try:
        a = await site.discord_page(phone, alice, channel, instance, "mobile")
        b = await site.discord_page(desktop, bob, channel, instance)
        for viewer in (a, b):  # no table yet: the launcher says how to start one
            await viewer.ui.locator(".launcher .none").wait_for()
        assert await a.ui.locator(".launcher .none").inner_text() == \
            "No table here — start one with /play"
        rules = lookup(game_id)
        r = await site.sim.slash(alice, channel, "play", {"game": game_id})
        assert r.status == "ok", r
        table = site.world.table_message()
        r = await site.sim.click(bob, table, button(table, "join")["custom_id"])
        assert r.status == "ok", r
        # the lobby opens by itself in both pages; both have their seats (no hand yet)
        for viewer in (a, b):
            await viewer.wait_for(lambda m: m.get("type") == "table" and m["status"] == "lobby")
            await viewer.ui.locator(".table-view.status-lobby").wait_for()
            assert await viewer.ui.locator(".note.spectating").count() == 0
        await fill_lobby(site.world, [alice, bob], PLAYERS.get(game_id, rules.usual_players),
                         {**quick_options(game_id), **MORE_KINDS.get(game_id, {})}, join=False)
        table_id = max(site.world.bot.manager.tables)
        for viewer in (a, b):  # the channel's only table opens by itself
            await viewer.wait_for(lambda m: m.get("type") == "table" and m["status"] == "playing")
        edits_before = len(edits_of(site, channel))
        walk = Walk(game_id)
        moves = await play_through(site, table_id, [a, b], game_id, random.Random(7), walk)
        for name, viewer in zip(SIZES, (a, b), strict=True):
            final = await viewer.wait_for(
                lambda m: m.get("type") == "table" and m["status"] == "finished")
            result = viewer.ui.locator(".result .box")
            await result.wait_for()
            assert final["scene"]["result"][0] in await result.inner_text()
            await walk.check(viewer, name, final, every=True)
            await deciding_cards_shown(viewer, final)
        await resize(a, PHONE)
        print(f"{game_id}: {moves} moves through the pages, {sorted(a.ways | b.ways)}, "
              f"{sorted(walk.kinds)}, {len(walk.checked)} screens checked in "
              f"{walk.spent:.1f} s, rows {walk.rows}")
        # every kind of move of the game was made from the pages, each as the service took it
        assert walk.kinds >= set(KINDS[game_id]), (set(KINDS[game_id]) - walk.kinds, walk.kinds)
        # the layout was checked at each size in play (not only at the game's end), and a
        # long hand took rows on both phones
        sizes = Counter(tuple(json.loads(s[s.index("{"):])["size"]) for s in walk.checked)
        assert min(sizes.values()) >= 2 and set(sizes) == {
            (s["width"], s["height"]) for s in (PHONE, SMALL_PHONE, DESKTOP)}, sizes
        if game_id == "bhabhi":
            assert min(walk.rows.values()) >= 2 and len(walk.known) == 3, (walk.rows, walk.known)
        await shoot([a, b], f"{game_id}-end")
        await site.sim.settle()
        # the chat's table message moved along with the pages
        assert len(edits_of(site, channel)) - edits_before >= min(moves, 3)
        assert "1." in site.world.table_message().content
        assert moves > 0
        assert truth.leaks(a, 0) == [] and truth.leaks(b, 1) == []
        assert a.errors == [] and b.errors == []
        # played cards flew in from their seats (a play's start set back to its seat)
        for viewer in (a, b):
            flights = await viewer.page.frame_locator("#activity").locator("body").evaluate(
                "() => window.flights")
            assert flights > 0
        assert a.ways | b.ways >= {"tap"} or a.ways | b.ways >= {"tick"}, a.ways | b.ways
        assert site.sim.spec_errors == [], site.sim.spec_errors[:3]
    finally:
        await phone.close()
        await desktop.close()


async def deciding_cards_shown(viewer: Viewer, final: dict[str, Any]) -> None:
    """The end shows how the game ended: the last trick (or the deal's last cards: the rows
    of the middle, else the last move's) stays on the felt, clear of the result."""
    scene = final["scene"]
    plays = scene["trick"] or scene["last_trick"]
    if not plays and not scene["rows"] and final["last"] and final["last"]["cards"]:
        plays = [[final["last"]["seat"], final["last"]["cards"]]]
    wanted = [c for _, codes in plays + scene["rows"] for c in codes if c is not None]
    frame = viewer.page.frame_locator("#activity")
    await frame.locator("body").evaluate(
        "() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => 0)))")
    cards = frame.locator(".felt .play .card, .felt .middle .card")
    shown = await cards.evaluate_all("(els) => els.map((e) => e.dataset.code)")
    assert sorted(wanted) == sorted(c for c in shown if c), (final["game"], wanted, shown)
    how = frame.locator(".result .how p")
    if not wanted:  # decided with no card on the felt (Getaway's takes): the result says how
        assert final["last"] and final["last"]["kind"] == "take", final["last"]
        assert await how.all_inner_texts() == final["log"][-3:], final["log"]
    else:  # the cards say it
        assert await how.count() == 0
    result = await frame.locator(".result .box").bounding_box()
    assert result is not None
    for card in await cards.all():
        box = await card.bounding_box()
        assert box is not None
        assert box["y"] + box["height"] <= result["y"] + 1 or box["y"] >= \
            result["y"] + result["height"] - 1 or box["x"] + box["width"] <= result["x"] + 1 \
            or box["x"] >= result["x"] + result["width"] - 1, (final["game"], box, result)


def edits_of(site: Site, channel: Any) -> list[Any]:
    """The bot's edits of messages in a channel and its threads (the table messages'
    updates: the whole table's is in the table's thread), found by where they land: by the
    bot's token (``PATCH /channels/.../messages/{id}``) or through the token of the
    interaction whose original response the message is (``PATCH /webhooks/...``)."""
    found = []
    for q in site.sim.requests:
        where = q.response.get("channel_id") if isinstance(q.response, dict) else None
        if q.method == "PATCH" and where and in_channel(site.sim, str(where), channel):
            found.append(q)
    return found
