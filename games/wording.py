"""Every sentence a person reads, in their language, from message catalogues.

The catalogues are gettext ``.po`` files, the format translators and their tools (Poedit,
Weblate, Crowdin) know: ``games/locales/<lang>/<part>.po``, one folder per language and one
file per part of the product (``bot.po`` for the bot's messages, ``games.po`` for the games'
events, moves and refusals, ...). A message is found by its key (the ``msgid``); its text (the
``msgstr``) fills named fields the way :meth:`str.format` does: ``{game}``, ``{count:d}``.

Adding a language is a new folder of catalogues and no code change: a message missing there
falls back to English. The rules themselves never word anything: they return data
(:class:`Msg`, events, actions) and the front ends word it here.

Reading the catalogues is the only file access of the :mod:`games` package; it happens once a
language, the first time one of its messages is asked for.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

#: where the catalogues are: one folder per language
LOCALES = Path(__file__).with_name("locales")
#: the language every other falls back to, message by message
DEFAULT = "en"
#: catalogue folders from outside this package, of the same shape (``<lang>/*.po``): the
#: words of a game that is not part of it (:func:`add_folder`)
_ADDED: list[Path] = []


@dataclass(frozen=True)
class Msg:
    """A sentence as data: its catalogue key and the values of its fields. Cards (one
    :class:`~games.cards.Card` or a sequence of them: anything with a ``worded(lang)``) and
    other messages may be values: they are worded in the reader's language too."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self, lang: str = DEFAULT) -> str:
        """The sentence in ``lang``."""
        return text(self.key, lang, **self.params)


def msg(key: str, /, **params: Any) -> Msg:
    """A :class:`Msg` with its fields as keywords: ``msg("must-follow", suit="H")``."""
    return Msg(key, params)


@functools.cache
def catalogue(lang: str) -> Mapping[str, str]:
    """Every message of ``lang``'s catalogues (empty for a language with none); a message
    not yet translated there (an empty ``msgstr``) is left out, so it falls back."""
    found: dict[str, str] = {}
    for root in (*_ADDED, LOCALES):  # the package's own last: its words win a shared key
        folder = root / lang
        for path in sorted(folder.glob("*.po")) if folder.is_dir() else ():
            with path.open("rb") as handle:
                for message in read_po(handle, locale=None):
                    if message.id and isinstance(message.id, str) and isinstance(
                            message.string, str) and message.string:
                        found[message.id] = message.string
    return found


def add_folder(root: Path) -> None:
    """Read ``root``'s catalogues too (``root/<lang>/*.po``, the shape of ``LOCALES``): a
    game kept outside this package brings its name, summary and option help this way, and
    a language folder there is a language like any other."""
    if root not in _ADDED:
        _ADDED.append(root)
        forget()


@functools.cache
def _folders(root: Path) -> frozenset[str]:
    """The language folders under ``root``, looked up once (a reader's locale is matched
    against them for every message a server or a person is sent)."""
    return frozenset(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else (
        frozenset())


def languages() -> tuple[str, ...]:
    """The languages that have catalogues, the default first."""
    return (DEFAULT, *sorted(name for name in _all_folders() if name != DEFAULT))


def has_language(name: str) -> bool:
    """Whether ``name`` (a folder's name: 'ja', 'pt-BR') has catalogues."""
    return name in _all_folders()


def _all_folders() -> frozenset[str]:
    """The language folders of every catalogue root."""
    found = _folders(LOCALES)
    for root in _ADDED:
        found |= _folders(root)
    return found


def forget() -> None:
    """Read the catalogues and their folders anew at the next message (after a change)."""
    catalogue.cache_clear()
    _folders.cache_clear()


def has(key: str, lang: str = DEFAULT) -> bool:
    """Whether ``lang``'s catalogues (or, failing them, the default's) have ``key``."""
    return key in catalogue(lang) or key in catalogue(DEFAULT)


def template(key: str, lang: str = DEFAULT) -> str:
    """The unfilled text of ``key`` in ``lang`` (the default language's when missing; the key
    itself when no catalogue has it, so a missing message shows as its name, never crashes)."""
    return catalogue(lang).get(key) or catalogue(DEFAULT).get(key) or key


def text(key: str, lang: str = DEFAULT, /, **params: Any) -> str:
    """The sentence ``key`` in ``lang`` with its fields filled (cards and messages worded in
    ``lang`` too)."""
    found = template(key, lang)
    if not params:
        return found
    return found.format(**{name: word(value, lang) for name, value in params.items()})


def word(value: Any, lang: str = DEFAULT) -> Any:
    """A field's value as a reader sees it: cards shown with suit symbols, a message worded;
    anything else as it is (numbers keep their format spec).

    A card words itself (``Card.worded(lang)``, '10♠', '赤ジョーカー'): the cards module reads
    its words (the jokers' names) here, so this module does not import it back."""
    kind = type(value)
    if kind is str or kind is int or kind is float:  # most fields: as they are, at once
        return value
    if isinstance(value, Msg):
        return value.text(lang)
    if hasattr(value, "worded"):
        return value.worded(lang)
    if isinstance(value, (list, tuple)) and value and all(hasattr(v, "worded") for v in value):
        return " ".join(v.worded(lang) for v in value)
    return value


def fields(template_text: str) -> set[str]:
    """The names of the fields a text fills: ``'{a} and {b:d}'`` → ``{'a', 'b'}``."""
    return {name for _, name, _, _ in string.Formatter().parse(template_text) if name}


def keys(lang: str = DEFAULT) -> Iterable[str]:
    """The keys of ``lang``'s catalogues."""
    return catalogue(lang).keys()
