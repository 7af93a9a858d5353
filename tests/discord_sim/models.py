"""Plain data objects of the simulated Discord: guilds, channels, users, messages, requests."""

from __future__ import annotations

import datetime
import hashlib
import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# Channel types as Discord numbers them.
GUILD_TEXT = 0
DM = 1
ANNOUNCEMENT_THREAD = 10  # + threads: a sub-channel of a text (or announcement) channel
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
#: + the auto_archive_duration values Discord accepts (minutes)
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)

# + Permission bits the simulation interprets (Discord's numbering).
ADMINISTRATOR = 1 << 3
SEND_MESSAGES = 1 << 11
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

# Message flags the simulation interprets.
EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15

# Component types.
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
SECTION = 9  # Components V2 (with the IS_COMPONENTS_V2 message flag)
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE = 13
SEPARATOR = 14
CONTAINER = 17
LABEL = 18
SELECT_TYPES = (STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT)


class SnowflakeFactory:
    """Hands out increasing snowflake ids (as strings) built from the wall clock."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def next(self) -> str:
        """Return a new snowflake, larger than every earlier one."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (next(self._counter) & 0x3FFFFF)
        value = max(value, self._last + 1)
        self._last = value
        return str(value)


def iso_now(offset: float = 0.0) -> str:
    """Return the current time (shifted by `offset` seconds) in Discord's ISO 8601 form."""
    moment = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=offset)
    return moment.isoformat()


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Yield every component in a component tree, containers before their children."""
    for component in components:
        yield component
        children: list[dict[str, Any]] = []
        if isinstance(component.get("components"), list):
            children.extend(component["components"])
        if isinstance(component.get("component"), dict):
            children.append(component["component"])
        if isinstance(component.get("accessory"), dict):
            children.append(component["accessory"])
        yield from walk_components(children)


def text_displays(components: list[dict[str, Any]]) -> list[str]:
    """The words of the text displays of a component tree (Components V2), in order."""
    return [str(c.get("content")) for c in walk_components(components)
            if c.get("type") == TEXT_DISPLAY and c.get("content")]


class SimHTTPError(Exception):
    """An error answer in Discord's shape: status, JSON error code and message."""

    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors


@dataclass
class SimUser:
    """A Discord user; `accepts_dms=False` makes the bot's DMs fail with 50007."""

    id: str
    name: str
    locale: str = "en-US"
    accepts_dms: bool = True
    bot: bool = False
    avatar: bytes | None = None  # + the user's own avatar image, served by the CDN stub

    @property
    def avatar_hash(self) -> str | None:
        """The avatar's hash as Discord names it (None: the default avatar)."""
        if self.avatar is None:
            return None
        return hashlib.md5(self.avatar, usedforsecurity=False).hexdigest()

    def payload(self) -> dict[str, Any]:
        """Return the user object Discord sends."""
        return {
            "id": self.id,
            "username": self.name.lower().replace(" ", "_"),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": self.avatar_hash,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class SimGuild:
    """A guild (server) with its locale and @everyone permissions."""

    id: str
    name: str
    locale: str = "en-US"
    owner_id: str = ""
    everyone_permissions: int = 0


@dataclass
class SimChannel:
    """A channel: a guild text channel, a user's DM channel with the bot (guild_id None), or
    + a thread (type 11 or 12) inside a text channel (``parent_id``)."""

    id: str
    guild_id: str | None
    name: str
    type: int = GUILD_TEXT
    recipient_id: str | None = None
    # + a thread's own fields (Discord's thread_metadata and counts)
    parent_id: str | None = None
    owner_id: str | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str | None = None
    create_timestamp: str | None = None
    message_count: int = 0
    total_message_sent: int = 0
    #: + a thread's members: user id -> join timestamp
    members: dict[str, str] = field(default_factory=dict)
    #: + a deleted thread (answers 404/10003 everywhere)
    deleted: bool = False
    #: + member permission overwrites of a guild channel: user id -> (allow, deny)
    overwrites: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def is_thread(self) -> bool:
        """Whether the channel is a thread."""
        return self.type in THREAD_TYPES

    def payload(self) -> dict[str, Any]:
        """Return the channel object Discord sends (REST and partial interaction channel)."""
        data: dict[str, Any] = {"id": self.id, "type": self.type, "flags": 0}
        if self.is_thread:
            metadata: dict[str, Any] = {
                "archived": self.archived,
                "archive_timestamp": self.archive_timestamp,
                "auto_archive_duration": self.auto_archive_duration,
                "locked": self.locked,
                "create_timestamp": self.create_timestamp,
            }
            if self.type == PRIVATE_THREAD:
                metadata["invitable"] = True
            data.update(
                guild_id=self.guild_id,
                name=self.name,
                parent_id=self.parent_id,
                owner_id=self.owner_id,
                last_message_id=None,
                rate_limit_per_user=0,
                message_count=self.message_count,
                # Discord counts up to 50 members here (the threads topic)
                member_count=min(len(self.members), 50),
                total_message_sent=self.total_message_sent,
                thread_metadata=metadata,
            )
        elif self.guild_id is not None:
            data.update(
                guild_id=self.guild_id,
                name=self.name,
                position=0,
                permission_overwrites=[
                    {"id": user_id, "type": 1, "allow": str(allow), "deny": str(deny)}
                    for user_id, (allow, deny) in self.overwrites.items()
                ],
                nsfw=False,
                parent_id=None,
                topic=None,
                last_message_id=None,
                rate_limit_per_user=0,
            )
        return data


@dataclass
class SimMember:
    """Membership of a user in a guild."""

    user: SimUser
    guild: SimGuild
    manage_guild: bool = False
    joined_at: str = field(default_factory=iso_now)


@dataclass
class SimMessage:
    """A message as Discord currently holds it (edits applied)."""

    id: str
    channel_id: str
    author_id: str
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    guild_id: str | None = None
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    interaction_id: str | None = None
    interaction_user_id: str | None = None
    interaction_type: int | None = None
    application_id: str | None = None
    deleted: bool = False
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def ephemeral(self) -> bool:
        """Whether only the interaction's user sees this message."""
        return bool(self.flags & EPHEMERAL)

    @property
    def components_v2(self) -> bool:
        """Whether the message is laid out with Components V2 (no content or embeds)."""
        return bool(self.flags & IS_COMPONENTS_V2)

    def texts(self) -> list[str]:
        """What the message says, as a person reads it top to bottom: its content, its text
        displays (Components V2), its embeds' titles, descriptions, fields and footers."""
        found = [self.content] if self.content else []
        found += text_displays(self.components)
        for embed in self.embeds:
            found += [str(embed[k]) for k in ("title", "description") if embed.get(k)]
            found += [f"{f.get('name')}\n{f.get('value')}" for f in embed.get("fields") or []]
            if isinstance(embed.get("footer"), dict) and embed["footer"].get("text"):
                found.append(str(embed["footer"]["text"]))
        return found

    @property
    def text(self) -> str:
        """:meth:`texts` as one string."""
        return "\n".join(self.texts())

    def pictures(self) -> list[str]:
        """The attachment names a Components V2 layout shows (galleries, thumbnails)."""
        found = []
        for c in walk_components(self.components):
            for item in c.get("items") or []:
                if isinstance(item, dict) and isinstance(item.get("media"), dict):
                    found.append(str(item["media"].get("url")))
            if c.get("type") == THUMBNAIL and isinstance(c.get("media"), dict):
                found.append(str(c["media"].get("url")))
        return [u.removeprefix("attachment://") for u in found]

    def buttons(self) -> list[dict[str, Any]]:
        """Every button of the message: label, custom_id, disabled, style (plus url, emoji)."""
        found = []
        for component in walk_components(self.components):
            if component.get("type") == BUTTON:
                found.append(
                    {
                        "label": component.get("label"),
                        "custom_id": component.get("custom_id"),
                        "disabled": bool(component.get("disabled", False)),
                        "style": component.get("style"),
                        "url": component.get("url"),
                        "emoji": component.get("emoji"),
                    }
                )
        return found

    def selects(self) -> list[dict[str, Any]]:
        """Every select menu of the message with its options and value bounds."""
        found = []
        for component in walk_components(self.components):
            if component.get("type") in SELECT_TYPES:
                found.append(
                    {
                        "type": component["type"],
                        "custom_id": component.get("custom_id"),
                        "options": list(component.get("options", [])),
                        "min_values": component.get("min_values", 1),
                        "max_values": component.get("max_values", 1),
                        "disabled": bool(component.get("disabled", False)),
                        "placeholder": component.get("placeholder"),
                    }
                )
        return found

    def find_component(self, custom_id: str) -> dict[str, Any] | None:
        """Return the interactive component with this custom_id, or None."""
        for component in walk_components(self.components):
            if component.get("custom_id") == custom_id and component.get("type") != ACTION_ROW:
                return component
        return None


@dataclass
class SimModal:
    """A modal the bot opened for a user (callback type 9)."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]
    user_id: str
    channel_id: str
    interaction_id: str
    message_id: str | None = None
    submitted: bool = False

    def text_inputs(self) -> list[dict[str, Any]]:
        """Every text input of the modal."""
        return [c for c in walk_components(self.components) if c.get("type") == TEXT_INPUT]


@dataclass
class CapturedRequest:
    """One HTTP request the bot sent, with the simulation's answer status."""

    method: str
    path: str
    route: str
    json: Any
    files: list[dict[str, Any]]
    headers: dict[str, str]
    query: dict[str, str]
    status: int = 0
    time: float = 0.0
    response: Any = None
    interaction_id: str | None = None


@dataclass
class SpecError:
    """A request that failed validation against Discord's OpenAPI description."""

    method: str
    route: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.method} {self.route} ({self.path}): {self.message}"
