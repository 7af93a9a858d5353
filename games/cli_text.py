"""The terminal front end's own sentences, in English and Japanese (``python -m games``).

The games' own words (moves, events, the table) come from each game's ``action_text``,
``event_text`` and ``view_text``; this table holds only what the terminal adds around them:
menus, prompts, refusals and the end of a game. Where the bot says the same thing, the wording
follows the bot's.
"""

from __future__ import annotations

from typing import Any

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        # playing
        "you-are": "You play seat {seat} of {players}; the computer ({level}) plays the others.",
        "your-moves": "Your moves:",
        "prompt": "Choose a number (q to quit): ",
        "bad-number": "Type a number from 1 to {count} (? shows the list again, q quits).",
        "illegal": "You can't do that: {reason}",
        "bye": "Bye.",
        "interrupted": "Stopped. Bye.",
        "you-win": "You win!",
        "your-place": "Game over. Your place: {place} of {players}.",
        "back": "Back",
        "level-random": "random",
        "level-easy": "easy",
        "level-normal": "normal",
        "level-hard": "hard",
        # choosing cards one at a time
        "pick-title": "{what}: choose the cards one at a time.",
        "picked": "Chosen so far: {cards}",
        "picked-none": "Chosen so far: none",
        "done": "Done: {move}",
        "start-over": "Start over",
        "pick-cards": "{what}…",
        "kind-exchange": "Exchange cards",
        "kind-play": "Play cards",
        "kind-pass": "Pass with cards",
        "kind-discard": "Discard cards",
        "kind-other": "Choose cards ({kind})",
        # choosing in two steps (a bid: its number, then its game)
        "step": "{first}…",
        "step-bid": "Bid {first}…",
        "step-title": "{first}: choose one.",
        "step-title-bid": "Bid {first}: choose the game.",
        # the command line
        "unknown-game": "There is no game '{game}'. The games: {games}",
        "players-range": "{game} is for {counts} players, not {players}.",
        "seat-range": "--seat is a seat from 1 to {players}, not {seat}.",
        "seat-option": "Option '{name}' is a seat from 1 to {players} or random, not '{value}'.",
        "option-form": "Write options as name=value, not '{pair}'.",
        "bad-options": "These options are not accepted: {reason}",
        "unknown-option": "{game} has no option '{name}' (its options: {known}).",
        "bool-option": "Option '{name}' is true or false, not '{value}'.",
        "int-option": "Option '{name}' is a whole number from {least} to {most}, not '{value}'.",
        "choice-option": "Option '{name}' is one of {choices}, not '{value}'.",
        # listing and rules
        "list-line": "{id}{name}{counts} players",
        "options": "Options:",
        "option-seat": "seat 1 to {most}, or random",
        "option-line": "  {name}={default}{allowed}: {help}",
        # simulate's report
        "sim-title": "{game}: {games} games, {players} players, levels {levels}",
        "sim-seat": "  seat {seat} ({level}): win share {share}",
        "sim-actions": "  mean actions per game: {mean}",
        "sim-time": "  median time per action (computer players included): {us} µs",
        "bad-levels": "--levels is a comma-separated list of {levels}, not '{given}'.",
        "level-sep": ", ",
        # the command line's own refusals (argparse's words; English is argparse's own)
        "usage": "usage: ",
        "arg-error": "{prog}: error: {message}",
        "arg-choice": "argument {arg}: invalid choice: '{value}' (choose from {choices})",
        "arg-value": "argument {arg}: invalid value: '{value}'",
        "arg-one": "argument {arg}: expected one argument",
        "arg-required": "the following arguments are required: {args}",
        "arg-unknown": "unrecognized arguments: {args}",
        "arg-ambiguous": "ambiguous option: {option} could match {matches}",
        "arg-other": "{message}",
        "arg-command": "command",
    },
    "ja": {
        "you-are": ("あなたは {players} 席中の {seat} 番席です。"
                    "ほかの席はコンピューター（{level}）が打ちます。"),
        "your-moves": "選べる手：",
        "prompt": "番号を選んでください（q で終了）：",
        "bad-number": "1〜{count} の番号を入力してください（? で一覧をもう一度、q で終了）。",
        "illegal": "それはできません：{reason}",
        "bye": "終了します。",
        "interrupted": "中断しました。終了します。",
        "you-win": "あなたの勝ちです！",
        "your-place": "ゲーム終了。あなたの順位：{players} 人中 {place} 位。",
        "back": "戻る",
        "level-random": "でたらめ",
        "level-easy": "やさしい",
        "level-normal": "ふつう",
        "level-hard": "つよい",
        "pick-title": "{what}：カードを1枚ずつ選んでください。",
        "picked": "選んだカード：{cards}",
        "picked-none": "選んだカード：なし",
        "done": "{move}（決定）",
        "start-over": "選び直す",
        "pick-cards": "{what}…",
        "kind-exchange": "カードを交換",
        "kind-play": "カードを出す",
        "kind-pass": "カードでパス",
        "kind-discard": "カードを捨てる",
        "kind-other": "カードを選ぶ（{kind}）",
        "step": "{first}…",
        "step-bid": "{first} をビッド…",
        "step-title": "{first}：どれかを選んでください。",
        "step-title-bid": "{first} のビッド：ゲームを選んでください。",
        "unknown-game": "「{game}」というゲームはありません。ゲーム：{games}",
        "players-range": "{game} は {counts} 人用です（{players} 人ではできません）。",
        "seat-range": "--seat は 1〜{players} の席番号です（{seat} ではありません）。",
        "seat-option": ("オプション「{name}」は 1〜{players} の席番号か random です"
                        "（「{value}」ではありません）。"),
        "option-form": "オプションは name=value の形で書いてください（「{pair}」ではなく）。",
        "bad-options": "このオプションは使えません：{reason}",
        "unknown-option": "{game} にオプション「{name}」はありません（オプション：{known}）。",
        "bool-option": "オプション「{name}」は true か false です（「{value}」ではありません）。",
        "int-option": ("オプション「{name}」は {least}〜{most} の整数です"
                       "（「{value}」ではありません）。"),
        "choice-option": ("オプション「{name}」は {choices} のどれかです"
                          "（「{value}」ではありません）。"),
        "list-line": "{id}{name}{counts} 人",
        "options": "オプション：",
        "option-seat": "1〜{most} の席番号、または random",
        "option-line": "  {name}={default}{allowed}：{help}",
        "sim-title": "{game}：{games} ゲーム、{players} 人、レベル {levels}",
        "sim-seat": "  {seat}番席（{level}）：勝率 {share}",
        "sim-actions": "  1ゲームの平均手数：{mean}",
        "sim-time": "  1手にかかる時間の中央値（コンピューターの思考を含む）：{us} マイクロ秒",
        "bad-levels": ("--levels は {levels} をコンマで区切って並べたものです"
                       "（「{given}」ではありません）。"),
        "level-sep": "、",
        "usage": "使い方：",
        "arg-error": "{prog}：エラー：{message}",
        "arg-choice": "{arg} に「{value}」は選べません（{choices} から選んでください）。",
        "arg-value": "{arg} に「{value}」は使えません。",
        "arg-one": "{arg} のあとに値を1つ書いてください。",
        "arg-required": "次の引数を書いてください：{args}",
        "arg-unknown": "知らない引数です：{args}",
        "arg-ambiguous": "「{option}」は {matches} のどれのことかわかりません。",
        "arg-other": "コマンドの書き方が違います（{message}）。",
        "arg-command": "コマンド",
    },
}

LANGS = tuple(TEXTS)


def say(key: str, lang: str = "en", **params: Any) -> str:
    """The sentence ``key`` in ``lang`` (English when the language is unknown), filled in."""
    table = TEXTS.get(lang, TEXTS["en"])
    return table[key].format(**params)
