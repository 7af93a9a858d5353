"""The terminal front end's own sentences (``python -m games``), from the catalogues
``games/locales/<lang>/cli.po`` (keys ``cli-<key>``).

The games' own words (moves, events, the table) come from each game's ``action_text``,
``event_text`` and ``view_text``; the terminal's catalogue holds only what it adds around them:
menus, prompts, refusals and the end of a game. Where the bot says the same thing, the wording
follows the bot's.
"""

from __future__ import annotations

from typing import Any

from games import wording

#: the languages the terminal speaks: every language with catalogues
LANGS = wording.languages()


def say(key: str, lang: str = "en", **params: Any) -> str:
    """The sentence ``key`` in ``lang`` (English where that language lacks it), filled in."""
    return wording.text(f"cli-{key}", lang, **params)


def has(key: str) -> bool:
    """Whether the terminal has a sentence ``key``."""
    return wording.has(f"cli-{key}")
