"""``python -m bot`` / ``deckhand``: start the bot with settings from the environment."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys

from bot.config import ConfigError, load


def main() -> int:
    """Run the bot until it is stopped; 2 when the settings are unusable."""
    try:
        settings = load()
    except ConfigError as problem:
        print(f"deckhand: {problem}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
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
