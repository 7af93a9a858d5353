"""Typed settings, read once from the environment (never printed with the token in them)."""

from __future__ import annotations

import ipaddress
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

from bot.workers import usable_cpus
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
    """Worker processes of one kind (searching computer players, pictures): one per CPU the
    process may use (its affinity and its container's CPU quota, :func:`bot.workers.usable_cpus`)
    but one (the event loop keeps a CPU), at least one."""
    return max(1, usable_cpus() - 1)


#: the most worker processes of one kind a setting may ask for
MOST_WORKERS = 256


LOG_FORMATS = ("text", "json")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
#: how a person starts the bot from a clone (README)
RUN_COMMAND = "DISCORD_TOKEN=… bash scripts/run-bot"
#: how a person starts the bot from the image (docs/deploy.md), which has no scripts/run-bot
#: (the token taken from the environment, never written on a command line)
IMAGE_RUN_COMMAND = ("docker run -e DISCORD_TOKEN -v deckhand-data:/data deckhand, with "
                     "DISCORD_TOKEN exported")


def in_image(env: Mapping[str, str] | None = None) -> bool:
    """Whether the bot runs from the image (its Dockerfile sets ``DECKHAND_IMAGE=1``) rather
    than from a clone: a message names the way the bot was started."""
    return (os.environ if env is None else env).get("DECKHAND_IMAGE", "").strip() == "1"


def run_command(env: Mapping[str, str] | None = None) -> str:
    """How to start the bot with its token, the way this one was started (image or clone)."""
    return IMAGE_RUN_COMMAND if in_image(env) else RUN_COMMAND


def program(env: Mapping[str, str] | None = None) -> str:
    """The command that runs the bot, the way this one was started: ``deckhand`` in the image,
    ``bash scripts/run-bot`` in a clone (where ``deckhand`` is in .venv/bin, not on the PATH)."""
    return "deckhand" if in_image(env) else "bash scripts/run-bot"
#: computer levels an operator may name: the games' own and ``best``, the strongest
AI_LEVELS = (*LEVELS, "best")


class ConfigError(Exception):
    """A setting is missing or malformed; the message says which and how to fix it."""


#: the settings of the Activity (the web table); it is on when the first three are set
ACTIVITY_NEEDS = ("DISCORD_CLIENT_ID", "DISCORD_CLIENT_SECRET", "DECKHAND_WEB_PORT")


@dataclass(frozen=True)
class ActivitySettings:
    """The Activity's web table: the Discord application's id and secret (OAuth2), where it
    listens, and whether it runs in development mode (sign-in by name, no instance check)."""

    client_id: int
    client_secret: str = field(repr=False)
    port: int = 0  # 0: a free port chosen at start (tests)
    host: str = "0.0.0.0"
    dev: bool = False

    def __repr__(self) -> str:
        return (f"ActivitySettings(client_id={self.client_id!r}, client_secret=<hidden>, "
                f"host={self.host!r}, port={self.port!r}, dev={self.dev!r})")

    __str__ = __repr__


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
    #: counted requests a second the whole bot may make (Discord allows 50, interactions
    #: aside; this process keeps to its shards' share: :mod:`bot.budget`); 0 (the default of
    #: settings made in code, and of tests) keeps no budget; ``load`` gives the environment's,
    #: 40 by default
    global_rate: float = 0.0
    log_level: str = "INFO"
    timer_scale: float = 1.0
    #: shard ids this process runs and the bot's total shard count (None: discord.py decides)
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None
    log_format: str = "text"
    #: file the bot rewrites while connected, for the container's health check (None: none)
    heartbeat_path: str | None = None
    #: the Activity's web table, served beside the bot (None: off)
    activity: ActivitySettings | None = None
    #: where this process listens for the others' forwarded sockets, and they reach it
    #: (several processes on PostgreSQL; None: 127.0.0.1 and a free port)
    web_internal_url: str | None = None

    def __repr__(self) -> str:
        return (
            f"Settings(token=<hidden>, db_path={describe_db(self.db_path)!r}, "
            f"dev_guild={self.dev_guild!r}, "
            f"ai_delay={self.ai_delay!r}, ai_level={self.ai_level!r}, "
            f"ai_workers={self.ai_workers!r}, ai_scheduler={self.ai_scheduler!r}, "
            f"render_workers={self.render_workers!r}, "
            f"edit_gap={self.edit_gap!r}, global_rate={self.global_rate!r}, "
            f"log_level={self.log_level!r}, timer_scale={self.timer_scale!r}, "
            f"shards={shards_text(self.shard_ids, self.shard_count)!r}, "
            f"log_format={self.log_format!r}, heartbeat_path={self.heartbeat_path!r}, "
            f"activity={self.activity!r}, web_internal_url={self.web_internal_url!r})"
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
_SHARD_ITEM = re.compile(r"^([0-9]{1,6})(?:-([0-9]{1,6}))?$")  # ASCII digits, no more than 6


def parse_shards(raw: str) -> tuple[tuple[int, ...] | None, int | None]:
    """``DECKHAND_SHARDS`` as (shard ids, shard count); empty: (None, None), automatic."""
    text = raw.strip()
    if not text:
        return None, None
    ids_part, slash, count_part = text.partition("/")
    count_part = count_part.strip()
    if not slash or whole(count_part, 6) is None:
        raise ConfigError(
            f"DECKHAND_SHARDS must name shard ids and the total shard count, {SHARDS_EXAMPLE}, "
            f"not {_shown(raw)}."
        )
    count = int(count_part)
    if count < 1:
        raise ConfigError(f"DECKHAND_SHARDS: the shard count must be at least 1, not {count}.")
    ids: list[int] = []
    for item in ids_part.split(","):
        found = _SHARD_ITEM.match(item.strip())
        if found is None:
            raise ConfigError(
                f"DECKHAND_SHARDS: {_shown(item.strip())} is not a shard id or range; write it "
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
        raise ConfigError(f"DECKHAND_SHARDS names a shard twice in {_shown(raw)}.")
    return tuple(sorted(ids)), count


def _shown(raw: str) -> str:
    """A value as a refusal quotes it: a very long one is cut (a 5,000-digit number)."""
    return repr(raw if len(raw) <= 40 else raw[:37] + "...")


def whole(raw: str, most_digits: int) -> int | None:
    """``raw`` as a whole number when it is ASCII digits alone, at most ``most_digits`` of
    them; else None. (``str.isdigit`` alone lets through '²', which ``int`` refuses, and
    thousands of digits, which ``int`` refuses past Python's limit.)"""
    if raw.isascii() and raw.isdigit() and len(raw) <= most_digits:
        return int(raw)
    return None


#: the number settings: (the default, the most, what the number is, the least is more than 0)
NUMBER_SETTINGS: dict[str, tuple[float, float, str, bool]] = {
    "DECKHAND_AI_DELAY": (1.0, 60.0, "a number of seconds", False),
    "DECKHAND_EDIT_GAP": (1.0, 60.0, "a number of seconds", False),
    "DECKHAND_GLOBAL_RATE": (40.0, 10_000.0, "a number of requests a second", True),
    "DECKHAND_TIMER_SCALE": (1.0, 100.0, "a scale (1: the timers as they are)", True),
}


def _number(env: Mapping[str, str], name: str) -> float:
    """A number setting, refused with a sentence naming it when it is not a finite number in
    its range: ``nan`` and ``inf`` pass ``float()`` and every ``< 0`` check."""
    default, most, what, above_zero = NUMBER_SETTINGS[name]
    raw = env.get(name, "").strip()
    if not raw:
        return default
    least = "more than 0" if above_zero else "from 0"
    sentence = f"{name} must be {what}, {least} to {most:g}, not {_shown(raw)}."
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(sentence) from None
    if not math.isfinite(value) or value < 0 or value > most or (above_zero and value == 0):
        raise ConfigError(sentence)
    return value


def _processes(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    value = whole(raw, 9)
    if value is None or value > MOST_WORKERS:
        raise ConfigError(f"{name} must be a number of processes from 0 to {MOST_WORKERS}, "
                          f"not {_shown(raw)}.")
    return value


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
            f"Token), for example: {run_command(env)} (or DISCORD_TOKEN_FILE to a file holding "
            "it)."
        )
    return token


def _secret_file(env: Mapping[str, str], name: str, what: str) -> str:
    """A secret given as a value (``name``) or as a file (``name_FILE``); '' when neither."""
    value = env.get(name, "").strip()
    path = env.get(f"{name}_FILE", "").strip()
    if value and path:
        raise ConfigError(f"Both {name} and {name}_FILE are set: keep one of them and start "
                          "again.")
    if not path:
        return value
    try:
        with open(path, encoding="utf-8") as found:
            value = found.read().strip()
    except (OSError, UnicodeDecodeError) as error:
        why = error.strerror if isinstance(error, OSError) else "it is not text"
        raise ConfigError(f"{name}_FILE names {path}, which cannot be read ({why}): put "
                          f"{what} alone in it.") from None
    if not value:
        raise ConfigError(f"{name}_FILE names {path}, which is empty: put {what} in it.")
    return value


def read_activity(env: Mapping[str, str]) -> ActivitySettings | None:
    """The Activity's settings, or None when it is off (none of them set); ConfigError for a
    half configuration or a malformed value."""
    client_id = env.get("DISCORD_CLIENT_ID", "").strip()
    secret = _secret_file(env, "DISCORD_CLIENT_SECRET",
                          "the application's client secret (Developer Portal → OAuth2)")
    port_raw = env.get("DECKHAND_WEB_PORT", "").strip()
    given = {"DISCORD_CLIENT_ID": client_id, "DISCORD_CLIENT_SECRET": secret,
             "DECKHAND_WEB_PORT": port_raw}
    extras = [n for n in ("DECKHAND_WEB_HOST", "DECKHAND_WEB_DEV") if env.get(n, "").strip()]
    if not any(given.values()):
        if extras:
            raise ConfigError(
                f"{' and '.join(extras)} set but the Activity is off: set "
                f"{', '.join(ACTIVITY_NEEDS)} to serve the web table (docs/activity.md), or "
                "unset them.")
        return None
    missing = [name for name, value in given.items() if not value]
    if missing:
        raise ConfigError(
            f"The Activity is half configured: {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} missing. Set all of "
            f"{', '.join(ACTIVITY_NEEDS)} (or DISCORD_CLIENT_SECRET_FILE) to serve the web "
            "table, or none of them to run without it.")
    application = whole(client_id, 20)  # a Discord id: at most 20 digits
    if application is None:
        raise ConfigError(f"DISCORD_CLIENT_ID must be the application's id (digits), not "
                          f"{_shown(client_id)}.")
    port = whole(port_raw, 5)
    if port is None or port > 65535:
        raise ConfigError(f"DECKHAND_WEB_PORT must be a port number (0 to 65535), not "
                          f"{_shown(port_raw)}.")
    host = env.get("DECKHAND_WEB_HOST", "").strip() or "0.0.0.0"
    dev = _switch(env, "DECKHAND_WEB_DEV", False)
    if dev and not loopback_host(host):
        raise ConfigError(dev_mode_refused(host))
    return ActivitySettings(application, secret, port, host, dev)


def loopback_host(host: str) -> bool:
    """Whether an address to listen on is this machine's own (``localhost``, 127.0.0.0/8,
    ``::1``): only this machine can reach it."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


def dev_mode_refused(host: str) -> str:
    """Why the Activity's development mode does not run on ``host``, and what to do."""
    return (f"DECKHAND_WEB_DEV is on, but the web table would listen on {host}, which other "
            "machines can reach: development mode lets anyone who reaches it sign in by name "
            "as anyone and skips Discord's check, so it only runs on this machine's own "
            "address. Set DECKHAND_WEB_HOST=127.0.0.1, or turn DECKHAND_WEB_DEV off.")


def read_internal_url(env: Mapping[str, str]) -> str | None:
    """``DECKHAND_WEB_INTERNAL_URL``: an http address with a host, no path; None unset."""
    raw = env.get("DECKHAND_WEB_INTERNAL_URL", "").strip().rstrip("/")
    if not raw:
        return None
    try:
        parts = urlsplit(raw)
        # (http: the processes' own listener, on a private network; it offers no TLS)
        fine = parts.scheme == "http" and bool(parts.hostname) and not parts.path \
            and not parts.query
        _ = parts.port  # a malformed port raises
    except ValueError:
        fine = False
    if not fine:
        raise ConfigError(
            "DECKHAND_WEB_INTERNAL_URL must be the address of this machine the other Deckhand "
            "processes reach this one at, on a private network, like http://10.0.0.5:8081 "
            f"(http, a port other than DECKHAND_WEB_PORT's, no path), not {raw!r}.")
    return raw


def load(env: Mapping[str, str] | None = None) -> Settings:
    """The settings from ``env`` (default: the process environment); ConfigError when unusable."""
    source = os.environ if env is None else env
    token = read_token(source)
    guild_raw = source.get("DECKHAND_DEV_GUILD", "").strip()
    dev_guild: int | None = None
    if guild_raw:
        dev_guild = whole(guild_raw, 20)  # a Discord id: at most 20 digits
        if dev_guild is None:
            raise ConfigError(
                f"DECKHAND_DEV_GUILD must be a server id (digits), not {_shown(guild_raw)}."
            )
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
        ai_delay=_number(source, "DECKHAND_AI_DELAY"),
        ai_level=ai_level,
        ai_workers=ai_workers,
        ai_scheduler=_switch(source, "DECKHAND_AI_SCHEDULER", True),
        render_workers=render_workers,
        edit_gap=_number(source, "DECKHAND_EDIT_GAP"),
        global_rate=_number(source, "DECKHAND_GLOBAL_RATE"),
        log_level=log_level_of(source),
        timer_scale=_number(source, "DECKHAND_TIMER_SCALE"),
        shard_ids=shard_ids,
        shard_count=shard_count,
        log_format=log_format,
        heartbeat_path=source.get("DECKHAND_HEARTBEAT", "").strip() or None,
        activity=read_activity(source),
        web_internal_url=read_internal_url(source),
    )
