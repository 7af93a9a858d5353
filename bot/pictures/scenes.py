"""From a view to a :class:`Scene`: the common keys for every game, then each game's own.

Only the view's dict is read (``State.view(seat).to_dict()``), so a picture can never show
more than the view does. Each game says which numbers its seats show, in its own words, and
which badges mean something in it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import games
from bot.pictures.table import TEAM_COLOURS, Scene, SeatScene
from games import spar, wording
from games.cards import parse

SUGEKARI_LIMIT = 21  # Sugekari 21's round total may never pass 21 (the game's name says it)

def word(lang: str, key: str, **values: Any) -> str:
    """A label in the language, from the catalogues (games/locales/*/render.po; English where
    the language lacks it)."""
    return wording.text(key, lang, **values)


def suit_word(lang: str, key: str) -> str:
    """A trump suit or game named for people (an id the catalogue has no word for as it is)."""
    return word(lang, f"pic-suit-{key}") if wording.has(f"pic-suit-{key}") else key


def bid_word(lang: str, bid: str) -> str:
    """A bid's id ('95-grand-black') as people say it ('95 Grand (black)')."""
    value, sep, game = str(bid).partition("-")
    if sep and value.isdigit():
        return f"{value} {suit_word(lang, game)}"
    return suit_word(lang, str(bid))


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _count(lang: str, n: int, one: str, many: str) -> str:
    return word(lang, one) if n == 1 else word(lang, many, n=n)


def _title(view: dict[str, Any], lang: str) -> str:
    """The game's name in the language; its id for a game the registry does not have (the bot
    may be given rules of its own: the picture is drawn from the view alone)."""
    try:
        rules = games.get(view["game"])
    except KeyError:
        return str(view["game"])
    return rules.title(lang)


def _name(names: Sequence[str], seat: int, lang: str) -> str:
    return names[seat] if 0 <= seat < len(names) else word(lang, "pic-seat", n=seat + 1)


def _plays(plays: Any) -> list[tuple[int, list[str | None]]]:
    return [(int(p["seat"]), list(p.get("cards") or [p.get("card")])) for p in plays or []
            if isinstance(p, dict) and "seat" in p]


def base_scene(view: dict[str, Any], names: Sequence[str], lang: str) -> Scene:
    """The parts every game shares: seats with their hand counts, turn, dealer, winners, the
    trick (lead marked) and the previous trick; and a finished game's places."""
    players = view["players"]
    over = bool(view.get("over"))
    subtitle = word(lang, "pic-over") if over else word(lang, "pic-deal", n=view.get("deal", 1))
    to_act = set(view.get("to_act", []))
    counts = view.get("hand_counts") or [0] * players
    outcome = view.get("outcome") or {}
    winners = set(outcome.get("winners", []))
    seats = []
    for seat in range(players):
        seat_scene = SeatScene(
            name=_name(names, seat, lang),
            lines=[_count(lang, counts[seat], "pic-card", "pic-cards")],
            acting=seat in to_act and not over, dealer=view.get("dealer") == seat,
            hand_count=counts[seat])
        if seat in winners:
            seat_scene.badge("winner", word(lang, "pic-winner"))
        if seat_scene.acting:
            seat_scene.badge("turn", word(lang, "pic-turn"))
        seats.append(seat_scene)
    scene = Scene(title=_title(view, lang), subtitle=subtitle, seats=seats,
                  trick=_plays(view.get("trick")), lead_label=word(lang, "pic-lead"),
                  last_trick=_plays(view.get("last_trick")), last_label=word(lang, "pic-last"))
    leader = view.get("leader")
    if scene.last_trick and isinstance(leader, int) and 0 <= leader < players:
        # the previous trick's taker leads the next one, in every trick game here
        scene.last_label = word(lang, "pic-last-won", name=_name(names, leader, lang))
    return scene


def _best_play(scene: Scene, beats: Callable[[str, str, str], bool]) -> None:
    """Mark the play winning the trick so far: ``beats(card, best, led)`` says whether a card
    takes over from the best one so far (cards face down never do)."""
    best, best_card = -1, ""
    for i, (_seat, codes) in enumerate(scene.trick):
        code = codes[-1] if codes else None
        if code is None:
            continue
        if best < 0 or beats(code, best_card, scene.trick[0][1][-1] or code):
            best, best_card = i, code
    scene.trick_best = best


_RANKS = "23456789TJQKA"


def _rank(code: str) -> int:
    return _RANKS.find(code[0])


def _follows(code: str, best: str, led: str, trumps: str | None = None,
             strength: Callable[[str], int] = _rank) -> bool:
    """A card beats the best so far: a stronger one of its suit, or the first trump (the led
    suit's strongest wins when nobody trumps)."""
    if code[1] == best[1]:
        return strength(code) > strength(best)
    return trumps is not None and code[1] == trumps


def _result(view: dict[str, Any], scene: Scene, names: Sequence[str], lang: str,
            score: Callable[[int], str]) -> None:
    """A finished game's places in the middle, each with the game's own number."""
    outcome = view.get("outcome") or {}
    places = outcome.get("places")
    if not view.get("over") or not places:
        return
    order = sorted(range(len(places)), key=lambda s: (places[s], s))
    scene.result = [word(lang, "pic-over")] + [
        word(lang, "pic-place", place=places[s], name=_name(names, s, lang), score=score(s))
        for s in order]


def _out(view: dict[str, Any], scene: Scene, lang: str, gone: Sequence[bool]) -> None:
    """Seats that went out of the game: greyed and badged (never a winner)."""
    winners = set((view.get("outcome") or {}).get("winners", []))
    for seat, out in enumerate(gone):
        if out and seat not in winners:
            scene.seats[seat].live = False
            scene.seats[seat].badge("out", word(lang, "pic-out"))


def _twenty_two(view: dict[str, Any], scene: Scene, names: Sequence[str], lang: str) -> None:
    scores = view.get("scores") or []
    limit = view.get("limit")
    for seat, seat_scene in enumerate(scene.seats):
        seat_scene.lines.append(word(lang, "pic-penalty-of", n=_number(scores[seat]), limit=limit)
                                if limit else word(lang, "pic-penalty", n=_number(scores[seat])))
    # The deal's final trick (everyone's last card at once) says who took the penalty: shown
    # until the next deal's first play (the view keeps it for the whole next deal, and the
    # trick being played is the state to see then)
    if view.get("final") and not view.get("trick") and (
            not view.get("last_trick") or view.get("phase") == "rebuy"):
        final = view["final"]
        plays = final.get("plays", final) if isinstance(final, dict) else final
        if isinstance(plays, list):
            scene.trick = _plays(plays)
    to_beat = view.get("to_beat") or []
    if to_beat and not scene.trick:
        scene.rows.append((word(lang, "pic-to-beat"), list(to_beat)))
    for seat, cards in enumerate(view.get("penalties") or []):
        scene.seats[seat].cards = list(cards)
        scene.seats[seat].cards_label = word(lang, "pic-penalty-cards")
    to_beat_cards = list(to_beat)
    for i, (_seat, codes) in enumerate(scene.trick):  # the play to beat is winning the trick
        if to_beat_cards and sorted(map(str, codes)) == sorted(to_beat_cards):
            scene.trick_best = i
    _out(view, scene, lang, [not x for x in view.get("live") or []])
    if limit:
        scene.corner.append(word(lang, "pic-limit", n=limit))
    if view.get("stock_count") is not None:
        scene.corner.append(word(lang, "pic-stock", n=view["stock_count"]))
    if view.get("pot"):
        scene.corner.append(word(lang, "pic-pot", n=view["pot"]))
    _result(view, scene, names, lang,
            lambda s: word(lang, "pic-penalty", n=_number(scores[s])))


def _one_two_three_four(view: dict[str, Any], scene: Scene, names: Sequence[str],
                        lang: str) -> None:
    scores = view.get("scores") or []
    chips = view.get("scoring", "chips") == "chips"

    def money(seat: int) -> str:
        return word(lang, "pic-chips" if chips else "pic-points", n=_number(scores[seat]))

    for seat, seat_scene in enumerate(scene.seats):
        seat_scene.lines.append(money(seat))
    total = view.get("games")
    scene.subtitle = (word(lang, "pic-over") if view.get("over")
                      else word(lang, "pic-game-of", n=view.get("deal", 1), total=total) if total
                      else word(lang, "pic-game-no", n=view.get("deal", 1)))
    if view.get("number_to_beat") is not None:
        scene.lines.append(word(lang, "pic-number", n=view["number_to_beat"]))
    last = view.get("last_play")
    if last and last.get("cards"):
        key = "pic-passed" if last.get("kind") == "pass" else "pic-played"
        scene.rows.append((word(lang, key, name=_name(names, last["seat"], lang)),
                           list(last["cards"])))
    elif view.get("start_card"):
        scene.rows.append((word(lang, "pic-start"), [view["start_card"]]))
    if view.get("stock") is not None:
        scene.corner.append(word(lang, "pic-stock", n=view["stock"]))
    if not view.get("over"):
        _out(view, scene, lang, view.get("dropped") or [])
    _result(view, scene, names, lang, money)


def _bhabhi(view: dict[str, Any], scene: Scene, names: Sequence[str], lang: str) -> None:
    for seat, order in enumerate(view.get("safe_order") or []):
        if order is not None:
            scene.seats[seat].badge("safe", word(lang, "pic-safe"))
    loser = view.get("loser")
    if loser is not None and 0 <= loser < len(scene.seats):
        scene.seats[loser].badge("loser", word(lang, "pic-bhabhi"))
    for seat, known in enumerate(view.get("known") or []):
        scene.seats[seat].cards = list(known)[:8]
        scene.seats[seat].cards_label = word(lang, "pic-known-cards")
    _best_play(scene, lambda code, best, led: _follows(code, best, led))
    if view.get("discarded"):
        scene.corner.append(word(lang, "pic-discarded", n=view["discarded"]))
    taker = view.get("last_taker")
    if taker is not None:
        scene.last_label = word(lang, "pic-last-won", name=_name(names, taker, lang))
    _result(view, scene, names, lang,
            lambda s: word(lang, "pic-bhabhi") if s == loser else word(lang, "pic-safe"))


def _finesse(view: dict[str, Any], scene: Scene, names: Sequence[str], lang: str) -> None:
    for seat, cards in enumerate(view.get("table_cards") or []):
        scene.seats[seat].cards = list(cards)
        scene.seats[seat].cards_label = word(lang, "pic-table-cards")
    for seat, seat_scene in enumerate(scene.seats):  # partners sit across: 0 & 2, 1 & 3
        seat_scene.team = seat % 2
    trumps = view.get("trumps")
    _best_play(scene, lambda code, best, led: _follows(code, best, led, trumps))
    won = view.get("tricks_won") or []
    for seat, n in enumerate(won):
        scene.seats[seat].lines.append(_count(lang, n, "pic-trick", "pic-tricks"))
    if view.get("trumps"):
        scene.corner.append(word(lang, "pic-trumps", s=suit_word(lang, view["trumps"])))
    team_scores = view.get("team_scores") or [0, 0]
    tricks = view.get("team_tricks") or [0, 0]
    target = view.get("target")
    for team, (a, b) in enumerate(((0, 2), (1, 3))):
        scene.corner_colour[len(scene.corner)] = TEAM_COLOURS[team]
        scene.corner.append(word(lang, "pic-team", a=_name(names, a, lang),
                                 b=_name(names, b, lang)))
        scene.corner_colour[len(scene.corner)] = TEAM_COLOURS[team]
        won_tricks = _count(lang, tricks[team], "pic-trick", "pic-tricks")
        scene.corner.append(word(lang, "pic-team-points", n=_number(team_scores[team]),
                                 target=target, tricks=won_tricks) if target else
                            word(lang, "pic-points", n=_number(team_scores[team])) + " · "
                            + won_tricks)
    _result(view, scene, names, lang,
            lambda s: word(lang, "pic-points", n=_number(team_scores[s % 2])))


def _sugekari(view: dict[str, Any], scene: Scene, names: Sequence[str], lang: str) -> None:
    played = view.get("round") or []
    if played:
        scene.rows.append((word(lang, "pic-round"), [p["card"] for p in played]))
    if view.get("total") is not None and not view.get("over"):
        scene.lines.append(word(lang, "pic-total-of", n=view["total"], limit=SUGEKARI_LIMIT))
    elif not view.get("over"):
        scene.corner.append(word(lang, "pic-limit-total", n=SUGEKARI_LIMIT))
    sides = view.get("sides") or [[s] for s in range(view["players"])]
    counts = view.get("captured_counts") or []
    side_of = {seat: side for side, seats in enumerate(sides) for seat in seats}
    if any(len(seats) > 1 for seats in sides):  # teams: each side in its colour
        for seat, seat_scene in enumerate(scene.seats):
            seat_scene.team = side_of.get(seat)
    for seat, seat_scene in enumerate(scene.seats):
        side = side_of.get(seat)
        if side is not None and side < len(counts):
            seat_scene.lines.append(word(lang, "pic-captured", n=counts[side]))
    if view.get("stock"):
        scene.corner.append(word(lang, "pic-stock", n=view["stock"]))
    played_games = view.get("games") or []
    if len(played_games) > 1 or (played_games and not view.get("over")):
        wins = [0, 0]
        for g in played_games:
            s = g.get("scores") or [0, 0]
            if len(s) == 2 and s[0] != s[1]:
                wins[0 if s[0] > s[1] else 1] += 1
        scene.corner.append(word(lang, "pic-games-won", a=wins[0], b=wins[1]))
    _result(view, scene, names, lang,
            lambda s: word(lang, "pic-captured", n=counts[side_of[s]] if side_of.get(s) is not None
                           and side_of[s] < len(counts) else 0))


def _bear(view: dict[str, Any], scene: Scene, names: Sequence[str], lang: str) -> None:
    scores = view.get("scores") or []
    for seat, seat_scene in enumerate(scene.seats):
        seat_scene.lines.append(word(lang, "pic-points", n=_number(scores[seat])))
    contract = view.get("contract")
    if contract:
        game = suit_word(lang, str(contract.get("game")))
        bid = contract.get("bid")
        scene.corner.append(word(lang, "pic-contract", s=f"{bid} {game}" if bid else game))
    if view.get("trumps") and wording.has(f"pic-suit-{view['trumps']}"):
        scene.corner.append(word(lang, "pic-trumps", s=suit_word(lang, str(view["trumps"]))))
    declarer = view.get("declarer")
    need = (contract or {}).get("bid")
    playing = view.get("phase") == "play" or view.get("over")
    won = view.get("tricks_won") or []
    taken = view.get("points_taken") or []
    for seat, bid in enumerate(view.get("bids") or []):
        if playing:
            continue
        if bid is not None:
            label = (word(lang, "pic-pass") if bid == "pass"
                     else word(lang, "pic-bid", s=bid_word(lang, bid)))
            scene.seats[seat].lines.append(label)
    if playing:
        for seat, seat_scene in enumerate(scene.seats):
            n = won[seat] if seat < len(won) else 0
            parts = [_count(lang, n, "pic-trick", "pic-tricks")]
            if seat == declarer and need and seat < len(taken):  # how far from the contract
                parts.append(word(lang, "pic-card-points-of", n=taken[seat], need=need))
            elif seat < len(taken) and taken[seat]:
                parts.append(word(lang, "pic-card-points", n=taken[seat]))
            seat_scene.lines += parts
    if not playing:  # the auction: the bid to beat in the middle
        bids = [str(b) for b in view.get("bids") or [] if b not in (None, "pass")]
        numbered = [b for b in bids if b.partition("-")[0].isdigit()]
        if numbered:
            high = max(numbered, key=lambda b: int(b.partition("-")[0]))
            scene.lines.append(word(lang, "pic-high-bid", s=bid_word(lang, high)))
    winning = view.get("winning")  # the rules say who takes the trick so far (honours)
    for i, (seat, _codes) in enumerate(scene.trick):
        if seat == winning:
            scene.trick_best = i
    if declarer is not None and 0 <= declarer < len(scene.seats):
        scene.seats[declarer].badge("declarer", word(lang, "pic-declarer"))
    if view.get("kitty_count"):
        scene.corner.append(word(lang, "pic-kitty", n=view["kitty_count"]))
    if view.get("target"):
        scene.corner.append(word(lang, "pic-target", n=view["target"]))
    if view.get("deals") and not view.get("over"):
        scene.subtitle = word(lang, "pic-deal-of", n=view.get("deal", 1), total=view["deals"])
    _result(view, scene, names, lang,
            lambda s: word(lang, "pic-points", n=_number(scores[s])))


def _spar(view: dict[str, Any], scene: Scene, names: Sequence[str], lang: str) -> None:
    variant = view.get("variant")
    if variant and variant != "spar":
        scene.title += f" ({variant})"
    scores = view.get("scores") or []
    won = view.get("tricks_won") or []
    for seat, seat_scene in enumerate(scene.seats):
        n = won[seat] if seat < len(won) else 0
        target = view.get("target")
        seat_scene.lines.append(word(lang, "pic-points-of", n=_number(scores[seat]), target=target)
                                if target else word(lang, "pic-points", n=_number(scores[seat])))
        if n and not view.get("over"):
            seat_scene.lines.append(_count(lang, n, "pic-trick", "pic-tricks"))
    winners = view.get("trick_winners") or []
    if winners:
        scene.last_label = word(lang, "pic-last-won", name=_name(names, winners[-1]["seat"], lang))
    # each member of the family orders its ranks its own way (Agram: A T 9 … 3)
    order = spar.VARIANTS.get(str(variant or "spar"), spar.VARIANTS["spar"]).ranks

    def strength(code: str) -> int:
        rank = parse(code).rank
        return order.index(rank) if rank in order else -1

    _best_play(scene, lambda code, best, led: _follows(code, best, led, None, strength))
    if view.get("target"):
        scene.corner.append(word(lang, "pic-target", n=view["target"]))
    if view.get("deals") and not view.get("over"):
        scene.subtitle = word(lang, "pic-deal-of", n=view.get("deal", 1), total=view["deals"])
    _result(view, scene, names, lang,
            lambda s: word(lang, "pic-points", n=_number(scores[s])))


SCENES: dict[str, Callable[[dict[str, Any], Scene, Sequence[str], str], None]] = {
    "twenty-two": _twenty_two,
    "1234": _one_two_three_four,
    "bhabhi": _bhabhi,
    "finesse": _finesse,
    "sugekari-21": _sugekari,
    "bear": _bear,
    "spar": _spar,
}


def _unknown_game(view: dict[str, Any], scene: Scene, names: Sequence[str], lang: str) -> None:
    """A game the pictures have no part for: its scores as points, its places at the end."""
    scores = view.get("scores") or []
    for seat, seat_scene in enumerate(scene.seats):
        if seat < len(scores):
            seat_scene.lines.append(word(lang, "pic-points", n=_number(scores[seat])))
    _out(view, scene, lang, [not x for x in view.get("live") or []])
    _result(view, scene, names, lang,
            lambda s: word(lang, "pic-points", n=_number(scores[s])) if s < len(scores) else "")


def scene_for(view: dict[str, Any], names: Sequence[str], lang: str = "en",
              avatars: Sequence[bytes | None] = (), computers: Sequence[int] = ()) -> Scene:
    """The scene of a view: shared parts, then the game's own elements, then faces."""
    scene = base_scene(view, names, lang)
    SCENES.get(view["game"], _unknown_game)(view, scene, names, lang)
    for seat, seat_scene in enumerate(scene.seats):
        seat_scene.avatar = avatars[seat] if seat < len(avatars) else None
        seat_scene.computer = seat in computers
    return scene
