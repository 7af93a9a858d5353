"""/rules on the simulated Discord: every game's summary, every option with its default, and the
game's page of the rule book in the asker's language, privately."""

from __future__ import annotations

from pathlib import Path

import games
from bot.i18n import t
from bot.pictures.rules_pictures import caption, draw
from tests.bot.sim_helpers import world

ROOT = Path(__file__).resolve().parents[2]


async def test_rules_shows_every_option_and_the_rule_book_page(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        for gid in games.ids():
            rules = games.get(gid)
            for locale, lang in (("en-US", "en"), ("ja", "ja")):
                r = await w.sim.slash(alice, w.channel, "rules", {"game": gid}, locale=locale)
                assert r.ephemeral and r.message is not None, (gid, lang)
                (embed,) = r.message.embeds
                summary = rules.summary(lang)
                description = embed["description"]
                assert description.startswith(summary.strip().splitlines()[0])
                for opt in rules.options:
                    help_text = rules.option_help(opt, lang)
                    assert f"`{opt.name}` = **" in description, (gid, opt.name)
                    assert help_text in description, (gid, opt.name)
                page = f"docs/rules/ja/{gid}.md" if lang == "ja" else f"docs/rules/{gid}.md"
                assert page in embed["footer"]["text"]
                assert (ROOT / page).is_file()
            # The Japanese answer is in Japanese, the English one is not.
            assert "オプション" in description and "Options" not in description
        assert w.sim.spec_errors == []


PNG = b"\x89PNG\r\n\x1a\n"


async def test_rules_shows_a_picture_of_a_typical_position_with_its_caption(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        seen: dict[bytes, str] = {}
        for gid in games.ids():
            for locale, lang in (("en-US", "en"), ("ja", "ja")):
                r = await w.sim.slash(alice, w.channel, "rules", {"game": gid}, locale=locale)
                assert r.ephemeral and r.message is not None, (gid, lang)
                (embed,) = r.message.embeds
                assert embed["description"]  # the text stays
                name = f"rules-{gid}.png"
                assert embed["image"]["url"] == f"attachment://{name}"
                [attachment] = r.message.attachments
                said = caption(gid, lang)
                assert attachment["filename"] == name and attachment["description"] == said
                assert attachment["bytes"].startswith(PNG)
                assert attachment["bytes"] == draw(gid, lang)
                field = embed["fields"][-1]
                assert field == {"name": t("rules-picture", lang), "value": said,
                                 "inline": False}
                assert attachment["bytes"] not in seen, (gid, lang, seen.get(attachment["bytes"]))
                seen[attachment["bytes"]] = f"{gid} {lang}"
        assert len(seen) == 2 * len(games.ids())
        assert w.sim.spec_errors == []
