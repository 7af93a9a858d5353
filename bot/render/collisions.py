"""What a table picture must never do, checked from the renderer's own record of what it drew
(:data:`bot.render.table.MARKS`), and random positions of every game to check it on.

A picture fails when a text box (a line of text, a seat's box, the result box) overlaps another
text box or a badge; when a badge overlaps another badge; when a card covers another card's
corner index (rank and suit: cards fanned on purpose leave it visible); when text or a badge lies
on a card; when anything leaves the picture; or when a finished game's result does not list every
player. ``tests/render/test_collisions.py`` runs a sample in the suite, ``benchmarks/layout.py``
the full count.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import games
from bot.render import table
from bot.render.scenes import scene_for

Rect = table.Rect
TEXTUAL = ("text", "seat", "result")
CARDS = ("trick", "last", "cards", "row", "previous")


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _kind(what: str) -> str:
    return what.split(":", 1)[0]


def _seat(what: str) -> str:
    return what.rsplit(":", 1)[-1]


def problems(marks: list[tuple[str, Rect]]) -> list[str]:
    """Every rule a picture's marks break, said in words (empty: none)."""
    found = []
    for what, r in marks:
        if r[0] < 0 or r[1] < 0 or r[2] > table.WIDTH or r[3] > table.HEIGHT:
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


def result_problems(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """A finished game's result must name every player."""
    if not view.get("over"):
        return []
    scene = scene_for(view, names, lang)
    missing = [n for n in names if not any(n in line for line in scene.result[1:])]
    if len(scene.result) != len(names) + 1 or missing:
        return [f"the result lists {len(scene.result) - 1} of {len(names)} players"
                f" (missing {missing})"]
    return []


def random_views(gid: str, players: int, count: int, seed: int) -> Iterator[dict[str, Any]]:
    """``count`` public views of random games of ``gid`` (random moves, random options as the
    game's random option mixes allow), each taken at a random point, the end included."""
    rules = games.get(gid)
    rng = random.Random(f"{gid}-{players}-{seed}")
    made = 0
    while made < count:
        state = rules.new_game(players, seed=rng.randrange(1 << 30))
        stops = set(rng.sample(range(300), 6))
        to_end = rng.random() < 0.3  # a third of the games played out: their results checked
        step = 0
        while made < count:
            if step in stops or state.over:
                yield state.view(None).to_dict()
                made += 1
            if state.over or (not to_end and step > max(stops)):
                break
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            step += 1


def check(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """The problems of one view's table picture, laid out without painting it."""
    scene = scene_for(view, names, lang)
    return problems(table.layout_scene(scene).marks) + result_problems(view, names, lang)
