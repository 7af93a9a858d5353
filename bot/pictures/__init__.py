"""Pictures of tables and hands, drawn with Pillow from views only.

``table_png(view, names)`` draws the public table from ``state.view(None).to_dict()``;
``hand_png(view, playable)`` draws one seat's hand from ``state.view(seat).to_dict()`` with the
cards it may play now ringed; ``position_png(view, names, lang, ring)`` draws a seat's view as
the table with that seat's hand under it (the ``/rules`` pictures). All are pure and
synchronous; the ``*_async`` forms draw them off the event loop with the painters in use
(:mod:`bot.pictures.painter`: worker processes in the bot, threads otherwise), one for tables and
one for hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.pictures import painter
from bot.pictures.order import sort_hand
from bot.pictures.scenes import scene_for, word
from bot.pictures.table import draw_scene, hand_picture, png, table_and_hand
from games.cards import parse, pretty


def table_png(view: dict[str, Any], names: Sequence[str], lang: str = "en",
              four_colour: bool = False, avatars: Sequence[bytes | None] = (),
              computers: Sequence[int] = ()) -> bytes:
    """The table picture (PNG, 1200 × 675) of a view; ``avatars`` are the seats' pictures
    (None: initials), ``computers`` the seats a computer plays (drawn with a mark of their own).
    """
    return png(draw_scene(scene_for(view, names, lang, avatars, computers), four_colour))


def position_png(view: dict[str, Any], names: Sequence[str], lang: str = "en",
                 ring: Iterable[str] = (), title: str = "") -> bytes:
    """A seat's view as one picture: the table, and under it that seat's hand with the
    ``ring`` cards ringed (none ringed nor dimmed when ``ring`` is empty)."""
    marked = set(ring) or None
    hand = hand_picture(sort_hand(view, list(view.get("hand", []))), marked, False, title)
    return png(table_and_hand(draw_scene(scene_for(view, names, lang)), hand))


def playable_cards(actions: Iterable[str]) -> set[str]:
    """The card codes named by some actions' text forms ('play:TS' → {'TS'})."""
    found: set[str] = set()
    for text in actions:
        _, sep, tail = str(text).partition(":")
        if sep:
            found.update(code.strip() for code in tail.split(",") if code.strip())
    return found


def hand_png(view: dict[str, Any], playable: set[str] | None = None, title: str = "",
             four_colour: bool = False) -> bytes:
    """The hand picture (PNG) of a seat's view, sorted in its game's order; ``playable``
    cards are ringed."""
    return png(hand_picture(sort_hand(view, list(view.get("hand", []))), playable, four_colour,
                            title))


def hand_alt(view: dict[str, Any], playable: set[str] | None = None, lang: str = "en") -> str:
    """The hand picture's alt text: the seat's own cards in the drawn order, and which of them
    may be played now (a hand picture is only ever shown to its own player)."""
    hand = sort_hand(view, list(view.get("hand", [])))

    def said(code: str) -> str:
        return pretty(parse(code), lang)

    text = word(lang, "pic-hand-alt", n=len(hand), cards=" ".join(map(said, hand)) or "—")
    if playable:
        text += " " + word(lang, "pic-playable-alt",
                           cards=" ".join(said(c) for c in hand if c in playable))
    return text


async def table_png_async(view: dict[str, Any], names: Sequence[str], lang: str = "en",
                          four_colour: bool = False, avatars: Sequence[bytes | None] = (),
                          computers: Sequence[int] = ()) -> bytes:
    """``table_png`` off the event loop."""
    return await painter.current().run(table_png, view, list(names), lang, four_colour,
                                       list(avatars), list(computers))


async def hand_png_async(view: dict[str, Any], playable: set[str] | None = None,
                         title: str = "", four_colour: bool = False) -> bytes:
    """``hand_png`` off the event loop, with the hands' own painter (the answer to a player's
    move waits for it: it must not queue behind table pictures)."""
    return await painter.current("hand").run(hand_png, view, playable, title, four_colour)
