"""+ Threads in the simulated Discord: started from a message or without one, archived, locked,
deleted, joined; the rules on posting and editing in them; their gateway events.

What Discord does is taken from its threads topic (discord-api-docs docs/topics/threads.md) and
its JSON error codes (docs/topics/opcodes-and-status-codes.md); the bodies and answers are
Discord's OpenAPI description's (CreateTextThreadWithMessageRequest, UpdateThreadRequestPartial,
ThreadResponse). Where those leave a status or a detail open, the README says what was chosen.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .models import (
    ADMINISTRATOR,
    ARCHIVE_DURATIONS,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    GUILD_TEXT,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    SimChannel,
    SimHTTPError,
    SimMessage,
    iso_now,
)

if TYPE_CHECKING:
    from .server import RequestContext, SimulatedDiscord

#: gateway intents the thread events depend on: GUILDS for THREAD_*, GUILD_MEMBERS for the
#: membership changes of other users (the threads topic, "Syncing for other users")
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
#: the message type Discord puts first in a thread started from a message
THREAD_STARTER_MESSAGE = 21
NAME_LENGTH = "Must be between 1 and 100 in length."
DURATION_CHOICES = "Value must be one of {60, 1440, 4320, 10080}."
MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")


def form_error(field: str, code: str, message: str) -> SimHTTPError:
    """A 400/50035 with the field's error, in Discord's shape (reference: Error Messages)."""
    return SimHTTPError(400, 50035, "Invalid Form Body",
                        {field: {"_errors": [{"code": code, "message": message}]}})


def missing_permissions() -> SimHTTPError:
    """Discord's answer when the bot lacks a permission."""
    return SimHTTPError(*MISSING_PERMISSIONS)


def archived_error() -> SimHTTPError:
    """An operation Discord refuses on an archived thread (50083)."""
    return SimHTTPError(400, 50083, "Thread is archived")


def locked_error() -> SimHTTPError:
    """What a user without MANAGE_THREADS gets for writing in a locked thread (160005)."""
    return SimHTTPError(403, 160005, "Thread is locked")


class Threads:
    """The threads of a simulation: its REST handlers, the rules the message routes ask, the
    events, and what tests do as a moderator."""

    def __init__(self, sim: SimulatedDiscord) -> None:
        self.sim = sim

    # ----------------------------------------------------------------- views

    def of(self, channel: SimChannel, *, archived: bool = True) -> list[SimChannel]:
        """The threads of a channel that are not deleted (archived ones too unless told),
        oldest first."""
        return [c for c in self.sim._channels.values()
                if c.is_thread and c.parent_id == channel.id and not c.deleted
                and (archived or not c.archived)]

    def active(self, guild_id: str) -> list[SimChannel]:
        """A guild's active (not archived, not deleted) threads."""
        return [c for c in self.sim._channels.values()
                if c.is_thread and c.guild_id == guild_id and not c.deleted and not c.archived]

    def payload(self, thread: SimChannel, *, with_member: bool = True) -> dict[str, Any]:
        """The thread as Discord answers it; ``member`` (the bot's thread member) when the bot
        is in it, as GET /channels/{id} and GUILD_CREATE carry it."""
        data = thread.payload()
        if with_member and self.sim.bot_user.id in thread.members:
            data["member"] = self.member_payload(thread, self.sim.bot_user.id)
        return data

    @staticmethod
    def member_payload(thread: SimChannel, user_id: str) -> dict[str, Any]:
        """A thread member object."""
        return {"id": thread.id, "user_id": user_id,
                "join_timestamp": thread.members[user_id], "flags": 0}

    def _moderator(self, channel: SimChannel) -> bool:
        perms = self.sim.bot_permissions(channel)
        return bool(perms & (MANAGE_THREADS | ADMINISTRATOR))

    def _has(self, channel: SimChannel, permission: int) -> bool:
        perms = self.sim.bot_permissions(channel)
        return bool(perms & ADMINISTRATOR or perms & permission)

    # ---------------------------------------------------------------- events

    async def dispatch(self, event: str, data: dict[str, Any], *, members: bool = False) -> None:
        """Send a thread event to the connections that carry its guild and asked for GUILDS
        (``members``: GUILD_MEMBERS as well, for other users' membership)."""
        wanted = GUILDS | (GUILD_MEMBERS if members else 0)
        for session in list(self.sim._gateways):
            if (session.identified and not session.ws.closed
                    and session.serves(data.get("guild_id"))
                    and session.intents & wanted == wanted):
                with contextlib.suppress(ConnectionError):
                    await session.dispatch(event, data)

    def _later(self, send: Callable[[], Awaitable[None]]) -> None:
        """Run a dispatch in the background (a test's moderator acts outside any request);
        ``settle()`` waits for it."""
        sim = self.sim
        if not sim._gateways:
            return

        async def run() -> None:
            try:
                await send()
            finally:
                sim._in_flight -= 1
                sim._touch()

        sim._in_flight += 1
        sim._tasks.add(task := asyncio.get_running_loop().create_task(run()))
        task.add_done_callback(sim._tasks.discard)

    async def _updated(self, thread: SimChannel) -> None:
        await self.dispatch("THREAD_UPDATE", self.payload(thread, with_member=False))

    async def _deleted(self, thread: SimChannel) -> None:
        await self.dispatch("THREAD_DELETE", {"id": thread.id, "guild_id": thread.guild_id,
                                              "parent_id": thread.parent_id,
                                              "type": thread.type})

    async def _membership(self, thread: SimChannel, *, added: str | None = None,
                          removed: str | None = None) -> None:
        """THREAD_MEMBERS_UPDATE: always sent for the bot itself, for others only with the
        GUILD_MEMBERS intent (the threads topic)."""
        data: dict[str, Any] = {"id": thread.id, "guild_id": thread.guild_id,
                                "member_count": min(len(thread.members), 50)}
        if added is not None:
            data["added_members"] = [self.member_payload(thread, added)]
        if removed is not None:
            data["removed_member_ids"] = [removed]
        await self.dispatch("THREAD_MEMBERS_UPDATE", data,
                            members=self.sim.bot_user.id not in (added, removed))

    # ---------------------------------------------------------------- bodies

    @staticmethod
    def _body(body: Any) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise SimHTTPError(400, 50035, "Invalid Form Body")
        return body

    @staticmethod
    def _name(body: dict[str, Any], *, required: bool) -> str | None:
        if "name" not in body or body["name"] is None:
            if required:
                raise form_error("name", "BASE_TYPE_REQUIRED", "This field is required")
            return None
        name = body["name"]
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise form_error("name", "BASE_TYPE_BAD_LENGTH", NAME_LENGTH)
        return name

    @staticmethod
    def _duration(body: dict[str, Any]) -> int | None:
        value = body.get("auto_archive_duration")
        if value is None:
            return None
        if isinstance(value, bool) or value not in ARCHIVE_DURATIONS:
            raise form_error("auto_archive_duration", "BASE_TYPE_CHOICES", DURATION_CHOICES)
        return int(value)

    # ------------------------------------------------------------------ REST

    def _thread(self, context: RequestContext) -> SimChannel:
        """The thread a /channels/{channel_id}/... route names (10003 when there is none)."""
        channel = self.sim._channel(context.params["channel_id"])
        if not channel.is_thread:
            raise SimHTTPError(400, 50024, "Cannot execute action on this channel type")
        return channel

    def _new(self, parent: SimChannel, thread_id: str, name: str, kind: int,
             duration: int | None) -> SimChannel:
        now = iso_now()
        sim = self.sim
        thread = SimChannel(thread_id, parent.guild_id, name, type=kind, parent_id=parent.id,
                            owner_id=sim.bot_user.id, auto_archive_duration=duration or 1440,
                            archive_timestamp=now, create_timestamp=now,
                            members={sim.bot_user.id: now})
        sim._channels[thread.id] = thread
        sim._channel_messages[thread.id] = []
        return thread

    async def _created(self, thread: SimChannel) -> None:
        await self.dispatch("THREAD_CREATE",
                            dict(self.payload(thread, with_member=False), newly_created=True))
        await self._membership(thread, added=self.sim.bot_user.id)

    async def start_from_message(self, context: RequestContext) -> tuple[int, Any]:
        """POST /channels/{channel_id}/messages/{message_id}/threads: a public thread whose id
        is the message's."""
        context.self_check = True
        sim = self.sim
        channel, message = sim._channel_message(context)
        body = self._body(context.body)
        name = self._name(body, required=True)
        duration = self._duration(body)
        if channel.type != GUILD_TEXT:
            raise SimHTTPError(400, 50024, "Cannot execute action on this channel type")
        if not self._has(channel, CREATE_PUBLIC_THREADS):
            raise missing_permissions()
        existing = sim._channels.get(message.id)
        if existing is not None and not existing.deleted:
            raise SimHTTPError(400, 160004, "A thread has already been created for this message")
        assert name is not None
        thread = self._new(channel, message.id, name, PUBLIC_THREAD, duration)
        # the thread opens with a THREAD_STARTER_MESSAGE pointing at the message (threads topic)
        starter = SimMessage(
            id=sim._ids.next(), channel_id=thread.id, author_id=sim.bot_user.id,
            type=THREAD_STARTER_MESSAGE, guild_id=thread.guild_id,
            raw={"message_reference": {"message_id": message.id, "channel_id": channel.id,
                                       "guild_id": channel.guild_id}})
        sim._messages[starter.id] = starter
        sim._channel_messages[thread.id].append(starter.id)
        await self._created(thread)
        return 201, self.payload(thread)

    async def start_without_message(self, context: RequestContext) -> tuple[int, Any]:
        """POST /channels/{channel_id}/threads (a thread of type 11 or 12 with no message)."""
        context.self_check = True
        channel = self.sim._channel(context.params["channel_id"])
        body = self._body(context.body)
        name = self._name(body, required=True)
        duration = self._duration(body)
        # Discord's channel docs: a missing type means a private thread
        kind = body.get("type")
        kind = PRIVATE_THREAD if kind is None else kind
        if channel.type != GUILD_TEXT or kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise SimHTTPError(400, 50024, "Cannot execute action on this channel type")
        needed = CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else CREATE_PRIVATE_THREADS
        if not self._has(channel, needed):
            raise missing_permissions()
        assert name is not None
        thread = self._new(channel, self.sim._ids.next(), name, int(kind), duration)
        await self._created(thread)
        return 201, self.payload(thread)

    async def get(self, channel: SimChannel, context: RequestContext) -> tuple[int, Any]:
        """GET /channels/{thread_id}."""
        context.self_check = True
        return 200, self.payload(channel)

    async def patch(self, thread: SimChannel, context: RequestContext) -> tuple[int, Any]:
        """PATCH /channels/{thread_id}: name, archived, locked, auto_archive_duration, with the
        permissions the threads topic ("Editing & Deleting Threads") asks."""
        context.self_check = True
        body = self._body(context.body)
        moderator = self._moderator(thread)
        creator = thread.owner_id == self.sim.bot_user.id
        archived, locked = body.get("archived"), body.get("locked")
        name = self._name(body, required=False)
        duration = self._duration(body)
        if thread.archived and archived is not False:
            raise archived_error()  # only unarchiving may touch an archived thread
        if (locked is not None or body.get("rate_limit_per_user") is not None) and not moderator:
            raise missing_permissions()
        if archived is False and thread.locked and not (moderator or creator):
            raise missing_permissions()
        if (name is not None or duration is not None or archived is not None) \
                and not (moderator or creator):
            raise missing_permissions()
        if thread.locked and not moderator and (name is not None or duration is not None):
            raise locked_error()
        now = iso_now()
        if name is not None:
            thread.name = name
        if duration is not None and duration != thread.auto_archive_duration:
            thread.auto_archive_duration = duration
            thread.archive_timestamp = now
        if locked is not None:
            thread.locked = bool(locked)
        if archived is not None and bool(archived) != thread.archived:
            thread.archived = bool(archived)
            thread.archive_timestamp = now
        await self._updated(thread)
        return 200, self.payload(thread)

    async def delete(self, thread: SimChannel, context: RequestContext) -> tuple[int, Any]:
        """DELETE /channels/{thread_id}: needs MANAGE_THREADS; answers the thread."""
        context.self_check = True
        if not self._moderator(thread):
            raise missing_permissions()
        answer = self.payload(thread, with_member=False)
        thread.deleted = True
        await self._deleted(thread)
        return 200, answer

    async def join(self, context: RequestContext) -> tuple[int, Any]:
        """PUT /channels/{thread_id}/thread-members/@me (or /{user_id}: add a member)."""
        thread = self._thread(context)
        user_id = context.params.get("user_id", self.sim.bot_user.id)
        if thread.archived:
            raise archived_error()
        if user_id != self.sim.bot_user.id:
            if (thread.guild_id or "", user_id) not in self.sim._members:
                raise SimHTTPError(404, 10007, "Unknown Member")
            if not self._has(thread, SEND_MESSAGES_IN_THREADS):
                raise missing_permissions()
        if user_id not in thread.members:
            thread.members[user_id] = iso_now()
            await self._membership(thread, added=user_id)
        return 204, None

    async def leave(self, context: RequestContext) -> tuple[int, Any]:
        """DELETE /channels/{thread_id}/thread-members/@me (or /{user_id}: needs
        MANAGE_THREADS)."""
        thread = self._thread(context)
        user_id = context.params.get("user_id", self.sim.bot_user.id)
        if user_id != self.sim.bot_user.id:
            if thread.archived:
                raise archived_error()
            if not self._moderator(thread):
                raise missing_permissions()
        if user_id in thread.members:
            del thread.members[user_id]
            await self._membership(thread, removed=user_id)
        return 204, None

    # ------------------------------------------------ rules the message routes ask

    async def before_post(self, channel: SimChannel, *, interaction: bool) -> None:
        """Check (and apply) what posting a message in a channel means. A bot posts with
        SEND_MESSAGES (SEND_MESSAGES_IN_THREADS in a thread: SEND_MESSAGES has no effect
        there); an interaction's answer needs neither. In a locked thread only MANAGE_THREADS
        may write (160005); an archived thread is unarchived by the post, as Discord does,
        unless it is locked (an interaction's answer then gets 50083, as Discord answers)."""
        if channel.guild_id is None:
            return
        if not channel.is_thread:
            if not interaction and not self._has(channel, SEND_MESSAGES):
                raise missing_permissions()
            return
        if channel.deleted:
            raise SimHTTPError(404, 10003, "Unknown Channel")
        if not interaction and not self._has(channel, SEND_MESSAGES_IN_THREADS):
            raise missing_permissions()
        if channel.locked and not self._moderator(channel):
            if interaction and channel.archived:
                raise archived_error()
            if not interaction:
                raise locked_error()
        if channel.archived:
            channel.archived = False
            channel.archive_timestamp = iso_now()
            await self._updated(channel)

    def before_edit(self, message: SimMessage, *, interaction: bool) -> None:
        """Editing a message of an archived thread is refused (50083), and the bot's own edit
        in a locked one without MANAGE_THREADS (160005; an interaction's answer may, as it
        may post there)."""
        channel = self.sim._channels.get(message.channel_id)
        if channel is None or not channel.is_thread or message.ephemeral:
            return
        if channel.archived:
            raise archived_error()
        if channel.locked and not interaction and not self._moderator(channel):
            raise locked_error()

    @staticmethod
    def counted(channel: SimChannel, message: SimMessage, created: bool) -> None:
        """Keep a thread's message_count (less deletions) and total_message_sent (not)."""
        if not channel.is_thread or message.ephemeral or message.type == THREAD_STARTER_MESSAGE:
            return
        if created:
            channel.message_count += 1
            channel.total_message_sent += 1
        else:
            channel.message_count = max(0, channel.message_count - 1)

    # ------------------------------------------------------- a moderator's acts

    def archive(self, thread: SimChannel, *, by_moderator: bool = True,
                locked: bool = False) -> None:
        """Archive a thread as a moderator would (``locked``: and lock it), or as Discord
        does after ``auto_archive_duration`` minutes without activity (``by_moderator``
        False, which cannot lock)."""
        if not thread.is_thread or thread.deleted:
            raise AssertionError(f"{thread.name!r} is not a thread that exists")
        if locked and not by_moderator:
            raise ValueError("only a moderator locks a thread")
        thread.archived = True
        thread.locked = thread.locked or locked
        thread.archive_timestamp = iso_now()
        self._later(lambda: self._updated(thread))

    def delete_thread(self, thread: SimChannel) -> None:
        """Delete a thread as a moderator would."""
        if not thread.is_thread or thread.deleted:
            raise AssertionError(f"{thread.name!r} is not a thread that exists")
        thread.deleted = True
        self._later(lambda: self._deleted(thread))
