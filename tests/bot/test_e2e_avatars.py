"""Players' faces on the simulated Discord: an avatar fetched once from the CDN, in the
background (a slow CDN delays no answer: the picture shows initials until the avatar is
there), and computers drawn with their own mark."""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path

from PIL import Image

from bot.pictures import avatars, table_png
from tests.bot.sim_helpers import World, button, verb_of, world
from tests.bot.test_e2e_games import make_a_move, open_table
from tests.bot.test_e2e_pictures import version_of
from tests.discord_sim import SimUser


def red_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (128, 128), (220, 30, 30)).save(out, "PNG")
    return out.getvalue()


def reddish(data: bytes) -> int:
    """How many pixels of a picture are the avatar's red."""
    with Image.open(io.BytesIO(data)) as picture:
        pixels = picture.convert("RGB").get_flattened_data()
    return sum(1 for r, g, b in pixels if r > 180 and g < 80 and b < 80)


async def table_picture(w: World) -> bytes:
    """The table message's picture once it shows the table's current version."""
    table = w.bot.manager.live_in(int(w.channel.id))
    assert table is not None
    for _ in range(300):  # the painters' first picture may take a while on a busy machine
        await asyncio.sleep(0.05)
        await w.sim.settle(idle=0.05)
        message = w.table_message()
        if (message.attachments and any(verb_of(b["custom_id"]) == "hand"
                                         for b in message.buttons())
                and version_of(message) == table.version):
            return bytes(message.attachments[0]["bytes"])
    raise AssertionError("the table picture never caught up")


async def move(w: World, users: list[SimUser], rng: random.Random) -> None:
    """One move by whichever person's turn it is."""
    for _ in range(200):
        await w.sim.settle(idle=0.02)
        message = w.table_message()
        turn = [u for u in users if f"<@{u.id}>" in message.content]
        if turn:
            r = await w.sim.click(turn[0], message, button(message, "hand")["custom_id"])
            assert r.status == "ok", r
            assert r.message is not None
            if await make_a_move(w, turn[0], r.message, rng):
                return
    raise AssertionError("nobody could move")


async def test_an_avatar_is_fetched_once_in_the_background_and_drawn(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users[:2]
        alice.avatar = red_png()  # Bob keeps Discord's default avatar
        w.sim.avatar_delay = 600.0  # the CDN holds every avatar until the test lets go
        await open_table(w, "bhabhi", [alice, bob], 3, {})  # every answer "ok", meanwhile
        table = w.bot.manager.live_in(int(w.channel.id))
        assert table is not None and table.state is not None
        names = [s.name for s in table.seats]
        computers = [i for i, s in enumerate(table.seats) if s.computer]
        assert computers == [2]
        first = await table_picture(w)
        # The table was answered and drawn while the avatar was still on its way: initials.
        assert int(alice.id) in avatars.CACHE.pending
        assert first == table_png(table.state.view(None).to_dict(), names, "en",
                                  computers=computers)
        assert reddish(first) == 0

        w.sim.avatar_delay = 0.0  # the CDN answers
        for _ in range(200):
            await asyncio.sleep(0.05)
            kept = avatars.CACHE.faces([int(alice.id)])[0]
            if kept is not None:
                break
        assert kept is not None
        rng = random.Random(3)
        for _ in range(2):  # later pictures show it, without asking the CDN again
            await move(w, [alice, bob], rng)
            drawn = await table_picture(w)
            assert drawn == table_png(table.state.view(None).to_dict(), names, "en",
                                      avatars=[kept, None, None], computers=computers)
            assert reddish(drawn) > 500
        asked = [p for p in w.sim.avatar_requests if f"/{alice.id}/" in p]
        assert len(asked) == 1 and "size=64" in asked[0]
        assert not [p for p in w.sim.avatar_requests if f"/{bob.id}/" in p]
        # the faces' addresses came with the people's own clicks: no user was fetched (a
        # request that counts against Discord's global limit: bot/budget.py)
        assert not [q for q in w.sim.requests if q.route == "/users/{user_id}"]
