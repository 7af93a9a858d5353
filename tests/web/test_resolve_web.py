"""The web table's moves are resolved by the service alone (issue #49, item 3): a bad choice
is answered with the service's real reason, in the reader's language, not a generic one."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from games import wording
from games.cards import parse
from tests.web.helpers import site
from tests.web.test_socket import _due, _table, _watching


async def test_a_bad_choice_of_cards_gets_the_services_real_reason_in_en_and_ja(
        tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US") as (web, people):
        table_id = await _table(web, people)
        sockets = await _watching(web, people, table_id, "Aiko", "Bob")
        due, model = await _due(web, table_id, sockets)
        lang = "ja" if due == "Aiko" else "en"
        version = model["version"]
        hand = set(model["you"]["hand"])
        absent = next(c for c in ("AS", "KS", "QS", "JS", "TS", "AH", "KH", "QH", "JH", "TH",
                                  "AC", "KC", "QC", "JC", "TC") if c not in hand)
        missing = await sockets[due].request(
            {"type": "act", "table": table_id, "version": version, "cards": [absent]}, "error")
        assert missing["code"] == "illegal"
        assert missing["message"] == wording.text("not-in-hand", lang, cards=(parse(absent),))
        no_card = await sockets[due].request(
            {"type": "act", "table": table_id, "version": version, "cards": ["ZZ"]}, "error")
        assert no_card["code"] == "illegal"
        assert no_card["message"] == wording.text(
            "illegal", lang, reason=wording.msg("move-not-a-card", code="ZZ").text(lang))
        assert no_card["message"] != wording.text("web-no-such-move", lang)
        assert web.manager.tables[table_id].version == version


async def test_a_web_move_is_one_service_call_with_no_position_taken_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The socket's task hands the move to the service's act once; it takes no position of its
    own before (the web used to, to re-check the move): one lock for the move."""
    async with site(tmp_path, Aiko="ja", Bob="en-US") as (web, people):
        table_id = await _table(web, people)
        sockets = await _watching(web, people, table_id, "Aiko", "Bob")
        due, model = await _due(web, table_id, sockets)
        calls: list[tuple[str, asyncio.Task[Any] | None]] = []
        manager = web.manager
        # every call of the service that takes a position under the table's lock (``at``,
        # the check of where a message comes from, takes none: tests/bot/test_table_door.py)
        taking = ("position", "position_for", "latest", "tables_in")

        def counted(name: str, call: Any) -> Any:
            async def wrapped(*args: Any, **kwargs: Any) -> Any:
                calls.append((name, asyncio.current_task()))
                return await call(*args, **kwargs)
            return wrapped

        for name in (*taking, "act"):
            monkeypatch.setattr(manager, name, counted(name, getattr(manager, name)))
        version = model["version"]
        await sockets[due].send({"type": "act", "table": table_id, "version": version,
                                 "move": 0})
        await sockets[due].wait_for(lambda m: m.get("type") == "table" and m["version"] > version)
        acts = [task for name, task in calls if name == "act"]
        assert len(acts) == 1
        before = calls[:calls.index(("act", acts[0]))]
        assert [name for name, task in before if task is acts[0]] == []
