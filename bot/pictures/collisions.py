"""What a table picture must never do, checked from the renderer's own record of what it drew
(:data:`bot.pictures.table.MARKS`), and random positions of every game to check it on.

A picture fails when a text box (a line of text, a seat's box, the result box) overlaps another
text box or a badge; when a badge overlaps another badge; when a card covers another card's
corner index (rank and suit: cards fanned on purpose leave it visible); when text or a badge lies
on a card; when anything leaves the picture; or when a finished game's result does not list every
player (the rules themselves: :mod:`bot.pictures.overlaps`). ``tests/render/test_collisions.py``
runs a sample in the suite, ``benchmarks/layout.py`` the full count.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import games
from bot.pictures import overlaps, table
from bot.pictures.scenes import scene_for

Rect = table.Rect


def problems(marks: list[tuple[str, Rect]]) -> list[str]:
    """Every rule a picture's marks break, said in words (empty: none)."""
    return overlaps.problems(marks, table.WIDTH, table.HEIGHT)


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
    game's random option mixes allow), each taken at a random point, the end included: the
    views of :func:`game_views` for one game seed after another."""
    rng = random.Random(f"{gid}-{players}-{seed}")
    made = 0
    while True:
        for view in game_views(gid, players, rng.randrange(1 << 30)):
            yield view
            made += 1
            if made >= count:
                return


def game_views(gid: str, players: int, game_seed: int) -> Iterator[dict[str, Any]]:
    """The views of one random game, by its seed alone (so that a position found by the
    benchmark can be named and checked again: the seed and the view's number)."""
    rules = games.get(gid)
    rng = random.Random(game_seed)
    state = rules.new_game(players, seed=rng.randrange(1 << 30))
    stops = set(rng.sample(range(300), 6))
    to_end = rng.random() < 0.3  # a third of the games played out: their results checked
    step = 0
    while True:
        if step in stops or state.over:
            yield state.view(None).to_dict()
        if state.over or (not to_end and step > max(stops)):
            return
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        step += 1


def check(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """The problems of one view's table picture, laid out without painting it."""
    scene = scene_for(view, names, lang)
    return problems(table.layout_scene(scene).marks) + result_problems(view, names, lang)
