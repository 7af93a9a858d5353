"""The picture ``/rules`` shows: a game's typical position (:mod:`games.positions`) drawn from
its seat's view, with a caption naming the rule it shows.

The picture is the same for every request, so it is drawn once per game and language (off the
event loop, with the table painter) and kept.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.i18n import t
from bot.pictures import painter, position_png
from games import positions, wording
from games.positions import PositionError

log = logging.getLogger(__name__)

#: (game, language) -> the picture's PNG bytes
_DRAWN: dict[tuple[str, str], bytes] = {}


def has_picture(game: str) -> bool:
    """Whether a game has a typical position and its caption."""
    return game in positions.ids() and wording.has(f"rules-picture-{game}")


def caption(game: str, lang: str) -> str:
    """The sentence under the picture: the position and the rule it shows."""
    return t(f"rules-picture-{game}", lang)


def _drawing(game: str, lang: str) -> tuple[dict[str, Any], list[str], str, list[str], str]:
    """What :func:`bot.pictures.position_png` draws for a game: the seat's view, the seats'
    names, the language, the ringed cards and the hand's title (words found here, so that a
    worker process draws with nothing but the render package)."""
    position = positions.build(game)
    view = position.view().to_dict()
    names = [t("rules-picture-seat", lang, n=seat + 1) for seat in range(view["players"])]
    return (view, names, lang, sorted(position.ring),
            t("rules-picture-hand", lang, n=position.seat + 1))


def draw(game: str, lang: str) -> bytes:
    """The picture (PNG) of a game's typical position, seats named in the language."""
    return position_png(*_drawing(game, lang))


async def picture(game: str, lang: str) -> bytes | None:
    """A game's picture in a language, drawn the first time only; None when it has none."""
    if not has_picture(game):
        return None
    key = (game, lang)
    if key not in _DRAWN:
        try:
            _DRAWN[key] = await painter.current().run(position_png, *_drawing(game, lang))
        except (PositionError, OSError, RuntimeError):  # the text is answered all the same
            log.exception("the /rules picture of %s could not be drawn", game)
            return None
    return _DRAWN[key]
