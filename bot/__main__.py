"""``python -m bot`` / ``deckhand``: start the bot with settings from the environment.

``deckhand --health`` checks a running bot's heartbeat file instead (the container's health
check): exit status 0 when healthy, 1 when not, with one sentence saying why.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from urllib.parse import urlsplit

from bot.config import ConfigError, Settings, db_backend, load

log = logging.getLogger("bot")


def secrets_of(settings: Settings) -> list[str]:
    """What must never reach a log line: the token and a database password."""
    found = [settings.token]
    if db_backend(settings.db_path) == "postgresql":
        with contextlib.suppress(ValueError):
            password = urlsplit(settings.db_path).password
            if password:
                found.append(password)
    return found


def health() -> int:
    """``--health``: 0 when the heartbeat is fresh, else 1."""
    from bot.health import check

    healthy, why = check()
    print(f"deckhand: {'healthy' if healthy else 'unhealthy'}: {why}")
    return 0 if healthy else 1


def main(argv: list[str] | None = None) -> int:
    """Run the bot until it is stopped; 2 when the settings are unusable."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--health"]:
        return health()
    if args:
        print("usage: deckhand [--health]", file=sys.stderr)
        return 2
    try:
        settings = load()
    except ConfigError as problem:
        print(f"deckhand: {problem}", file=sys.stderr)
        return 2
    import asyncio

    from bot import logs

    logs.setup(settings.log_format, settings.log_level, secrets_of(settings))
    log.info("starting with %s", settings)
    from bot.client import Deckhand

    async def run() -> None:
        client = await Deckhand.create(settings)
        async with client:
            await client.start(settings.token)

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run())
    return 0


if __name__ == "__main__":
    sys.exit(main())
