"""The two layouts of the table message side by side on the simulated Discord: the embed the
bot posts, and the same message as a Components V2 container (tried, not used: see
docs/design/panel-layout.md). Both must be valid against Discord's spec and say the same words;
the V2 one holds the picture, the seats, the results and the controls in one container."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bot.tables.model import Table
from bot.tables.position import position_of
from tests.bot.sim_helpers import World, world
from tests.bot.test_e2e_games import PublicWatch, open_table, play_to_the_end, quick_options
from tests.discord_sim import SimMessage
from tests.discord_sim.models import SimChannel


async def post_both(w: World, where: SimChannel, table: Table) -> tuple[SimMessage, SimMessage]:
    """The table now, posted once as the bot's embed and once as a V2 layout (in another
    channel, so the table's own stays the one the game goes on in)."""
    board = w.bot.get_cog("PlayCog").messages  # type: ignore[union-attr]
    async with table.lock:
        payload = board.render(position_of(table))
    files = await payload.files()
    channel = w.bot.get_partial_messageable(int(where.id))
    classic = await channel.send(**payload.send(), files=files)
    files = await payload.files()
    laid_out = await channel.send(view=payload.layout(picture=bool(files)), files=files)
    await w.sim.settle()
    return w.sim.message(str(classic.id)), w.sim.message(str(laid_out.id))


def words(text: str) -> list[str]:
    """The words of a text, without Markdown marks."""
    return re.findall(r"[\w<@>♠♥♦♣-]+", text.replace("**", "").replace("-# ", ""))


async def test_the_table_as_an_embed_and_as_a_v2_layout(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        humans = w.users[:2]
        await open_table(w, "finesse", humans, 4, quick_options("finesse"))
        await w.sim.settle()
        shown = []
        where = w.sim.add_channel(w.guild, "layouts")
        table = w.bot.manager.tables[1]
        classic, laid_out = await post_both(w, where, table)  # mid-game: whose turn, seats, Hand
        shown.append((classic, laid_out))
        await play_to_the_end(w, humans, random.Random(3), PublicWatch(w))
        await w.sim.settle()
        shown.append(await post_both(w, where, table))  # the end: places and the results explained
        for classic, laid_out in shown:
            assert not classic.components_v2 and classic.embeds
            assert laid_out.components_v2 and not laid_out.content and not laid_out.embeds
            assert [c["type"] for c in laid_out.components] == [17]  # one container
            assert laid_out.pictures() == ["table.png"]
            assert [b["custom_id"] for b in laid_out.buttons()] == [
                b["custom_id"] for b in classic.buttons()]
            # the same words, in the same order
            assert words(laid_out.text) == words(classic.text), (laid_out.text, classic.text)
        assert "Hand" in [b["label"] for b in shown[0][1].buttons()]
        assert w.sim.spec_errors == [], w.sim.spec_errors[:3]
