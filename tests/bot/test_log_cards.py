"""No log line names a hidden card: failures that come from a game (its refusal "You do not
hold K♦", a hand in an error's message) are logged by their type, their tracebacks with the
cards taken out; the structured handler takes out any card left, and no ordinary word."""

from __future__ import annotations

import concurrent.futures
import io
import json
import logging
import random
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

import games
from bot import logs
from bot.storage.store import Storage
from bot.tables import CANCELLED, TableManager
from bot.tables.thinking import Thinker, choose_safely
from games import ai
from games.cards import parse, pretty
from games.core import IllegalAction
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import button, card_forms, world
from tests.bot.test_e2e_games import LogWatch, hidden_in, open_table
from tests.bot.test_tables import live

HOST, BOB = 1, 2
STANDARD = LogWatch.STANDARD


def record_text(record: logging.LogRecord) -> str:
    """Everything a handler could write of a record: message, traceback (as text or still an
    exception), stack and the extra fields."""
    parts = [record.getMessage(), record.exc_text or "", record.stack_info or ""]
    if record.exc_info:
        parts.append(logging.Formatter().formatException(record.exc_info))
    parts += [f"{k}={v}" for k, v in record.__dict__.items() if k not in STANDARD]
    return "\n".join(parts)


def leaks(records: Iterable[logging.LogRecord], hidden: Iterable[str]) -> list[str]:
    """Each card of ``hidden`` (codes) named by a record, in any of its forms."""
    found = []
    for record in records:
        text = record_text(record)
        for code in hidden:
            for form in card_forms(code):
                if re.search(rf"(?<![0-9A-Za-z]){re.escape(form)}(?![0-9A-Za-z])", text):
                    found.append(f"{form} in {record.name}: {text}")
    return found


# -- the structured handler ---------------------------------------------------------------------
def test_cards_are_redacted_and_ordinary_words_kept() -> None:
    named = ("You do not hold K♦.", "Action('play:KD,TS')", "[KD, 10S, RJ, BJ]",
             "あなたはK♦を持っていません", "KDを", "Red Joker", "黒ジョーカーを", "10♠", "9♣\ufe0f",
             "dh:1:play:QH:3")
    for text in named:
        redacted = logs.redact_cards(text)
        assert "<card>" in redacted, text
        assert not re.search(r"[♠♥♦♣]|\b(KD|TS|10S|RJ|BJ|QH)\b|Joker|ジョーカー",
                             redacted), redacted
    assert logs.redact_cards("[KD, 10S, RJ, BJ]") == "[<card>, <card>, <card>, <card>]"
    ordinary = ("ASK the KDE team", "as Kd js ts", "HTTP 404 after 10 s", "TSV, 3DS, 2DX",
                "QHD screen", "AST 10SX", "Table 12: 7 actions", "shard 3 ready", "♠ alone")
    for text in ordinary:
        assert logs.redact_cards(text) == text


def test_a_structured_line_names_no_card() -> None:
    buffer = io.StringIO()
    logger = logging.getLogger("deckhand.test.cards")
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    handler = logs.handler("json", [], buffer)
    logger.addHandler(handler)
    try:
        try:
            raise ValueError("You do not hold K♦ (hand: KD, 10S)")
        except ValueError:
            logger.exception("table %s: seat 1 holds %s", 7, "QH")
        try:
            raise KeyError(parse("AC"))
        except KeyError as exc:
            logger.error("table %s: failed", 7, extra=logs.failure(exc))
        logger.info("ASK the KDE team about HTTP 404")
    finally:
        logger.removeHandler(handler)
    first, second, third = (json.loads(line) for line in buffer.getvalue().splitlines())
    assert first["event"] == "table 7: seat 1 holds <card>" and first["table"] == 7
    assert "ValueError: You do not hold <card> (hand: <card>, <card>)" in first["error"]
    assert "KeyError: <card>" in second["error"] and "Traceback" in second["error"]
    assert third["event"] == "ASK the KDE team about HTTP 404"
    assert not leaks_in(buffer.getvalue(), ["KD", "TS", "QH", "AC"])


def leaks_in(text: str, codes: Iterable[str]) -> list[str]:
    return [form for code in codes for form in card_forms(code)
            if re.search(rf"(?<![0-9A-Za-z]){re.escape(form)}(?![0-9A-Za-z])", text)]


def test_failure_keeps_a_traceback_without_cards_and_none_for_a_refusal() -> None:
    try:
        raise IllegalAction("You do not hold K♦.")
    except IllegalAction as exc:
        assert logs.failure(exc) == {}
        assert logs.failure() == {}  # the exception being handled
    try:
        raise RuntimeError("cannot lead 10♠ from 10S, KD")
    except RuntimeError:
        trace = logs.failure()["trace"]
    assert trace.startswith("Traceback") and "test_log_cards.py" in trace
    assert trace.endswith("RuntimeError: cannot lead <card> from <card>, <card>")
    assert logs.failure(None) == {}  # nothing being handled


class Keep(logging.Handler):
    """Keeps every record it is given."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


# -- the places that log a game's failures ------------------------------------------------------
async def test_a_stored_action_that_does_not_replay_is_logged_without_its_card(
        store: Storage, caplog: pytest.LogCaptureFixture) -> None:
    m = TableManager(store, rules_for=lookup, ai_delay=0.0)
    table = live(m, await m.open(100, 10, "high-card", HOST, "Host", seed=3))
    await m.join(table.id, BOB, "Bob")
    await m.start(table.id, HOST)
    state = table.state
    assert state is not None and table.version == 0
    seat = state.to_act[0]
    other = 1 - seat
    hidden = hidden_in(state)
    theirs = [str(c) for c in state.view(other)["hand"]]
    assert theirs and set(theirs) <= hidden
    await m.close()
    # a stored move that no longer replays: the seat to act plays a card of the other hand
    await store.add_action(table.id, 0, seat, f"play:{theirs[0]}", HOST, "click")
    again = TableManager(store, rules_for=lookup, ai_delay=0.0)
    caplog.set_level(logging.DEBUG)
    try:
        assert [t.table_id for t in await again.resume()] == [table.id]  # ended, its message told
    finally:
        await again.close()
    assert leaks(caplog.records, hidden) == []
    lines = [r for r in caplog.records if r.name == "bot.tables"]
    said = [r.getMessage() for r in lines]
    assert (f"table {table.id}: high-card: stored action 0 of 1 (seat {seat}) does not replay "
            "(IllegalAction)") in said, said
    assert f"table {table.id}: high-card: ended (its stored actions do not replay)" in said, said
    assert (await store.table(table.id)).status == CANCELLED  # type: ignore[union-attr]


async def test_a_failing_click_is_logged_without_the_card_in_its_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with world(tmp_path, people=2) as w:
        await open_table(w, "high-card", w.users[:2], 2, {"hand": "4"})
        table = w.bot.manager.tables[1]
        assert table.state is not None
        code = sorted(hidden_in(table.state))[0]
        cog: Any = w.bot.get_cog("PlayCog")
        errors = [ValueError(f"You do not hold {pretty(parse(code))}."), KeyError(parse(code)),
                  IllegalAction(f"'play:{code}' is not a move you can make now.")]

        async def route(*args: Any) -> None:
            raise errors.pop(0)

        monkeypatch.setattr(cog, "route", route)
        clicked = button(w.table_message(), "hand")["custom_id"]
        with LogWatch(w) as watch:
            keep = Keep()
            records = keep.records
            logging.getLogger("cogs").addHandler(keep)
            try:
                for _ in range(3):
                    r = await w.sim.click(w.users[0], w.table_message(), clicked)
                    assert r.status == "ok", r
                    await w.sim.settle()
            finally:
                logging.getLogger("cogs").removeHandler(keep)
        assert watch.lines >= 3 and watch.leaks == [], watch.leaks[:3]
        assert leaks(records, {code}) == []
        failed = [r for r in records if r.getMessage().startswith("component ")]
        assert [r.getMessage() for r in failed] == [
            "component hand failed (ValueError)", "component hand failed (KeyError)",
            "component hand failed (IllegalAction)"]
        traces = [getattr(r, "trace", None) for r in failed]
        assert traces[0] and "ValueError: You do not hold <card>." in traces[0]
        assert traces[1] and "KeyError: <card>" in traces[1]
        assert traces[2] is None  # a game's refusal: its type alone


class Failing(ai.Player):
    """A computer player whose error names the cards it holds."""

    def choose(self, obs: ai.Observation, rng: random.Random) -> Any:
        raise ValueError(f"no lead from {', '.join(pretty(parse(c)) for c in obs.view['hand'])}")


def test_a_failing_computer_player_is_logged_without_its_hand(
        caplog: pytest.LogCaptureFixture) -> None:
    state = games.get("spar").new_game(4, seed=5)
    seat = state.to_act[0]
    caplog.set_level(logging.DEBUG)
    action = choose_safely(Failing(), ai.observe(state, seat), random.Random(1))
    assert any(action.same_as(a) for a in state.legal_actions(seat))
    assert leaks(caplog.records, hidden_in(state)) == []
    said = [r.getMessage() for r in caplog.records]
    assert said == ["the spar computer player failed (ValueError); playing at random"]
    assert "ValueError: no lead from <card>" in getattr(caplog.records[0], "trace", "")


class BrokenPool(concurrent.futures.Executor):
    """A worker pool whose every job fails with the error given."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        future.set_exception(self.error)
        return future


async def test_a_worker_error_is_logged_without_the_cards_it_names(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    thinker = Thinker("hard", workers=1, budget=0.02)
    state = games.get("spar").new_game(4, seed=9)
    seat = state.to_act[0]
    hidden = hidden_in(state)
    code = sorted(hidden)[0]
    caplog.set_level(logging.DEBUG)
    try:
        for error in (RuntimeError(f"worker: You do not hold {pretty(parse(code))}"),
                      IllegalAction(f"'{code}' is not a card you hold")):
            pool = BrokenPool(error)

            async def ready(pool: BrokenPool = pool) -> BrokenPool:
                return pool

            monkeypatch.setattr(thinker.pool, "ready", ready)
            action = await thinker.choose(state, seat, "9:0:0")  # thought in a thread instead
            assert any(action.same_as(a) for a in state.legal_actions(seat))
    finally:
        await thinker.close()
    assert leaks(caplog.records, hidden) == []
    failed = [r for r in caplog.records if r.getMessage().startswith("thinking in a worker")]
    assert [r.getMessage() for r in failed] == [
        "thinking in a worker failed (RuntimeError); this move is thought in a thread",
        "thinking in a worker failed (IllegalAction); this move is thought in a thread"]
    assert "RuntimeError: worker: You do not hold <card>" in getattr(failed[0], "trace", "")
    assert not hasattr(failed[1], "trace")
