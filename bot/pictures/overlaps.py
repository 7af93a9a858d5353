"""The rules of a table picture's layout, read from the marks of what it drew (see
:data:`bot.pictures.table.MARKS`), apart from the renderer so that both the renderer (choosing
between ways of placing a crowded table) and the checks (:mod:`bot.pictures.collisions`) use them.
"""

from __future__ import annotations

Rect = tuple[int, int, int, int]
TEXTUAL = ("text", "seat", "result")
CARDS = ("trick", "last", "cards", "row", "previous")


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _kind(what: str) -> str:
    return what.split(":", 1)[0]


def _seat(what: str) -> str:
    return what.rsplit(":", 1)[-1]


def problems(marks: list[tuple[str, Rect]], width: int, height: int) -> list[str]:
    """Every rule a picture's marks break, said in words (empty: none)."""
    found = []
    for what, r in marks:
        if r[0] < 0 or r[1] < 0 or r[2] > width or r[3] > height:
            found.append(f"{what} {r} leaves the picture")
    for i, (a, ra) in enumerate(marks):
        ka = _kind(a)
        for b, rb in marks[i + 1:]:
            if not _overlap(ra, rb):
                continue
            kb = _kind(b)
            kinds = {ka, kb}
            if kinds <= {*TEXTUAL, "badge"}:
                # a seat's badges sit on its own box's edge on purpose
                if kinds == {"seat", "badge"} and _seat(a) == _seat(b):
                    continue
                found.append(f"{a} {ra} overlaps {b} {rb}")
            elif kinds & {*TEXTUAL, "badge"} and kinds & {*CARDS, "index"}:
                found.append(f"{a} {ra} and the card {b} {rb} overlap")
            elif kb in CARDS and ka == "index":
                # a card drawn later covers an earlier card's rank and suit
                found.append(f"{b} {rb} covers the index of {a[6:]} {ra}")
    return found
