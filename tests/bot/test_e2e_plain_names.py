"""A display name is shown as typed (#48): Markdown in it (a masked link, bold, code,
``@everyone``) never becomes a link, bold text, code or a mention in anything the bot words —
the public table message from lobby to result, the panels, the host's menu, /stats, /history,
/leaderboard and /replay."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from tests.bot.sim_helpers import World, button, world
from tests.bot.test_e2e_games import open_table, play_to_the_end
from tests.bot.test_e2e_leaderboard import command
from tests.discord_sim import SimUser

NAME = "[prize](https://evil.example/x) **b** @everyone `c` _i_"
#: each way the name could act as Markdown instead of text
RAW = {
    "a masked link": re.compile(r"(?<!\\)\[prize\]\(https://evil"),
    "bold": re.compile(r"(?<!\\)\*\*b"),
    "a mention of everyone": re.compile(r"@everyone"),
    "code": re.compile(r"(?<!\\)`c(?<!\\)`"),
}
TEXT_DISPLAY = 10


class Unwatched:
    def look(self) -> None:
        return None


def markdown_of(payload: Any) -> list[str]:
    """The Markdown texts of a request's body: contents, embeds' words, text displays (not
    labels, menus' options or attachments' descriptions, which Discord shows as plain text)."""
    found: list[str] = []
    if isinstance(payload, list):
        for item in payload:
            found += markdown_of(item)
    elif isinstance(payload, dict):
        if isinstance(payload.get("content"), str) and payload.get("type") in (None,
                                                                               TEXT_DISPLAY):
            found.append(payload["content"])
        for embed in payload.get("embeds") or ():
            found += [str(embed.get(k) or "") for k in ("title", "description")]
            found += [str(f.get("name", "")) + "\n" + str(f.get("value", ""))
                      for f in embed.get("fields") or ()]
            found.append(str((embed.get("footer") or {}).get("text", "")))
        for key in ("data", "components"):
            found += markdown_of(payload.get(key))
    return found


def worded(w: World) -> list[str]:
    return [text for request in w.sim.requests for text in markdown_of(request.json)]


async def test_markdown_in_a_display_name_is_shown_as_plain_text(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice = w.users[0]
        odd = w.sim.add_user(NAME)
        w.sim.add_member(w.guild, odd)
        await w.sim.settle()
        players: list[SimUser] = [odd, alice]
        await open_table(w, "high-card", players, 2, {"hand": "3"})
        table = w.table_message()
        r = await w.sim.click(odd, table, button(table, "hand")["custom_id"])
        assert r.status == "ok", r
        r = await w.sim.click(odd, table, button(table, "manage")["custom_id"])
        assert r.status == "ok", r
        await play_to_the_end(w, players, random.Random(3), Unwatched())  # type: ignore[arg-type]
        await w.sim.settle()
        for name, options in (("stats", {}), ("history", {}),
                              ("leaderboard", {"game": "high-card"}), ("replay", {"id": 1})):
            await command(w, odd, name, options)
        texts = worded(w)
        assert len([text for text in texts if "evil.example/x" in text]) > 5  # it is shown
        problems = sorted({f"{what}: {text[:120]!r}" for text in texts
                           for what, pattern in RAW.items() if pattern.search(text)})
        assert problems == []
        assert w.sim.spec_errors == [] and w.sim.client_errors == []
