"""A seat that failed to follow a suit is never dealt that suit by ``determinize``.

The same check for every follow-suit game whose suits are the printed ones (Bear's honours
change suit with the contract and have their own test in test_bear.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import games

# Benin: a card played face down says its player could not follow (spar.md).
CASES = [
    ("spar", 4, {}),
    ("spar", 3, {"variant": "benin"}),
    ("spar", 4, {"variant": "agram"}),
    ("bhabhi", 4, {}),
    ("finesse", 4, {}),
]


def _voids(view: dict[str, Any], known: set[tuple[int, str]], stale: Any) -> None:
    """Add (seat, suit) for every visible card played off the led suit in this deal."""
    last = view.get("last_trick") or []
    for trick in (view.get("trick") or [], [] if last == stale else last):
        if not trick or not trick[0].get("card"):
            continue
        led = trick[0]["card"][1]
        for play in trick[1:]:
            card = play.get("card")
            face_down_void = card is None and view.get("variant") == "benin"
            if face_down_void or (card is not None and card[1] != led):
                known.add((play["seat"], led))


@pytest.mark.parametrize(("gid", "players", "opts"), CASES)
def test_a_seat_that_showed_a_void_is_never_dealt_that_suit(
    gid: str, players: int, opts: dict[str, Any]
) -> None:
    rules = games.get(gid)
    checked = 0
    for seed in range(4):
        state = rules.new_game(players, seed=seed, options=opts)
        rng = random.Random(seed)
        voids: set[tuple[int, str]] = set()
        stale: Any = None
        for _ in range(120):
            if state.over:
                break
            deal = state.deal_number
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            public = state.view(None).to_dict()
            if state.deal_number != deal:
                voids.clear()  # a new deal: nothing is known about the new hands
                stale = public.get("last_trick")  # the last deal's final trick
                continue
            _voids(public, voids, stale)
            # Cards everyone saw a seat pick up (Getaway) are known, whatever its voids.
            seen = public.get("known") or [[] for _ in range(players)]
            for observer in range(players):
                sample = state.determinize(observer, random.Random(rng.getrandbits(32)))
                for void_seat, suit in voids:
                    if void_seat == observer:
                        continue
                    hand = [c for c in sample.view(void_seat).to_dict()["hand"]
                            if c not in seen[void_seat]]
                    assert all(code[1] != suit for code in hand), (
                        f"seat {void_seat} showed no {suit} but was dealt {hand}")
                    checked += 1
    assert checked > 0, "the games played showed no void to check"


@pytest.mark.parametrize("gid", ["spar", "bhabhi", "finesse"])
def test_when_no_deal_fits_the_voids_the_real_hands_are_still_never_kept(gid: str) -> None:
    # a seat marked void in every suit cannot be dealt anything: the re-deal gives up on the
    # voids rather than hand the searching seat the real cards
    state: Any = games.get(gid).new_game(4, seed=3)
    state.voids[1] = {"S", "H", "D", "C"} if gid == "spar" else 0b1111
    real = [sorted(h) for h in state.hands]
    differs = 0
    for seed in range(10):
        sample: Any = state.determinize(0, random.Random(seed))
        assert sample.hands[0] == state.hands[0]
        assert [len(h) for h in sample.hands] == [len(h) for h in real]
        hidden = sorted(c for s in (1, 2, 3) for c in sample.hands[s])
        if gid != "spar":  # Spar also re-deals the undealt stock
            assert hidden == sorted(c for s in (1, 2, 3) for c in real[s])
        differs += sorted(sample.hands[1]) != real[1]
    assert differs >= 8
