"""From a view to a :class:`Scene`: the common keys for every game, then each game's own.

Only the view's dict is read (``State.view(seat).to_dict()``), so a picture can never show
more than the view does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import games
from bot.render.table import Scene, SeatScene

SUIT_WORD = {
    "en": {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs",
           "NT": "no trumps", "grand-red": "grand red", "grand-black": "grand black",
           "null": "Null"},
    "ja": {"S": "♠ スペード", "H": "♥ ハート", "D": "♦ ダイヤ", "C": "♣ クラブ",
           "NT": "切り札なし", "grand-red": "グランド赤", "grand-black": "グランド黒",
           "null": "ヌル"},
}

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "deal": "Deal {n}", "game_no": "Game {n}", "cards": "{n} cards", "score": "{n} pts",
        "turn": "turn", "out": "out", "safe": "safe", "winner": "winner", "over": "Game over",
        "to_beat": "To beat", "stock": "Stock: {n}", "number": "Number to beat: {n}",
        "start": "Start card", "round": "This round", "total": "Total: {n}",
        "captured": "captured {n}", "trumps": "Trumps: {s}", "tricks": "{n} tricks",
        "contract": "Contract: {s}", "kitty": "Kitty: {n} cards", "bid": "bid {s}",
        "pass": "pass", "played": "{name} played", "passed": "{name} passed with",
        "chips": "{n} chips", "pot": "Pot: {n}", "target": "Target: {n}",
        "team": "{a} & {b}: {n}", "declarer": "declarer", "discarded": "Discarded: {n}",
        "limit": "Out at {n}", "variant": "{s}", "last_won": "Last trick: {name}",
        "points": "{n} pts", "deals_won": "{n} deals won", "known": "picked up",
    },
    "ja": {
        "deal": "第{n}ディール", "game_no": "第{n}ゲーム", "cards": "{n}枚", "score": "{n}点",
        "turn": "手番", "out": "脱落", "safe": "上がり", "winner": "勝者", "over": "ゲーム終了",
        "to_beat": "超えるカード", "stock": "山札: {n}", "number": "超える数: {n}",
        "start": "開始カード", "round": "このラウンド", "total": "合計: {n}",
        "captured": "獲得 {n}", "trumps": "切り札: {s}", "tricks": "{n}トリック",
        "contract": "契約: {s}", "kitty": "キティ: {n}枚", "bid": "ビッド {s}",
        "pass": "パス", "played": "{name} のプレイ", "passed": "{name} のパス",
        "chips": "{n}チップ", "pot": "ポット: {n}", "target": "目標: {n}",
        "team": "{a}・{b}: {n}", "declarer": "デクレアラー", "discarded": "捨て札: {n}",
        "limit": "{n}点で脱落", "variant": "{s}", "last_won": "前のトリック: {name}",
        "points": "{n}点", "deals_won": "{n}ディール勝ち", "known": "拾った札",
    },
}


def word(lang: str, key: str, **values: Any) -> str:
    """A label in the language (English when the language is unknown)."""
    table = WORDS.get(lang, WORDS["en"])
    return table.get(key, WORDS["en"][key]).format(**values)


def suit_word(lang: str, key: str) -> str:
    """A trump suit or game named for people."""
    return SUIT_WORD.get(lang, SUIT_WORD["en"]).get(key, key)


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _title(view: dict[str, Any], lang: str) -> str:
    """The game's name in the language; its id for a game the registry does not have (the bot
    may be given rules of its own: the picture is drawn from the view alone)."""
    try:
        rules = games.get(view["game"])
    except KeyError:
        return str(view["game"])
    return rules.name_ja if lang == "ja" else rules.name


def base_scene(view: dict[str, Any], names: list[str], lang: str) -> Scene:
    """The parts every game shares: seats, turn, dealer, counts, scores, the trick."""
    players = view["players"]
    title = _title(view, lang)
    subtitle = word(lang, "deal", n=view.get("deal", 1))
    if view.get("over"):
        subtitle = word(lang, "over")
    to_act = set(view.get("to_act", []))
    counts = view.get("hand_counts") or [0] * players
    live = view.get("live") or [True] * players
    scores = view.get("scores") or [0] * players
    outcome = view.get("outcome") or {}
    winners = set(outcome.get("winners", []))
    seats = []
    for seat in range(players):
        name = names[seat] if seat < len(names) else f"Seat {seat + 1}"
        parts = [word(lang, "cards", n=counts[seat]),
                 word(lang, "score", n=_number(scores[seat]))]
        badge = ""
        if seat in winners:
            badge = word(lang, "winner")
        elif seat in to_act and not view.get("over"):
            badge = word(lang, "turn")
        elif not live[seat]:
            badge = word(lang, "out")
        seats.append(SeatScene(
            name=name, line=" · ".join(parts), acting=seat in to_act and not view.get("over"),
            dealer=view.get("dealer") == seat, live=bool(live[seat]), badge=badge,
            hand_count=counts[seat]))
    trick = [(p["seat"], list(p.get("cards") or [p.get("card")]))
             for p in view.get("trick") or []]
    return Scene(title=title, subtitle=subtitle, seats=seats, trick=trick)


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _twenty_two(view: dict[str, Any], scene: Scene, names: list[str], lang: str) -> None:
    if view.get("final"):
        final = view["final"]
        plays = final.get("plays", final) if isinstance(final, dict) else final
        if isinstance(plays, list) and plays and isinstance(plays[0], dict):
            scene.trick = [(p["seat"], list(p.get("cards") or [p.get("card")])) for p in plays]
    to_beat = view.get("to_beat") or []
    if to_beat and not scene.trick:
        scene.rows.append((word(lang, "to_beat"), list(to_beat)))
    for seat, cards in enumerate(view.get("penalties") or []):
        scene.seats[seat].cards = list(cards)
    if view.get("limit"):
        scene.corner.append(word(lang, "limit", n=view["limit"]))
    if view.get("stock_count") is not None:
        scene.corner.append(word(lang, "stock", n=view["stock_count"]))
    if view.get("pot"):
        scene.corner.append(word(lang, "pot", n=view["pot"]))


def _one_two_three_four(view: dict[str, Any], scene: Scene, names: list[str],
                        lang: str) -> None:
    scene.subtitle = (word(lang, "over") if view.get("over")
                      else word(lang, "game_no", n=view.get("deal", 1)))
    if view.get("number_to_beat") is not None:
        scene.lines.append(word(lang, "number", n=view["number_to_beat"]))
    last = view.get("last_play")
    if last and last.get("cards"):
        key = "passed" if last.get("kind") == "pass" else "played"
        scene.rows.append((word(lang, key, name=_name(names, last["seat"])), list(last["cards"])))
    elif view.get("start_card"):
        scene.rows.append((word(lang, "start"), [view["start_card"]]))
    if view.get("stock") is not None:
        scene.corner.append(word(lang, "stock", n=view["stock"]))
    for seat, dropped in enumerate(view.get("dropped") or []):
        if dropped and scene.seats[seat].badge == "":
            scene.seats[seat].badge = word(lang, "out")


def _bhabhi(view: dict[str, Any], scene: Scene, names: list[str], lang: str) -> None:
    for seat, order in enumerate(view.get("safe_order") or []):
        if order is not None and scene.seats[seat].badge != word(lang, "winner"):
            scene.seats[seat].badge = word(lang, "safe")
    for seat, known in enumerate(view.get("known") or []):
        scene.seats[seat].cards = list(known)[:8]
    if view.get("discarded"):
        scene.corner.append(word(lang, "discarded", n=view["discarded"]))
    if not scene.trick and view.get("last_trick"):
        scene.rows.append((word(lang, "last_won", name=_name(names, view.get("last_taker", -1))),
                           [p["card"] for p in view["last_trick"]]))


def _finesse(view: dict[str, Any], scene: Scene, names: list[str], lang: str) -> None:
    for seat, cards in enumerate(view.get("table_cards") or []):
        scene.seats[seat].cards = list(cards)
    if view.get("trumps"):
        scene.corner.append(word(lang, "trumps", s=suit_word(lang, view["trumps"])))
    team_scores = view.get("team_scores") or [0, 0]
    tricks = view.get("team_tricks") or [0, 0]
    for team, (a, b) in enumerate(((0, 2), (1, 3))):
        scene.corner.append(word(lang, "team", a=_name(names, a), b=_name(names, b),
                                 n=_number(team_scores[team]))
                            + " · " + word(lang, "tricks", n=tricks[team]))
    if view.get("target"):
        scene.corner.append(word(lang, "target", n=view["target"]))


def _sugekari(view: dict[str, Any], scene: Scene, names: list[str], lang: str) -> None:
    played = view.get("round") or []
    if played:
        scene.rows.append((word(lang, "round"), [p["card"] for p in played]))
    if view.get("total") is not None:
        scene.lines.append(word(lang, "total", n=view["total"]))
    sides = view.get("sides") or [[s] for s in range(view["players"])]
    counts = view.get("captured_counts") or []
    for side, seats in enumerate(sides):
        if side < len(counts):
            for seat in seats:
                scene.seats[seat].line += " · " + word(lang, "captured", n=counts[side])
    if view.get("stock"):
        scene.corner.append(word(lang, "stock", n=view["stock"]))


def _bear(view: dict[str, Any], scene: Scene, names: list[str], lang: str) -> None:
    contract = view.get("contract")
    if contract:
        game = suit_word(lang, str(contract.get("game")))
        bid = contract.get("bid")
        scene.corner.append(word(lang, "contract", s=f"{bid} {game}" if bid else game))
    declarer = view.get("declarer")
    for seat, bid in enumerate(view.get("bids") or []):
        if bid is not None:
            label = word(lang, "pass") if bid == "pass" else word(lang, "bid", s=bid)
            scene.seats[seat].line += " · " + label
    if declarer is not None and not scene.seats[declarer].badge:
        scene.seats[declarer].badge = word(lang, "declarer")
    if view.get("kitty_count"):
        scene.corner.append(word(lang, "kitty", n=view["kitty_count"]))
    for seat, points in enumerate(view.get("points_taken") or []):
        if points:
            scene.seats[seat].line += " · " + word(lang, "points", n=points)


def _spar(view: dict[str, Any], scene: Scene, names: list[str], lang: str) -> None:
    variant = view.get("variant")
    if variant and variant != "spar":
        scene.title += f" ({variant})"
    winners = view.get("trick_winners") or []
    if winners:
        last = winners[-1]
        scene.corner.append(word(lang, "last_won", name=_name(names, last["seat"])))
    if not scene.trick and view.get("last_trick"):
        scene.rows.append(("", [p["card"] for p in view["last_trick"]]))
    if view.get("target"):
        scene.corner.append(word(lang, "target", n=view["target"]))


def _tricks_won(view: dict[str, Any], scene: Scene, lang: str) -> None:
    won = view.get("tricks_won")
    if won and view["game"] not in ("finesse",):
        for seat, n in enumerate(won):
            if n:
                scene.seats[seat].line += " · " + word(lang, "tricks", n=n)


SCENES: dict[str, Callable[[dict[str, Any], Scene, list[str], str], None]] = {
    "twenty-two": _twenty_two,
    "1234": _one_two_three_four,
    "bhabhi": _bhabhi,
    "finesse": _finesse,
    "sugekari-21": _sugekari,
    "bear": _bear,
    "spar": _spar,
}


def scene_for(view: dict[str, Any], names: list[str], lang: str = "en") -> Scene:
    """The scene of a view: shared parts, then the game's own elements."""
    scene = base_scene(view, names, lang)
    game_part = SCENES.get(view["game"])
    if game_part is not None:
        game_part(view, scene, names, lang)
    _tricks_won(view, scene, lang)
    return scene
