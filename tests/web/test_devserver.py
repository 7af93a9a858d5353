"""The development server the browser tests start (tests/web/devserver.py) serves a table to a
person signed in by name, and stops on SIGTERM."""

from __future__ import annotations

import asyncio
import json
import signal
import sys

import aiohttp

from bot.web.app import session_protocols
from tests.web.helpers import Socket


async def test_the_devserver_serves_a_playing_table_to_a_name() -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.web.devserver", "--port", "0", "--ai-delay", "0",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        assert proc.stdout is not None
        ready = json.loads(await asyncio.wait_for(proc.stdout.readline(), 60))
        async with aiohttp.ClientSession() as http:
            answer = await http.post(ready["url"] + "api/dev-login", json={"name": "Alice"})
            session = (await answer.json())["session"]
            ws = await http.ws_connect(f"{ready['url']}.proxy/ws?channel_id={ready['channel_id']}",
                                       protocols=session_protocols(session))
            socket = Socket(ws)
            listed = await socket.request({"type": "tables"}, "tables")
            assert [t["id"] for t in listed["tables"]] == [ready["table"]]
            model = await socket.request({"type": "watch", "table": ready["table"]}, "table")
            assert model["status"] == "playing" and model["you"]["hand"]
            await socket.close()
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 30) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
