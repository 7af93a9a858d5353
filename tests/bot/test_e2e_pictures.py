"""Pictures on the simulated Discord: the public table and the private hand as PNG attachments."""

from __future__ import annotations

from pathlib import Path

from bot.pictures import hand_alt, hand_png, playable_cards, table_png
from tests.bot.sim_helpers import button, edits_of, world
from tests.bot.test_e2e_games import open_table

PNG = b"\x89PNG\r\n\x1a\n"


def version_of(message: object) -> int:
    """The state version carried by the Hand button of a table message."""
    hand = button(message, "hand")  # type: ignore[arg-type]
    return int(str(hand["custom_id"]).split(":")[3])


async def test_the_table_message_shows_the_public_picture_of_the_position(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        await open_table(w, "bhabhi", w.users[:2], 3, {})
        table = w.bot.manager.live_in(int(w.channel.id))
        assert table is not None and table.state is not None
        for _ in range(50):  # until the computers have moved and the picture caught up
            await w.sim.settle(idle=0.1)
            message = w.table_message()
            if message.attachments and version_of(message) == table.version:
                break
        assert version_of(message) == table.version
        [attachment] = message.attachments
        assert attachment["filename"] == "table.png"
        assert attachment["bytes"].startswith(PNG)
        assert message.embeds[0]["image"]["url"] == "attachment://table.png"
        expected = table_png(table.state.view(None).to_dict(), [s.name for s in table.seats],
                             "en", computers=[i for i, s in enumerate(table.seats) if s.computer])
        assert attachment["bytes"] == expected
        assert "<@" in message.content  # whose turn, with a mention


async def test_the_hand_shows_the_hand_picture_with_the_playable_cards_ringed(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        await open_table(w, "bhabhi", w.users[:2], 3, {})
        await w.sim.settle(idle=0.2)
        table = w.bot.manager.live_in(int(w.channel.id))
        assert table is not None and table.state is not None
        for seat, user in enumerate(w.users[:2]):
            message = w.table_message()
            r = await w.sim.click(user, message, button(message, "hand")["custom_id"])
            hand = r.message
            assert hand is not None and hand.ephemeral
            [attachment] = hand.attachments
            assert attachment["filename"] == "hand.png"
            legal = table.state.legal_actions(seat)
            view = table.state.view(seat).to_dict()
            title = f"{table.rules.name} · {seat + 1}"
            playable = playable_cards(str(a) for a in legal)
            expected = hand_png(view, playable, title)
            assert attachment["bytes"] == expected
            # What Discord shows for the picture: the player's own cards, sorted, in words.
            assert attachment["description"] == hand_alt(view, playable, "en")
            assert attachment["description"].startswith(f"Your hand, {len(view['hand'])} cards")


async def test_a_burst_of_computer_moves_sends_fewer_uploads_than_moves(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        await open_table(w, "bhabhi", [alice], 3, {})
        message = w.table_message()
        r = await w.sim.click(alice, message, button(message, "manage")["custom_id"])
        menu = r.message
        assert menu is not None and menu.ephemeral
        [over] = [s for s in menu.selects() if ":over:" in s["custom_id"]]
        r = await w.sim.select(alice, menu, over["custom_id"], ["0"])
        assert r.status == "ok", r
        for _ in range(40):  # the computers play on their own for a while
            await w.sim.settle(idle=0.05)
        table_id = int(str(over["custom_id"]).split(":")[2])
        moves = await w.bot.store.actions(table_id)
        assert len(moves) > 10
        uploads = [q for q in edits_of(w.sim, w.table_message()) if q.files]
        assert 0 < len(uploads) < len(moves)
        assert w.sim.spec_errors == []
