"""A web table to open in a browser, with no Discord: the real bot (its cogs and its web
server in development mode) against the simulated Discord, one table already playing.

    .venv/bin/python -m tests.web.devserver [--port 8765] [--game finesse]
        [--people Alice,Bob] [--ai-delay 0.6] [--lobby]

It prints one JSON line once ready — {"url", "channel_id", "table", "people"} — and serves
until Ctrl-C or SIGTERM. The page signs in with POST /api/dev-login {"name": "Alice"} (each
name in --people holds a seat; any other name watches) and opens
/ws?channel_id=<channel_id> with the session among its subprotocols (bot.web.app's
session_protocols; development mode checks no Activity instance). The
table's other seats are computers; ``--lobby`` leaves the table in its lobby instead.
Browser tests (web/) start this, read the line, and point the page at ``url``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.client.deckhand import Deckhand  # noqa: E402
from bot.config import ActivitySettings, Settings  # noqa: E402
from bot.storage.store import Storage  # noqa: E402
from bot.web.auth import dev_user_id  # noqa: E402
from tests.discord_sim import SimulatedDiscord  # noqa: E402


async def serve(args: argparse.Namespace) -> None:
    """Run the simulated Discord, the bot and its web table until a signal."""
    folder = tempfile.mkdtemp(prefix="deckhand-devserver-")
    async with SimulatedDiscord() as sim:
        guild = sim.add_guild("Deckhand dev")
        channel = sim.add_channel(guild, "web-table")
        activity = ActivitySettings(int(sim.application_id), sim.client_secret, args.port,
                                    args.host, dev=True)
        settings = Settings(token="sim-token", db_path=f"{folder}/dev.sqlite3",
                            ai_delay=args.ai_delay, ai_level="normal", activity=activity)
        store = await Storage.open(settings.db_path)
        bot = Deckhand(settings, store)
        await sim.start(bot)
        manager = bot.manager
        people = [name.strip() for name in args.people.split(",") if name.strip()]
        host = dev_user_id(people[0])
        table = await manager.open(int(guild.id), int(channel.id), args.game, host, people[0])
        for name in people[1:]:
            table = await manager.join(table.table_id, dev_user_id(name), name)
        rules = table.rules
        wanted = max(rules.min_players, min(rules.max_players, 4))
        while len(table.seats) < wanted:
            table = await manager.add_computer(table.table_id, host)
        if not args.lobby:
            await manager.start(table.table_id, host)
        assert bot.web is not None
        print(json.dumps({"url": f"http://{args.host}:{bot.web.port}/",
                          "channel_id": channel.id, "table": table.table_id, "people": people}),
              flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()
        await sim.stop_bot(graceful=True)
        await store.close()


def main() -> int:
    """Parse the options and serve."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765, help="0: any free port")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--game", default="finesse")
    parser.add_argument("--people", default="Alice,Bob")
    parser.add_argument("--ai-delay", type=float, default=0.6)
    parser.add_argument("--lobby", action="store_true")
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
