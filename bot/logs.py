"""Structured logs: one line per event, as JSON or logfmt, with table, guild and shard ids.

Every line carries ``time level logger event`` and, where known, ``table guild shard``.
Guild and shard come from the interaction being handled (context variables set when the
interaction arrives, inherited by every task it starts); the table id from the context too,
or from the ``"table %s: ..."`` convention of :mod:`bot.tables`. A redacting filter removes
the token (and any database password) from every line, tracebacks included, and every card
named in it (a code like ``KD`` or ``10S``, a rank and suit symbol like ``K♦``), as a safety net:
the code never logs them on purpose. A line about a failure carries :func:`failure` instead of
the exception itself: a game's refusal ("You do not hold K♦") or a hand in an error's message
names a card that is hidden from the other players.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import sys
import time
import traceback
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from games.core import IllegalAction

#: ids of what the current task is working for (set per interaction, inherited by its tasks)
current_guild: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "deckhand_guild", default=None)
current_shard: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "deckhand_shard", default=None)
current_table: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "deckhand_table", default=None)

#: a Discord bot token's shape (three base64url parts), redacted even when not configured
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}")
HIDDEN = "<redacted>"
#: a card as the games and the bot write it: a rank and suit symbol (``K♦``, ``10♠``, ``T♠``)
#: next to anything, a joker by name (``Red Joker``, ``黒ジョーカー``), or a code (``KD``,
#: ``TS``, ``10S``, ``RJ``) standing alone: an ASCII letter or digit beside a code makes it part
#: of a word (``ASK``, ``KDE``), left as it is; a lone upper-case pair such as ``AS`` or ``3D`` is
#: taken for a card all the same
CARD_SHAPE = re.compile(
    r"(?:10|[2-9TJQKA])[\u2660-\u2667]\ufe0f?"
    r"|(?:Red|Black) Joker|[赤黒]ジョーカー"
    r"|(?<![0-9A-Za-z])(?:(?:10|[2-9TJQKA])[SHDC]|[RB]J)(?![0-9A-Za-z])")
CARD_HIDDEN = "<card>"
FIELDS = ("table", "guild", "shard")


@contextmanager
def context(*, guild: int | None = None, shard: int | None = None,
            table: int | None = None) -> Iterator[None]:
    """Tag every log line of this block (and of tasks started in it) with these ids."""
    tokens = [current_guild.set(guild), current_shard.set(shard), current_table.set(table)]
    try:
        yield
    finally:
        current_table.reset(tokens[2])
        current_shard.reset(tokens[1])
        current_guild.reset(tokens[0])


def redact_cards(text: str) -> str:
    """``text`` with every card named in it replaced by ``<card>``."""
    return CARD_SHAPE.sub(CARD_HIDDEN, text)


def failure(error: BaseException | None = None) -> dict[str, str]:
    """``extra`` for a line about a failure (``error``, or the one being handled), in place of
    ``exc_info``: the traceback, cards redacted, as the line's ``error`` field.

    A game's refusal (:class:`games.core.IllegalAction`) gets none: its message is about a
    hand and its place in the code says nothing; the line names its type.
    """
    if error is None:
        error = sys.exc_info()[1]
    if error is None or isinstance(error, IllegalAction):
        return {}
    text = "".join(traceback.format_exception(error)).rstrip("\n")
    return {"trace": redact_cards(text)}


class ContextFilter(logging.Filter):
    """Adds ``table``, ``guild`` and ``shard`` to a record (None where unknown)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Fill the ids from explicit ``extra``, the message's table, then the context."""
        table = getattr(record, "table", None)
        if table is None and isinstance(record.msg, str) and record.msg.startswith("table %s"):
            args = record.args
            if isinstance(args, tuple) and args and isinstance(args[0], int):
                table = args[0]
        record.table = table if table is not None else current_table.get()
        if getattr(record, "guild", None) is None:
            record.guild = current_guild.get()
        if getattr(record, "shard", None) is None:
            record.shard = current_shard.get()
        return True


class RedactFilter(logging.Filter):
    """Replaces secrets in the message and the traceback with ``<redacted>``, and cards (with
    ``cards``) with ``<card>``."""

    def __init__(self, secrets: Iterable[str] = (), cards: bool = True) -> None:
        super().__init__()
        self.secrets = sorted({s for s in secrets if len(s) >= 4}, key=len, reverse=True)
        self.cards = cards

    def redact(self, text: str) -> str:
        """``text`` without any secret, token-shaped string or (with ``cards``) card."""
        for secret in self.secrets:
            text = text.replace(secret, HIDDEN)
        text = TOKEN_SHAPE.sub(HIDDEN, text)
        return redact_cards(text) if self.cards else text

    def filter(self, record: logging.LogRecord) -> bool:
        """Freeze the message and traceback as text, redacted."""
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: keep what there is
            message = f"{record.msg!r} {record.args!r}"
        record.msg = self.redact(message)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        record.exc_info = None  # the redacted text stands in for it
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        trace = getattr(record, "trace", None)
        if isinstance(trace, str):
            record.trace = self.redact(trace)
        return True


def _time(record: logging.LogRecord) -> str:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{stamp}.{int(record.msecs):03d}Z"


def fields_of(record: logging.LogRecord) -> dict[str, Any]:
    """The fields of one line, in order; ids only where known."""
    out: dict[str, Any] = {
        "time": _time(record),
        "level": record.levelname,
        "logger": record.name,
        "event": record.getMessage(),
    }
    for name in FIELDS:
        value = getattr(record, name, None)
        if value is not None:
            out[name] = value
    trace = getattr(record, "trace", None)
    if record.exc_text:
        out["error"] = record.exc_text
    elif record.exc_info:
        out["error"] = logging.Formatter().formatException(record.exc_info)
    elif isinstance(trace, str):
        out["error"] = trace
    if record.stack_info:
        out["stack"] = record.stack_info
    return out


class JsonFormatter(logging.Formatter):
    """One JSON object per line."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON line (non-ASCII kept, newlines escaped)."""
        return json.dumps(fields_of(record), ensure_ascii=False, default=str)


_BARE = re.compile(r"^[^\s=\"\\]+$")


def _logfmt_value(value: Any) -> str:
    text = str(value)
    if text and _BARE.match(text):
        return text
    return json.dumps(text, ensure_ascii=False)


class LogfmtFormatter(logging.Formatter):
    """``key=value`` pairs on one line; values with spaces, quotes or newlines are quoted."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one logfmt line."""
        return " ".join(f"{k}={_logfmt_value(v)}" for k, v in fields_of(record).items())


def handler(fmt: str = "text", secrets: Iterable[str] = (),
            stream: TextIO | None = None) -> logging.Handler:
    """A stream handler writing one structured line per record, secrets redacted."""
    made = logging.StreamHandler(sys.stderr if stream is None else stream)
    made.addFilter(ContextFilter())
    made.addFilter(RedactFilter(secrets))
    made.setFormatter(JsonFormatter() if fmt == "json" else LogfmtFormatter())
    return made


def setup(fmt: str = "text", level: str = "INFO", secrets: Iterable[str] = (),
          stream: TextIO | None = None) -> logging.Handler:
    """Send every log record of the process to one structured handler (replacing others)."""
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    made = handler(fmt, secrets, stream)
    root.addHandler(made)
    root.setLevel(level)
    logging.captureWarnings(True)
    return made
