"""The process's life: start, serve until SIGTERM or SIGINT, stop cleanly; or, when the start
fails, close what was opened and say why in one sentence.

Exit statuses: 0 after a stop that was asked for (SIGTERM, SIGINT/Ctrl-C) and after
``deckhand sync``; 1 when something the bot needs cannot be reached (Discord, the database) or
failed unexpectedly; 2 when a setting must be changed (a malformed value, a token Discord
refuses, a database that refuses the bot or cannot be opened).

Both signals start the same stop (:meth:`bot.client.deckhand.Deckhand.close`); a second signal while
stopping is noted and otherwise ignored, the stop being bounded anyway. The handlers are
installed on the event loop, so they work for PID 1 in a container too (where a signal without
a handler is ignored).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import signal
import sqlite3
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.config import Settings, db_backend, describe_db, run_command
from bot.web.app import ServeFailed

if TYPE_CHECKING:
    from bot.client.deckhand import Deckhand

log = logging.getLogger("bot")

OK = 0
#: something the bot needs cannot be reached, or an unexpected failure
UNREACHABLE = 1
#: a setting must be changed
BAD_SETTING = 2

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class StartFailed(Exception):
    """The bot could not start (or had to stop): ``sentence`` says why and what to do."""

    def __init__(self, status: int, sentence: str, *, traced: bool = False) -> None:
        super().__init__(sentence)
        self.status = status
        self.sentence = sentence
        #: whether the line should carry the cause's trace (a failure nobody foresaw)
        self.traced = traced


def _reason(error: BaseException) -> str:
    """A short reason from an OS or library error, without its type's noise."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    inner = getattr(error, "os_error", None)  # aiohttp's connector errors
    if isinstance(inner, OSError) and inner.strerror:
        return inner.strerror
    text = str(error).strip()
    return text or type(error).__name__


def database_failure(error: BaseException, settings: Settings) -> StartFailed:
    """Why the database could not be opened, and what to do."""
    where = describe_db(settings.db_path)
    if db_backend(settings.db_path) == "sqlite":
        if isinstance(error, sqlite3.DatabaseError) and (
                getattr(error, "sqlite_errorname", "") == "SQLITE_CORRUPT"
                or "malformed" in str(error)):
            return StartFailed(BAD_SETTING, (
                f"The database file {where} is damaged ({_reason(error)}): restore it from a "
                "backup, or keep what it still holds with "
                f"sqlite3 {where} .recover | sqlite3 NEW-FILE and point DECKHAND_DB at the new "
                "file (a new file name starts an empty database), then start again."))
        if isinstance(error, sqlite3.DatabaseError) and "not a database" in str(error):
            return StartFailed(BAD_SETTING, (
                f"The file {where} is not a SQLite database: point DECKHAND_DB at the bot's "
                "database file (or a new file name) and start again."))
        return StartFailed(BAD_SETTING, (
            f"The database file {where} cannot be opened ({_reason(error)}): check that "
            "DECKHAND_DB names a file in a folder that exists and that the bot may write "
            "there, then start again."))
    import asyncpg  # type: ignore[import-untyped]

    refused_login = (asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError)
    if isinstance(error, refused_login):
        return StartFailed(BAD_SETTING, (
            f"PostgreSQL at {where} refused the bot's login ({_reason(error)}): check the user "
            "and password in DECKHAND_DB, then start again."))
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return StartFailed(BAD_SETTING, (
            f"PostgreSQL at {where} has no such database ({_reason(error)}): create it "
            "(createdb) or fix its name in DECKHAND_DB, then start again."))
    if isinstance(error, asyncpg.PostgresError):
        return StartFailed(BAD_SETTING, (
            f"PostgreSQL at {where} refused the bot ({_reason(error)}): check DECKHAND_DB and "
            "the user's rights, then start again."))
    if isinstance(error, OSError | TimeoutError):
        return StartFailed(UNREACHABLE, (
            f"PostgreSQL at {where} cannot be reached ({_reason(error)}): check that the server "
            "runs and that DECKHAND_DB names its host and port, then start again."))
    return StartFailed(UNREACHABLE, (
        f"The database at {where} could not be opened ({type(error).__name__}: "
        f"{_reason(error)}): check DECKHAND_DB, then start again."))


class FileLock:
    """One serving process per SQLite file: an exclusive lock on a file beside it
    (``<database>.lock``), taken before the database is opened and let go when the process
    ends, however it ends (the system drops the lock with the process's last descriptor).

    Two processes on one file would each load, time and play the same open tables, each
    thinking itself their only owner; the second is refused with a sentence instead. (On
    PostgreSQL several processes each serve their own shards.)
    """

    def __init__(self, settings: Settings) -> None:
        self.where = describe_db(settings.db_path)
        self.path = f"{settings.db_path}.lock"
        self.fd: int | None = None

    def __enter__(self) -> FileLock:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return self  # no folder or no right to write there: the database says so next
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip()
            os.close(fd)
            which = f"process {holder}" if holder.isdigit() else "another process"
            raise StartFailed(BAD_SETTING, (
                f"Another Deckhand process ({which}) is already serving the database file "
                f"{self.where}: stop it first, or give this one a database file of its own in "
                "DECKHAND_DB, then start again; two processes on one file would both play the "
                "same tables.")) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())  # who holds it, for the sentence above
        self.fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)  # the lock goes with it
            self.fd = None


def discord_failure(error: BaseException) -> StartFailed | None:
    """Why talking to Discord failed, and what to do (None: not a failure of Discord's)."""
    token_fix = ("copy the bot's token again from the Discord Developer Portal (Bot → Reset "
                 f"Token) into DISCORD_TOKEN, for example: {run_command()}")
    if isinstance(error, discord.LoginFailure) or (
            isinstance(error, discord.ConnectionClosed) and error.code == 4004):
        return StartFailed(BAD_SETTING, f"Discord refused the bot's token: {token_fix}.")
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return StartFailed(BAD_SETTING, (
            "Discord refused an intent the bot asked for: leave every Privileged Gateway "
            "Intent off in the Developer Portal as docs/deploy.md says, then start again."))
    if isinstance(error, discord.DiscordServerError):
        return StartFailed(UNREACHABLE, (
            f"Discord answered with a server error ({error.status}): it may be down for a "
            "while (https://discordstatus.com); start again later."))
    if isinstance(error, discord.Forbidden):
        return StartFailed(BAD_SETTING, (
            f"Discord refused the bot a request at its start ({error.status} {error.text}): "
            "if DECKHAND_DEV_GUILD is set, invite the bot to that server with the "
            "applications.commands scope (docs/deploy.md), then start again."))
    if isinstance(error, discord.HTTPException):
        return StartFailed(UNREACHABLE, (
            f"Discord refused a request at the bot's start ({error.status} {error.text}); "
            "start again, and if it persists, report it with this line."))
    if isinstance(error, aiohttp.ClientConnectorCertificateError | aiohttp.ClientSSLError):
        return StartFailed(UNREACHABLE, (
            f"The secure connection to Discord failed ({_reason(error)}): check the system's "
            "clock and its CA certificates, then start again."))
    if isinstance(error, aiohttp.ClientError | discord.GatewayNotFound | OSError | TimeoutError):
        return StartFailed(UNREACHABLE, (
            f"Discord cannot be reached ({_reason(error)}): check this machine's network "
            "connection and that it may reach discord.com, then start again."))
    return None


def unexpected(error: BaseException) -> StartFailed:
    """A failure nobody foresaw: its type and message (the trace goes with the line)."""
    return StartFailed(UNREACHABLE, (
        f"The bot stopped on an unexpected error ({type(error).__name__}: {_reason(error)}); "
        "start it again, and if it persists, report it with this line."), traced=True)


class Stopper:
    """Turns SIGTERM and SIGINT into one stop: the main task is cancelled once, and its
    ``async with`` of the bot then runs the bot's bounded close."""

    def __init__(self, loop: asyncio.AbstractEventLoop, task: asyncio.Task[int]) -> None:
        self.loop = loop
        self.task = task
        self.requested: float | None = None  # loop time of the first signal

    def __enter__(self) -> Stopper:
        for signum in STOP_SIGNALS:
            self.loop.add_signal_handler(signum, self.on_signal, signum)
        return self

    def __exit__(self, *exc: object) -> None:
        for signum in STOP_SIGNALS:
            self.loop.remove_signal_handler(signum)

    def on_signal(self, signum: int) -> None:
        """Start the stop (once)."""
        name = signal.Signals(signum).name
        if self.requested is not None:
            log.info("%s received while stopping; the stop goes on", name)
            return
        self.requested = self.loop.time()
        log.info("%s received: stopping (answering what is under way first)", name)
        self.task.cancel()


async def run(settings: Settings, *, only_sync: bool = False) -> int:
    """Open the database and the bot, serve until a signal stops it (or, ``only_sync``, log in
    and send the commands to Discord), then close everything: the exit status. A start that
    fails raises :class:`StartFailed` once everything opened is closed again."""
    from bot.client.deckhand import Deckhand

    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    held = FileLock(settings) if db_backend(settings.db_path) == "sqlite" and not only_sync \
        else contextlib.nullcontext()
    with held, Stopper(loop, task) as stopper:
        client: Deckhand | None = None
        try:
            try:
                client = await Deckhand.create(settings, only_sync=only_sync)
            except Exception as error:
                raise database_failure(error, settings) from error
            try:
                async with client:  # its exit closes the bot, the workers and the database
                    if only_sync:
                        await client.login(settings.token)
                    else:
                        await client.start(settings.token)
            except ServeFailed as error:  # the web table's address cannot be taken
                raise StartFailed(BAD_SETTING, error.sentence) from error
            except Exception as error:
                raise discord_failure(error) or unexpected(error) from error
        except asyncio.CancelledError:
            if stopper.requested is None:
                raise
            task.uncancel()
            if client is not None:
                await client.close()  # a stop already under way: wait for its end
            log.info("stopped cleanly in %.1f s", loop.time() - stopper.requested)
            return OK
    if only_sync:
        log.info("the commands were sent to Discord")
    return OK
