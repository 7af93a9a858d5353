"""The simulated Discord: an aiohttp server with Discord's REST routes and gateway websocket."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any
from urllib.parse import parse_qsl

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from .faults import DROP, Faults
from .gateway import RECONNECT, GatewaySession
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    DISCORD_LAUNCH_ACTIVITY,
    LAUNCH_ACTIVITY,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    PRIMARY_ENTRY_POINT,
    UPDATE_MESSAGE,
    ActivityLaunch,
    InteractionRecord,
    InteractionResult,
    build_command_options,
    button_data,
    modal_submit_data,
    select_data,
)
from .models import (
    ADMINISTRATOR,
    DM,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    CapturedRequest,
    SimChannel,
    SimGuild,
    SimMember,
    SimMessage,
    SimModal,
    SimUser,
    SnowflakeFactory,
    SpecError,
    iso_now,
)
from .models import (
    SimHTTPError as SimHTTPError,  # (re-exported: where the tests have always found it)
)
from .spec import SpecValidator, component_limits, spec_validator
from .threads import Threads

API_PREFIX = "/api/v10"
MANAGE_GUILD = 1 << 5
MANAGE_MESSAGES = 1 << 13
#: the application flag of an app with an Activity (Discord's EMBEDDED)
EMBEDDED = 1 << 17
#: what Discord answers a bulk overwrite that leaves out the app's entry point command
ENTRY_POINT_REMOVED = (
    "You cannot remove this app's Entry Point command in a bulk update operation. "
    "Please include the Entry Point command in your update request or delete it separately."
)
# @everyone in a fresh server: view, send, embed, attach, history, reactions, app commands...
EVERYONE_PERMISSIONS = (
    (1 << 6)
    | (1 << 10)
    | (1 << 11)
    | (1 << 14)
    | (1 << 15)
    | (1 << 16)
    | (1 << 18)
    | (1 << 31)
    | (1 << 35)
    | (1 << 38)
)
# + without MANAGE_THREADS (1 << 34), which the invite in docs/deploy.md does not ask for: a
#   thread locked by a moderator is closed to the bot as it is on Discord (sim.overwrite_bot
#   can allow it in a channel)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES
FOLLOWUP_WINDOW = 15 * 60.0
EDITABLE_FLAGS = (1 << 2) | (1 << 12)
MESSAGE_FLAGS = EPHEMERAL | (1 << 2) | (1 << 12) | IS_COMPONENTS_V2

Handler = Callable[["RequestContext"], Awaitable[tuple[int, Any]]]
#: + routes Discord serves that its OpenAPI description leaves out: OAuth2's token endpoint
#: (RFC 6749, a form body, the client's credentials in it instead of the bot's token)
UNDESCRIBED = frozenset({"/oauth2/token"})
#: + routes whose answers the simulator checks against the spec's documented response
SELF_CHECKED = frozenset({"/applications/{application_id}/activity-instances/{instance_id}"})
#: + how long a simulated OAuth2 access token lasts (Discord's: a week)
ACCESS_TOKEN_SECONDS = 604800



def _command_key(command: dict[str, Any]) -> tuple[Any, ...]:
    """What names a command within its scope: its type and name; the one entry point command
    by its type alone (a renamed entry point is the same command)."""
    kind = command.get("type", 1)
    return (kind,) if kind == PRIMARY_ENTRY_POINT else (kind, command.get("name"))


def header_params(value: str) -> tuple[str, dict[str, str]]:
    """A header such as ``multipart/form-data; boundary=x`` or ``form-data; name="a"``: its
    value (lower case) and its parameters (quotes taken off)."""
    main, *rest = value.split(";")
    params: dict[str, str] = {}
    for item in rest:
        key, _, raw = item.strip().partition("=")
        raw = raw.strip()
        if len(raw) >= 2 and raw[0] == raw[-1] == '"':
            raw = raw[1:-1].replace('\\"', '"')
        params[key.strip().lower()] = raw
    return main.strip().lower(), params


def multipart_parts(raw: bytes, boundary: str | None) -> list[tuple[dict[str, str], bytes]]:
    """The parts of a ``multipart/form-data`` body: each one's headers (names in lower case)
    and its bytes. A body that is not one (no boundary, no closing delimiter, a part without
    its blank line) is refused as Discord refuses it."""
    if not boundary:
        raise SimHTTPError(400, 50035, "Invalid Form Body: no multipart boundary")
    delimiter = b"\r\n--" + boundary.encode("latin-1")
    chunks = (b"\r\n" + raw).split(delimiter)
    if len(chunks) < 2 or not chunks[-1].startswith(b"--"):
        raise SimHTTPError(400, 50035, "Invalid Form Body: an unfinished multipart body")
    parts = []
    for chunk in chunks[1:-1]:
        head, blank, data = chunk.partition(b"\r\n\r\n")
        if not blank:
            raise SimHTTPError(400, 50035, "Invalid Form Body: a part without its headers")
        headers = {}
        for line in head.decode("latin-1").split("\r\n"):
            key, colon, value = line.partition(":")
            if colon:
                headers[key.strip().lower()] = value.strip()
        parts.append((headers, data))
    return parts

class RequestContext:
    """One request being answered: its path parameters, body, files and capture."""

    def __init__(
        self,
        captured: CapturedRequest,
        params: dict[str, str],
        body: Any,
        files: list[dict[str, Any]],
    ) -> None:
        self.captured = captured
        self.params = params
        self.body = body
        self.files = files
        #: + the handler asks for its answer (or refusal) to be checked against the spec
        self.self_check = False

    @property
    def query(self) -> dict[str, str]:
        """The query string parameters."""
        return self.captured.query

    def flag(self, name: str) -> bool:
        """Whether a boolean query parameter is set (Discord accepts true/1)."""
        return self.query.get(name, "").lower() in ("1", "true")


class _LogCapture(logging.Handler):
    """Collects discord.py's warnings and errors (exceptions in event handlers and views)."""

    def __init__(self, errors: list[str], warnings: list[str]) -> None:
        super().__init__(level=logging.WARNING)
        self.errors = errors
        self.warnings = warnings

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if "voice will NOT be supported" in text:
            return
        if record.exc_info and record.exc_info[1] is not None:
            text += f": {record.exc_info[1]!r}"
        (self.errors if record.levelno >= logging.ERROR else self.warnings).append(text)


class SimulatedDiscord:
    """A local Discord (REST + gateway) that a real discord.py client connects to."""

    def __init__(
        self,
        interaction_deadline: float = 3.0,
        *,
        privileged_intents: int = 0,
        bot_name: str = "Deckhand",
        result_idle: float = 0.05,
        shards: int = 1,
        activities: bool = False,
    ) -> None:
        self.interaction_deadline = interaction_deadline
        #: whether the application has Activities enabled (the EMBEDDED flag): it then has
        #: Discord's default entry point command and may answer with LAUNCH_ACTIVITY
        self.activities = activities
        #: every Activity opened, oldest first (each also an instance that
        #: GET .../activity-instances/{id} answers)
        self.launches: list[ActivityLaunch] = []
        #: the shard count GET /gateway/bot recommends
        self.shard_count = shards
        self.result_idle = result_idle
        self.privileged_intents = privileged_intents
        self._ids = SnowflakeFactory()
        self.bot_user = SimUser(self._ids.next(), bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.token = "sim-token"
        self.requests: list[CapturedRequest] = []
        self.spec_errors: list[SpecError] = []
        self.client_errors: list[str] = []
        self.client_warnings: list[str] = []
        self.guilds: dict[str, SimGuild] = {}
        self._channels: dict[str, SimChannel] = {}
        self._users: dict[str, SimUser] = {}
        self._members: dict[tuple[str, str], SimMember] = {}
        self._manager_roles: dict[str, str] = {}
        self._messages: dict[str, SimMessage] = {}
        self._channel_messages: dict[str, list[str]] = {}
        self._dm_channels: dict[str, SimChannel] = {}
        self._attachments: dict[str, dict[str, Any]] = {}
        self._interactions: dict[str, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self._global_commands: list[dict[str, Any]] = []
        self._guild_commands: dict[str, list[dict[str, Any]]] = {}
        self._sessions: dict[str, GatewaySession] = {}
        self._gateways: list[GatewaySession] = []
        self._clock_offset = 0.0
        self._tasks: set[asyncio.Task[None]] = set()
        self._in_flight = 0
        self._last_activity = time.monotonic()
        self._synced = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._validator: SpecValidator | None = None
        self._saved: tuple[str, yarl.URL] | None = None
        self._saved_cdn = discord.asset.Asset.BASE
        self.avatar_requests: list[str] = []  # + paths (with query) the avatar CDN was asked
        self.avatar_delay = 0.0  # + seconds the avatar CDN takes to answer
        self._client: discord.Client | None = None
        self._client_task: asyncio.Task[None] | None = None
        self._log_handler = _LogCapture(self.client_errors, self.client_warnings)
        self.port = 0
        #: + the application's OAuth2 client secret (its id is ``application_id``)
        self.client_secret = "sim-client-secret"
        self._oauth_codes: dict[str, str] = {}  # code -> user id (each used once)
        self._access_tokens: dict[str, str] = {}  # bearer token -> user id
        self._activity_instances: dict[str, tuple[SimChannel, list[SimUser]]] = {}
        #: + the threads (tests/discord_sim/threads.py)
        self._threads = Threads(self)
        self._routes: dict[tuple[str, str], Handler] = self._route_table()
        #: + faults a test injects (500s, 429s), the requests refused, the invalid requests
        #: of the last 10 minutes and the global limit, off unless set (faults.py)
        self.faults = Faults(self.now)
        if activities:  # what Discord makes when Activities are enabled in the portal
            self._global_commands.append(self._stored_command(
                {"name": "launch", "description": "", "type": PRIMARY_ENTRY_POINT,
                 "handler": DISCORD_LAUNCH_ACTIVITY, "integration_types": [0, 1],
                 "contexts": [0, 1, 2]}, None, None))

    # ----------------------------------------------------------------- lifecycle

    async def __aenter__(self) -> SimulatedDiscord:
        self._validator = spec_validator()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._gateway_handler)
        app.router.add_route("GET", "/attachments/{attachment_id}/{filename}", self._cdn)
        app.router.add_route("GET", "/avatars/{user_id}/{filename}", self._avatar)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._api)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        self._saved_cdn = discord.asset.Asset.BASE
        discord.http.Route.BASE = self.base_url + API_PREFIX
        discord.asset.Asset.BASE = self.base_url  # avatars come from the CDN stub
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self.gateway_url
        logging.getLogger("discord").addHandler(self._log_handler)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            if self._client is not None:
                with contextlib.suppress(TimeoutError):
                    await self.settle(idle=0.01, timeout=2.0)
                await self._close_client(graceful=True)
            for session in list(self._gateways):
                await session.ws.close()
            if self._runner is not None:
                await self._runner.cleanup()
        finally:
            logging.getLogger("discord").removeHandler(self._log_handler)
            if self._saved is not None:
                discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = (
                    self._saved
                )
                discord.asset.Asset.BASE = self._saved_cdn

    @property
    def base_url(self) -> str:
        """The server's http://127.0.0.1:port address."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> yarl.URL:
        """The gateway websocket's address."""
        return yarl.URL(f"ws://127.0.0.1:{self.port}/gateway")

    async def start(
        self,
        client: discord.Client,
        token: str = "sim-token",
        *,
        wait_for_sync: bool | None = None,
        guild_ready_timeout: float | None = 0.05,
        timeout: float = 10.0,
    ) -> None:
        """Run `client.start(token)` as a task; return once it is ready and has synced commands.

        `wait_for_sync` None waits for a PUT of application commands only when none are
        registered yet (a restarted bot may skip its sync). `guild_ready_timeout` shortens
        discord.py's wait for further GUILD_CREATEs (2 s by default): this server sends all of
        them right after READY, so there is nothing more to wait for.
        """
        if self._client is not None:
            raise RuntimeError("a client is already running; stop_bot() it first")
        self.token = token
        if guild_ready_timeout is not None:
            client._connection.guild_ready_timeout = guild_ready_timeout
        if wait_for_sync is None:  # (the entry point Discord made is not the bot's sync)
            wait_for_sync = not [c for c in self._global_commands
                                 if c.get("type") != PRIMARY_ENTRY_POINT] \
                and not any(self._guild_commands.values())
        self._synced = asyncio.Event()
        self._client = client
        self._client_task = asyncio.create_task(client.start(token), name="simulated-bot")

        async def ready() -> None:
            await client.wait_until_ready()
            if wait_for_sync:
                await self._synced.wait()

        waiter = asyncio.create_task(ready())
        done, _ = await asyncio.wait(
            {waiter, self._client_task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if waiter not in done:
            waiter.cancel()
            if self._client_task in done:
                self._client = None
                task, self._client_task = self._client_task, None
                with contextlib.suppress(Exception):
                    await discord.Client.close(client)
                task.result()
                raise RuntimeError("the client stopped before it was ready")
            what = "command sync (PUT .../commands)" if client.is_ready() else "READY"
            await self._close_client(graceful=False)
            raise TimeoutError(f"the client did not reach {what} within {timeout} s")

    async def stop_bot(self, *, graceful: bool = False) -> None:
        """Stop the running client: abruptly (task cancelled, socket dropped) or via close()."""
        await self._close_client(graceful=graceful)

    async def _close_client(self, *, graceful: bool) -> None:
        client, task = self._client, self._client_task
        self._client, self._client_task = None, None
        if client is None or task is None:
            return
        if graceful:
            await client.close()
        else:
            task.cancel()
            if client.ws is not None:
                with contextlib.suppress(Exception):
                    await client.ws.close(code=4000)
            with contextlib.suppress(Exception):
                await discord.Client.close(client)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        for session in list(self._gateways):
            with contextlib.suppress(Exception):
                await session.ws.close(code=4000)
        await asyncio.sleep(0)

    async def reconnect(self, timeout: float = 5.0) -> None:
        """Ask the connected client to reconnect (opcode 7); return once it has RESUMED."""
        session = self._active_gateway()
        await session.send(RECONNECT, None)
        limit = time.monotonic() + timeout
        while True:
            fresh = [s for s in self._gateways if s is not session and s.identified]
            if fresh and fresh[-1].ready_sent.is_set() and session.closed.is_set():
                return
            if time.monotonic() > limit:
                raise TimeoutError("the client did not resume")
            await asyncio.sleep(0.005)

    # ------------------------------------------------------------------ clock

    def now(self) -> float:
        """The simulation's clock in seconds (monotonic, plus advance_time())."""
        return time.monotonic() + self._clock_offset

    def advance_time(self, seconds: float) -> None:
        """Move the simulation's clock forward (deadlines and the 15-minute token expire)."""
        self._clock_offset += seconds

    # -------------------------------------------------------------- the world

    def add_guild(
        self, name: str, locale: str = "en-US", *, everyone_permissions: int = EVERYONE_PERMISSIONS
    ) -> SimGuild:
        """Add a guild the bot is in (sent in GUILD_CREATE on the next IDENTIFY)."""
        guild = SimGuild(self._ids.next(), name, locale, everyone_permissions=everyone_permissions)
        owner = self.add_user(f"{name} Owner")
        guild.owner_id = owner.id
        self.guilds[guild.id] = guild
        self._manager_roles[guild.id] = self._ids.next()
        self._members[(guild.id, owner.id)] = SimMember(owner, guild, manage_guild=True)
        self._members[(guild.id, self.bot_user.id)] = SimMember(self.bot_user, guild)
        self._announce("GUILD_CREATE", lambda: self.guild_create_payload(guild), guild.id)
        return guild

    def add_channel(self, guild: SimGuild, name: str) -> SimChannel:
        """Add a text channel to a guild."""
        channel = SimChannel(self._ids.next(), guild.id, name)
        self._channels[channel.id] = channel
        self._channel_messages[channel.id] = []
        self._announce("CHANNEL_CREATE", channel.payload, guild.id)
        return channel

    def _announce(self, event: str, payload: Callable[[], dict[str, Any]],
                  guild_id: str | None = None) -> None:
        """Dispatch an event to connected clients when the world changes while they run
        (to the connections whose shard carries the guild)."""
        sessions = [s for s in self._gateways
                    if s.identified and not s.ws.closed and s.serves(guild_id)]
        if not sessions:
            return

        async def send() -> None:
            try:
                for session in sessions:
                    with contextlib.suppress(ConnectionError):
                        await session.dispatch(event, payload())
            finally:
                self._in_flight -= 1
                self._touch()

        self._in_flight += 1
        self._tasks.add(task := asyncio.get_running_loop().create_task(send()))
        task.add_done_callback(self._tasks.discard)

    def add_user(self, name: str, locale: str = "en-US", *, accepts_dms: bool = True,
                 avatar: bytes | None = None) -> SimUser:
        """Add a user; `accepts_dms=False` makes the bot's DMs to them fail with 403/50007;
        `avatar` (image bytes) is their own avatar, served by the CDN stub."""
        user = SimUser(self._ids.next(), name, locale, accepts_dms=accepts_dms, avatar=avatar)
        self._users[user.id] = user
        return user

    def oauth_code(self, user: SimUser) -> str:
        """+ An OAuth2 authorization code for a user, as the Discord client hands an Activity
        after ``authorize`` (exchanged once at POST /oauth2/token)."""
        code = secrets.token_urlsafe(18)
        self._oauth_codes[code] = user.id
        return code

    def add_activity_instance(self, channel: SimChannel, users: list[SimUser]) -> str:
        """+ An Activity launched in a channel with these people in it: its instance id
        (GET /applications/{app}/activity-instances/{id} answers it)."""
        instance_id = f"i-{self._ids.next()}-gc-{channel.guild_id}-{channel.id}"
        self._activity_instances[instance_id] = (channel, list(users))
        return instance_id

    def add_member(self, guild: SimGuild, user: SimUser, manage_guild: bool = False) -> SimMember:
        """Make a user a member of a guild (optionally with the Manage Server permission)."""
        member = SimMember(user, guild, manage_guild=manage_guild)
        self._members[(guild.id, user.id)] = member
        return member

    def dm_channel(self, user: SimUser) -> SimChannel:
        """The user's DM channel with the bot (created on first use, as Discord does)."""
        channel = self._dm_channels.get(user.id)
        if channel is None:
            channel = SimChannel(self._ids.next(), None, user.name, type=DM, recipient_id=user.id)
            self._dm_channels[user.id] = channel
            self._channels[channel.id] = channel
            self._channel_messages[channel.id] = []
        return channel

    def members_of(self, guild: SimGuild) -> list[SimMember]:
        """Every member of a guild."""
        return [m for (gid, _), m in self._members.items() if gid == guild.id]

    def member_permissions(self, member: SimMember) -> int:
        """A member's guild permissions (owner: all; Manage Server if given)."""
        if member.user.id == member.guild.owner_id:
            return (1 << 53) - 1
        value = member.guild.everyone_permissions
        if member.manage_guild:
            value |= MANAGE_GUILD
        if member.user.id == self.bot_user.id:
            value |= BOT_PERMISSIONS
        return value

    def bot_permissions(self, channel: SimChannel | None = None) -> int:
        """The bot's permissions in a channel (app_permissions): + its member overwrite in
        the channel (a thread's: its parent's, as threads inherit them) applied."""
        value = BOT_PERMISSIONS
        if channel is not None and channel.is_thread:
            channel = self._channels.get(channel.parent_id or "", channel)
        if channel is not None and self.bot_user.id in channel.overwrites:
            allow, deny = channel.overwrites[self.bot_user.id]
            value = (value & ~deny) | allow
        return value

    def overwrite_bot(self, channel: SimChannel, *, allow: int = 0, deny: int = 0) -> None:
        """+ Set the bot member's permission overwrite in a guild channel (allow and deny
        bits, e.g. ``deny=CREATE_PUBLIC_THREADS``; both 0 removes it), as a server admin
        would; CHANNEL_UPDATE tells a running client."""
        if channel.guild_id is None or channel.is_thread:
            raise AssertionError("overwrites belong to a guild channel (threads inherit them)")
        if allow or deny:
            channel.overwrites[self.bot_user.id] = (allow, deny)
        else:
            channel.overwrites.pop(self.bot_user.id, None)
        self._announce("CHANNEL_UPDATE", channel.payload, channel.guild_id)

    def member_payload(self, member: SimMember, *, with_user: bool = True) -> dict[str, Any]:
        """Return the guild member object Discord sends."""
        roles = [self._manager_roles[member.guild.id]] if member.manage_guild else []
        data: dict[str, Any] = {
            "roles": roles,
            "nick": None,
            "avatar": None,
            "banner": None,
            "joined_at": member.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = member.user.payload()
        return data

    def guild_create_payload(self, guild: SimGuild) -> dict[str, Any]:
        """Return the GUILD_CREATE payload (members: only the bot, as for unprivileged intents)."""
        channels = [c.payload() for c in self._channels.values()
                    if c.guild_id == guild.id and not c.is_thread]
        for channel in channels:
            del channel["guild_id"]
        bot_member = self._members[(guild.id, self.bot_user.id)]
        role = {
            "id": guild.id,
            "name": "@everyone",
            "permissions": str(guild.everyone_permissions),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        managers = dict(
            role,
            id=self._manager_roles[guild.id],
            name="Managers",
            permissions=str(MANAGE_GUILD),
            position=1,
        )
        return {
            "id": guild.id,
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": guild.owner_id,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [role, managers],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": guild.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": bot_member.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(self.members_of(guild)),
            "voice_states": [],
            "members": [self.member_payload(bot_member)],
            "channels": channels,
            # + the guild's active threads, each with the bot's thread member when it is in
            #   it (the threads topic, "Gateway Events" and "Syncing for the current user")
            "threads": [self._threads.payload(t) for t in self._threads.active(guild.id)],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # ------------------------------------------------------------ test views

    def messages(self, channel: SimChannel) -> list[SimMessage]:
        """The channel's visible (non-ephemeral, not deleted) messages, oldest first."""
        found = []
        for message_id in self._channel_messages.get(channel.id, []):
            message = self._messages[message_id]
            if not message.deleted and not message.ephemeral:
                found.append(message)
        return found

    def threads_in(self, channel: SimChannel, *, archived: bool = True) -> list[SimChannel]:
        """+ The channel's threads, oldest first, deleted ones left out (archived ones too
        with ``archived=False``). Each is a SimChannel (type 11 or 12, ``parent_id``,
        ``archived``, ``locked``, ``message_count``...); sim.messages(thread) reads it."""
        return self._threads.of(channel, archived=archived)

    def channel(self, channel_id: str) -> SimChannel:
        """+ Any channel by id, threads (deleted ones too) included."""
        return self._channels[str(channel_id)]

    def archive(self, thread: SimChannel, *, by_moderator: bool = True,
                locked: bool = False) -> None:
        """+ Archive a thread as a moderator (``locked=True``: and lock it), or as Discord does
        once it has been idle for its auto_archive_duration (``by_moderator=False``); a
        running client gets THREAD_UPDATE (``await sim.settle()`` to wait for it)."""
        self._threads.archive(thread, by_moderator=by_moderator, locked=locked)

    def delete_channel(self, thread: SimChannel) -> None:
        """+ Delete a thread as a moderator; a running client gets THREAD_DELETE."""
        self._threads.delete_thread(thread)

    def last_message(self, channel: SimChannel) -> SimMessage | None:
        """The channel's newest visible message, or None."""
        found = self.messages(channel)
        return found[-1] if found else None

    def dms(self, user: SimUser) -> list[SimMessage]:
        """The messages in the user's DM channel with the bot."""
        channel = self._dm_channels.get(user.id)
        return [] if channel is None else self.messages(channel)

    def ephemerals(self, user: SimUser) -> list[SimMessage]:
        """The ephemeral messages shown to this user (current state, oldest first)."""
        return [
            m
            for m in self._messages.values()
            if m.ephemeral and not m.deleted and m.interaction_user_id == user.id
        ]

    def message(self, message_id: str) -> SimMessage:
        """Any stored message by id."""
        return self._messages[str(message_id)]

    def commands(self, guild: SimGuild | None = None) -> list[dict[str, Any]]:
        """The registered application commands (global, or of one guild)."""
        if guild is None:
            return copy.deepcopy(self._global_commands)
        return copy.deepcopy(self._guild_commands.get(guild.id, []))

    async def settle(self, idle: float = 0.05, timeout: float = 10.0) -> None:
        """Wait until no request is in flight, none arrived for `idle` seconds, and the client
        answers no interaction any more (a client may keep the tasks answering interactions in a
        set named `answering`: one that waits on its database between two requests is not done,
        however quiet the wire is; and a count named `drawing` of the pictures it is drawing: a
        message waits for its picture with nothing on the wire, longer than `idle` on a loaded
        machine)."""
        limit = time.monotonic() + timeout
        busy_at = 0.0  # the last time the client answered or drew (its request may follow)
        while True:
            now = time.monotonic()
            answering = getattr(self._client, "answering", None) or ()
            drawing = getattr(self._client, "drawing", 0)
            if answering or drawing:
                busy_at = now
            quiet = now - max(self._last_activity, busy_at)
            if self._in_flight == 0 and quiet >= idle:
                return
            if now > limit:
                raise TimeoutError(f"the bot did not settle within {timeout} s")
            await asyncio.sleep(max(0.005, idle - quiet if self._in_flight == 0 else 0.005))

    # ----------------------------------------------------------- interactions

    async def slash(
        self,
        user: SimUser,
        channel: SimChannel,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        locale: str | None = None,
    ) -> InteractionResult:
        """Invoke a registered slash command ("play" or "settings dm") with options by name."""
        names = command.strip().lstrip("/").split()
        definition = self._find_command(user, channel, names[0])
        values = options or {}
        opts, resolved = build_command_options(self, definition, names[1:], values, channel)
        data: dict[str, Any] = {"id": definition["id"], "name": definition["name"], "type": 1}
        if opts:
            data["options"] = opts
        if resolved:
            data["resolved"] = resolved
        if definition.get("guild_id"):
            data["guild_id"] = definition["guild_id"]
        return await self._interact(APPLICATION_COMMAND, user, channel, data, locale=locale)

    async def autocomplete(
        self,
        user: SimUser,
        channel: SimChannel,
        command: str,
        options: dict[str, Any],
        focused: str,
        *,
        locale: str | None = None,
    ) -> InteractionResult:
        """Ask for autocomplete choices of option `focused` (choices in the result's .choices)."""
        names = command.strip().lstrip("/").split()
        definition = self._find_command(user, channel, names[0])
        opts, resolved = build_command_options(
            self, definition, names[1:], options, channel, focused=focused
        )
        data: dict[str, Any] = {"id": definition["id"], "name": definition["name"], "type": 1}
        data["options"] = opts
        if resolved:
            data["resolved"] = resolved
        if definition.get("guild_id"):
            data["guild_id"] = definition["guild_id"]
        return await self._interact(AUTOCOMPLETE, user, channel, data, locale=locale)

    async def click(
        self,
        user: SimUser,
        message: SimMessage,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        locale: str | None = None,
    ) -> InteractionResult:
        """Click a button of a message the bot sent (refused if absent or disabled)."""
        current = self._visible_message(user, message)
        data = button_data(current, custom_id, label)
        channel = self._channels[current.channel_id]
        return await self._interact(
            MESSAGE_COMPONENT, user, channel, data, message=current, locale=locale
        )

    dm_click = click

    async def select(
        self,
        user: SimUser,
        message: SimMessage,
        custom_id: str,
        values: list[Any],
        *,
        locale: str | None = None,
    ) -> InteractionResult:
        """Choose values in a select menu of a message (checked against its options)."""
        current = self._visible_message(user, message)
        data = select_data(self, current, custom_id, values)
        channel = self._channels[current.channel_id]
        return await self._interact(
            MESSAGE_COMPONENT, user, channel, data, message=current, locale=locale
        )

    async def submit_modal(
        self,
        user: SimUser,
        modal: SimModal | None,
        values: dict[str, Any],
        *,
        locale: str | None = None,
    ) -> InteractionResult:
        """Submit a modal the bot opened, with field values by custom_id."""
        if modal is None:
            raise AssertionError("the bot opened no modal")
        if modal.user_id != user.id:
            raise AssertionError(f"the modal {modal.custom_id!r} was shown to another user")
        if modal.submitted:
            raise AssertionError(f"the modal {modal.custom_id!r} was already submitted")
        data = modal_submit_data(self, modal, values)
        modal.submitted = True
        channel = self._channels[modal.channel_id]
        message = self._messages.get(modal.message_id) if modal.message_id else None
        return await self._interact(
            MODAL_SUBMIT, user, channel, data, message=message, locale=locale
        )

    async def open_app_launcher(
        self, user: SimUser, channel: SimChannel, *, locale: str | None = None
    ) -> InteractionResult | ActivityLaunch:
        """The person picks the app in Discord's App Launcher, which runs its entry point
        command: with Discord's handler (2) the Activity opens without the bot (the launch is
        returned); with the app's handler (1) the bot gets the interaction (its result)."""
        entry = next((c for c in self._global_commands
                      if c.get("type") == PRIMARY_ENTRY_POINT), None)
        if entry is None or not self.activities:
            raise AssertionError("the app has no entry point command: nothing to launch")
        if entry.get("handler") == DISCORD_LAUNCH_ACTIVITY:
            self._launch(user, channel, None)
            return self.launches[-1]
        data = {"id": entry["id"], "name": entry["name"], "type": PRIMARY_ENTRY_POINT}
        return await self._interact(APPLICATION_COMMAND, user, channel, data, locale=locale)

    def _launch(self, user: SimUser, channel: SimChannel, interaction_id: str | None) -> str:
        """Open the Activity in a channel for a person: its instance id."""
        instance_id = self.add_activity_instance(channel, [user])
        self.launches.append(ActivityLaunch(instance_id, user, channel, interaction_id,
                                            self.now()))
        return instance_id

    def _find_command(self, user: SimUser, channel: SimChannel, name: str) -> dict[str, Any]:
        candidates = []
        if channel.guild_id is not None:
            candidates += self._guild_commands.get(channel.guild_id, [])
        candidates += self._global_commands
        for command in candidates:
            if command["name"] == name and command.get("type", 1) == 1:
                break
        else:
            known = sorted({c["name"] for c in candidates})
            raise AssertionError(f"no slash command /{name} is registered here (known: {known})")
        contexts = command.get("contexts")
        context = 0 if channel.guild_id is not None else 1
        if contexts is not None and context not in contexts:
            raise AssertionError(f"/{name} is not offered in this context ({context})")
        if contexts is None and context == 1 and command.get("dm_permission") is False:
            raise AssertionError(f"/{name} is not offered in DMs")
        if channel.guild_id is not None:
            member = self._members.get((channel.guild_id, user.id))
            if member is None:
                raise AssertionError(f"{user.name} is not a member of this guild")
            required = command.get("default_member_permissions")
            if required is not None:
                have = self.member_permissions(member)
                if not have & ADMINISTRATOR and int(required) & have != int(required):
                    raise AssertionError(f"/{name} is hidden from {user.name} (permissions)")
        return command

    def _visible_message(self, user: SimUser, message: SimMessage) -> SimMessage:
        current = self._messages.get(message.id)
        if current is None or current.deleted:
            raise AssertionError(f"message {message.id} no longer exists")
        if current.ephemeral and current.interaction_user_id != user.id:
            raise AssertionError(f"{user.name} cannot see this ephemeral message")
        channel = self._channels[current.channel_id]
        if channel.deleted:
            raise AssertionError(f"the channel of message {message.id} was deleted")
        if channel.type == DM and channel.recipient_id != user.id:
            raise AssertionError(f"{user.name} cannot see another user's DM")
        if channel.guild_id is not None and (channel.guild_id, user.id) not in self._members:
            raise AssertionError(f"{user.name} is not a member of this guild")
        return current

    def _user_of(self, value: Any) -> SimUser:
        if isinstance(value, SimUser):
            return value
        user = self._users.get(str(value))
        if user is None:
            raise AssertionError(f"unknown user {value!r}")
        return user

    def _active_gateway(self, guild_id: str | None = None) -> GatewaySession:
        """The newest connection that carries the guild's events (its shard's)."""
        for session in reversed(self._gateways):
            if session.identified and not session.ws.closed and session.serves(guild_id):
                return session
        raise AssertionError("no bot is connected to the gateway")

    async def _interact(
        self,
        kind: int,
        user: SimUser,
        channel: SimChannel,
        data: dict[str, Any],
        *,
        message: SimMessage | None = None,
        locale: str | None = None,
    ) -> InteractionResult:
        if channel.deleted:
            raise AssertionError(f"the channel {channel.name!r} was deleted")
        if channel.is_thread and channel.archived and kind in (APPLICATION_COMMAND, AUTOCOMPLETE):
            # Discord's threads topic: users cannot use application commands in archived threads
            raise AssertionError(f"commands cannot be used in the archived thread {channel.name!r}")
        gateway = self._active_gateway(channel.guild_id)
        record = InteractionRecord(
            id=self._ids.next(),
            token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
            type=kind,
            user=user,
            channel=channel,
            created=self.now(),
            deadline=self.interaction_deadline,
            payload={},
            message_id=None if message is None else message.id,
        )
        payload: dict[str, Any] = {
            "id": record.id,
            "application_id": self.application_id,
            "type": kind,
            "data": data,
            "token": record.token,
            "version": 1,
            "channel_id": channel.id,
            "channel": dict(channel.payload(), permissions=str(self.bot_permissions(channel))),
            "locale": locale or user.locale,
            "app_permissions": str(self.bot_permissions(channel)),
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if channel.guild_id is not None:
            guild = self.guilds[channel.guild_id]
            member = self._members[(guild.id, user.id)]
            payload["guild_id"] = guild.id
            payload["guild"] = {"id": guild.id, "locale": guild.locale, "features": []}
            payload["guild_locale"] = guild.locale
            payload["member"] = dict(
                self.member_payload(member), permissions=str(self.member_permissions(member))
            )
            payload["authorizing_integration_owners"] = {"0": guild.id}
            payload["context"] = 0
        else:
            payload["user"] = user.payload()
            payload["channel"]["recipients"] = [user.payload()]
            # A guild-installed app in its own bot DM: owner "0" (Discord's documentation).
            payload["authorizing_integration_owners"] = {"0": "0"}
            payload["context"] = 1
        if message is not None:
            payload["message"] = self.message_payload(message)
        record.payload = payload
        self._interactions[record.id] = record
        self._by_token[record.token] = record
        self._touch()
        await gateway.dispatch("INTERACTION_CREATE", payload)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(record.answered.wait(), timeout=record.deadline)
        if record.callback_type is not None:
            await self.settle(idle=self.result_idle)
        return InteractionResult(self, record)

    # ---------------------------------------------------------------- gateway

    async def _gateway_handler(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = GatewaySession(self, ws)
        self._gateways.append(session)
        await session.run()
        return ws

    def _gateway_identified(self, session: GatewaySession) -> None:
        self._sessions[session.session_id] = session

    def _gateway_closed(self, session: GatewaySession) -> None:
        if session in self._gateways:
            self._gateways.remove(session)

    async def _dispatch_all(self, event: str, data: dict[str, Any], guild_message: bool) -> None:
        for session in list(self._gateways):
            if (
                session.identified
                and not session.ws.closed
                and session.wants_message(guild_message)
                and session.serves(data.get("guild_id"))
            ):
                with contextlib.suppress(ConnectionError):
                    await session.dispatch(event, data)

    # ------------------------------------------------------------------- REST

    def _touch(self) -> None:
        self._last_activity = time.monotonic()

    def _route_table(self) -> dict[tuple[str, str], Handler]:
        app = "/applications/{application_id}"
        hook = "/webhooks/{webhook_id}/{webhook_token}"
        msgs = "/channels/{channel_id}/messages"
        members = "/channels/{channel_id}/thread-members"
        return {
            ("GET", "/gateway"): self._get_gateway,
            ("GET", "/gateway/bot"): self._get_gateway,
            ("POST", "/oauth2/token"): self._oauth_token,
            ("GET", app + "/activity-instances/{instance_id}"): self._activity_instance,
            ("GET", "/users/@me"): self._get_me,
            ("GET", "/users/{user_id}"): self._get_user,
            ("GET", "/oauth2/applications/@me"): self._get_application,
            ("GET", "/applications/@me"): self._get_application,
            ("GET", app + "/commands"): self._list_commands,
            ("PUT", app + "/commands"): self._put_commands,
            ("POST", app + "/commands"): self._post_command,
            ("GET", app + "/commands/{command_id}"): self._get_command,
            ("PATCH", app + "/commands/{command_id}"): self._patch_command,
            ("DELETE", app + "/commands/{command_id}"): self._delete_command,
            ("GET", app + "/guilds/{guild_id}/commands"): self._list_commands,
            ("PUT", app + "/guilds/{guild_id}/commands"): self._put_commands,
            ("POST", app + "/guilds/{guild_id}/commands"): self._post_command,
            ("GET", app + "/guilds/{guild_id}/commands/{command_id}"): self._get_command,
            ("PATCH", app + "/guilds/{guild_id}/commands/{command_id}"): self._patch_command,
            ("DELETE", app + "/guilds/{guild_id}/commands/{command_id}"): self._delete_command,
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"): self._callback,
            ("POST", hook): self._followup,
            ("GET", hook + "/messages/@original"): self._get_webhook_message,
            ("PATCH", hook + "/messages/@original"): self._edit_webhook_message,
            ("DELETE", hook + "/messages/@original"): self._delete_webhook_message,
            ("GET", hook + "/messages/{message_id}"): self._get_webhook_message,
            ("PATCH", hook + "/messages/{message_id}"): self._edit_webhook_message,
            ("DELETE", hook + "/messages/{message_id}"): self._delete_webhook_message,
            ("GET", "/channels/{channel_id}"): self._get_channel,
            ("PATCH", "/channels/{channel_id}"): self._patch_channel,
            ("DELETE", "/channels/{channel_id}"): self._delete_channel,
            ("POST", msgs + "/{message_id}/threads"): self._threads.start_from_message,
            ("POST", "/channels/{channel_id}/threads"): self._threads.start_without_message,
            ("PUT", members + "/@me"): self._threads.join,
            ("DELETE", members + "/@me"): self._threads.leave,
            ("PUT", members + "/{user_id}"): self._threads.join,
            ("DELETE", members + "/{user_id}"): self._threads.leave,
            ("POST", "/channels/{channel_id}/typing"): self._typing,
            ("GET", msgs): self._list_messages,
            ("POST", msgs): self._post_message,
            ("GET", msgs + "/{message_id}"): self._get_message,
            ("PATCH", msgs + "/{message_id}"): self._patch_message,
            ("DELETE", msgs + "/{message_id}"): self._delete_message,
            ("POST", "/users/@me/channels"): self._open_dm,
            ("GET", "/guilds/{guild_id}"): self._get_guild,
            ("GET", "/guilds/{guild_id}/channels"): self._get_guild_channels,
            ("GET", "/guilds/{guild_id}/members/{user_id}"): self._get_member,
        }

    async def _api(self, request: web.Request) -> web.StreamResponse:
        self._in_flight += 1
        self._touch()
        try:
            return await self._answer(request)
        finally:
            self._in_flight -= 1
            self._touch()

    async def _answer(self, request: web.Request) -> web.StreamResponse:
        assert self._validator is not None
        path = "/" + request.match_info["tail"]
        method = request.method
        route = path if path in UNDESCRIBED else self._validator.match(path)
        captured = CapturedRequest(
            method=method,
            path=path,
            route=route or path,
            json=None,
            files=[],
            headers=dict(request.headers),
            query=dict(request.query),
            time=self.now(),
        )
        self.requests.append(captured)
        context: RequestContext | None = None
        bucket: dict[str, str] = {}  # + the route's bucket headers, when buckets are kept
        try:
            params = _path_params(route, path) if route else {}
            body, files, content_type = await self._read_body(request)
            captured.json = body
            captured.files = files
            self._record_interaction_request(captured, route, params)
            checks = [] if route in UNDESCRIBED else (
                self._validator.validate(method, route, content_type, body)
                + self._validator.validate_query(method, route, captured.query))
            for message in checks:
                self.spec_errors.append(SpecError(method, route or path, path, message))
            limits = component_limits(
                body.get("data")
                if isinstance(body, dict) and route and "callback" in route
                else body,
                modal=isinstance(body, dict) and body.get("type") == MODAL,
            )
            if limits:
                for message in limits:
                    self.spec_errors.append(SpecError(method, route or path, path, message))
                raise SimHTTPError(400, 50035, "Invalid Form Body", {"components": limits})
            handler = self._routes.get((method, route or ""))
            if handler is None:
                self.spec_errors.append(
                    SpecError(
                        method, route or path, path, "route not simulated by SimulatedDiscord"
                    )
                )
                raise SimHTTPError(404, 0, "404: Not Found")
            if not self._authorized(route or "", request):
                raise SimHTTPError(401, 0, "401: Unauthorized")
            refusal, bucket = self.faults.check(captured, exempt=self._exempt(route or "", params),
                                                params=params)
            if refusal is not None and refusal.status == DROP:  # the connection breaks
                captured.status = DROP
                assert request.transport is not None
                request.transport.close()
                return web.Response(status=500)  # (never reaches the client)
            if refusal is not None:  # + an injected fault, the global limit or a bucket
                captured.status, captured.response = refusal.status, refusal.body
                self.faults.answered(refusal.status, refusal.headers)
                return self._respond(refusal.status, refusal.body, route or path,
                                     refusal.headers)
            context = RequestContext(captured, params, body, files)
            status, answer = await self._call(handler, context)
        except SimHTTPError as error:
            status = error.status
            answer = {"message": error.message, "code": error.code}
            if error.errors is not None:
                answer["errors"] = error.errors
        if route and (route in SELF_CHECKED or (context is not None and context.self_check)):
            # + the simulator's own answer (or refusal), against the spec
            for message in self._validator.validate_response(method, route, status, answer):
                self.spec_errors.append(SpecError(method, route, path, message))
        captured.status = status
        captured.response = answer
        self.faults.answered(status, {})
        return self._respond(status, answer, route or path, bucket)

    async def _call(self, handler: Handler, context: RequestContext) -> tuple[int, Any]:
        return await handler(context)

    def _authorized(self, route: str, request: web.Request) -> bool:
        if route.startswith("/interactions/") or route.startswith("/webhooks/{webhook_id}/{"):
            return True
        if route == "/oauth2/token":  # + the client's credentials are in the form
            return True
        bearer = request.headers.get("Authorization", "")
        if route == "/users/@me" and bearer.startswith("Bearer "):  # + an OAuth2 token
            return bearer[len("Bearer "):] in self._access_tokens
        return request.headers.get("Authorization") == f"Bot {self.token}"

    def _exempt(self, route: str, params: dict[str, str]) -> bool:
        """Whether a request is outside the global limit: an interaction's callback, or a
        webhook route through an interaction's token."""
        return route.startswith("/interactions/") or (
            route.startswith("/webhooks/{webhook_id}/{webhook_token}")
            and params.get("webhook_token", "") in self._by_token)

    def _respond(self, status: int, answer: Any, route: str,
                 extra: dict[str, str] | None = None) -> web.Response:
        headers = {
            "X-RateLimit-Limit": "50",
            "X-RateLimit-Remaining": "49",
            "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
            "X-RateLimit-Reset-After": "1.000",
            "X-RateLimit-Bucket": f"{abs(hash(route)):x}"[:16],
            "X-RateLimit-Scope": "user",
        }
        if extra and "X-RateLimit-Global" in extra:  # the global limit names no bucket
            headers = {}
        headers.update(extra or {})
        if status == 204 or answer is None:
            return web.Response(status=204, headers=headers)
        # Exactly "application/json" (no charset), as Discord sends and discord.py expects.
        headers["Content-Type"] = "application/json"
        return web.Response(body=json.dumps(answer).encode(), status=status, headers=headers)

    async def _read_body(
        self, request: web.Request
    ) -> tuple[Any, list[dict[str, Any]], str | None]:
        if not request.body_exists:
            return None, [], None
        # parsed here rather than by aiohttp's ``content_type`` and multipart reader, whose
        # e-mail header parsing made reading the bodies a fifth of the simulator's CPU time
        # under load (benchmarks/bot.py runs this process beside the bot, on the same cores)
        content_type, params = header_params(request.headers.get("Content-Type", ""))
        if content_type == "multipart/form-data":
            body: Any = None
            files: list[dict[str, Any]] = []
            for headers, data in multipart_parts(await request.read(), params.get("boundary")):
                if headers.get("content-type", "").lower().startswith("multipart/"):
                    raise SimHTTPError(400, 50035, "Invalid Form Body: nested multipart")
                _, disposition = header_params(headers.get("content-disposition", ""))
                name = disposition.get("name")
                if name == "payload_json":
                    try:
                        body = json.loads(data)
                    except ValueError as error:
                        raise SimHTTPError(
                            400, 50109, "The request body contains invalid JSON."
                        ) from error
                elif name and name.startswith("files[") and name[6:-1].isdigit():
                    files.append(
                        {
                            "field": name,
                            "index": int(name[6:-1]),
                            "filename": disposition.get("filename") or "file",
                            "bytes": data,
                            "content_type": headers.get(
                                "content-type", "application/octet-stream"
                            ),
                        }
                    )
                else:
                    raise SimHTTPError(400, 50035, f"Invalid Form Body: unknown field {name!r}")
            return body, files, content_type
        raw = await request.read()
        if not raw:
            return None, [], None
        if content_type == "application/x-www-form-urlencoded" and request.match_info.get(
                "tail") == "oauth2/token":  # + OAuth2's form (RFC 6749 section 4.1.3)
            try:
                form = dict(parse_qsl(raw.decode("ascii"), keep_blank_values=True))
            except UnicodeDecodeError as error:
                raise SimHTTPError(400, 50035, "Invalid Form Body") from error
            return form, [], content_type
        if content_type != "application/json":
            raise SimHTTPError(400, 50109, "The request body contains invalid JSON.")
        try:
            return json.loads(raw), [], content_type
        except ValueError as error:
            raise SimHTTPError(400, 50109, "The request body contains invalid JSON.") from error

    def _record_interaction_request(
        self, captured: CapturedRequest, route: str | None, params: dict[str, str]
    ) -> None:
        record = None
        if route and route.startswith("/interactions/"):
            record = self._interactions.get(params.get("interaction_id", ""))
        elif route and route.startswith("/webhooks/{webhook_id}/{webhook_token}"):
            record = self._by_token.get(params.get("webhook_token", ""))
        if record is not None:
            captured.interaction_id = record.id
            record.responses.append(captured)

    async def _avatar(self, request: web.Request) -> web.Response:
        user = self._users.get(request.match_info["user_id"])
        self.avatar_requests.append(request.path_qs)
        asked = time.monotonic()
        while time.monotonic() - asked < self.avatar_delay:  # read again: a test may shorten it
            await asyncio.sleep(0.02)
        name = request.match_info["filename"].rsplit(".", 1)[0]
        if user is None or user.avatar is None or name != user.avatar_hash:
            return web.Response(status=404)
        return web.Response(body=user.avatar, content_type="image/png")

    async def _cdn(self, request: web.Request) -> web.Response:
        attachment = self._attachments.get(request.match_info["attachment_id"])
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment["bytes"], content_type=attachment["content_type"])

    # ---------------------------------------------------------- basic routes

    async def _get_gateway(self, context: RequestContext) -> tuple[int, Any]:
        return 200, {
            "url": str(self.gateway_url),
            "shards": self.shard_count,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14400000,
                "max_concurrency": 1,
            },
        }

    async def _get_me(self, context: RequestContext) -> tuple[int, Any]:
        bearer = context.captured.headers.get("Authorization", "")
        if bearer.startswith("Bearer "):  # + the person an OAuth2 token belongs to
            user = self._users[self._access_tokens[bearer[len("Bearer "):]]]
            return 200, dict(user.payload(), mfa_enabled=False, locale=user.locale)
        return 200, dict(self.bot_user.payload(), verified=True, mfa_enabled=False, locale="en-US")

    async def _oauth_token(self, context: RequestContext) -> tuple[int, Any]:
        """+ OAuth2's authorization-code grant, answered as Discord answers it (errors in
        RFC 6749's shape, not Discord's usual ``{message, code}``)."""
        form = context.body if isinstance(context.body, dict) else {}
        if (form.get("client_id") != self.application_id
                or form.get("client_secret") != self.client_secret):
            return 401, {"error": "invalid_client"}
        if form.get("grant_type") != "authorization_code":
            return 400, {"error": "unsupported_grant_type"}
        user_id = self._oauth_codes.pop(str(form.get("code", "")), None)
        if user_id is None:
            return 400, {"error": "invalid_grant",
                         "error_description": 'Invalid "code" in request.'}
        token = secrets.token_urlsafe(24)
        self._access_tokens[token] = user_id
        return 200, {"access_token": token, "token_type": "Bearer",
                     "expires_in": ACCESS_TOKEN_SECONDS,
                     "refresh_token": secrets.token_urlsafe(24), "scope": "identify"}

    async def _activity_instance(self, context: RequestContext) -> tuple[int, Any]:
        """+ An Activity instance: where it runs and who is in it."""
        found = self._activity_instances.get(context.params["instance_id"])
        if context.params["application_id"] != self.application_id or found is None:
            raise SimHTTPError(404, 10082, "Unknown Activity Instance")
        channel, users = found
        return 200, {
            "application_id": self.application_id,
            "instance_id": context.params["instance_id"],
            "launch_id": f"launch-{context.params['instance_id']}",
            "location": {"id": f"gc-{channel.guild_id}-{channel.id}", "kind": "gc",
                         "channel_id": channel.id, "guild_id": channel.guild_id},
            "users": [user.id for user in users],
        }

    async def _get_user(self, context: RequestContext) -> tuple[int, Any]:
        user = self._users.get(context.params["user_id"])
        if user is None:
            raise SimHTTPError(404, 10013, "Unknown User")
        return 200, user.payload()

    async def _get_application(self, context: RequestContext) -> tuple[int, Any]:
        owner = SimUser("1" + self.application_id[1:], "Owner")
        return 200, {
            "id": self.application_id,
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": EMBEDDED if self.activities else 0,
            "owner": owner.payload(),
            "team": None,
            "bot": self.bot_user.payload(),
            "rpc_origins": [],
            "interactions_endpoint_url": None,
            "tags": [],
            "redirect_uris": [],
            "approximate_guild_count": len(self.guilds),
        }

    async def _get_channel(self, context: RequestContext) -> tuple[int, Any]:
        channel = self._channel(context.params["channel_id"])
        if channel.is_thread:
            return await self._threads.get(channel, context)
        data = channel.payload()
        if channel.type == DM and channel.recipient_id:
            data["recipients"] = [self._users[channel.recipient_id].payload()]
        return 200, data

    async def _patch_channel(self, context: RequestContext) -> tuple[int, Any]:
        """+ PATCH /channels/{id}: threads; other channels need MANAGE_CHANNELS, which the
        bot does not have."""
        channel = self._channel(context.params["channel_id"])
        if not channel.is_thread:
            raise SimHTTPError(403, 50013, "Missing Permissions")
        return await self._threads.patch(channel, context)

    async def _delete_channel(self, context: RequestContext) -> tuple[int, Any]:
        """+ DELETE /channels/{id}: threads (MANAGE_THREADS); other channels need
        MANAGE_CHANNELS, which the bot does not have."""
        channel = self._channel(context.params["channel_id"])
        if not channel.is_thread:
            raise SimHTTPError(403, 50013, "Missing Permissions")
        return await self._threads.delete(channel, context)

    async def _typing(self, context: RequestContext) -> tuple[int, Any]:
        self._channel(context.params["channel_id"])
        return 204, None

    async def _get_guild(self, context: RequestContext) -> tuple[int, Any]:
        guild = self.guilds.get(context.params["guild_id"])
        if guild is None:
            raise SimHTTPError(404, 10004, "Unknown Guild")
        data = self.guild_create_payload(guild)
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key, None)
        return 200, data

    async def _get_guild_channels(self, context: RequestContext) -> tuple[int, Any]:
        guild_id = context.params["guild_id"]
        if guild_id not in self.guilds:
            raise SimHTTPError(404, 10004, "Unknown Guild")
        return 200, [c.payload() for c in self._channels.values()
                     if c.guild_id == guild_id and not c.is_thread]

    async def _get_member(self, context: RequestContext) -> tuple[int, Any]:
        member = self._members.get((context.params["guild_id"], context.params["user_id"]))
        if member is None:
            raise SimHTTPError(404, 10007, "Unknown Member")
        return 200, self.member_payload(member)

    async def _open_dm(self, context: RequestContext) -> tuple[int, Any]:
        body = context.body if isinstance(context.body, dict) else {}
        user = self._users.get(str(body.get("recipient_id")))
        if user is None:
            raise SimHTTPError(400, 50035, "Invalid Form Body: unknown recipient")
        channel = self.dm_channel(user)
        data = channel.payload()
        data["recipients"] = [user.payload()]
        data["last_message_id"] = None
        return 200, data

    def _channel(self, channel_id: str) -> SimChannel:
        channel = self._channels.get(channel_id)
        if channel is None or channel.deleted:
            raise SimHTTPError(404, 10003, "Unknown Channel")
        return channel

    # ------------------------------------------------------------- commands

    def _command_list(self, context: RequestContext) -> list[dict[str, Any]]:
        if context.params["application_id"] != self.application_id:
            raise SimHTTPError(403, 50001, "Missing Access")
        guild_id = context.params.get("guild_id")
        if guild_id is None:
            return self._global_commands
        if guild_id not in self.guilds:
            raise SimHTTPError(403, 50001, "Missing Access")
        return self._guild_commands.setdefault(guild_id, [])

    def _stored_command(
        self, data: dict[str, Any], guild_id: str | None, old: dict[str, Any] | None
    ) -> dict[str, Any]:
        if not isinstance(data, dict) or "name" not in data:
            raise SimHTTPError(400, 50035, "Invalid Form Body: command needs a name")
        if data.get("type", 1) == PRIMARY_ENTRY_POINT and guild_id is not None:
            raise SimHTTPError(400, 50035, "Invalid Form Body: an entry point command is global")
        if "handler" in data and data.get("type", 1) != PRIMARY_ENTRY_POINT:
            raise SimHTTPError(400, 50035, "Invalid Form Body: handler is for entry points only")
        if "handler" in data and not self.activities:
            raise SimHTTPError(400, 50035, "Invalid Form Body: handler needs an Activity")
        if data.get("type", 1) == PRIMARY_ENTRY_POINT and data.get("options"):
            raise SimHTTPError(400, 50035, "Invalid Form Body: an entry point takes no options")
        command = copy.deepcopy(data)
        for server_side in ("id", "application_id", "version", "guild_id"):
            command.pop(server_side, None)
        command["id"] = old["id"] if old else self._ids.next()
        command["application_id"] = self.application_id
        command["version"] = self._ids.next()
        command.setdefault("type", 1)
        command.setdefault("description", "")
        command.setdefault("default_member_permissions", None)
        command.setdefault("nsfw", False)
        if guild_id is not None:
            command["guild_id"] = guild_id
        else:
            command.setdefault("contexts", None)
            command.setdefault("integration_types", [0])
        return command

    async def _list_commands(self, context: RequestContext) -> tuple[int, Any]:
        return 200, copy.deepcopy(self._command_list(context))

    async def _put_commands(self, context: RequestContext) -> tuple[int, Any]:
        commands = self._command_list(context)
        body = context.body or []
        if not isinstance(body, list):
            raise SimHTTPError(400, 50035, "Invalid Form Body: expected a list of commands")
        names = [(c.get("type", 1), c.get("name")) for c in body if isinstance(c, dict)]
        if len(names) != len(set(names)):
            raise SimHTTPError(400, 50035, "Invalid Form Body: duplicate command names")
        entry_points = [c for c in body if isinstance(c, dict)
                        and c.get("type", 1) == PRIMARY_ENTRY_POINT]
        if len(entry_points) > 1:
            raise SimHTTPError(400, 50035, "Invalid Form Body: one entry point command at most")
        kept = [c for c in commands if c.get("type", 1) == PRIMARY_ENTRY_POINT]
        if kept and not entry_points:  # Discord's rule (error 50240)
            raise SimHTTPError(400, 50240, ENTRY_POINT_REMOVED)
        old = {_command_key(c): c for c in commands}
        guild_id = context.params.get("guild_id")
        fresh = [self._stored_command(c, guild_id, old.get(_command_key(c))) for c in body]
        commands[:] = fresh
        self._synced.set()
        return 200, copy.deepcopy(fresh)

    async def _post_command(self, context: RequestContext) -> tuple[int, Any]:
        commands = self._command_list(context)
        body = context.body
        key = _command_key(body) if isinstance(body, dict) else None
        old = next((c for c in commands if _command_key(c) == key), None)
        command = self._stored_command(body, context.params.get("guild_id"), old)
        if old is not None:
            commands[commands.index(old)] = command
            return 200, copy.deepcopy(command)
        commands.append(command)
        return 201, copy.deepcopy(command)

    def _command_by_id(
        self, context: RequestContext
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        commands = self._command_list(context)
        for command in commands:
            if command["id"] == context.params["command_id"]:
                return commands, command
        raise SimHTTPError(404, 10063, "Unknown application command")

    async def _get_command(self, context: RequestContext) -> tuple[int, Any]:
        return 200, copy.deepcopy(self._command_by_id(context)[1])

    async def _patch_command(self, context: RequestContext) -> tuple[int, Any]:
        commands, command = self._command_by_id(context)
        merged = dict(command, **(context.body or {}))
        fresh = self._stored_command(merged, context.params.get("guild_id"), command)
        commands[commands.index(command)] = fresh
        return 200, copy.deepcopy(fresh)

    async def _delete_command(self, context: RequestContext) -> tuple[int, Any]:
        commands, command = self._command_by_id(context)
        commands.remove(command)
        return 204, None

    # ------------------------------------------------------------- messages

    def attachment_payload(self, attachment: dict[str, Any]) -> dict[str, Any]:
        """Return the attachment object Discord sends."""
        url = f"{self.base_url}/attachments/{attachment['id']}/{attachment['filename']}"
        data = {
            "id": attachment["id"],
            "filename": attachment["filename"],
            "size": len(attachment["bytes"]),
            "url": url,
            "proxy_url": url,
            "content_type": attachment["content_type"],
        }
        if attachment.get("description"):
            data["description"] = attachment["description"]
        return data

    def _store_attachment(self, channel: SimChannel, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict) or "filename" not in value or "bytes" not in value:
            raise AssertionError("an attachment option takes {'filename', 'bytes'}")
        attachment = {
            "id": self._ids.next(),
            "filename": value["filename"],
            "bytes": bytes(value["bytes"]),
            "content_type": value.get("content_type", "application/octet-stream"),
        }
        self._attachments[attachment["id"]] = attachment
        return attachment

    def message_payload(self, message: SimMessage) -> dict[str, Any]:
        """Return the message object Discord sends for a stored message."""
        data: dict[str, Any] = {
            "id": message.id,
            "channel_id": message.channel_id,
            "author": self._users[message.author_id].payload()
            if message.author_id in self._users
            else self.bot_user.payload(),
            "content": message.content,
            "timestamp": message.timestamp,
            "edited_timestamp": message.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [self.attachment_payload(a) for a in message.attachments],
            "embeds": copy.deepcopy(message.embeds),
            "pinned": False,
            "type": message.type,
            "flags": message.flags,
            "components": copy.deepcopy(message.components),
        }
        thread = self._channels.get(message.id)
        if thread is not None and thread.is_thread and not thread.deleted \
                and thread.parent_id == message.channel_id:
            data["thread"] = self._threads.payload(thread)  # + the thread started from it
        if message.type == 21 and "message_reference" in message.raw:
            data["message_reference"] = dict(message.raw["message_reference"])
        if message.interaction_id is not None:
            user = self._users[message.interaction_user_id or ""]
            data["application_id"] = self.application_id
            data["webhook_id"] = self.application_id
            data["interaction_metadata"] = {
                "id": message.interaction_id,
                "type": message.interaction_type,
                "user": user.payload(),
                "authorizing_integration_owners": {"0": message.guild_id or "0"},
            }
        return data

    def _event_payload(self, message: SimMessage) -> dict[str, Any]:
        data = self.message_payload(message)
        if message.guild_id is not None:
            data["guild_id"] = message.guild_id
            member = self._members.get((message.guild_id, message.author_id))
            if member is not None:
                data["member"] = self.member_payload(member, with_user=False)
        return data

    def _attachments_from(
        self, body: dict[str, Any], files: list[dict[str, Any]], keep: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Apply an `attachments` list (kept ids plus new file descriptions) and uploaded files."""
        by_index = {f["index"]: f for f in files}
        result: list[dict[str, Any]] = []
        described: set[int] = set()
        existing = {a["id"]: a for a in keep}
        if "attachments" in body and body["attachments"] is not None:
            for item in body["attachments"]:
                key = str(item.get("id"))
                if key in existing:
                    result.append(existing[key])
                    continue
                try:
                    index = int(item["id"])
                except (KeyError, TypeError, ValueError) as error:
                    raise SimHTTPError(400, 50035, "Invalid Form Body: attachment id") from error
                upload = by_index.get(index)
                if upload is None:
                    raise SimHTTPError(400, 50035, f"Invalid Form Body: no files[{index}] uploaded")
                described.add(index)
                result.append(
                    self._new_attachment(upload, item.get("filename"), item.get("description"))
                )
        else:
            result = list(keep)
        for index, upload in sorted(by_index.items()):
            if index not in described:
                result.append(self._new_attachment(upload, None, None))
        if len(result) > 10:
            raise SimHTTPError(400, 50035, "Invalid Form Body: at most 10 attachments")
        return result

    def _new_attachment(
        self, upload: dict[str, Any], filename: str | None, description: str | None
    ) -> dict[str, Any]:
        attachment = {
            "id": self._ids.next(),
            "filename": filename or upload["filename"],
            "bytes": upload["bytes"],
            "content_type": upload["content_type"],
            "description": description,
        }
        self._attachments[attachment["id"]] = attachment
        return attachment

    def _check_message_body(self, body: Any) -> dict[str, Any]:
        if body is None:
            body = {}
        if not isinstance(body, dict):
            raise SimHTTPError(400, 50035, "Invalid Form Body")
        content = body.get("content")
        if content is not None and len(str(content)) > 2000:
            raise SimHTTPError(400, 50035, "Invalid Form Body: content longer than 2000")
        if len(body.get("embeds") or []) > 10:
            raise SimHTTPError(400, 50035, "Invalid Form Body: more than 10 embeds")
        return body

    async def _create_message(
        self,
        channel: SimChannel,
        body: Any,
        files: list[dict[str, Any]],
        *,
        record: InteractionRecord | None = None,
        loading: bool = False,
        message_type: int = 0,
    ) -> SimMessage:
        body = self._check_message_body(body)
        attachments = self._attachments_from(body, files, [])
        flags = int(body.get("flags") or 0) & MESSAGE_FLAGS
        if record is None:
            flags &= ~EPHEMERAL
        if not flags & EPHEMERAL:  # + SEND_MESSAGES, and a thread's lock and archive
            await self._threads.before_post(channel, interaction=record is not None)
        if loading:
            flags = (flags & EPHEMERAL) | LOADING
        elif not (
            body.get("content")
            or body.get("embeds")
            or body.get("components")
            or attachments
            or body.get("sticker_ids")
            or body.get("poll")
        ):
            raise SimHTTPError(400, 50006, "Cannot send an empty message")
        reference = body.get("message_reference")
        if isinstance(reference, dict) and reference.get("message_id") is not None:
            target = self._messages.get(str(reference["message_id"]))
            if target is None or target.channel_id != channel.id:
                raise SimHTTPError(400, 50035, "Invalid Form Body: Unknown message")
            message_type = 19
        message = SimMessage(
            id=self._ids.next(),
            channel_id=channel.id,
            author_id=self.bot_user.id,
            content=str(body.get("content") or ""),
            embeds=[dict({"type": "rich"}, **e) for e in body.get("embeds") or []],
            components=copy.deepcopy(body.get("components") or []),
            attachments=attachments,
            flags=flags,
            type=message_type,
            guild_id=channel.guild_id,
            raw=copy.deepcopy(body),
        )
        if record is not None:
            message.interaction_id = record.id
            message.interaction_user_id = record.user.id
            message.interaction_type = record.type
            message.application_id = self.application_id
        self._messages[message.id] = message
        self._channel_messages.setdefault(channel.id, []).append(message.id)
        self._threads.counted(channel, message, created=True)
        if not message.ephemeral:
            await self._dispatch_all(
                "MESSAGE_CREATE", self._event_payload(message), channel.guild_id is not None
            )
        return message

    async def _edit_message(
        self, message: SimMessage, body: Any, files: list[dict[str, Any]], *,
        interaction: bool = True,
    ) -> SimMessage:
        body = self._check_message_body(body)
        self._threads.before_edit(message, interaction=interaction)  # + archived, locked
        if message.flags & IS_COMPONENTS_V2:
            # Discord: a Components V2 message stays one; its edits carry no content or embeds
            wrong = [k for k in ("content", "embeds") if body.get(k)]
            if "flags" in body and body["flags"] is not None \
                    and not int(body["flags"]) & IS_COMPONENTS_V2:
                wrong.append("flags without IS_COMPONENTS_V2")
            if wrong:
                problem = f"an edit of a Components V2 message with {', '.join(wrong)}"
                self.spec_errors.append(SpecError("PATCH", "message edit", message.id, problem))
                raise SimHTTPError(400, 50035, f"Invalid Form Body: {problem}")
        loading = bool(message.flags & LOADING)
        content = body.get("content", message.content)
        embeds = body.get("embeds", message.embeds)
        components = body.get("components", message.components)
        attachments = self._attachments_from(body, files, message.attachments)
        if not (content or embeds or components or attachments):
            raise SimHTTPError(400, 50006, "Cannot send an empty message")
        message.content = str(content or "")
        message.embeds = [dict({"type": "rich"}, **e) for e in embeds or []]
        message.components = copy.deepcopy(components or [])
        message.attachments = attachments
        if "flags" in body and body["flags"] is not None:
            kept = message.flags & ~EDITABLE_FLAGS
            message.flags = kept | (int(body["flags"]) & EDITABLE_FLAGS)
            if int(body["flags"]) & IS_COMPONENTS_V2:
                message.flags |= IS_COMPONENTS_V2
        message.flags &= ~LOADING
        if not loading:
            message.edited_timestamp = iso_now()
        message.raw = copy.deepcopy(body)
        if not message.ephemeral:
            await self._dispatch_all(
                "MESSAGE_UPDATE", self._event_payload(message), message.guild_id is not None
            )
        return message

    async def _delete(self, message: SimMessage) -> None:
        message.deleted = True
        channel = self._channels.get(message.channel_id)
        if channel is not None:
            self._threads.counted(channel, message, created=False)
        if not message.ephemeral:
            data: dict[str, Any] = {"id": message.id, "channel_id": message.channel_id}
            if message.guild_id is not None:
                data["guild_id"] = message.guild_id
            await self._dispatch_all("MESSAGE_DELETE", data, message.guild_id is not None)

    def _channel_message(self, context: RequestContext) -> tuple[SimChannel, SimMessage]:
        channel = self._channel(context.params["channel_id"])
        message = self._messages.get(context.params["message_id"])
        if (
            message is None
            or message.deleted
            or message.channel_id != channel.id
            or message.ephemeral
        ):
            raise SimHTTPError(404, 10008, "Unknown Message")
        return channel, message

    async def _list_messages(self, context: RequestContext) -> tuple[int, Any]:
        channel = self._channel(context.params["channel_id"])
        limit = int(context.query.get("limit", "50"))
        found = list(reversed(self.messages(channel)))[:limit]
        return 200, [self.message_payload(m) for m in found]

    async def _post_message(self, context: RequestContext) -> tuple[int, Any]:
        channel = self._channel(context.params["channel_id"])
        recipient = self._users.get(channel.recipient_id or "")
        if channel.type == DM and recipient is not None and not recipient.accepts_dms:
            raise SimHTTPError(403, 50007, "Cannot send messages to this user")
        message = await self._create_message(channel, context.body, context.files)
        return 200, self.message_payload(message)

    async def _get_message(self, context: RequestContext) -> tuple[int, Any]:
        _, message = self._channel_message(context)
        return 200, self.message_payload(message)

    async def _patch_message(self, context: RequestContext) -> tuple[int, Any]:
        _, message = self._channel_message(context)
        if message.author_id != self.bot_user.id:
            raise SimHTTPError(403, 50005, "Cannot edit a message authored by another user")
        await self._edit_message(message, context.body, context.files, interaction=False)
        return 200, self.message_payload(message)

    async def _delete_message(self, context: RequestContext) -> tuple[int, Any]:
        _, message = self._channel_message(context)
        await self._delete(message)
        return 204, None

    # --------------------------------------------------------- interactions

    async def _callback(self, context: RequestContext) -> tuple[int, Any]:
        record = self._interactions.get(context.params["interaction_id"])
        if record is None or record.token != context.params["interaction_token"]:
            raise SimHTTPError(404, 10062, "Unknown interaction")
        if record.callback_type is not None:
            raise SimHTTPError(400, 40060, "Interaction has already been acknowledged.")
        if self.now() - record.created > record.deadline:
            record.late = True
            raise SimHTTPError(404, 10062, "Unknown interaction")
        body = context.body
        if not isinstance(body, dict) or "type" not in body:
            record.rejected += 1
            raise SimHTTPError(400, 50035, "Invalid Form Body: type is required")
        kind = body["type"]
        data = body.get("data") or {}
        try:
            resource = await self._apply_callback(record, kind, data, context.files)
        except SimHTTPError:
            record.rejected += 1
            raise
        record.callback_type = kind
        record.callback_time = self.now()
        record.answered.set()
        if not context.flag("with_response"):
            return 204, None
        interaction: dict[str, Any] = {"id": record.id, "type": record.type}
        answer: dict[str, Any] = {"interaction": interaction}
        if kind == LAUNCH_ACTIVITY:
            interaction["activity_instance_id"] = record.activity_instance_id
            answer["resource"] = {"type": kind,
                                  "activity_instance": {"id": record.activity_instance_id}}
        elif resource is not None:
            interaction["response_message_id"] = resource.id
            interaction["response_message_loading"] = bool(resource.flags & LOADING)
            interaction["response_message_ephemeral"] = resource.ephemeral
            answer["resource"] = {"type": kind, "message": self.message_payload(resource)}
        elif kind in (MODAL, AUTOCOMPLETE_RESULT, DEFERRED_UPDATE_MESSAGE):
            answer["resource"] = {"type": kind}
        return 200, answer

    async def _apply_callback(
        self, record: InteractionRecord, kind: int, data: Any, files: list[dict[str, Any]]
    ) -> SimMessage | None:
        on_message = record.type in (MESSAGE_COMPONENT, MODAL_SUBMIT) and record.message_id
        if record.type == AUTOCOMPLETE:
            if kind != AUTOCOMPLETE_RESULT:
                raise SimHTTPError(400, 50035, "Invalid Form Body: autocomplete needs type 8")
            record.choices = list((data or {}).get("choices") or [])
            if len(record.choices) > 25:
                raise SimHTTPError(400, 50035, "Invalid Form Body: at most 25 choices")
            return None
        if kind == AUTOCOMPLETE_RESULT:
            raise SimHTTPError(400, 50035, "Invalid Form Body: not an autocomplete interaction")
        message_type = 20 if record.type == APPLICATION_COMMAND else 0
        if kind == CHANNEL_MESSAGE:
            message = await self._create_message(
                record.channel, data, files, record=record, message_type=message_type
            )
            record.original_message_id = message.id
            return message
        if kind == DEFERRED_CHANNEL_MESSAGE:
            message = await self._create_message(
                record.channel, data, files, record=record, loading=True, message_type=message_type
            )
            record.original_message_id = message.id
            return message
        if kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            if not on_message:
                raise SimHTTPError(
                    400, 50035, f"Invalid Form Body: callback type {kind} needs a component message"
                )
            assert record.message_id is not None
            message = self._messages[record.message_id]
            record.original_message_id = message.id
            if kind == UPDATE_MESSAGE:
                if message.deleted:
                    raise SimHTTPError(404, 10008, "Unknown Message")
                await self._edit_message(message, data, files)
                return message
            return None
        if kind == LAUNCH_ACTIVITY:
            if not self.activities:
                raise SimHTTPError(400, 50035, "Invalid Form Body: this app has no Activity")
            record.activity_instance_id = self._launch(record.user, record.channel, record.id)
            return None
        if kind == MODAL:
            if record.type == MODAL_SUBMIT:
                raise SimHTTPError(400, 50035, "Invalid Form Body: a modal cannot open a modal")
            if not isinstance(data, dict) or not data.get("custom_id") or not data.get("title"):
                raise SimHTTPError(
                    400, 50035, "Invalid Form Body: a modal needs custom_id and title"
                )
            record.modal = SimModal(
                custom_id=data["custom_id"],
                title=data["title"],
                components=copy.deepcopy(data.get("components") or []),
                user_id=record.user.id,
                channel_id=record.channel.id,
                interaction_id=record.id,
                message_id=record.message_id,
            )
            return None
        raise SimHTTPError(400, 50035, f"Invalid Form Body: callback type {kind} not allowed here")

    def _webhook_record(self, context: RequestContext) -> InteractionRecord:
        if context.params["webhook_id"] != self.application_id:
            raise SimHTTPError(404, 10015, "Unknown Webhook")
        record = self._by_token.get(context.params["webhook_token"])
        if record is None:
            raise SimHTTPError(404, 10015, "Unknown Webhook")
        if self.now() - record.created > FOLLOWUP_WINDOW:
            raise SimHTTPError(401, 50027, "Invalid Webhook Token")
        if record.callback_type is None:
            raise SimHTTPError(404, 10015, "Unknown Webhook")
        return record

    def _webhook_message(self, context: RequestContext) -> tuple[InteractionRecord, SimMessage]:
        record = self._webhook_record(context)
        message_id = context.params.get("message_id", "@original")
        if message_id == "@original":
            message_id = record.original_message_id or ""
        elif message_id not in record.followup_ids and message_id != record.original_message_id:
            raise SimHTTPError(404, 10008, "Unknown Message")
        message = self._messages.get(message_id)
        if message is None or message.deleted:
            raise SimHTTPError(404, 10008, "Unknown Message")
        return record, message

    async def _followup(self, context: RequestContext) -> tuple[int, Any]:
        record = self._webhook_record(context)
        original = self._messages.get(record.original_message_id or "")
        if (
            record.callback_type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.flags & LOADING
        ):
            # The first followup after a deferral fills the "thinking" message in place.
            message = await self._edit_message(original, context.body, context.files)
        else:
            message = await self._create_message(
                record.channel, context.body, context.files, record=record
            )
            record.followup_ids.append(message.id)
        if not context.flag("wait"):
            return 204, None
        return 200, self.message_payload(message)

    async def _get_webhook_message(self, context: RequestContext) -> tuple[int, Any]:
        _, message = self._webhook_message(context)
        return 200, self.message_payload(message)

    async def _edit_webhook_message(self, context: RequestContext) -> tuple[int, Any]:
        _, message = self._webhook_message(context)
        await self._edit_message(message, context.body, context.files)
        return 200, self.message_payload(message)

    async def _delete_webhook_message(self, context: RequestContext) -> tuple[int, Any]:
        _, message = self._webhook_message(context)
        await self._delete(message)
        return 204, None


def _path_params(route: str, path: str) -> dict[str, str]:
    """Return the {name: value} path parameters of a concrete path for its spec template."""
    params = {}
    for name, value in zip(route.strip("/").split("/"), path.strip("/").split("/"), strict=True):
        if name.startswith("{") and name.endswith("}"):
            params[name[1:-1]] = value
    return params
