"""Typed settings, read once from the environment (never printed with the token in them)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

from games.ai import LEVELS

TIMER_CHOICES = ("off", "relaxed", "normal", "fast")
#: seconds a player has for a move under each timer setting
TIMER_SECONDS: dict[str, float | None] = {
    "off": None,
    "relaxed": 300.0,
    "normal": 90.0,
    "fast": 30.0,
}


def default_workers() -> int:
    """Worker processes of one kind (searching computer players, pictures): one per core but
    one (the event loop keeps a core), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


LOG_FORMATS = ("text", "json")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
#: how a person starts the bot from a clone (README); the image runs ``deckhand``
RUN_COMMAND = "DISCORD_TOKEN=… bash scripts/run-bot"
#: computer levels an operator may name: the games' own and ``best``, the strongest
AI_LEVELS = (*LEVELS, "best")


class ConfigError(Exception):
    """A setting is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True)
class Settings:
    """Everything the process needs to run, read from the environment."""

    token: str = field(repr=False)
    db_path: str = "./deckhand.sqlite3"
    dev_guild: int | None = None
    ai_delay: float = 1.0
    ai_level: str = "best"
    ai_workers: int = field(default_factory=default_workers)
    #: whether the search moves of all tables share the AI workers through the thinking
    #: scheduler (``DECKHAND_AI_SCHEDULER``; off: every search takes its full budget and waits)
    ai_scheduler: bool = True
    #: processes that draw pictures; 0 draws in threads (the default of settings made in code;
    #: ``load`` gives the environment's, one per core but one)
    render_workers: int = 0
    #: least seconds between two edits of a table's public message (later news waits and is
    #: shown together): Discord allows about one edit a second per channel, and each edit
    #: draws the table. 0 (the default of settings made in code, and of tests) edits at once;
    #: ``load`` gives the environment's, 1 s by default
    edit_gap: float = 0.0
    log_level: str = "INFO"
    timer_scale: float = 1.0
    #: shard ids this process runs and the bot's total shard count (None: discord.py decides)
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None
    log_format: str = "text"
    #: file the bot rewrites while connected, for the container's health check (None: none)
    heartbeat_path: str | None = None

    def __repr__(self) -> str:
        return (
            f"Settings(token=<hidden>, db_path={describe_db(self.db_path)!r}, "
            f"dev_guild={self.dev_guild!r}, "
            f"ai_delay={self.ai_delay!r}, ai_level={self.ai_level!r}, "
            f"ai_workers={self.ai_workers!r}, ai_scheduler={self.ai_scheduler!r}, "
            f"render_workers={self.render_workers!r}, "
            f"edit_gap={self.edit_gap!r}, "
            f"log_level={self.log_level!r}, timer_scale={self.timer_scale!r}, "
            f"shards={shards_text(self.shard_ids, self.shard_count)!r}, "
            f"log_format={self.log_format!r}, heartbeat_path={self.heartbeat_path!r})"
        )

    __str__ = __repr__


def db_backend(db: str) -> str:
    """``postgresql`` for a ``postgres://``/``postgresql://`` address, else ``sqlite``."""
    scheme = db.split("://", 1)[0].lower() if "://" in db else ""
    return "postgresql" if scheme in ("postgres", "postgresql") else "sqlite"


def describe_db(db: str) -> str:
    """The database setting fit to print: a PostgreSQL address loses its password."""
    if db_backend(db) == "sqlite":
        return db
    try:
        parts = urlsplit(db)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return "postgresql://<unreadable address>"
    user = parts.username or ""
    netloc = (f"{user}@" if user else "") + host + (f":{port}" if port is not None else "")
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def shards_text(shard_ids: tuple[int, ...] | None, shard_count: int | None) -> str:
    """``0,1,2/8`` for a slice, ``auto`` when discord.py decides."""
    if shard_count is None:
        return "auto"
    ids = range(shard_count) if shard_ids is None else shard_ids
    return ",".join(str(i) for i in ids) + f"/{shard_count}"


SHARDS_EXAMPLE = "like 0-7/16 (shards 0 to 7 of 16), 3/16 or 0,2,5/8"
_SHARD_ITEM = re.compile(r"^(\d+)(?:-(\d+))?$")


def parse_shards(raw: str) -> tuple[tuple[int, ...] | None, int | None]:
    """``DECKHAND_SHARDS`` as (shard ids, shard count); empty: (None, None), automatic."""
    text = raw.strip()
    if not text:
        return None, None
    ids_part, slash, count_part = text.partition("/")
    count_part = count_part.strip()
    if not slash or not count_part.isdigit():
        raise ConfigError(
            f"DECKHAND_SHARDS must name shard ids and the total shard count, {SHARDS_EXAMPLE}, "
            f"not {raw!r}."
        )
    count = int(count_part)
    if count < 1:
        raise ConfigError(f"DECKHAND_SHARDS: the shard count must be at least 1, not {count}.")
    ids: list[int] = []
    for item in ids_part.split(","):
        found = _SHARD_ITEM.match(item.strip())
        if found is None:
            raise ConfigError(
                f"DECKHAND_SHARDS: {item.strip()!r} is not a shard id or range; write it "
                f"{SHARDS_EXAMPLE}."
            )
        first = int(found.group(1))
        last = first if found.group(2) is None else int(found.group(2))
        if last < first:
            raise ConfigError(f"DECKHAND_SHARDS: the range {first}-{last} runs backwards.")
        if last >= count:
            raise ConfigError(
                f"DECKHAND_SHARDS: shard {last} does not exist with {count} shards "
                f"(ids run from 0 to {count - 1})."
            )
        ids.extend(range(first, last + 1))
    if len(set(ids)) != len(ids):
        raise ConfigError(f"DECKHAND_SHARDS names a shard twice in {raw!r}.")
    return tuple(sorted(ids)), count


def _number(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, not {raw!r}.") from None
    if value < 0:
        raise ConfigError(f"{name} must not be negative.")
    return value


def _processes(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit():
        raise ConfigError(f"{name} must be a number of processes (0 or more), not {raw!r}.")
    return int(raw)


#: how ``DECKHAND_AI_SCHEDULER`` may be written, and what each means
SWITCH_WORDS = {"on": True, "1": True, "yes": True, "true": True,
                "off": False, "0": False, "no": False, "false": False}


def _switch(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    value = SWITCH_WORDS.get(raw.lower())
    if value is None:
        raise ConfigError(f"{name} must be on or off, not {raw!r}.")
    return value


def log_format_of(env: Mapping[str, str]) -> str:
    """``DECKHAND_LOG_FORMAT`` as written (lower case; ``text`` when unset), checked by
    :func:`load`; read on its own first, so that even a bad setting is told in that format."""
    return (env.get("DECKHAND_LOG_FORMAT", "").strip() or "text").lower()


def log_level_of(env: Mapping[str, str]) -> str:
    """``DECKHAND_LOG_LEVEL`` (upper case; ``INFO`` when unset); ConfigError when unknown."""
    level = (env.get("DECKHAND_LOG_LEVEL", "").strip() or "INFO").upper()
    if level not in LOG_LEVELS:
        raise ConfigError(
            f"DECKHAND_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not "
            f"{env.get('DECKHAND_LOG_LEVEL', '').strip()!r}."
        )
    return level


def read_token(env: Mapping[str, str]) -> str:
    """The bot's token: ``DISCORD_TOKEN``, or the contents of the file ``DISCORD_TOKEN_FILE``
    names (a Docker secret such as ``/run/secrets/discord_token``); ConfigError when neither
    gives one, or both are set."""
    token = env.get("DISCORD_TOKEN", "").strip()
    path = env.get("DISCORD_TOKEN_FILE", "").strip()
    if token and path:
        raise ConfigError(
            "Both DISCORD_TOKEN and DISCORD_TOKEN_FILE are set: keep one of them (the file, "
            "for a Docker secret) and start again."
        )
    if path:
        try:
            with open(path, encoding="utf-8") as found:
                token = found.read().strip()
        except OSError as error:
            raise ConfigError(
                f"DISCORD_TOKEN_FILE names {path}, which cannot be read "
                f"({error.strerror or type(error).__name__}): check the path and that the "
                "bot's user may read it."
            ) from None
        except UnicodeDecodeError:
            raise ConfigError(
                f"DISCORD_TOKEN_FILE names {path}, which does not hold a token (it is not "
                "text): put the bot's token alone in it."
            ) from None
        if not token:
            raise ConfigError(
                f"DISCORD_TOKEN_FILE names {path}, which is empty: put the bot's token in it "
                "(Discord Developer Portal → Bot → Reset Token)."
            )
        return token
    if not token:
        raise ConfigError(
            "Set DISCORD_TOKEN to your bot's token (Discord Developer Portal → Bot → Reset "
            f"Token), for example: {RUN_COMMAND} (or DISCORD_TOKEN_FILE to a file holding it)."
        )
    return token


def load(env: Mapping[str, str] | None = None) -> Settings:
    """The settings from ``env`` (default: the process environment); ConfigError when unusable."""
    source = os.environ if env is None else env
    token = read_token(source)
    guild_raw = source.get("DECKHAND_DEV_GUILD", "").strip()
    dev_guild: int | None = None
    if guild_raw:
        if not guild_raw.isdigit():
            raise ConfigError(
                f"DECKHAND_DEV_GUILD must be a server id (digits), not {guild_raw!r}."
            )
        dev_guild = int(guild_raw)
    ai_workers = _processes(source, "DECKHAND_AI_WORKERS", default_workers())
    render_workers = _processes(source, "DECKHAND_RENDER_WORKERS", default_workers())
    shard_ids, shard_count = parse_shards(source.get("DECKHAND_SHARDS", ""))
    log_format = log_format_of(source)
    if log_format not in LOG_FORMATS:
        raise ConfigError(
            f"DECKHAND_LOG_FORMAT must be {' or '.join(LOG_FORMATS)}, not {log_format!r}."
        )
    ai_level = (source.get("DECKHAND_AI_LEVEL", "").strip() or "best").lower()
    if ai_level not in AI_LEVELS:
        raise ConfigError(
            f"DECKHAND_AI_LEVEL must be one of {', '.join(AI_LEVELS)}, not {ai_level!r}."
        )
    return Settings(
        token=token,
        db_path=source.get("DECKHAND_DB", "").strip() or "./deckhand.sqlite3",
        dev_guild=dev_guild,
        ai_delay=_number(source, "DECKHAND_AI_DELAY", 1.0),
        ai_level=ai_level,
        ai_workers=ai_workers,
        ai_scheduler=_switch(source, "DECKHAND_AI_SCHEDULER", True),
        render_workers=render_workers,
        edit_gap=_number(source, "DECKHAND_EDIT_GAP", 1.0),
        log_level=log_level_of(source),
        timer_scale=_number(source, "DECKHAND_TIMER_SCALE", 1.0),
        shard_ids=shard_ids,
        shard_count=shard_count,
        log_format=log_format,
        heartbeat_path=source.get("DECKHAND_HEARTBEAT", "").strip() or None,
    )
