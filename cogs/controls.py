"""The parts every message of a table is made of: static views, the table's buttons and menus
(their clicks routed by their custom ids), pictures drawn off the event loop, payloads."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import discord
from PIL import Image

from bot.i18n import t
from bot.names import plain
from bot.pictures import hand_png_async, table_png_async
from bot.tables import Position
from cogs import ids

# Pillow imports its format plugins lazily on the first save; two pictures drawn at once in
# worker threads could both start that import and stall, so it happens here, once.
Image.preinit()
Image.init()

log = logging.getLogger(__name__)
PAGE = 25  # the most options a select menu may hold
ROWS = 5  # the most action rows a message may hold


class StaticView(discord.ui.View):
    """Components sent with a message; their clicks reach the table cog's listener.

    The view itself is never kept in memory: a click is routed by its custom id alone
    (``PlayCog.on_interaction``), so buttons keep working after a restart.
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)
        # finished from the start: discord.py keeps a view it sends with an ephemeral answer
        # (a panel) for 15 minutes, with a timer task of its own each, unless it is finished
        self.stop()

    def is_dispatchable(self) -> bool:
        """Never stored: the table cog reads the custom id instead."""
        return False


COG = "PlayCog"  # the cog whose ``component`` method routes every table component
#: a table's button and select menu: plain components, their clicks routed by their custom id
Button = discord.ui.Button[Any]
Select = discord.ui.Select[Any]


def select_menu(custom_id: str, options: list[discord.SelectOption], placeholder: str | None = None,
            row: int | None = None, min_values: int = 1, max_values: int = 1) -> Select:
    return discord.ui.Select(custom_id=custom_id, options=options, placeholder=placeholder,
                             min_values=min_values, max_values=max_values, row=row)


TABLE_FILE = "table.png"  # fixed names: a file name must never carry a card code
HAND_FILE = "hand.png"


@dataclass(frozen=True)
class Picture:
    """A picture to attach: the view it is drawn from (a snapshot), drawn off the event loop."""

    kind: str  # "table" or "hand"
    view: dict[str, Any] = field(compare=False)
    key: tuple[Any, ...]
    names: tuple[str, ...] = ()
    lang: str = "en"
    playable: frozenset[str] = frozenset()
    title: str = ""
    alt: str = ""
    #: the alt text worked out when first needed, instead of ``alt`` (a hand's: a panel is
    #: answered before its picture is drawn and attached, and many are never attached)
    alt_of: Callable[[], str] | None = field(default=None, compare=False, repr=False)
    four_colour: bool = False
    avatars: tuple[bytes | None, ...] = field(default=(), compare=False)
    computers: tuple[int, ...] = ()

    @cached_property
    def alt_text(self) -> str:
        """What the picture shows, in words (Discord's description of an attachment)."""
        return self.alt_of() if self.alt_of is not None else self.alt

    @property
    def filename(self) -> str:
        """The attachment's name (never anything from the cards)."""
        return TABLE_FILE if self.kind == "table" else HAND_FILE

    async def png(self) -> bytes:
        """The PNG bytes, drawn in a worker thread."""
        if self.kind == "table":
            return await table_png_async(self.view, list(self.names), self.lang,
                                         avatars=self.avatars, computers=self.computers)
        return await hand_png_async(self.view, set(self.playable), self.title,
                                    four_colour=self.four_colour)

    async def file(self) -> discord.File:
        """The picture as an upload."""
        return discord.File(io.BytesIO(await self.png()), filename=self.filename,
                            description=self.alt_text[:1024] or None)


class Layout(discord.ui.LayoutView):
    """A Components V2 message (flag IS_COMPONENTS_V2: no content or embeds; text, picture
    and controls are all components), never stored, like :class:`StaticView`."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        # finished from the start: discord.py keeps a view it sends with an ephemeral answer
        # (a panel) for 15 minutes, with a timer task of its own each, unless it is finished
        self.stop()

    def is_dispatchable(self) -> bool:
        """Never stored: the table cog reads the custom id instead."""
        return False


#: the panel's accent: the green of the card table in the pictures
ACCENT = 0x2B6E3F


@dataclass
class Payload:
    """The parts of a message (``picture``: an attachment to draw, or None for none).

    ``v2``: sent as a Components V2 layout, one container holding the words, the picture (a
    media gallery, once it is attached), the embed's text and the controls; every send and
    edit of such a message then carries the flag and never content or embeds.
    """

    content: str
    embed: discord.Embed | None
    view: StaticView
    mentions: tuple[int, ...] = ()
    picture: Picture | None = None
    v2: bool = False

    def layout(self, picture: bool = False) -> Layout:
        """This message as one container (``picture``: with its picture, attached)."""
        parts: list[discord.ui.Item[Any]] = []
        if self.content:
            parts.append(discord.ui.TextDisplay(self.content))
        if picture and self.picture is not None:
            parts.append(discord.ui.MediaGallery(discord.MediaGalleryItem(
                f"attachment://{self.picture.filename}",
                description=self.picture.alt_text[:256] or None)))
        words = "" if self.embed is None else embed_words(self.embed)
        if words:  # within Discord's 4000 characters of text a message
            parts.append(discord.ui.TextDisplay(words[:max(1, 4000 - len(self.content))]))
        # the rows as the classic view lays them out (its items' rows kept)
        by_id = {getattr(item, "custom_id", None): item for item in self.view.children}
        rows = [[by_id[c.get("custom_id")] for c in row.get("components", [])]
                for row in self.view.to_components()]
        if rows and parts:
            parts.append(discord.ui.Separator())
        for items in rows:
            kept = [item.row for item in items]
            for item in items:
                item.row = None
            parts.append(discord.ui.ActionRow(*items))
            for item, row_number in zip(items, kept, strict=True):
                item.row = row_number
        layout = Layout()
        layout.add_item(discord.ui.Container(*parts, accent_colour=ACCENT))
        return layout

    def send(self, picture: bool = False) -> dict[str, Any]:
        """Keyword arguments for sending this as a new message (``picture``: its picture goes
        with it as an attachment)."""
        if self.v2:
            return {"view": self.layout(picture)}
        found: dict[str, Any] = {"content": self.content or None, "view": self.view}
        if self.embed is not None:
            found["embed"] = self.embed
        return found

    def edit(self, picture: bool = False) -> dict[str, Any]:
        """Keyword arguments for editing a message into this."""
        if self.v2:
            return {"view": self.layout(picture)}
        return {"content": self.content, "embed": self.embed, "view": self.view}

    def with_picture(self) -> dict[str, Any]:
        """Keyword arguments for adding the picture to this message, sent without it."""
        return self.edit(picture=True) if self.v2 else {"embed": self.embed}

    def key(self) -> tuple[Any, ...]:
        """A comparable form, to skip edits that would change nothing."""
        return (self.v2, self.content, None if self.embed is None else self.embed.to_dict(),
                [c.to_component_dict() for c in self.view.children],
                None if self.picture is None else self.picture.key)

    async def files(self) -> list[discord.File]:
        """The attachments this message should carry now (drawn off the event loop).

        A game the pictures cannot draw yet falls back to its text form, so play goes on.
        """
        if self.picture is None:
            return []
        try:
            return [await self.picture.file()]
        except Exception:
            log.warning("no %s picture for this view; showing text", self.picture.kind,
                        exc_info=True)
        if self.embed is not None and self.picture.kind == "table":
            self.embed.set_image(url=None)
            text = "\n\n".join(p for p in (self.picture.alt_text, self.embed.description) if p)
            self.embed.description = text[:4000]
        self.picture = None
        return []


def embed_words(embed: discord.Embed) -> str:
    """An embed's words as Markdown for a text display: its title as a heading, its
    description, each field under its name in bold, its footer in small print."""
    parts = [f"### {embed.title}"] if embed.title else []
    if embed.description:
        parts.append(embed.description)
    parts += [f"**{field.name}**\n{field.value}" if field.name not in (None, "—")
              else str(field.value) for field in embed.fields]
    if embed.footer.text:
        parts.append(f"-# {embed.footer.text}")
    return "\n\n".join(parts)


def game_name(position: Position, lang: str) -> str:
    """The game's name in a language."""
    return position.rules.title(lang)


def seat_label(position: Position, seat: int, lang: str, mention: bool = False) -> str:
    """'Alice' / '<@id>' / 'CPU 1 (computer)' for a seat."""
    info = position.seats[seat]
    if info.computer:
        return f"{info.name} ({t('computer', lang)})"
    name = f"<@{info.user_id}>" if mention and info.user_id is not None else plain(info.name)
    if info.away_until is not None:  # away for a while (/settings away): their clock waits
        name = f"{name} {t('away-until-mark', lang, when=f'<t:{int(info.away_until)}:f>')}"
    return f"{name} {t('away-mark', lang)}" if info.away else name


def open_button(table_id: int, lang: str, row: int) -> Button:
    """Open table: the live web table (the Activity) in the table's channel; anyone may open
    it, a spectator too. Version 0: it opens the table as it is, whatever the version."""
    return button_item(t("open-table", lang), ids.make("open", table_id),
                       discord.ButtonStyle.secondary, row)


def button_item(label: str, custom_id: str,
                style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                row: int | None = None, disabled: bool = False) -> Button:
    return discord.ui.Button(label=label[:80], custom_id=custom_id, style=style,
                             disabled=disabled, row=row)

