"""People's names as plain text in Discord's Markdown.

A display name is whatever its person typed: ``[prize](https://…)``, ``**``, ``@everyone`` or
backticks in it would turn into a link, bold text, a mention or code wherever a message puts
the name into Markdown. :func:`plain` is the name as it reads; the pictures, which draw the
text as it is, take names unescaped.
"""

from __future__ import annotations

from discord.utils import escape_markdown, escape_mentions


def plain(name: str) -> str:
    """A name to put into Markdown: every Markdown mark escaped (a masked link's too), and
    ``@everyone``, ``@here`` and mentions broken, so it shows as typed."""
    return escape_mentions(escape_markdown(name, ignore_links=False))
