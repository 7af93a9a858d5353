"""A table in its own thread, through the simulated Discord: /play opens a thread from the
table message, the turn alerts, the deals' results and the game's result go there, the
channel keeps one message per table, and the thread is archived at the end. Without a thread
permission the table plays in the channel (its host told once); a thread a moderator deletes
or locks mid-game is left, and the table carries on in the channel."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.tables import PLAYING
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import (
    World,
    alerts_in,
    board_of,
    button,
    edits_of,
    is_alert,
    thread_of,
    verb_of,
    world,
)
from tests.bot.test_e2e_games import make_a_move, quick_options
from tests.discord_sim import SimChannel, SimMessage, SimUser
from tests.discord_sim.models import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS


def table_id_of(message: SimMessage) -> int:
    """The table a table message shows (its buttons name it)."""
    for found in message.buttons():
        parts = str(found.get("custom_id", "")).split(":")
        if verb_of(found.get("custom_id")):
            return int(parts[2])
    raise AssertionError(f"no table button on {message.buttons()}")


async def open_and_start(w: World, host: SimUser, others: list[SimUser], computers: int,
                         game: str = "high-card", options: dict[str, str] | None = None,
                         locale: str = "en-US") -> SimMessage:
    """/play in the channel, the others join, computers fill seats, Start: the table message."""
    from tests.bot.sim_helpers import choose_options

    r = await w.sim.slash(host, w.channel, "play", {"game": game}, locale=locale)
    assert r.status == "ok", r
    await w.sim.settle()
    assert r.message is not None
    table_id = r.message.id

    def table() -> SimMessage:
        return w.sim.message(table_id)

    for user in others:
        r = await w.sim.click(user, table(), button(table(), "join")["custom_id"])
        assert r.status == "ok", r
    for _ in range(computers):
        r = await w.sim.click(host, table(), button(table(), "addc")["custom_id"])
        assert r.status == "ok", r
    chosen = {"hand": "3"} if options is None else options
    if chosen:
        await choose_options(w.sim, host, table(), chosen)
    await w.sim.settle()
    r = await w.sim.click(host, table(), button(table(), "start")["custom_id"])
    assert r.status == "ok", r
    await w.sim.settle()
    return table()


async def play_out(w: World, tables: list[SimMessage], people: list[SimUser],
                   rng: random.Random, from_thread: bool = False) -> None:
    """Take the turns of the people at these tables until every one is over (``from_thread``:
    the Hand pressed on the turn alert in the table's thread, else on the table message)."""
    manager = w.bot.manager
    ids = {t.id: table_id_of(t) for t in tables}
    for _ in range(3000):
        await w.sim.settle(idle=0.01)
        going = [t for t in tables if manager.is_open(ids[t.id])]
        if not going:
            return
        moved = False
        for table in going:
            # whose turn: the whole table's message (the channel's compact one may lag)
            message = board_of(w.sim, w.sim.message(table.id)) or w.sim.message(table.id)
            due = [u for u in people if f"<@{u.id}>" in message.content]
            if not due:
                continue
            user = rng.choice(due)
            where = message
            if from_thread and w.sim.channel(table.id) is not None:
                thread = thread_of(w.sim, w.sim.message(table.id))
                mine = [a for a in alerts_in(w.sim, thread) if f"<@{user.id}>" in a.content]
                if not mine:
                    continue  # its alert is on its way
                where = mine[-1]
            r = await w.sim.click(user, where, button(where, "hand")["custom_id"])
            assert r.status == "ok", r
            hand = r.message
            assert hand is not None and hand.ephemeral, r
            moved = await make_a_move(w, user, hand, rng) or moved
    raise AssertionError("the games did not end")


def alert_mentions(w: World, channel: SimChannel) -> set[int]:
    """Everyone the alerts posted in a channel (or thread) let Discord notify."""
    found: set[int] = set()
    for q in w.sim.requests:
        # (by the bot's token, or as an interaction's follow-up: where it landed)
        if q.method == "POST" and isinstance(q.response, dict) \
                and str(q.response.get("channel_id")) == str(channel.id) \
                and isinstance(q.json, dict) and '"dh:hand:' in json.dumps(q.json):
            found |= {int(u) for u in (q.json.get("allowed_mentions") or {}).get("users", [])}
    return found


def ephemerals_saying(w: World, user: SimUser, words: str) -> list[SimMessage]:
    return [m for m in w.sim.ephemerals(user) if words in m.text]


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_two_tables_in_one_channel_each_play_in_their_own_thread(
        tmp_path: Path, locale: str) -> None:
    async with world(tmp_path, people=4, locale=locale) as w:
        alice, bob, carol, dave = w.users
        first = await open_and_start(w, alice, [bob], 1)
        second = await open_and_start(w, carol, [dave], 0)
        # each table message started a thread named after its game and number, in the
        # server's language
        threads = w.sim.threads_in(w.channel)
        assert sorted(th.id for th in threads) == sorted([first.id, second.id])
        one, two = thread_of(w.sim, first), thread_of(w.sim, second)
        word = "卓" if locale == "ja" else "table"
        game = lookup("high-card").title("ja" if locale == "ja" else "en")
        assert one.name == f"{game} — {word} 1" and two.name == f"{game} — {word} 2", \
            (one.name, two.name)
        assert w.bot.manager.live(1).thread_id == int(one.id)  # type: ignore[union-attr]
        await play_out(w, [first, second], [alice, bob, carol, dave], random.Random(5),
                       from_thread=True)
        await w.sim.settle(idle=0.2)
        # the alerts of each table went to its own thread, and named only its people
        assert alert_mentions(w, one) == {int(alice.id), int(bob.id)}
        assert alert_mentions(w, two) == {int(carol.id), int(dave.id)}
        assert alert_mentions(w, w.channel) == set()
        # the channel keeps the two table messages alone, each with its result
        assert [m.id for m in w.sim.messages(w.channel)] == [first.id, second.id]
        over = "ゲーム終了" if locale == "ja" else "The game is over"
        for table, thread in ((first, one), (second, two)):
            message = w.sim.message(table.id)
            assert over in message.content and "1" in message.content, message.content
            lines = [m.content for m in w.sim.messages(thread) if m.type != 21]
            # the game's result is the thread's last line, the same as the channel shows
            assert over in lines[-1], lines
            assert lines[-1].split(over, 1)[1].strip() in message.content, (lines, message)
            assert alerts_in(w.sim, thread) == []  # the last alert went with the game
            assert thread.archived and not thread.locked
        assert w.sim.spec_errors == [], w.sim.spec_errors[:3]
        assert w.sim.client_errors == []


async def test_each_deal_s_result_is_a_line_in_the_thread(tmp_path: Path) -> None:
    game = "twenty-two"
    rules = lookup(game)
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        table = await open_and_start(w, alice, [bob], rules.usual_players - 2, game,
                                     quick_options(game))
        await play_out(w, [table], [alice, bob], random.Random(3))
        await w.sim.settle(idle=0.2)
        thread = thread_of(w.sim, table)
        lines = [m.content for m in w.sim.messages(thread) if m.type != 21
                 and not m.buttons()]
        result = await w.bot.store.result(1)
        assert result is not None
        deals = [line for line in lines if line.startswith(("**Deal", "**Game", "**The"))]
        assert deals, lines
        for line in deals:  # each names both players with their points
            assert "Alice" in line and "Bob" in line, line
        assert "The game is over" in lines[-1]
        assert thread.archived
        assert w.sim.spec_errors == []


@pytest.mark.parametrize(("locale", "words"), [("en-US", "Create Public Threads"),
                                               ("ja", "公開スレッドの作成")])
async def test_without_the_thread_permission_the_table_plays_in_the_channel(
        tmp_path: Path, locale: str, words: str) -> None:
    async with world(tmp_path, people=3) as w:
        alice, bob, carol = w.users
        w.sim.overwrite_bot(w.channel, deny=CREATE_PUBLIC_THREADS)
        await w.sim.settle()
        table = await open_and_start(w, alice, [bob], 0, locale=locale)
        assert w.sim.threads_in(w.channel) == []
        # the host is told privately which permission to grant, once: not at a second table
        assert len(ephemerals_saying(w, alice, words)) == 1
        r = await w.sim.slash(alice, w.channel, "play", {"game": "high-card"}, locale=locale)
        assert r.status == "ok", r
        await w.sim.settle()
        assert len(ephemerals_saying(w, alice, words)) == 1
        assert not ephemerals_saying(w, bob, words) and not ephemerals_saying(w, carol, words)
        # the turn alerts reply to the table message in the channel, as before threads
        alerts = [m for m in w.sim.messages(w.channel) if is_alert(m)]
        assert alerts and all(str(m.raw["message_reference"]["message_id"]) == table.id
                              for m in alerts)
        await play_out(w, [table], [alice, bob], random.Random(2))
        await w.sim.settle(idle=0.2)
        assert "The game is over" in w.sim.message(table.id).content
        assert w.sim.threads_in(w.channel) == []
        assert w.sim.spec_errors == []


async def test_without_writing_in_threads_no_thread_is_opened(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        w.sim.overwrite_bot(w.channel, deny=SEND_MESSAGES_IN_THREADS)
        await w.sim.settle()
        await open_and_start(w, alice, [bob], 0)
        assert w.sim.threads_in(w.channel) == []
        assert len(ephemerals_saying(w, alice, "Send Messages in Threads")) == 1
        assert w.sim.spec_errors == []


@pytest.mark.parametrize("how", ["deleted", "locked"])
async def test_a_thread_taken_away_mid_game_leaves_the_table_in_the_channel(
        tmp_path: Path, how: str) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        table = await open_and_start(w, alice, [bob], 0, options={"hand": "4"})
        thread = thread_of(w.sim, table)
        await w.sim.settle(idle=0.2)
        assert len(alerts_in(w.sim, thread)) == 1
        if how == "deleted":
            w.sim.delete_channel(thread)
        else:
            w.sim.archive(thread, locked=True)
        await w.sim.settle(idle=0.3)
        position = await w.bot.manager.position(1)
        assert position.thread_id is None
        message = w.sim.message(table.id)
        assert f"thread was {how}" in message.content, message.content
        # a restart says it too (the bot remembers why, not only in memory)
        await w.restart()
        await w.sim.settle(idle=0.3)
        message = w.sim.message(table.id)
        assert f"thread was {how}" in message.content and message.embeds, message.content
        # the game goes on; its alerts come to the channel now, replying to the table
        before = len(w.sim.requests)
        await play_out(w, [table], [alice, bob], random.Random(4))
        await w.sim.settle(idle=0.2)
        later: list[Any] = [q for q in w.sim.requests[before:] if q.method == "POST"
                            and q.path.endswith(f"/channels/{w.channel.id}/messages")]
        assert later and all(q.json.get("message_reference") for q in later)
        assert not [q for q in w.sim.requests[before:]
                    if f"/channels/{thread.id}/messages" in q.path and q.method == "POST"]
        final = w.sim.message(table.id)
        assert "The game is over" in final.content
        assert final.embeds  # the whole table is in the channel's message again
        assert "thread was" not in final.content  # the result alone at the end
        assert w.sim.spec_errors == []


@pytest.mark.parametrize(("locale", "watch", "over"), [("en-US", "Watch", "The game is over"),
                                                       ("ja", "観戦", "ゲーム終了")])
async def test_the_channel_keeps_a_compact_message_and_the_thread_the_whole_table(
        tmp_path: Path, locale: str, watch: str, over: str) -> None:
    async with world(tmp_path, people=2, locale=locale) as w:
        alice, bob = w.users
        table = await open_and_start(w, alice, [bob], 0, options={"hand": "4"})
        await w.sim.settle(idle=0.3)
        thread = thread_of(w.sim, table)
        compact, board = w.channel_message(), w.table_message()
        assert compact.id == table.id and board.channel_id == thread.id
        # the channel: the game, the seats and whose turn, in a few lines; no picture, no log
        assert not compact.embeds and not compact.raw.get("attachments"), compact.raw
        lines = compact.content.splitlines()
        assert 3 <= len(lines) <= 4 and "1" in lines[0], lines
        assert lines[1] == "Alice · Bob", lines
        due = w.bot.manager.tables[1].state.to_act  # type: ignore[union-attr]
        assert f"<@{w.users[due[0]].id}>" in lines[2], lines
        links = [b for b in compact.buttons() if b.get("url")]
        assert [b["label"] for b in links] == [watch]
        assert links[0]["url"].endswith(f"/{thread.id}/{board.id}"), links
        assert verb_of(compact.buttons()[0]["custom_id"]) == "hand"
        # the thread: the whole table, its picture and its log
        assert board.embeds and board.raw.get("attachments"), board.raw
        before = len(w.sim.requests)
        await play_out(w, [table], [alice, bob], random.Random(6))
        await w.sim.settle(idle=0.3)
        to_compact = edits_of(w.sim, compact, before)
        to_board = edits_of(w.sim, board, before)
        assert to_compact and to_board
        for q in to_compact:  # never a picture or an embed in the channel
            assert not (q.json or {}).get("embeds") and not q.files, q.json
        # at the end: the result stays in the channel, the thread archived with the table
        final = w.sim.message(compact.id)
        assert over in final.content and "Alice" in final.content, final.content
        assert [b["label"] for b in final.buttons() if b.get("url")] == [watch]
        assert over in w.sim.message(board.id).content
        assert w.sim.message(board.id).embeds
        assert w.sim.channel(thread.id).archived
        assert w.sim.spec_errors == [], w.sim.spec_errors[:3]


async def test_a_table_whose_thread_holds_no_table_keeps_the_whole_table_in_the_channel(
        tmp_path: Path) -> None:
    """A table opened before the thread held the table (its message is the thread's
    starter) keeps showing the whole table in the channel, as it did."""
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        table = await open_and_start(w, alice, [bob], 0, options={"hand": "4"})
        thread = thread_of(w.sim, table)
        await w.bot.manager.set_thread(1, int(thread.id), int(table.id))  # as stored before
        await play_out(w, [table], [alice, bob], random.Random(7))
        await w.sim.settle(idle=0.3)
        final = w.sim.message(table.id)
        assert "The game is over" in final.content and final.embeds, final.raw
        assert w.sim.spec_errors == []


async def test_the_channel_s_lobby_keeps_its_details_once_the_thread_holds_the_table(
        tmp_path: Path) -> None:
    """The lobby in the channel is where people join: edited alongside the thread's copy, it
    keeps its embed (the host, the seats, the options), not the compact message's words
    alone (it once lost them at the first change)."""
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        r = await w.sim.slash(alice, w.channel, "play", {"game": "high-card"})
        assert r.status == "ok" and r.message is not None, r
        await w.sim.settle(idle=0.2)
        lobby = w.sim.message(r.message.id)
        r = await w.sim.click(bob, lobby, button(lobby, "join")["custom_id"])
        assert r.status == "ok", r
        await w.sim.settle(idle=0.3)
        r = await w.sim.click(alice, w.table_message(), button(lobby, "addc")["custom_id"])
        await w.sim.settle(idle=0.3)
        shown = w.sim.message(lobby.id)
        assert "Bob" in str(shown.embeds) and "CPU 1" in str(shown.embeds), shown.raw
        assert w.sim.spec_errors == []


async def test_a_table_started_before_its_thread_opens_alerts_in_the_thread(
        tmp_path: Path) -> None:
    """Discord holds the thread's opening back (a 429 and its wait: the global limit met at
    scale) and the table starts meanwhile. The first turn alert waits for the thread and goes
    there, with the table, not in the channel among the other tables' messages."""
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        manager = w.bot.manager
        w.sim.faults.rate_limit(routes=["POST /channels/{channel_id}/messages/{message_id}"
                                        "/threads"], count=1, retry_after=1.5)
        play = asyncio.ensure_future(w.sim.slash(alice, w.channel, "play",
                                                 {"game": "high-card"}))
        for _ in range(200):  # the table message is posted; its thread is held back
            if manager.tables and manager.live(max(manager.tables)).message_id is not None:
                break
            await asyncio.sleep(0.01)
        table_id = max(manager.tables)
        await manager.join(table_id, int(bob.id), bob.name)
        started = await manager.start(table_id, int(alice.id))
        assert started.status == PLAYING and started.thread_id is None
        r = await play
        assert r.status == "ok", r
        await w.sim.settle(idle=0.3, timeout=20.0)
        thread = thread_of(w.sim, w.sim.message(r.message.id))  # type: ignore[union-attr]
        assert manager.live(table_id).thread_id == int(thread.id)  # type: ignore[union-attr]
        assert alert_mentions(w, w.channel) == set()  # nothing posted in the channel
        [alert] = alerts_in(w.sim, thread)
        due = {int(u.id) for u in (alice, bob) if f"<@{u.id}>" in alert.content}
        assert due and alert_mentions(w, thread) == due
