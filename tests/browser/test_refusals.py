"""A person the Activity turns away is told the real reason (#53), in their own language: not
in the Activity's instance, an instance of another channel, an instance Discord does not know
— each its own sentence, none of them the sentence of a table of another channel."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from bot.web.auth import ELSEWHERE, NOT_IN_IT, UNKNOWN_INSTANCE
from games import wording
from tests.browser.harness import DESKTOP, Site

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.mark.parametrize(("who", "case", "key"), [
    (1, "not in it", NOT_IN_IT),  # Bob, in English
    (3, "not in it", NOT_IN_IT),  # Hanako, in Japanese
    (0, "another channel", ELSEWHERE),
    (0, "unknown", UNKNOWN_INSTANCE),
])
async def test_a_refusal_says_its_own_cause(table_site: Site, browser: Browser, who: int,
                                            case: str, key: str) -> None:
    site = table_site
    site.fresh_visit()
    alice, person = site.world.users[0], site.world.users[who]
    lang = "ja" if person.locale == "ja" else "en"
    channel = site.channel("refusals")
    if case == "not in it":
        instance = site.sim.add_activity_instance(channel, [alice])
    elif case == "another channel":
        instance = site.sim.add_activity_instance(site.channel("elsewhere"), [person])
    else:
        instance = f"i-1-gc-{channel.guild_id}-{channel.id}"
    context = await browser.new_context(viewport=DESKTOP)
    try:
        viewer = await site.discord_page(context, person, channel, instance)
        refused = await viewer.wait_for(lambda m: m.get("type") == "error")
        assert refused["code"] == "forbidden"
        assert refused["message"] == wording.text(key, lang)
        assert refused["message"] != wording.text("web-forbidden", lang)
        status = viewer.ui.locator(".status")
        await status.wait_for()
        assert await status.inner_text() == refused["message"]
        assert viewer.tables == []
    finally:
        await context.close()


async def test_each_cause_has_its_own_sentence_in_english_and_japanese() -> None:
    keys = [NOT_IN_IT, ELSEWHERE, UNKNOWN_INSTANCE, "web-instance-unchecked", "web-no-channel",
            "web-not-vouched", "web-forbidden"]
    for lang in ("en", "ja"):
        sentences = [wording.text(key, lang) for key in keys]
        assert len(set(sentences)) == len(keys), sentences
    # Japanese of its own, not English fallen back to
    assert all(wording.text(key, "ja") != wording.text(key, "en") for key in keys)
