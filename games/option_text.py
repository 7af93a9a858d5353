"""The sentences that refuse an option combination, in English and Japanese.

A game's ``check_options`` raises :class:`games.core.OptionError` with one of these keys and its
fields; the English sentence is the error's own text, and a front end (the terminal, the bot)
shows :meth:`~games.core.OptionError.text` in its reader's language. Option names and values
stay as they are typed (``rebuy``, ``two-decks``): they are what a player writes.
"""

from __future__ import annotations

from typing import Any

OPTION_TEXTS: dict[str, dict[str, str]] = {
    "en": {
        # Bhabhi
        "shootout-taker-stays": (
            "options 'shootout' and 'taker_stays' cannot both be on: both decide what happens "
            "to a player who wins a round with their last card"),
        # 1234
        "only-with-scoring": "option '{name}' applies only when scoring is '{scoring}'",
        # Spar family
        "spar-only": "option '{name}' belongs to Spar only, not to variant '{variant}'",
        "target-counts-deals": (
            "option 'target' does not apply to variant '{variant}' (it counts deals; use "
            "'deals')"),
        "deals-only": (
            "option 'deals' applies only to agram, sink-sink and agram-mali, not to variant "
            "'{variant}'"),
        "hand-seven": "option 'hand' = 7 allows at most {most} players",
        "variant-players": (
            "option 'variant' {variant} deals {hand} cards each from {size}: at most {most} "
            "players"),
        # Sugekari 21
        "sugekari-three": (
            "Sugekari 21 is for 4 players (mode 'teams') or 2 players (mode 'two-decks' or "
            "'refill'), not 3"),
        "teams-four": (
            "option 'mode' = 'teams' needs 4 players, not {players}; with 2 players use mode "
            "'two-decks' or 'refill'"),
        "mode-two": (
            "option 'mode' = '{mode}' is for 2 players, not {players}; with 4 players use mode "
            "'teams'"),
        "partner-teams": (
            "option 'exchange' = 'partner' needs partners (mode 'teams'); with 2 players use "
            "exchange 'rotate' or 'none'"),
        "jokers-best-of-three": (
            "option 'jokers' needs option 'best_of_three' (the jokers join from the second "
            "game)"),
        "best-of-three-two-decks": (
            "option 'best_of_three' cannot be used with mode 'two-decks', which is already a "
            "match of two games; use mode 'teams' or 'refill'"),
        # 22
        "rebuy-players": "option 'rebuy' needs {least} to {most} players",
    },
    "ja": {
        "shootout-taker-stays": (
            "オプション「shootout」と「taker_stays」は同時に使えません：どちらも、最後の1枚で"
            "ラウンドに勝った人がどうなるかを決めるものです"),
        "only-with-scoring": (
            "オプション「{name}」はオプション「scoring」が「{scoring}」のときだけ使えます"),
        "spar-only": (
            "オプション「{name}」はスパーだけのもので、オプション「variant」が「{variant}」"
            "のときは使えません"),
        "target-counts-deals": (
            "オプション「target」はオプション「variant」が「{variant}」のときは使えません"
            "（ディール数で数えるので「deals」を使ってください）"),
        "deals-only": (
            "オプション「deals」は「agram」「sink-sink」「agram-mali」だけのもので、"
            "オプション「variant」が「{variant}」のときは使えません"),
        "hand-seven": "オプション「hand」が 7 のときは {most} 人までです",
        "variant-players": (
            "オプション「variant」の「{variant}」は {size} 枚から1人 {hand} 枚ずつ配るので、"
            "{most} 人までです"),
        "sugekari-three": (
            "菅刈21は 4 人（オプション「mode」が「teams」）か 2 人（「two-decks」か「refill」）"
            "で遊びます（3 人ではできません）"),
        "teams-four": (
            "オプション「mode」の「teams」は 4 人用です（{players} 人ではできません）。"
            "2 人なら「mode」を「two-decks」か「refill」にしてください"),
        "mode-two": (
            "オプション「mode」の「{mode}」は 2 人用です（{players} 人ではできません）。"
            "4 人なら「mode」を「teams」にしてください"),
        "partner-teams": (
            "オプション「exchange」の「partner」にはパートナー（「mode」が「teams」）が必要です。"
            "2 人なら「exchange」を「rotate」か「none」にしてください"),
        "jokers-best-of-three": (
            "オプション「jokers」にはオプション「best_of_three」が必要です"
            "（ジョーカーは2ゲーム目から加わります）"),
        "best-of-three-two-decks": (
            "オプション「best_of_three」は「mode」が「two-decks」のときは使えません"
            "（「two-decks」はそれだけで2ゲームの試合です）。「mode」を「teams」か「refill」にして"
            "ください"),
        "rebuy-players": "オプション「rebuy」は {least}〜{most} 人で使えます",
    },
}


def option_text(key: str, lang: str = "en", **params: Any) -> str:
    """The refusal ``key`` in ``lang`` (English when the language is unknown), filled in."""
    table = OPTION_TEXTS.get(lang, OPTION_TEXTS["en"])
    return table[key].format(**params)
