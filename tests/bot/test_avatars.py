"""The avatar cache: an answer never waits for a fetch, each avatar is fetched once, failures
fall back to initials and are tried again only later, and avatars are kept small."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image

from bot.pictures import avatars
from bot.pictures.avatars import AvatarCache


def png(colour: tuple[int, int, int], size: tuple[int, int] = (300, 200)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "PNG")
    return out.getvalue()


async def test_a_face_is_answered_at_once_and_fetched_once_in_the_background() -> None:
    gate = asyncio.Event()
    asked: list[int] = []

    async def fetch(user_id: int) -> bytes | None:
        asked.append(user_id)
        await gate.wait()  # a CDN that takes its time
        return png((0, 0, 255))

    cache = AvatarCache(fetch)
    assert cache.faces([7, None, 7]) == (None, None, None)  # at once, though nothing is there
    await asyncio.sleep(0)
    assert cache.faces([7]) == (None,)
    assert asked == [7]  # one fetch under way, not one per picture
    gate.set()
    await cache.settle()
    [face] = cache.faces([7])
    assert face is not None
    with Image.open(io.BytesIO(face)) as image:
        assert image.size == (avatars.SIZE, avatars.SIZE)  # kept small and square
    cache.faces([7, 7])
    await cache.settle()
    assert asked == [7]


async def test_a_failed_or_missing_avatar_draws_initials_and_is_asked_again_only_later(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    clock = [1000.0]
    monkeypatch.setattr(avatars.time, "monotonic", lambda: clock[0])

    async def fetch(user_id: int) -> bytes | None:
        calls.append(user_id)
        if user_id == 1:
            raise ConnectionError("CDN down")
        if user_id == 2:
            return b"not a picture"
        return None  # no avatar of their own

    cache = AvatarCache(fetch)
    for _ in range(3):
        assert cache.faces([1, 2, 3]) == (None, None, None)
        await cache.settle()
    assert sorted(calls) == [1, 2, 3]  # once each, not once per picture
    clock[0] += avatars.RETRY_AFTER + 1
    cache.faces([1, 2, 3])
    await cache.settle()
    assert sorted(calls) == [1, 1, 2, 2, 3, 3]


async def test_a_kept_avatar_is_refreshed_in_the_background_and_drawn_meanwhile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [0.0]
    monkeypatch.setattr(avatars.time, "monotonic", lambda: clock[0])
    colours = iter([(255, 0, 0), (0, 255, 0)])

    async def fetch(user_id: int) -> bytes | None:
        return png(next(colours))

    cache = AvatarCache(fetch)
    cache.faces([5])
    await cache.settle()
    [old] = cache.faces([5])
    clock[0] += avatars.REFRESH + 1
    assert cache.faces([5]) == (old,)  # still drawn while the new one comes
    await cache.settle()
    [new] = cache.faces([5])
    assert new is not None and new != old


def test_without_a_running_loop_or_a_fetcher_nothing_is_fetched() -> None:
    cache = AvatarCache()
    assert cache.faces([1, 2]) == (None, None)
    cache.use(lambda uid: asyncio.sleep(0, None))
    assert cache.faces([1]) == (None,)  # no event loop here: nothing started
    assert not cache.pending


def test_shrink_makes_a_small_square_and_refuses_what_is_no_image() -> None:
    small = avatars.shrink(png((10, 20, 30), (500, 300)))
    assert small is not None
    with Image.open(io.BytesIO(small)) as image:
        assert image.size == (64, 64)
    assert avatars.shrink(b"<html>") is None


async def test_starting_afresh_forgets_what_was_kept() -> None:
    async def fetch(user_id: int) -> bytes | None:
        return png((1, 2, 3))

    cache = AvatarCache(fetch)
    cache.faces([9])
    await cache.settle()
    assert cache.faces([9])[0] is not None
    cache.use(None)
    assert cache.faces([9]) == (None,)
