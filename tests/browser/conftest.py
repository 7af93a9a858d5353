"""The browser tests' fixtures: one bot (with its web table) and one chromium per module."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio
from playwright.async_api import Browser, async_playwright

from tests.browser.harness import Site, launch, site


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        found = await launch(playwright)
        yield found
        await found.close()


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def table_site(tmp_path_factory: object) -> AsyncIterator[Site]:
    folder: Path = tmp_path_factory.mktemp("activity")  # type: ignore[attr-defined]
    async with site(folder) as running:
        yield running
