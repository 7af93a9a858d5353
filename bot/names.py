"""People's names as plain text in Discord's Markdown.

A display name is whatever its person typed: ``[prize](https://…)``, ``**``, ``@everyone`` or
backticks in it would turn into a link, bold text, a mention or code wherever a message puts
the name into Markdown. :func:`plain` is the name as it reads; the pictures, which draw the
text as it is, take names unescaped.

The escaping is discord.py's (``discord.utils.escape_markdown(name, ignore_links=False)`` then
``escape_mentions``), written out here because the table service words results with names and
must not load discord.py; tests/bot/test_service_imports.py checks both give the same text.
"""

from __future__ import annotations

import re

#: Markdown that starts a quote, a heading or a list item, and a masked link (discord.py 2.x)
_COMMON = r"^>(?:>>)?\s|\[.+\]\(.+\)|^#{1,3}|^\s*-"
#: every Markdown mark, escaped with a backslash in front of it
_MARKDOWN = re.compile(rf"(?P<markdown>[_\\~|\*`]|{_COMMON})", re.MULTILINE)
#: @everyone, @here and user or role mentions by id
_MENTION = re.compile(r"@(everyone|here|[!&]?[0-9]{17,20})")


def plain(name: str) -> str:
    """A name to put into Markdown: every Markdown mark escaped (a masked link's too), and
    ``@everyone``, ``@here`` and mentions broken, so it shows as typed."""
    escaped = _MARKDOWN.sub(lambda found: "\\" + found.group("markdown"), name)
    return _MENTION.sub("@\u200b\\1", escaped)
