"""A table played while Discord answers 429 (global, then per route) and 500 (#48).

The faults hit what the bot sends of a table — the table message's edits, the turn alerts,
the answers to clicks and the panels' follow-up edits — each through the simulated Discord's
fault injection (tests/discord_sim/faults.py). Each test checks that no move is lost or
doubled, that discord.py waited as Discord asked (the bot does not hammer: the requests are
counted), that the table message catches up with what is stored once Discord answers again,
that what each person's panel says equals what the bot shows them after a restart, and that
the bot's log says what happened in one line without a traceback.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.bot.sim_helpers import World, alerts_in, button, world
from tests.bot.test_e2e_games import open_table
from tests.bot.test_e2e_safety import first_move, use
from tests.discord_sim import CapturedRequest, SimMessage, SimUser

TABLE_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
#: a turn alert goes as the follow-up of an interaction at the table while its token is fresh
#: (outside Discord's global limit: cogs/tokens.py), by the bot's token otherwise: the
#: faults hit both ways
ALERT_POST = ("POST /channels/{channel_id}/messages",
              "POST /webhooks/{webhook_id}/{webhook_token}")
ALERT_DELETE = ("DELETE /channels/{channel_id}/messages/{message_id}",
                "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
PANEL_EDITS = ("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
               "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
VERSION = re.compile(r"dh:\w+:\d+:(\d+):")
#: the test game's hand: both people play a card a trick, five tricks (ten moves); the tests
#: make fewer, so the restart finds the table still in play
CARDS = "5"


@dataclass
class Played:
    """What the people of a table were told while it was played."""

    answered: int = 0  # clicks answered with the move made
    panels: dict[str, SimMessage] = field(default_factory=dict)  # user id -> last panel


def shown_version(message: SimMessage) -> int:
    """The state version a message's buttons were made at."""
    found = VERSION.search(str(message.components))
    assert found is not None, message.components
    return int(found.group(1))


async def play(w: World, people: list[SimUser], played: Played, moves: int) -> None:
    """The person whose turn it is opens their hand from the table message and plays its
    first card, ``moves`` times (or until the game is over)."""
    for _ in range(moves):
        table = w.bot.manager.tables.get(1)
        if table is None or table.state is None or table.state.over:
            return
        seat = sorted(table.state.to_act)[0]
        user = people[seat]
        r = await w.sim.click(user, w.table_message(),
                              button(w.table_message(), "hand")["custom_id"])
        assert r.status == "ok" and r.message is not None, r
        r = await use(w, user, r.message, first_move(r.message))
        assert r.status == "ok" and r.callback_type == 7 and r.message is not None, r
        played.answered += 1
        played.panels[user.id] = r.message


async def check_after(w: World, people: list[SimUser], played: Played) -> None:
    """Nothing lost or doubled, the table message caught up, the panels as a restart shows."""
    await w.sim.settle(idle=0.3)
    stored = await w.bot.store.actions(1)
    humans = [a for a in stored if a.how == "player"]
    assert len(humans) == played.answered, (stored, played.answered)
    assert len({a.idx for a in stored}) == len(stored)
    version = w.bot.manager.tables[1].version
    assert shown_version(w.table_message()) == version
    shown = {uid: (panel.content, [b.get("label") for b in panel.buttons()])
             for uid, panel in played.panels.items()}
    await w.restart()
    for user in people:
        if user.id not in shown:
            continue
        r = await w.sim.click(user, w.table_message(),
                              button(w.table_message(), "hand")["custom_id"])
        assert r.status == "ok" and r.message is not None, r
        assert (r.message.content, [b.get("label") for b in r.message.buttons()]) \
            == shown[user.id], user.name


def bot_token_only(w: World) -> None:
    """The table's requests go by the bot's own token from now on, none through an
    interaction's (the tests of the faults on the bot's routes; the tokens' own way through
    faults: test_tokens.py)."""
    cog: Any = w.bot.get_cog("PlayCog")
    cog.messages.tokens = cog.alerts.tokens = None


def retries_waited(requests: list[CapturedRequest], refused: list[CapturedRequest],
                   wait: float) -> None:
    """Each refused request was sent again no sooner than ``wait`` after its refusal."""
    for before in refused:
        later = [q for q in requests
                 if q.path == before.path and q.method == before.method and q.time > before.time]
        assert later, f"{before.method} {before.path} never sent again"
        assert later[0].time - before.time >= wait - 0.02, (later[0].time - before.time, wait)


def hammered(w: World, start: int, moves: int, refused: list[CapturedRequest]) -> None:
    """The bot sent no more than a move's own requests (the table message's edit, one alert
    deleted and one posted) and one more try for each refusal."""
    sent = [q for q in w.sim.requests[start:] if q.interaction_id is None]
    assert len(sent) <= 3 * moves + len(refused), [(q.method, q.route, q.status) for q in sent]


def clear_log(records: list[logging.LogRecord], *expected: str) -> None:
    """The bot said what happened in one line each (``expected``: words of the lines due), no
    line twice, without a traceback."""
    ours = [r for r in records if r.name.startswith(("bot", "cogs"))
            and r.levelno >= logging.WARNING]
    assert all(r.exc_info is None and not getattr(r, "trace", None) for r in ours), [
        (r.getMessage(), getattr(r, "trace", "")) for r in ours]
    said = [r.getMessage() for r in ours]
    assert len({str(r.msg) for r in ours}) == len(ours), said
    for words in expected:
        assert sum(words in line for line in said) == 1, (words, said)


@pytest.mark.parametrize("scope", ["global", "user"])
async def test_a_table_played_through_429s(tmp_path: Path, scope: str,
                                           caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with world(tmp_path, people=2) as w:
        people = w.users[:2]
        await open_table(w, "high-card", people, 2, {"hand": CARDS})
        played = Played()
        start = len(w.sim.requests)
        fault = w.sim.faults.rate_limit(routes=[TABLE_EDIT, *ALERT_POST, *ALERT_DELETE],
                                        count=4, scope=scope, retry_after=0.3)
        await play(w, people, played, 3)
        await w.sim.settle(idle=0.5)
        assert len(fault.refused) == 4
        hammered(w, start, 3, fault.refused)
        retries_waited(w.sim.requests, fault.refused, 0.3)
        await play(w, people, played, 4)
        await check_after(w, people, played)
        assert w.sim.faults.invalid() == 4
        clear_log(caplog.records)
        assert w.sim.spec_errors == []


async def test_a_table_played_through_500s(tmp_path: Path,
                                           caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with world(tmp_path, people=2) as w:
        people = w.users[:2]
        await open_table(w, "high-card", people, 2, {"hand": CARDS})
        bot_token_only(w)
        played = Played()
        start = len(w.sim.requests)
        fault = w.sim.faults.fail(500, routes=[TABLE_EDIT, *ALERT_POST, *ALERT_DELETE], count=2)
        await play(w, people, played, 3)
        await w.sim.settle(idle=1.5)
        assert len(fault.refused) == 2
        hammered(w, start, 3, fault.refused)
        retries_waited(w.sim.requests, fault.refused, 1.0)  # discord.py's pause after a 500
        await play(w, people, played, 4)
        await check_after(w, people, played)
        clear_log(caplog.records)
        assert w.sim.spec_errors == []


@pytest.mark.parametrize("status", [429, 500])
async def test_answers_and_panels_through_faults(tmp_path: Path, status: int,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    """The clicks' answers (callbacks) and the panels' edits through their tokens: Discord
    refuses one answer and two edits; discord.py sends each again, the answer within the
    click's three seconds."""
    caplog.set_level(logging.INFO)
    async with world(tmp_path, people=2) as w:
        people = w.users[:2]
        await open_table(w, "high-card", people, 2, {"hand": CARDS})
        played = Played()
        await play(w, people, played, 2)  # both have live panels now
        wait = 0.3 if status == 429 else 1.0
        answers = w.sim.faults.fail(status, routes=[CALLBACK], count=1, retry_after=wait)
        edits = w.sim.faults.fail(status, routes=PANEL_EDITS, count=2, retry_after=wait)
        await play(w, people, played, 3)
        await w.sim.settle(idle=1.5)
        assert len(answers.refused) == 1 and len(edits.refused) == 2
        retries_waited(w.sim.requests, answers.refused + edits.refused, wait)
        await check_after(w, people, played)
        clear_log(caplog.records)
        assert w.sim.spec_errors == []


def mentioned(message: SimMessage) -> set[str]:
    """The people an alert names."""
    return set(re.findall(r"<@(\d+)>", message.content or ""))


async def test_what_discord_refused_past_discord_py_s_retries_is_sent_again(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Discord answers 503 (which discord.py does not try again) to the table message's edit
    and to the turn alerts: the bot tries again a little later, so the table message catches
    up and the alerts end as they should, and says so in one line."""
    caplog.set_level(logging.INFO)
    async with world(tmp_path, people=2) as w:
        people = w.users[:2]
        await open_table(w, "high-card", people, 2, {"hand": CARDS})
        bot_token_only(w)
        played = Played()
        await play(w, people, played, 2)  # a whole trick: the next move leads the next
        await w.sim.settle(idle=0.3)
        assert len(alerts_in(w.sim, w.thread())) == 1
        edits = w.sim.faults.fail(503, routes=[TABLE_EDIT], count=2)
        alerts = w.sim.faults.fail(503, routes=[*ALERT_POST, *ALERT_DELETE], count=2)
        # a lead: the other person is due, so the alert changes; nobody moves after, so
        # nothing else would edit the table message or change the alert
        await play(w, people, played, 1)
        await w.sim.settle(idle=2.5)
        assert len(edits.refused) == 2 and len(alerts.refused) == 2
        retries_waited(w.sim.requests, edits.refused + alerts.refused, 1.0)
        due = w.bot.manager.tables[1].state.to_act  # type: ignore[union-attr]
        now = alerts_in(w.sim, w.thread())
        assert [mentioned(a) for a in now] == [{people[s].id for s in due}], now
        await check_after(w, people, played)
        clear_log(caplog.records, "Discord refused its message's edit (HTTP 503)",
                  "Discord refused a turn alert's change (HTTP 503)")
        assert w.sim.spec_errors == []


async def test_panels_discord_refused_to_edit_for_a_while_are_edited_again(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Discord answers 503 for half a second to the edits of the live panels and their
    pictures (through their tokens): discord.py's webhook requests try a 503 again too (a
    second later, for some 25 s), so each person's panel shows their turn, and the bot has
    nothing to say."""
    caplog.set_level(logging.INFO)
    async with world(tmp_path, people=2) as w:
        people = w.users[:2]
        await open_table(w, "high-card", people, 2, {"hand": CARDS})
        played = Played()
        await play(w, people, played, 2)  # both have live panels now
        await w.sim.settle(idle=0.3)
        edits = w.sim.faults.fail(503, routes=PANEL_EDITS, seconds=0.5)
        await play(w, people, played, 1)  # the other's panel is edited: their turn
        await w.sim.settle(idle=2.0)
        assert edits.refused
        retries_waited(w.sim.requests, edits.refused, 1.0)
        await check_after(w, people, played)
        clear_log(caplog.records)
        assert w.sim.spec_errors == []


async def test_a_move_whose_answer_discord_refused_counts_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Discord answers 500 to a move's answer until the click's three seconds are over: the
    move is stored (it was made before the answer) and counts once, the person's panel shows
    it (edited as the table moves on), and the bot says so in one line."""
    caplog.set_level(logging.INFO)
    async with world(tmp_path, people=2) as w:
        people = w.users[:2]
        await open_table(w, "high-card", people, 2, {"hand": CARDS})
        table = w.bot.manager.tables[1]
        assert table.state is not None
        user = people[sorted(table.state.to_act)[0]]
        r = await w.sim.click(user, w.table_message(),
                              button(w.table_message(), "hand")["custom_id"])
        assert r.message is not None
        panel, control = r.message, first_move(r.message)
        answers = w.sim.faults.fail(500, routes=[CALLBACK], count=2)
        r = await use(w, user, panel, control)
        assert r.status == "no-response", r  # "This interaction failed", the person sees
        await w.sim.settle(idle=3.5)  # discord.py's last try comes after the deadline
        assert len(answers.refused) == 2 and r.status == "late", r
        assert len(await w.bot.store.actions(1)) == 1
        assert control[1] not in str(panel.components)  # the panel offers it no more
        await check_after(w, people, Played(answered=1, panels={user.id: panel}))
        clear_log(caplog.records, "Discord no longer takes its answer (HTTP 404, code 10062)")
        assert w.sim.spec_errors == []


async def test_a_table_played_under_discords_global_limit(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The simulated Discord enforces a global limit (a low one: 4 a second, so a table
    reaches it) with the interaction routes exempt, as #52 asks of it: the clicks are answered
    as ever, the bot's own requests wait as each 429 asks, and nothing is lost. (That no more
    than the limit is answered is the simulator's test: tests/test_discord_sim_faults.py.)"""
    caplog.set_level(logging.INFO)
    async with world(tmp_path, people=2) as w:
        people = w.users[:2]
        await open_table(w, "high-card", people, 2, {"hand": CARDS})
        w.sim.faults.global_limit = 4
        start = len(w.sim.requests)
        bot_token_only(w)
        played = Played()
        await play(w, people, played, 7)
        await w.sim.settle(idle=1.2)
        refused = list(w.sim.faults.refused)
        assert refused, "the table never reached the limit"
        assert all(q.response["global"] for q in refused)
        assert not [q for q in refused if q.interaction_id is not None]  # exempt
        for q in refused:
            retries_waited(w.sim.requests, [q], q.response["retry_after"])
        counted = [q for q in w.sim.requests[start:]
                   if q.interaction_id is None and q.status != 429]
        print(f"{len(refused)} global 429s; {len(counted)} counted requests for "
              f"{played.answered} moves; invalid requests: {w.sim.faults.invalid()}")
        w.sim.faults.global_limit = None
        await check_after(w, people, played)
        clear_log(caplog.records)
        assert w.sim.spec_errors == []


async def test_a_connection_to_discord_that_breaks_is_tried_again(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The connection breaks before Discord answers the table message's edit and the turn
    alerts (aiohttp's ServerDisconnectedError, which discord.py does not send again): the bot
    tries again a little later, so the table message catches up and the alerts end as they
    should (once failed in CI: the table message stayed on the deal)."""
    caplog.set_level(logging.INFO)
    async with world(tmp_path, people=2) as w:
        people = w.users[:2]
        await open_table(w, "high-card", people, 2, {"hand": CARDS})
        bot_token_only(w)
        played = Played()
        await play(w, people, played, 2)
        await w.sim.settle(idle=0.3)
        edits = w.sim.faults.drop(routes=[TABLE_EDIT], count=2)
        alerts = w.sim.faults.drop(routes=[*ALERT_POST, *ALERT_DELETE], count=2)
        await play(w, people, played, 1)
        await w.sim.settle(idle=2.5)
        assert len(edits.refused) == 2 and len(alerts.refused) == 2
        due = w.bot.manager.tables[1].state.to_act  # type: ignore[union-attr]
        now = alerts_in(w.sim, w.thread())
        assert [mentioned(a) for a in now] == [{people[s].id for s in due}], now
        await check_after(w, people, played)
        clear_log(caplog.records, "Discord refused its message's edit (ServerDisconnectedError)",
                  "Discord refused a turn alert's change (ServerDisconnectedError)")
        assert w.sim.spec_errors == []
