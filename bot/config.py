"""Typed settings, read once from the environment (never printed with the token in them)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

TIMER_CHOICES = ("off", "relaxed", "normal", "fast")
#: seconds a player has for a move under each timer setting
TIMER_SECONDS: dict[str, float | None] = {
    "off": None,
    "relaxed": 300.0,
    "normal": 90.0,
    "fast": 30.0,
}


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
    log_level: str = "INFO"
    timer_scale: float = 1.0

    def __repr__(self) -> str:
        return (
            f"Settings(token=<hidden>, db_path={self.db_path!r}, dev_guild={self.dev_guild!r}, "
            f"ai_delay={self.ai_delay!r}, ai_level={self.ai_level!r}, "
            f"log_level={self.log_level!r}, timer_scale={self.timer_scale!r})"
        )

    __str__ = __repr__


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


def load(env: Mapping[str, str] | None = None) -> Settings:
    """The settings from ``env`` (default: the process environment); ConfigError when unusable."""
    source = os.environ if env is None else env
    token = source.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "Set DISCORD_TOKEN to your bot's token (Discord Developer Portal → Bot → Token), "
            "for example: DISCORD_TOKEN=... deckhand"
        )
    guild_raw = source.get("DECKHAND_DEV_GUILD", "").strip()
    dev_guild: int | None = None
    if guild_raw:
        if not guild_raw.isdigit():
            raise ConfigError(
                f"DECKHAND_DEV_GUILD must be a server id (digits), not {guild_raw!r}."
            )
        dev_guild = int(guild_raw)
    return Settings(
        token=token,
        db_path=source.get("DECKHAND_DB", "").strip() or "./deckhand.sqlite3",
        dev_guild=dev_guild,
        ai_delay=_number(source, "DECKHAND_AI_DELAY", 1.0),
        ai_level=source.get("DECKHAND_AI_LEVEL", "").strip() or "best",
        log_level=(source.get("DECKHAND_LOG_LEVEL", "").strip() or "INFO").upper(),
        timer_scale=_number(source, "DECKHAND_TIMER_SCALE", 1.0),
    )
