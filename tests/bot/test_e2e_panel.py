"""The play loop on the simulated Discord: live panels, turn alerts, one click a move.

Each person presses Hand once; from then on their panel follows the game (the bot edits it
through the interaction's token when they may act), and every move is made on it. Alerts: a
new message that mentions the person whose turn has come, at most one per table at a time,
none for people who get their hands by DM or turned alerts off.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import World, alerts_in, button, game_ids, verb_of, world
from tests.bot.test_e2e_games import open_table, quick_options
from tests.discord_sim import SimMessage, SimUser

#: games whose whole match takes long on this machine run with the smallest options anyway
MOVE_LIMIT = 4000


@dataclass
class Turns:
    """From the manager's updates: how many times each person's turn began (their seat came
    into ``to_act``) — each such turn should bring exactly one alert."""

    w: World
    began: Counter[int] = field(default_factory=Counter)
    due: frozenset[int] = frozenset()

    async def __call__(self, update: Any) -> None:
        now = update.position.people_due
        for user in now - self.due:
            self.began[user] += 1
        self.due = now


def alert_posts(w: World) -> list[Any]:
    """The requests that posted a turn alert (a message with a Hand button in the table's
    thread; the thread's result lines have none): by the bot's token, or as the follow-up of
    an interaction there (outside Discord's global limit)."""
    threads = {str(th.id) for th in w.sim.threads_in(w.channel)}
    return [q for q in w.sim.requests if q.method == "POST"
            and isinstance(q.response, dict) and str(q.response.get("channel_id")) in threads
            and isinstance(q.json, dict) and '"dh:hand:' in json.dumps(q.json)]


def most_alerts_at_once(w: World) -> int:
    """The most alerts the channel showed at any moment, from the requests in their order."""
    posted = {str(q.response.get("id")) for q in alert_posts(w) if isinstance(q.response, dict)}
    shown = most = 0
    for q in w.sim.requests:
        if q.method == "POST" and isinstance(q.response, dict) \
                and str(q.response.get("id")) in posted:
            shown += 1
            most = max(most, shown)
        elif q.method == "DELETE" and q.path.rsplit("/", 1)[-1] in posted:
            shown -= 1
    return most


def mentioned(request: Any) -> list[int]:
    """The users an alert's allowed mentions let Discord notify."""
    allowed = request.json.get("allowed_mentions") or {}
    return [int(u) for u in allowed.get("users") or []]


def move_controls(panel: SimMessage) -> list[tuple[str, dict[str, Any]]]:
    """The controls of a panel that make a move (buttons, and menus of moves or cards)."""
    found: list[tuple[str, dict[str, Any]]] = [
        ("act", b) for b in panel.buttons() if verb_of(b["custom_id"]) == "act"]
    found += [(verb_of(s["custom_id"]), s) for s in panel.selects()
              if verb_of(s["custom_id"]) in ("pick", "set", "part")]
    return found


@dataclass
class Clicks:
    """Interactions spent per move, by kind (single card or more)."""

    single: list[int] = field(default_factory=list)
    more: list[int] = field(default_factory=list)
    parts: list[int] = field(default_factory=list)  # moves with parts: an amount, then a game

    def mean(self) -> float:
        every = self.single + self.more + self.parts
        return sum(every) / len(every) if every else 0.0


async def move_on_panel(w: World, user: SimUser, panel: SimMessage, rng: random.Random,
                        clicks: Clicks) -> bool:
    """One move on a live panel: True when it was applied (the table's version moved)."""
    controls = move_controls(panel)
    if not controls:
        return False
    table = next(iter(w.bot.manager.tables.values()), None)
    before = table.version if table is not None else -1
    parted = [c for c in controls if c[0] == "part"]  # exercised whenever on offer
    single = [c for c in controls if c[0] == "act"]
    if not clicks.single and single:  # the first single-card move on offer is always taken,
        kind, control = rng.choice(single)  # so every game shows its one click
    else:
        kind, control = parted[0] if parted and rng.random() < 0.7 else rng.choice(controls)
    spent = 1
    if kind == "act":
        r = await w.sim.click(user, panel, control["custom_id"])
        cards = 1
    elif kind == "part":  # a move with parts (Bear's bid): its amount, then the move itself
        amount = rng.choice([o["value"] for o in control["options"]])
        r = await w.sim.select(user, panel, control["custom_id"], [amount])
        assert r.status == "ok" and r.message is not None and r.message.id == panel.id, r
        second = [m for m in r.message.selects() if verb_of(m["custom_id"]) == "pick"]
        assert second, r.message.selects()
        bid = rng.choice([o["value"] for o in second[0]["options"]])
        r = await w.sim.select(user, r.message, second[0]["custom_id"], [bid])
        spent, cards = 2, 0
    else:
        options = [o["value"] for o in control["options"]]
        count = 1 if kind == "pick" else rng.randint(control["min_values"],
                                                     control["max_values"])
        values = rng.sample(options, count)
        r = await w.sim.select(user, panel, control["custom_id"], values)
        cards = 1 if kind == "pick" else count
    assert r.status == "ok", r
    answer = r.message
    assert answer is not None and answer.id == panel.id, r  # every answer edits the panel
    now = w.bot.manager.tables.get(table.id) if table is not None else None
    applied = now is None or now.version > before
    if applied:
        (clicks.single if cards == 1 else clicks.parts if cards == 0 else clicks.more
         ).append(spent)
    return applied


async def play_with_live_panels(w: World, humans: list[SimUser], rng: random.Random
                                ) -> tuple[SimMessage, Clicks, Counter[str]]:
    """Each person presses Hand once; every later move is made on their live panel."""
    sim = w.sim
    await sim.settle()
    panels: dict[int, SimMessage] = {}
    presses: Counter[str] = Counter()
    for user in humans:
        table = w.table_message()
        r = await sim.click(user, table, button(table, "hand")["custom_id"])
        assert r.status == "ok" and r.message is not None and r.message.ephemeral, r
        panels[user.id] = r.message
        presses["hand"] += 1
    await sim.settle()
    for user in humans:  # one Components V2 container: words, the hand's picture, controls
        panel = sim.message(panels[user.id].id)
        assert panel.components_v2 and not panel.content and not panel.embeds, panel
        assert [c["type"] for c in panel.components] == [17] and panel.text
    clicks = Clicks()
    for _ in range(MOVE_LIMIT):
        await sim.settle(idle=0.01)
        table = w.table_message()
        if "game is over" in table.content:
            return table, clicks, presses
        ready = [u for u in humans if move_controls(sim.message(panels[u.id].id))]
        if not ready:
            await asyncio.sleep(0.01)
            continue
        user = rng.choice(ready)
        await move_on_panel(w, user, sim.message(panels[user.id].id), rng, clicks)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game_id", game_ids())
async def test_one_hand_press_then_one_click_a_move(tmp_path: Path, game_id: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # one deal, the same every run: a random one could give the two people no single-card
    # move at all (it happened once in 1234), and the count below would say nothing
    monkeypatch.setattr("bot.tables.lobby.secrets.randbits", lambda bits: 20261202)
    rules = lookup(game_id)
    async with world(tmp_path, people=2) as w:
        turns = Turns(w)
        w.bot.manager.listeners.insert(0, turns)
        humans = w.users[:2]
        await open_table(w, game_id, humans, rules.usual_players, quick_options(game_id))
        final, clicks, presses = await play_with_live_panels(w, humans, random.Random(11))
        await w.sim.settle()
        assert presses["hand"] == 2  # one press each for the whole game
        assert clicks.single, "no single-card move was made"
        assert set(clicks.single) == {1}, clicks.single  # every single-card move: one click
        assert set(clicks.more) <= {1}, clicks.more  # several cards: ticked, then played
        assert all(n <= 2 for n in clicks.parts), clicks.parts
        if game_id == "bear":
            assert clicks.parts, "no bid was chosen as an amount and a game"
        moves = len(clicks.single) + len(clicks.more) + len(clicks.parts)
        print(f"\n{game_id}: {moves} moves, {clicks.mean():.2f} interactions per move "
              f"({len(clicks.more)} of several cards, {len(clicks.parts)} in two parts); "
              f"{(sum(clicks.single + clicks.more + clicks.parts) + 2) / moves:.2f} with the "
              f"two Hand presses")
        # no move of a hand of up to 25 cards needed a "More" page
        assert not [q for q in w.sim.requests if '"dh:page:' in str(q.json)]
        # alerts: one new message mentioning the person per turn of theirs, one at a time
        posts = alert_posts(w)
        per_user: Counter[int] = Counter()
        for q in posts:
            users = mentioned(q)
            assert users and all(f"<@{u}>" in q.json["content"] for u in users), q.json
            assert q.json["allowed_mentions"].get("parse") in (None, []), q.json
            per_user.update(users)
        assert per_user == turns.began, (per_user, turns.began)
        assert most_alerts_at_once(w) <= 1
        assert alerts_in(w.sim, w.thread()) == []  # the last one is gone at the end
        assert alerts_in(w.sim, w.channel) == []  # and none came to the channel
        assert "1." in final.content  # no controls left, only "My review" (cogs/review.py)
        assert all(str(b["custom_id"]).startswith("dhr:") for b in final.buttons())
        # the panels end with the game: no controls left on them
        for message in w.sim.ephemerals(humans[0]) + w.sim.ephemerals(humans[1]):
            assert not move_controls(message)
        # the hand's picture reaches the panels inside their container (a media gallery
        # of the attached picture), every edit of a panel as a Components V2 layout
        # (a table message may be edited through a token too: the panels are the ephemeral)
        edits = [q for q in w.sim.requests if q.method == "PATCH"
                 and q.path.endswith("/messages/@original") and isinstance(q.response, dict)
                 and q.response.get("flags", 0) & 1 << 6]
        assert edits and all(q.json["flags"] & 1 << 15 and "content" not in q.json
                             and not q.json.get("embeds") for q in edits)
        assert [q for q in edits if "attachment://hand.png" in json.dumps(q.json)]
        assert w.sim.spec_errors == [], w.sim.spec_errors[:3]
        assert w.sim.client_errors == []


async def test_no_alerts_for_dm_players_or_with_alerts_off(tmp_path: Path) -> None:
    async with world(tmp_path, people=3) as w:
        alice, bob, carol = w.users
        r = await w.sim.slash(alice, w.channel, "settings alerts", {"enabled": False})
        assert r.status == "ok" and "no longer mention" in (r.content or ""), r
        r = await w.sim.slash(bob, w.channel, "settings dm", {"enabled": True})
        assert r.status == "ok", r
        turns = Turns(w)
        w.bot.manager.listeners.insert(0, turns)
        await open_table(w, "high-card", [alice, bob, carol], 3, {"hand": "3"})
        panels = {}
        for user in (alice, carol):
            table = w.table_message()
            r = await w.sim.click(user, table, button(table, "hand")["custom_id"])
            assert r.message is not None
            panels[user.id] = r.message
        rng = random.Random(3)
        for _ in range(600):
            await w.sim.settle(idle=0.02)
            if "game is over" in w.table_message().content:
                break
            ready = [(u, w.sim.message(panels[u.id].id)) for u in (alice, carol)]
            ready += [(bob, m) for m in w.sim.dms(bob)[-1:]]  # the hand of Bob's turn
            ready = [(u, m) for u, m in ready if move_controls(m)]
            if ready:
                await move_on_panel(w, *rng.choice(ready), rng, Clicks())
        else:
            table_now = w.bot.manager.tables[1]
            raise AssertionError(("the game did not end", table_now.state.to_act,
                                  [(m.text, m.buttons(), m.selects())
                                   for m in w.sim.dms(bob)[-2:]]))
        await w.sim.settle()
        per_user: Counter[int] = Counter()
        for q in alert_posts(w):
            per_user.update(mentioned(q))
        began = {user.name: turns.began[int(user.id)] for user in (alice, bob, carol)}
        assert all(began.values()), began
        assert per_user == Counter({int(carol.id): began["Carol"]}), (per_user, began)
        assert w.sim.spec_errors == []


async def test_a_panel_offers_a_fresh_one_before_its_token_runs_out(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        await open_table(w, "high-card", [alice, bob], 2, {"hand": "5"})
        cog: Any = w.bot.get_cog("PlayCog")
        cog.panels.token_life, cog.panels.warn_before = 1.5, 1.0
        table = w.table_message()
        r = await w.sim.click(alice, table, button(table, "hand")["custom_id"])
        panel = r.message
        assert panel is not None
        await asyncio.sleep(0.8)
        await w.sim.settle()
        shown = w.sim.message(panel.id)
        assert "Keep following" in [b["label"] for b in shown.buttons()], shown.buttons()
        assert "stops following" in shown.text
        keep = next(b for b in shown.buttons() if b["label"] == "Keep following")
        r = await w.sim.click(alice, shown, keep["custom_id"])
        assert r.status == "ok" and r.callback_type == 7 and r.message is not None
        assert r.message.id == panel.id and "stops following" not in r.message.text
        assert "Keep following" not in [b["label"] for b in r.message.buttons()]
        # then, left alone, the token is given up: no edit through it after its life
        await asyncio.sleep(1.7)
        edits = len([q for q in w.sim.requests if q.method == "PATCH"
                     and r.token in q.path])
        live = cog.panels.by_table.get(1, {}).get(alice.id)
        assert live is None or live.interaction is None
        assert edits >= 1  # the warning again, through the fresh token
        assert w.sim.spec_errors == []


@pytest.mark.parametrize("game_id", ["bear", "spar", "finesse", "1234"])
async def test_the_options_show_the_game_length_first(tmp_path: Path, game_id: str) -> None:
    async with world(tmp_path, people=2) as w:
        r = await w.sim.slash(w.users[0], w.channel, "play", {"game": game_id})
        assert r.status == "ok"
        await w.sim.settle()
        table = w.table_message()
        r = await w.sim.click(w.users[0], table, button(table, "opts")["custom_id"])
        assert r.message is not None
        first_page = [s["custom_id"].rsplit(":", 1)[-1] for s in r.message.selects()]
        length = [o.name for o in lookup(game_id).options
                  if o.name in ("target", "cap", "deals", "games", "chips", "best_of_three")]
        assert length and first_page[:len(length)] == length, first_page
        assert w.sim.spec_errors == []


async def test_a_restart_leaves_one_alert_not_two(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        await open_table(w, "high-card", [alice, bob], 2, {"hand": "4"})
        await w.sim.settle()
        [before] = alerts_in(w.sim, w.thread())
        await w.restart()
        await w.sim.settle(idle=0.3)
        after = alerts_in(w.sim, w.thread())
        # the alert Discord kept still names who is due: kept, nobody pinged again
        # (tests/bot/test_alerts_restart.py: one whose people changed is replaced)
        assert len(after) == 1 and after[0].id == before.id, (before, after)
        assert not w.sim.message(before.id).deleted
        # it names the one the table waits for
        table = w.bot.manager.tables[1]
        assert table.state is not None
        due = table.seats[table.state.to_act[0]].user_id
        assert f"<@{due}>" in after[0].content and f"<@{due}>" in before.content
        assert most_alerts_at_once(w) <= 1
        assert w.sim.spec_errors == []
