"""Checks a table's click passes before its part acts on it: which message a control may act
on, and who may use it. Each raises :class:`bot.tables.Refusal` with the sentence's key."""

from __future__ import annotations

from typing import Any

import discord

from bot.tables import PLAYING, Position, Refusal

Interaction = discord.Interaction[Any]


def is_private(interaction: Interaction) -> bool:
    """Whether the clicked message is an ephemeral one or in a DM."""
    message = interaction.message
    return message is not None and (interaction.guild_id is None or message.flags.ephemeral)


def own_message(interaction: Interaction, table: Position) -> None:
    """A table's public buttons act only on its own message: the answer edits the clicked
    message into the table, which would overwrite another table's message."""
    message = interaction.message
    if message is not None and table.message_id is not None \
            and not table.is_public_message(message.id):
        raise Refusal("unknown-component")


def private_only(interaction: Interaction, table: Position) -> None:
    """Controls of private messages (a hand, a confirmation, a host's menu) never act on a
    public message: the answer edits the clicked message, and would show everyone a hand."""
    message = interaction.message
    if message is not None and (table.is_public_message(message.id) or (
            interaction.guild_id is not None and not message.flags.ephemeral)):
        raise Refusal("unknown-component")


def seat_of(table: Position, user_id: int) -> int:
    """The clicking person's seat (refused when they have none)."""
    seat = table.seat_of(user_id)
    if seat is None:
        raise Refusal("not-seated")
    return seat


def playing(table: Position) -> None:
    """Refused unless the table's game is under way."""
    if table.status != PLAYING:  # (in play, a table has a game)
        raise Refusal("not-started")


def can_manage(interaction: Interaction) -> bool:
    """Whether the clicking member may manage the server (never in a DM)."""
    return bool(interaction.permissions.manage_guild) if interaction.guild else False
