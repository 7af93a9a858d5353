"""The basic Spar-family player: cheap cards early, strength and low scorers kept for the end."""

from __future__ import annotations

import random

from games.ai import Observation
from games.cards import Card, parse
from games.core import Action
from games.spar import _STRENGTH

# Cards worth keeping for the last trick: the ones that score more when they win it.
_KEEPERS = {"spar": (6, 7), "benin": (7,), "sipa": (7,), "fapfap": (3,)}


def basic(obs: Observation, rng: random.Random) -> Action:
    """Choose a card (or redeal/keep) by rule of thumb."""
    view = obs.view
    kinds = {a.kind for a in obs.legal}
    if "peek_agree" in kinds:
        return Action("peek_agree")  # computer players agree to show the bottom card
    if "keep" in kinds:
        hand = [parse(c) for c in view["hand"]]
        # A hand below ten rarely wins tricks; keep it only with two sixes to save.
        sixes = sum(1 for c in hand if c.rank == 6)
        return Action("keep") if sixes >= 2 else Action("redeal")
    plays = [a for a in obs.legal if a.kind == "play"]
    if not plays:
        return obs.legal[0]
    strength = _STRENGTH[view["variant"]]
    keepers = _KEEPERS.get(view["variant"], ())
    cards = [a.cards[0] for a in plays]
    left = view["tricks_per_deal"] - view["trick_number"]  # tricks after this one
    trick = view["trick"]

    def act(c: Card) -> Action:
        return Action("play", None, (c,))

    def spare(pool: list[Card]) -> list[Card]:
        others = [c for c in pool if c.rank not in keepers]
        return others or pool

    if not trick:
        if left >= 2:
            # Early leads: give the lead away cheaply, saving strength for the end.
            return act(min(spare(cards), key=lambda c: (strength[c], rng.random())))
        # The second-to-last lead: lead high to keep the lead for the last trick.
        return act(max(cards, key=lambda c: (strength[c], rng.random())))
    led = parse(trick[0]["card"]).suit
    shown = [parse(e["card"]) for e in trick if e["card"] is not None]
    top = max(strength[c] for c in shown if c.suit == led)
    winning = [c for c in cards if c.suit == led and strength[c] > top]
    if winning and left == 1:
        # Win the second-to-last trick to lead the last one.
        return act(max(winning, key=lambda c: (strength[c], rng.random())))
    if winning and left == 0:
        return act(min(winning, key=lambda c: (strength[c], rng.random())))
    # Otherwise throw the weakest card that is not worth keeping.
    return act(min(spare(cards), key=lambda c: (strength[c], rng.random())))
