"""The page in a plain browser when the web table runs in development mode: a sign-in by name,
the launcher, and a table opened in the channel appearing by itself (the person has no seat:
they watch)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from tests.bot.test_e2e_games import open_table
from tests.browser.harness import DESKTOP, Site, site

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def dev_site(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Site]:
    folder: Path = tmp_path_factory.mktemp("dev")
    async with site(folder, dev=True) as running:
        yield running


async def test_the_development_page_signs_in_by_name(dev_site: Site, browser: Browser) -> None:
    channel = dev_site.channel("dev")
    context = await browser.new_context(viewport=DESKTOP)
    try:
        viewer = await dev_site.plain_page(context, f"/?channel_id={channel.id}")
        page = viewer.page
        await page.locator("form.signin").wait_for()
        await page.fill("#signin-name", "Dana")
        await page.click("form.signin button[type=submit]")
        hello = await viewer.wait_for(lambda m: m.get("type") == "hello")
        assert hello["user"]["name"] == "Dana"
        await page.locator(".launcher .none").wait_for()
        alice, bob = dev_site.world.users[:2]
        await open_table(dev_site.world, "bhabhi", [alice, bob], 4, {})
        # the channel's table opens by itself; Dana has no seat there
        await page.locator(".note.spectating").wait_for(timeout=15000)
        assert await page.locator(".felt .seat").count() == 4
        # a reload keeps the sign-in for the tab
        await page.reload()
        await page.locator(".note.spectating").wait_for(timeout=15000)
        assert await page.locator("form.signin").count() == 0
    finally:
        await context.close()


async def test_outside_discord_without_development_mode_there_is_no_sign_in(
        table_site: Site, browser: Browser) -> None:
    context = await browser.new_context(viewport=DESKTOP)
    try:
        viewer = await table_site.plain_page(context, "/")
        await viewer.page.locator(".status").wait_for()
        assert await viewer.page.locator("form.signin").count() == 0
        assert "Could not connect" in await viewer.page.locator(".status").inner_text()
        config = await viewer.page.evaluate("fetch('/api/config').then(r => r.json())")
        assert config["dev"] is False
    finally:
        await context.close()
