"""The Activity's social parts (#53 item 5), each through the Embedded App SDK's messages as the
stand-in for Discord's client sees them (tests/browser/harness.py records every command with
its arguments, and sends an event as Discord's client does):

- a spectator takes a free seat in the lobby from the page, and the chat's table shows it;
- the person's presence (SET_ACTIVITY) shows the game and the deal, and a friend joining from
  it (ACTIVITY_JOIN with its secret) lands at that table, not the channel's list;
- a free seat offers Discord's invite dialog (OPEN_INVITE_DIALOG);
- a finished game's result is shared as the table picture the bot drew
  (OPEN_SHARE_MOMENT_DIALOG with the picture's address on Discord's CDN).
"""

from __future__ import annotations

import time
from typing import Any

import aiohttp
import pytest
from playwright.async_api import Browser

from tests.browser.harness import DESKTOP, GALLERY, PHONE, Site, Viewer, fill_lobby

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def commands(viewer: Viewer, cmd: str) -> list[dict[str, Any]]:
    """The arguments of every SDK command ``cmd`` the page sent so far."""
    seen = await viewer.page.evaluate("window.commandArgs")
    return [c["args"] for c in seen if c["cmd"] == cmd]


async def wait_command(viewer: Viewer, cmd: str, test: Any = lambda _args: True,
                       timeout: float = 15.0) -> dict[str, Any]:
    """The first command ``cmd`` the page sent whose arguments pass ``test``."""
    limit = time.monotonic() + timeout
    while True:
        for args in await commands(viewer, cmd):
            if test(args):
                return args
        if time.monotonic() > limit:
            raise TimeoutError(f"no {cmd} passing the test: {await commands(viewer, cmd)}")
        await viewer.page.wait_for_timeout(100)


def presence_of(table_id: int) -> Any:
    return lambda args: (args.get("activity") or {}).get("party", {}).get("id") == \
        f"table-{table_id}"


async def test_a_spectator_takes_a_free_seat_invites_and_is_found_from_the_presence(
        table_site: Site, browser: Browser) -> None:
    site = table_site
    site.fresh_visit()
    alice, bob, carol, _hanako = site.world.users
    manager = site.world.bot.manager
    channel = site.channel("social")
    instance = site.sim.add_activity_instance(channel, [alice, bob, carol])
    await site.sim.slash(alice, channel, "play", {"game": "high-card"})
    await site.sim.settle()
    table_id = max(manager.tables)
    context = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = await site.discord_page(context, carol, channel, instance, "mobile")
        lobby = await page.wait_for(lambda m: m.get("type") == "table"
                                    and m["table"] == table_id)
        assert lobby["status"] == "lobby" and lobby["free"] == 3, lobby
        # the presence: watching the game, in the lobby, one of four seats taken; its secret
        # names the table
        watching = await wait_command(page, "SET_ACTIVITY", presence_of(table_id))
        activity = watching["activity"]
        assert activity["details"] == "Watching High Card", activity
        assert activity["state"] == "In the lobby"
        assert activity["party"]["size"] == [1, 4]
        assert activity["secrets"] == {"join": f"table-{table_id}"}
        assert activity["instance"] is True

        # a free seat offers Discord's invite dialog
        free = page.ui.locator(".free-seats .free-seat")
        assert await free.count() == 3
        await page.page.screenshot(path=str(GALLERY / "social-lobby-phone.png"))
        await free.first.locator("button.invite").tap()
        await wait_command(page, "OPEN_INVITE_DIALOG")

        # Carol takes a seat from the page: seated, the chat's table names her too
        await free.first.locator("button.take-seat").tap()
        seated = await page.wait_for(lambda m: m.get("type") == "table"
                                     and m["you"]["seat"] is not None)
        assert [s["name"] for s in seated["seats"]] == ["Alice", "Carol"]
        assert seated["free"] == 2
        await site.sim.settle()
        assert "Carol" in site.world.table_message().text
        await page.ui.locator(".free-seats .free-seat").nth(1).wait_for()
        assert await page.ui.locator(".free-seat button.take-seat").count() == 0
        playing = await wait_command(page, "SET_ACTIVITY", lambda a: a["activity"]["details"]
                                     == "Playing High Card")
        assert playing["activity"]["party"]["size"] == [2, 4]

        # the game starts: the presence shows the deal
        await fill_lobby(site.world, [alice, carol], 2, {}, join=False)
        dealt = await wait_command(page, "SET_ACTIVITY", lambda a: a["activity"].get(
            "state", "").startswith("Deal"))
        assert dealt["activity"]["details"] == "Playing High Card"
        assert dealt["activity"]["party"]["size"] == [2, 2]

        # another table in the channel: Bob's page lists both; joining from Carol's presence
        # (Discord's client sends ACTIVITY_JOIN with its secret) opens hers
        await site.sim.slash(bob, channel, "play", {"game": "high-card"})
        await site.sim.settle()
        assert max(manager.tables) != table_id
        bob_context = await browser.new_context(viewport=DESKTOP)
        try:
            friend = await site.discord_page(bob_context, bob, channel, instance)
            await friend.ui.locator("button.pick").nth(1).wait_for()
            await wait_command(friend, "SUBSCRIBE", lambda _a: True)
            seen = await friend.page.evaluate("window.commandArgs")
            assert any(c["evt"] == "ACTIVITY_JOIN" for c in seen), seen
            await friend.page.evaluate(
                "([secret, app]) => window.sdkEvent('ACTIVITY_JOIN', "
                "{secret, applicationId: app})",
                [dealt["activity"]["secrets"]["join"], str(site.sim.application_id)])
            landed = await friend.wait_for(lambda m: m.get("type") == "table")
            assert landed["table"] == table_id
            await friend.ui.locator(f'.table-view[data-version="{landed["version"]}"]').wait_for()
            assert await friend.ui.locator("button.pick").count() == 0
        finally:
            await bob_context.close()
    finally:
        await context.close()


async def test_the_result_is_shared_as_the_table_picture(table_site: Site,
                                                       browser: Browser) -> None:
    site = table_site
    site.fresh_visit()
    alice = site.world.users[0]
    manager = site.world.bot.manager
    channel = site.channel("share")
    instance = site.sim.add_activity_instance(channel, [alice])
    await site.sim.slash(alice, channel, "play", {"game": "high-card"})
    await site.sim.settle()
    table_id = max(manager.tables)
    await fill_lobby(site.world, [alice], 2, {"hand": "1"})
    context = await browser.new_context(viewport=DESKTOP)
    # the same person on Discord's phone app too, which has no share dialog
    phone_context = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = await site.discord_page(context, alice, channel, instance)
        phone = await site.discord_page(phone_context, alice, channel, instance, "mobile")
        turn = await page.wait_for(lambda m: m.get("type") == "table" and m["you"]["may_act"])
        await phone.wait_for(lambda m: m.get("type") == "table")
        await manager.act(table_id, int(alice.id), turn["version"],
                          turn["you"]["moves"][0]["index"])
        over = await page.wait_for(lambda m: m.get("type") == "table"
                                   and m["status"] == "finished")
        await site.sim.settle()
        await page.ui.locator(f'.table-view[data-version="{over["version"]}"]').wait_for()
        await page.page.screenshot(path=str(GALLERY / "social-share-desktop.png"))
        await page.ui.locator(".result button.share").click()
        answer = await page.wait_for(lambda m: m.get("type") == "share")
        assert answer["table"] == table_id
        # the address of the picture on the table's message, on Discord's CDN
        message = site.world.table_message()
        pictures = [a["url"] for a in site.sim.message_payload(message)["attachments"]]
        assert answer["url"] in pictures, (answer, pictures)
        asked = await wait_command(page, "OPEN_SHARE_MOMENT_DIALOG")
        assert asked == {"mediaUrl": answer["url"]}
        async with aiohttp.ClientSession() as http, http.get(answer["url"]) as got:
            assert got.status == 200
            assert (await got.read()).startswith(b"\x89PNG")
        await phone.ui.locator(f'.table-view[data-version="{over["version"]}"]').wait_for()
        assert await phone.ui.locator(".result").count() == 1
        assert await phone.ui.locator("button.share").count() == 0
    finally:
        await context.close()
        await phone_context.close()
