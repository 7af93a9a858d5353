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
    "en": {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs"},
    "ja": {"S": "♠ スペード", "H": "♥ ハート", "D": "♦ ダイヤ", "C": "♣ クラブ"},
}

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "deal": "Deal {n}", "cards": "{n} cards", "score": "{n} pts", "turn": "turn",
        "out": "out", "safe": "safe", "winner": "winner", "over": "Game over",
        "to_beat": "To beat", "stock": "Stock: {n}", "penalty": "penalty {n}",
        "number": "Number to beat: {n}", "start": "Start card", "round": "This round",
        "total": "Total: {n}", "captured": "{n} captured", "trumps": "Trumps: {s}",
        "no_trumps": "No trumps", "tricks": "{n} tricks", "contract": "Contract: {s}",
        "kitty": "Kitty: {n} cards", "bid": "bid {s}", "pass": "pass", "last_trick":
        "Last trick", "used": "Used: {s}", "chips": "{n} chips", "pot": "Pot: {n}",
        "team": "Team {a}+{b}: {n}", "table_cards": "table", "dropped": "dropped",
        "phase": "{s}",
    },
    "ja": {
        "deal": "第{n}ディール", "cards": "{n}枚", "score": "{n}点", "turn": "手番",
        "out": "脱落", "safe": "上がり", "winner": "勝者", "over": "ゲーム終了",
        "to_beat": "超えるカード", "stock": "山札: {n}", "penalty": "失点 {n}",
        "number": "超える数: {n}", "start": "開始カード", "round": "このラウンド",
        "total": "合計: {n}", "captured": "獲得 {n}", "trumps": "切り札: {s}",
        "no_trumps": "切り札なし", "tricks": "{n}トリック", "contract": "契約: {s}",
        "kitty": "キティ: {n}枚", "bid": "ビッド {s}", "pass": "パス", "last_trick":
        "前のトリック", "used": "使用済み: {s}", "chips": "{n}チップ", "pot": "ポット: {n}",
        "team": "チーム {a}+{b}: {n}", "table_cards": "テーブル", "dropped": "脱落",
        "phase": "{s}",
    },
}


def word(lang: str, key: str, **values: Any) -> str:
    """A label in the language (English when the language is unknown)."""
    table = WORDS.get(lang, WORDS["en"])
    return table.get(key, WORDS["en"][key]).format(**values)


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def base_scene(view: dict[str, Any], names: list[str], lang: str) -> Scene:
    """The parts every game shares: seats, turn, dealer, counts, scores, the trick."""
    rules = games.get(view["game"])
    players = view["players"]
    title = rules.name_ja if lang == "ja" else rules.name
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
        parts = [word(lang, "cards", n=counts[seat])] if counts else []
        parts.append(word(lang, "score", n=_number(scores[seat])))
        badge = ""
        if seat in winners:
            badge = word(lang, "winner")
        elif seat in to_act and not view.get("over"):
            badge = word(lang, "turn")
        elif not live[seat]:
            badge = word(lang, "out")
        seats.append(SeatScene(
            name=name, line=" · ".join(parts), acting=seat in to_act,
            dealer=view.get("dealer") == seat, live=bool(live[seat]), badge=badge,
            hand_count=counts[seat]))
    trick = [(p["seat"], p["card"]) for p in view.get("trick") or []]
    scene = Scene(title=title, subtitle=subtitle, seats=seats, trick=trick)
    trumps = view.get("trumps")
    if trumps:
        scene.corner.append(word(lang, "trumps", s=SUIT_WORD.get(lang, SUIT_WORD["en"]).get(
            trumps, trumps)))
    return scene


def _twenty_two(view: dict[str, Any], scene: Scene, lang: str) -> None:
    to_beat = view.get("to_beat") or []
    if to_beat:
        scene.rows.append((word(lang, "to_beat"), list(to_beat)))
    for seat, cards in enumerate(view.get("penalties") or []):
        scene.seats[seat].cards = list(cards)
    if view.get("stock_count") is not None:
        scene.corner.append(word(lang, "stock", n=view["stock_count"]))
    if view.get("pot"):
        scene.corner.append(word(lang, "pot", n=view["pot"]))


def _one_two_three_four(view: dict[str, Any], scene: Scene, lang: str) -> None:
    number = view.get("number_to_beat", view.get("target"))
    if number is not None:
        scene.lines.append(word(lang, "number", n=number))
    last = view.get("last_play") or view.get("table") or []
    if isinstance(last, dict):
        last = last.get("cards", [])
    if last:
        scene.rows.append(("", list(last)))
    elif view.get("start_card"):
        scene.rows.append((word(lang, "start"), [view["start_card"]]))
    if view.get("stock_count") is not None:
        scene.corner.append(word(lang, "stock", n=view["stock_count"]))


def _finesse(view: dict[str, Any], scene: Scene, lang: str) -> None:
    for seat, cards in enumerate(view.get("table_cards") or []):
        scene.seats[seat].cards = list(cards)
    if view.get("trumps") is None and view.get("no_trumps"):
        scene.corner.append(word(lang, "no_trumps"))
    won = view.get("tricks_won")
    if won:
        for seat, n in enumerate(won):
            scene.seats[seat].line += " · " + word(lang, "tricks", n=n)


def _sugekari(view: dict[str, Any], scene: Scene, lang: str) -> None:
    played = view.get("round") or view.get("round_cards") or []
    if played:
        scene.rows.append((word(lang, "round"), [p["card"] if isinstance(p, dict) else p
                                                 for p in played]))
    if view.get("total") is not None:
        scene.lines.append(word(lang, "total", n=view["total"]))
    captured = view.get("captured_counts") or view.get("captured")
    if captured and isinstance(captured[0], int | float):
        for seat, n in enumerate(captured):
            scene.seats[seat].line += " · " + word(lang, "captured", n=n)


def _bear(view: dict[str, Any], scene: Scene, lang: str) -> None:
    contract = view.get("contract")
    if contract:
        scene.lines.append(word(lang, "contract", s=contract if isinstance(contract, str)
                                else contract.get("text", str(contract))))
    for seat, bid in enumerate(view.get("bids") or []):
        if bid is not None:
            label = word(lang, "pass") if bid == "pass" else word(lang, "bid", s=bid)
            scene.seats[seat].line += " · " + label
    if view.get("phase") in ("bid", "auction") and view.get("kitty_count"):
        scene.corner.append(word(lang, "kitty", n=view["kitty_count"]))


def _trick_games(view: dict[str, Any], scene: Scene, lang: str) -> None:
    won = view.get("tricks_won")
    if won and view["game"] != "finesse":
        for seat, n in enumerate(won):
            if n:
                scene.seats[seat].line += " · " + word(lang, "tricks", n=n)


SCENES: dict[str, Callable[[dict[str, Any], Scene, str], None]] = {
    "twenty-two": _twenty_two,
    "1234": _one_two_three_four,
    "finesse": _finesse,
    "sugekari-21": _sugekari,
    "bear": _bear,
}


def scene_for(view: dict[str, Any], names: list[str], lang: str = "en") -> Scene:
    """The scene of a view: shared parts, then the game's own elements."""
    scene = base_scene(view, names, lang)
    SCENES.get(view["game"], _trick_games)(view, scene, lang)
    if view["game"] in SCENES:
        _trick_games(view, scene, lang)
    return scene
