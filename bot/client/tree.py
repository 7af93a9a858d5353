"""The command tree: every command error answered as a sentence, server-only commands, and the
sync of the commands with Discord when (and only when) they changed.

Discord keeps a bot's slash commands; a bulk overwrite (``PUT .../commands``) is needed only
when they change, and Discord limits how often an application may write them. The bot keeps a
fingerprint of what it last sent (the exact JSON, per application and per target: global, or
the development server) in the database, and sends again only when the fingerprint differs.
Only the process that runs shard 0 syncs (every process runs the same code, so one is enough);
``deckhand sync`` sends them whatever the fingerprint says.

With the Activity, the application also has an entry point command (type 4, the App Launcher's
"Launch"), which Discord makes when Activities are enabled. A bulk overwrite replaces every
global command, and Discord refuses one that leaves the entry point out (error 50240) rather
than delete it; so the global sync then sends the entry point Discord holds, unchanged, with
the slash commands. When Discord holds none (Activities are not enabled in the Developer
Portal yet, or its owner deleted it) none is made: one with Discord's handler may only be made
for an app with Activities enabled, and it is the owner's to shape. Without the Activity the
sync sends the slash commands alone, as before.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.i18n import lang_of, t
from bot.tables import Refusal

if TYPE_CHECKING:
    from bot.storage.store import Storage

log = logging.getLogger(__name__)

#: what ``PUT .../commands`` sends: one dict per command
Payload = list[dict[str, Any]]
#: Discord's application command type of an entry point, and its handler that launches the
#: Activity without the bot (docs: Application Commands, Entry Point Commands)
PRIMARY_ENTRY_POINT = 4
DISCORD_LAUNCH_ACTIVITY = 2
#: what Discord answers a bulk overwrite that leaves out the entry point command
ENTRY_POINT_REMOVED = 50240
#: the fields of a command Discord gives back that a bulk overwrite does not take
SERVER_FIELDS = ("id", "application_id", "version", "guild_id", "name_localized",
                 "description_localized")
CommandT = TypeVar("CommandT", bound="app_commands.Command[Any, Any, Any] | app_commands.Group")


async def reply(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral sentence, as the response or, once answered, as a followup."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


def refusal_text(error: BaseException, locale: object) -> str:
    """The sentence for a refusal, or the generic apology for anything else."""
    lang = lang_of(locale)
    if isinstance(error, Refusal):
        return error.text(lang)
    return t("error", lang)


def own_component(interaction: discord.Interaction[Any], prefix: str) -> str | None:
    """The custom id of a clicked component when it starts with ``prefix`` (a cog's own
    buttons), else None."""
    if interaction.type is not discord.InteractionType.component:
        return None
    custom_id = str(dict(interaction.data or {}).get("custom_id", ""))
    return custom_id if custom_id.startswith(prefix) else None


async def answer_or_refuse(interaction: discord.Interaction[Any], work: Awaitable[None],
                           what: str) -> None:
    """Do a component's ``work``; a refusal, or a failure (logged, naming ``what``), is
    answered as one sentence."""
    try:
        await work
    except Exception as error:
        if not isinstance(error, Refusal):
            log.error("%s failed", what, exc_info=error)
        try:
            await reply(interaction, refusal_text(error, interaction.locale))
        except discord.HTTPException:
            log.warning("could not tell a user why their click failed")


def server_only(command: CommandT) -> CommandT:
    """Mark a top-level command as usable in servers only: Discord does not offer it in
    direct messages or group chats (``contexts: [0]``), so nobody is shown a command that
    would only be refused there."""
    command.guild_only = True
    command.allowed_contexts = app_commands.AppCommandContext(guild=True)
    return command


class DeckhandTree(app_commands.CommandTree[Any]):
    """The command tree: every command error ends as one ephemeral sentence."""

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        """Answer a failed command with a sentence saying why."""
        cause: BaseException = error
        if isinstance(error, app_commands.CommandInvokeError):
            cause = error.original
        if not isinstance(cause, Refusal):
            log.error("command %s failed", interaction.command and interaction.command.name,
                      exc_info=cause)
        try:
            await reply(interaction, refusal_text(cause, interaction.locale))
        except discord.HTTPException:
            log.warning("could not tell a user why their command failed")


async def payload_of(tree: app_commands.CommandTree[Any],
                     guild: discord.abc.Snowflake | None = None) -> Payload:
    """What ``tree.sync(guild=guild)`` sends (None: the global commands), translated as it
    translates them."""
    translator = tree.translator
    commands = tree._get_all_commands(guild=guild)
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


def fingerprint(application_id: int | None, guild_id: int | None, payload: Payload) -> str:
    """A digest of what a sync sends, and to which application and target."""
    text = json.dumps([application_id, guild_id, payload], sort_keys=True, ensure_ascii=False,
                      default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def state_key(guild_id: int | None) -> str:
    """The database key of a target's fingerprint."""
    return f"commands:{guild_id if guild_id is not None else 'global'}"


async def entry_point(tree: app_commands.CommandTree[Any]) -> dict[str, Any] | None:
    """The entry point command as Discord holds it now (the fields a bulk overwrite takes),
    or None when it holds none."""
    client = tree.client
    assert client.application_id is not None
    found = await client.http.get_global_commands(client.application_id)
    for command in found:
        if command.get("type") == PRIMARY_ENTRY_POINT:
            return {name: value for name, value in command.items()
                    if name not in SERVER_FIELDS}
    return None


async def sync_commands(tree: app_commands.CommandTree[Any], store: Storage, *,
                        dev_guild: int | None = None, force: bool = False,
                        activity: bool = False) -> bool:
    """Send the commands to Discord (globally, or to ``dev_guild`` only) if they differ from
    the last ones sent, or with ``force``; True when they were sent. With ``activity`` the
    global commands keep the entry point command (an entry point is global only: a sync to
    the development server leaves it alone)."""
    guild = discord.Object(dev_guild) if dev_guild is not None else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    payload = await payload_of(tree, guild)
    keeps_entry = activity and guild is None
    # the entry point's presence is part of what was sent: turning the Activity on or off
    # sends again
    digest = fingerprint(tree.client.application_id, dev_guild,
                         [*payload, {"entry_point": True}] if keeps_entry else payload)
    key = state_key(dev_guild)
    if not force and await store.state(key) == digest:
        log.info("commands unchanged since the last sync; not sent again")
        return False
    try:
        if keeps_entry:
            assert tree.client.application_id is not None
            entry = await entry_point(tree)
            if entry is None:
                log.warning("the Activity is configured but Discord holds no entry point "
                            "command: enable Activities in the Developer Portal (it makes "
                            "one) for the App Launcher to offer it (docs/activity.md)")
            await tree.client.http.bulk_upsert_global_commands(
                tree.client.application_id,
                payload=payload if entry is None else [*payload, entry])
        else:
            await tree.sync(guild=guild)
    except discord.HTTPException as error:
        if error.code == ENTRY_POINT_REMOVED:
            log.error("Discord refused the commands: the app has Activities enabled (an entry "
                      "point command) but the Activity is not configured here. Set "
                      "DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET (docs/activity.md), or turn "
                      "Activities off in the Developer Portal.")
        raise
    await store.set_state(key, digest)
    where = f"server {dev_guild}" if dev_guild is not None else "every server"
    log.info("%d commands synced with Discord for %s", len(payload), where)
    return True
