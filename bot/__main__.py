"""``python -m bot`` / ``deckhand``: start the bot with settings from the environment.

``deckhand sync`` sends the slash commands to Discord whatever the bot last sent (a start sends
them only when they changed) and exits. ``deckhand --health`` checks a running bot's heartbeat
file instead (the container's health check): exit status 0 when healthy, 1 when not, with one
sentence saying why. Exit statuses of a run: :mod:`bot.lifecycle`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from urllib.parse import urlsplit

from bot.config import (
    LOG_FORMATS,
    ConfigError,
    Settings,
    db_backend,
    load,
    log_format_of,
    program,
)

log = logging.getLogger("bot")

#: ({program}: ``deckhand`` in the image, ``bash scripts/run-bot`` in a clone, :func:`program`)
USAGE = "usage: {program} [sync | --health]"
HELP = """\
  (nothing)  run the bot until SIGTERM or Ctrl-C (settings: the environment, docs/deploy.md)
  sync       send the slash commands to Discord now, then exit
  --health   check a running bot's heartbeat file (exit status 0 when healthy)"""


def secrets_of(settings: Settings) -> list[str]:
    """What must never reach a log line: the token, the Activity's client secret and a
    database password."""
    found = [settings.token]
    if settings.activity is not None:  # the Activity's client secret
        found.append(settings.activity.client_secret)
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
    """Run the bot until it is stopped (or, ``sync``, send the commands); the exit status."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--health"]:
        return health()
    if args in (["--help"], ["-h"]):
        print(f"{USAGE.format(program=program())}\n\n{HELP}")
        return 0
    if args not in ([], ["sync"]):
        print(USAGE.format(program=program()), file=sys.stderr)
        return 2
    from bot import eventloop, lifecycle, logs

    # Logging first, in the format asked for when it is a known one, so that even a bad
    # setting is told as one line of that format (and never shows the token).
    early = log_format_of(os.environ)
    logs.setup(early if early in LOG_FORMATS else "text", "INFO",
               [os.environ.get("DISCORD_TOKEN", "").strip()])
    try:
        settings = load()
        run = eventloop.runner(os.environ)
    except ConfigError as problem:
        log.error("%s", problem)
        return lifecycle.BAD_SETTING
    logs.setup(settings.log_format, settings.log_level, secrets_of(settings))
    log.info("starting with %s on %s", settings, eventloop.name(run))
    try:
        return run(lifecycle.run(settings, only_sync=args == ["sync"]))
    except lifecycle.StartFailed as failed:
        cause = failed.__cause__
        log.error("%s", failed.sentence,
                  extra=logs.failure(cause) if failed.traced and cause is not None else {})
        return failed.status
    except KeyboardInterrupt:  # Ctrl-C before the event loop took the signal over
        log.info("stopped before it had started")
        return lifecycle.OK


if __name__ == "__main__":
    sys.exit(main())
