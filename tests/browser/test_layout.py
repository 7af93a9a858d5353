"""The Activity as players find it (#53): a card with several moves offers each of them on the
card, in a menu clear of everything else on the page (Finesse's A♥ may be played or led with
no trumps: a tap on it once did nothing). The layout check itself (tests/browser/layout.py)
runs through whole games of every game at three sizes in tests/browser/test_games.py."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from tests.bot.fakegame import lookup
from tests.bot.test_e2e_games import quick_options
from tests.browser.harness import GALLERY, PHONE, Site, fill_lobby, shown
from tests.browser.layout import collisions

pytestmark = pytest.mark.asyncio(loop_scope="module")

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
