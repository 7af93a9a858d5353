"""English and Japanese for every sentence the bot shows, and the command translator.

Private replies use the clicking user's locale; public table messages use the server's.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

LANGS = ("en", "ja")

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        # refusals (keys of bot.tables.Refusal)
        "no-table": "There is no open table here any more.",
        "unknown-game": "I don't know a game called {game}.",
        "channel-busy": "This channel already has a table of {game}; finish or cancel it first.",
        "already-started": "That game has already started.",
        "host-only": "Only the host can do that.",
        "host-or-manager": "Only the host or someone who can manage the server can do that.",
        "already-seated": "You already have a seat at this table.",
        "table-full": "The table is full ({most} players at most).",
        "not-seated": "You don't have a seat at this table.",
        "host-cannot-leave": "You are the host: cancel the table instead of leaving.",
        "no-computer": "There is no computer player to remove.",
        "bad-option": "That option can't be used: {reason}.",
        "bad-seat": "There is no such seat to change.",
        "player-count": "This game needs {least} to {most} players; seated now: {seated}.",
        "not-started": "The game has not started, or it is over.",
        "stale": "The table has moved on since that message; here is the current position.",
        "away": "The computer is keeping your seat; press \"I'm back\" first.",
        "not-away": "You are already playing your own seat.",
        "illegal": "You can't do that: {reason}",
        "not-your-turn": "It's not your turn.",
        "unknown-component": "That button doesn't belong to a table I know.",
        "no-dm": "I couldn't send you a direct message, so your hand will be shown here instead.",
        "guild-only": "Tables can only be opened in a server channel.",
        "error": "Something went wrong on my side; please try again.",
        "no-such-choice": "That choice is no longer on offer.",
        # lobby and table
        "lobby-title": "{game}: a new table",
        "lobby-body": "Host: {host}\nSeated: {count} ({need})\n{seats}",
        "lobby-options": "Options: {options}",
        "lobby-timer": "Turn timer: {timer}",
        "lobby-level": "Computer players: {level}",
        "computer": "computer",
        "away-mark": "(computer keeps the seat)",
        "join": "Join",
        "leave": "Leave",
        "add-computer": "Add computer",
        "remove-computer": "Remove computer",
        "options": "Options",
        "start": "Start",
        "cancel": "Cancel",
        "hand": "Hand",
        "im-back": "I'm back",
        "manage": "Manage",
        "more": "More",
        "turn": "{who}, it's your turn.",
        "turn-many": "Waiting for {who}.",
        "table-title": "{game} — table {id}",
        "finished": "The game is over. {result}",
        "cancelled": "This table was cancelled.",
        "ended-no-replay": (
            "This table was ended: its moves no longer fit the game's corrected rules, so it "
            "could not be resumed."
        ),
        "place": "{place}. {name} ({score})",
        "timed-out": "{name} ran out of time; the computer moved for them.",
        "now-away": "{name} timed out twice: the computer keeps the seat until \"I'm back\".",
        "handed-over": "The computer now plays for {name}.",
        "level-changed": "The computer players now play at the {level} level.",
        "decided-by-deal": "The deal decided this game before anyone could move.",
        "returned": "{name} is back.",
        "your-hand": "Your hand ({game}, seat {seat}): {cards}",
        "your-hand-empty": "Your hand ({game}, seat {seat}) is empty.",
        "choose": "Choose your move.",
        "not-your-turn-hand": "Not your turn yet.",
        "pick-cards": "Choose the cards: {move}",
        "page": "Cards {first}–{last} of {total}",
        "dm-where": "{game} in {guild} › #{channel}",
        "dm-turn": "It's your turn in {game} ({guild} › #{channel}).",
        "dm-on": "Your hands will now come by direct message.",
        "dm-off": "Your hands will now be shown in the channel, only to you.",
        "dm-check": "Your hands for {game} in {guild} › #{channel} will come here.",
        "options-title": "Options for {game}",
        "option-set": "{name}: {value}",
        "timer": "Turn timer",
        "timer-off": "off",
        "timer-relaxed": "relaxed (5 min)",
        "timer-normal": "normal (90 s)",
        "timer-fast": "fast (30 s)",
        "level": "Computer players' level",
        "level-easy": "easy",
        "level-normal": "normal",
        "level-hard": "hard",
        "level-random": "random moves",
        "level-easy-about": "Plays by rules of thumb, with some careless moves",
        "level-normal-about": "Plays by rules of thumb",
        "level-hard-about": "Reads ahead for up to a second a move",
        "random-seat": "random",
        "swap": "Swap seats",
        "swap-pair": "Seat {a} ↔ seat {b}",
        "hand-over": "Let the computer play a seat",
        "games-title": "Games",
        "games-line": "**{name}** (`{id}`) — {least}–{most} players",
        "rules-title": "{name}: rules",
        "on": "on",
        "off": "off",
        "manage-title": "Manage the table",
        "you-joined": "You joined.",
        "done": "Done.",
    },
    "ja": {
        "no-table": "ここにはもう開いている卓がありません。",
        "unknown-game": "{game} というゲームは知りません。",
        "channel-busy": (
            "このチャンネルには {game} の卓がすでにあります。先に終えるか中止してください。"
        ),
        "already-started": "そのゲームはもう始まっています。",
        "host-only": "それができるのはホストだけです。",
        "host-or-manager": "それができるのはホストかサーバー管理権限のある人だけです。",
        "already-seated": "あなたはすでにこの卓に座っています。",
        "table-full": "卓は満席です（最大 {most} 人）。",
        "not-seated": "あなたはこの卓に座っていません。",
        "host-cannot-leave": "あなたはホストです。退席ではなく卓を中止してください。",
        "no-computer": "外せるコンピューターがいません。",
        "bad-option": "その設定は使えません：{reason}。",
        "bad-seat": "そのような席はありません。",
        "player-count": "このゲームは {least}〜{most} 人用です。いまは {seated} 人です。",
        "not-started": "ゲームは始まっていないか、もう終わっています。",
        "stale": "そのメッセージの後に局面が進みました。現在の局面を表示します。",
        "away": "コンピューターが代わりに打っています。先に「戻りました」を押してください。",
        "not-away": "あなたはすでに自分で打っています。",
        "illegal": "それはできません：{reason}",
        "not-your-turn": "あなたの番ではありません。",
        "unknown-component": "そのボタンは知っている卓のものではありません。",
        "no-dm": "DM を送れなかったので、手札はここに表示します。",
        "guild-only": "卓はサーバーのチャンネルでだけ開けます。",
        "error": "こちらで問題が起きました。もう一度お試しください。",
        "no-such-choice": "その選択肢はもうありません。",
        "lobby-title": "{game}：新しい卓",
        "lobby-body": "ホスト：{host}\n着席：{count} 人（{need}）\n{seats}",
        "lobby-options": "設定：{options}",
        "lobby-timer": "持ち時間：{timer}",
        "lobby-level": "コンピューター：{level}",
        "computer": "コンピューター",
        "away-mark": "（コンピューターが代理）",
        "join": "参加",
        "leave": "退席",
        "add-computer": "コンピューターを追加",
        "remove-computer": "コンピューターを外す",
        "options": "設定",
        "start": "開始",
        "cancel": "中止",
        "hand": "手札",
        "im-back": "戻りました",
        "manage": "管理",
        "more": "次へ",
        "turn": "{who} さんの番です。",
        "turn-many": "{who} を待っています。",
        "table-title": "{game} — 卓 {id}",
        "finished": "ゲーム終了。{result}",
        "cancelled": "この卓は中止されました。",
        "ended-no-replay": (
            "この卓は終了しました。ゲームのルールが改められ、これまでの手が新しいルールに"
            "合わなくなったため、再開できませんでした。"
        ),
        "place": "{place}位 {name}（{score}）",
        "timed-out": "{name} さんが時間切れのため、コンピューターが代わりに打ちました。",
        "now-away": (
            "{name} さんが2回続けて時間切れ：「戻りました」まではコンピューターが代理します。"
        ),
        "handed-over": "{name} さんの席はコンピューターが打ちます。",
        "level-changed": "コンピューターの強さを「{level}」に変えました。",
        "decided-by-deal": "配られた時点で、誰も動く前に勝負が決まりました。",
        "returned": "{name} さんが戻りました。",
        "your-hand": "あなたの手札（{game}、{seat} 番席）：{cards}",
        "your-hand-empty": "あなたの手札（{game}、{seat} 番席）は空です。",
        "choose": "手を選んでください。",
        "not-your-turn-hand": "まだあなたの番ではありません。",
        "pick-cards": "カードを選んでください：{move}",
        "page": "{total} 枚中 {first}〜{last} 枚目",
        "dm-where": "{guild} › #{channel} の {game}",
        "dm-turn": "{guild} › #{channel} の {game} であなたの番です。",
        "dm-on": "これから手札は DM で届きます。",
        "dm-off": "これから手札はチャンネル内であなたにだけ表示されます。",
        "dm-check": "{guild} › #{channel} の {game} の手札はここに届きます。",
        "options-title": "{game} の設定",
        "option-set": "{name}：{value}",
        "timer": "持ち時間",
        "timer-off": "なし",
        "timer-relaxed": "ゆっくり（5分）",
        "timer-normal": "ふつう（90秒）",
        "timer-fast": "はやい（30秒）",
        "level": "コンピューターの強さ",
        "level-easy": "やさしい",
        "level-normal": "ふつう",
        "level-hard": "つよい",
        "level-random": "でたらめ",
        "level-easy-about": "経験則で打ち、ときどき不注意な手を打ちます",
        "level-normal-about": "経験則で打ちます",
        "level-hard-about": "一手に最大1秒かけて先を読みます",
        "random-seat": "ランダム",
        "swap": "席を入れ替える",
        "swap-pair": "{a} 番席 ↔ {b} 番席",
        "hand-over": "コンピューターに席を任せる",
        "games-title": "ゲーム一覧",
        "games-line": "**{name}**（`{id}`）— {least}〜{most} 人",
        "rules-title": "{name}：ルール",
        "on": "あり",
        "off": "なし",
        "manage-title": "卓の管理",
        "you-joined": "参加しました。",
        "done": "完了しました。",
    },
}

#: command names and descriptions: the English text is the key of the Japanese one
COMMANDS_JA: dict[str, str] = {
    "play": "play",
    "Open a table for a card game in this channel": "このチャンネルでカードゲームの卓を開く",
    "game": "game",
    "The game to play": "遊ぶゲーム",
    "games": "games",
    "List the games I can host": "遊べるゲームの一覧",
    "rules": "rules",
    "Show a game's rules": "ゲームのルールを表示",
    "The game whose rules to show": "ルールを見るゲーム",
    "settings": "settings",
    "Your Deckhand settings": "Deckhand の個人設定",
    "dm": "dm",
    "Get your hands by direct message (or not)": "手札を DM で受け取るかどうか",
    "enabled": "enabled",
    "Send hands by direct message": "手札を DM で送る",
}

# -- out-of-turn moves, the four-colour deck and /help (cogs/play.py) ------------------------
MESSAGES["en"].update({
    "may-act": "{who}: you may act now, out of turn — open your Hand.",
    "hand-out-of-turn": "You may act now, out of turn:",
    "dm-may-act": "You may act now, out of turn, in {game} ({guild} › #{channel}).",
    "four-colour-on": (
        "Your hand pictures will now use four suit colours: spades black, hearts red, "
        "diamonds blue, clubs green."
    ),
    "four-colour-off": "Your hand pictures will now use the usual two suit colours.",
    "help-title": "Deckhand: how to play",
    "help-body": (
        "**Start** — `/play game:` opens a table in this channel; `/games` lists the games and "
        "`/rules game:` shows a game's rules. New to a game? `/learn game:` plays a guided "
        "deal with you, step by step.\n"
        "**Join** — press **Join** on the table message. The host may **Add computer** players, "
        "set **Options** (timer, how strong the computers play, hints, seats, the game's own "
        "rules) "
        "and press **Start**.\n"
        "**Play** — the table message names whoever may act now, and a short message "
        "mentions you when your turn comes. Press **Hand** once: your cards, shown only to "
        "you, on a panel that follows the game and offers your moves when it is your turn "
        "(a move of several cards: tick its cards in the menu). At a table that allows "
        "hints, **Hint** shows you the move the strong computer would make. If the computer "
        "keeps your seat after timeouts, press **I'm back**. The host's **Manage** button lets "
        "the computer keep a seat, changes how strong the computers play, or cancels.\n"
        "**Settings** — `/settings dm` sends your hands by direct message; "
        "`/settings four-colour` draws your hand with four suit colours; "
        "`/settings alerts` turns the turn mentions off or on.\n"
        "**Records** — `/leaderboard`, `/stats`, `/history`, `/replay`; "
        "`/privacy forget-me` removes your records. After a game, **My review** (or "
        "`/review`) shows you your three costliest decisions.\n"
        "**Ratings** — a game counts for `/leaderboard` when every seat is a different "
        "person: a game with a computer player, or in which a hint was used, is unrated (the "
        "lobby and the result say so). "
        "Your rating is a cautious estimate of your skill (μ − 3σ) that rises as you win and "
        "settles as you play more; partners share their side's result."
    ),
})
MESSAGES["ja"].update({
    "may-act": "{who} さん：今、手番外で行動できます。手札を開いてください。",
    "hand-out-of-turn": "今、手番外で行動できます：",
    "dm-may-act": "{guild} › #{channel} の {game} で、今、手番外で行動できます。",
    "four-colour-on": (
        "これから手札の絵はスートを4色で描きます：スペードは黒、ハートは赤、ダイヤは青、"
        "クラブは緑。"
    ),
    "four-colour-off": "これから手札の絵はふつうの2色で描きます。",
    "help-title": "Deckhand の遊び方",
    "help-body": (
        "**始める** — `/play game:` でこのチャンネルに卓を開きます。`/games` でゲームの一覧、"
        "`/rules game:` でルールを表示します。初めてのゲームは `/learn game:` で"
        "手順つきの練習ができます。\n"
        "**参加する** — 卓のメッセージの **参加** を押します。ホストは **コンピューターを追加**、"
        "**設定**（タイマー・コンピューターの強さ・ヒント・席・ゲームのルール）を選んで **開始** を"
        "押します。\n"
        "**遊ぶ** — 卓のメッセージに今行動できる人が表示され、自分の番になると短い"
        "メッセージでメンションされます。**手札** を一度押すと、自分にだけ見えるパネルが"
        "対局に合わせて変わり、自分の番に手を選べます（複数のカードを出す手はメニューで"
        "カードを選びます）。ヒントが許された卓では **ヒント** で強いコンピューターの手が"
        "分かります。時間切れで"
        "コンピューターが席を預かっているときは **戻りました** を押します。ホストの **管理** "
        "では、席をコンピューターに任せる・コンピューターの強さを変える・中止ができます。\n"
        "**個人設定** — `/settings dm` で手札を DM で受け取ります。`/settings four-colour` で"
        "手札の絵をスート4色にします。`/settings alerts` で番のメンションを切り替えます。\n"
        "**記録** — `/leaderboard`、`/stats`、`/history`、`/replay`。"
        "`/privacy forget-me` で記録を削除します。対局後は **自分の振り返り**（または `/review`）で"
        "損の大きかった3つの判断を見られます。\n"
        "**レート** — すべての席が別々の人のとき、対局は `/leaderboard` に数えられます。"
        "コンピューターが入った対局やヒントを使った対局はレート対象外です（ロビーと結果に"
        "表示されます）。"
        "レートは強さの控えめな推定値（μ − 3σ）で、勝つと上がり、対局を重ねると安定します。"
        "ペア戦ではパートナーと結果を分け合います。"
    ),
})
COMMANDS_JA.update({
    "four-colour": "four-colour",
    "Four suit colours in your hand pictures (or not)": "手札の絵でスートを4色にするかどうか",
    "Use four suit colours": "スートを4色にする",
    "help": "help",
    "How to use Deckhand: start, join, play, settings": "Deckhand の使い方：開始・参加・対局・設定",
})

# -- records: /leaderboard, /stats, /history, /replay, /privacy (cogs/stats.py) --------------
MESSAGES["en"].update({
    "st-guild-only": "Records are kept per server: use this in a server channel.",
    "st-all-games": "all games",
    "st-board-title": "Leaderboard — {game}",
    "st-board-empty": (
        "No rated games here yet. A game counts when every seat is a different person: "
        "games with a computer player are unrated."
    ),
    "st-board-line": "**{rank}.** {name} — {rating} · {games} games · {share} won",
    "st-you": "You",
    "st-board-you": "Rank {rank} of {total} (rating {rating})",
    "st-board-you-none": "You are not on this leaderboard yet: play a rated game.",
    "st-page": "Page {page} of {pages} · rating = conservative estimate (μ − 3σ)",
    "st-first": "First",
    "st-prev": "Previous",
    "st-next": "Next",
    "st-last": "Last",
    "st-col-rank": "#",
    "st-col-player": "Player",
    "st-col-rating": "Rating",
    "st-col-games": "Games",
    "st-col-wins": "Won",
    "st-none": "{name} has no recorded games in this server.",
    "st-stats-title": "{name}: statistics",
    "st-stats-line": (
        "Games {games} · wins {wins} ({share}) · best streak {streak}\n"
        "Rating: {rating}"
    ),
    "st-stats-partner": "Partner most often: {partner}",
    "st-unrated": "unrated",
    "st-nobody": "—",
    "st-partner": "{name} ({games} games)",
    "st-history-title": "{name}: recent games",
    "st-history-line": "`{id}` {game} — place {place} of {players} (score {score}){marks} · {when}",
    "st-history-hint": "/replay id:<number> steps through one of them.",
    "st-rated-mark": " · rated",
    "st-abandoned-mark": " · abandoned",
    "st-no-game": "There is no finished game {id} in this server.",
    "st-replay-title": "Replay: {game}, table {id}",
    "st-replay-step": "Move {step} of {total}",
    "st-replay-start": "The deal, before the first move.",
    "st-replay-quiet": "(a move that shows nothing)",
    "st-forget-ask": (
        "This removes your game records and ratings from every server and recalculates "
        "everyone's ratings without you. It cannot be undone."
    ),
    "st-forget-confirm": "Forget me",
    "st-forget-done": "Done: {count} game records of yours were removed.",
    "st-not-yours": "That button belongs to someone else.",
})
MESSAGES["ja"].update({
    "st-guild-only": "記録はサーバーごとです。サーバーのチャンネルで使ってください。",
    "st-all-games": "全ゲーム",
    "st-board-title": "ランキング — {game}",
    "st-board-empty": (
        "このサーバーにはまだレート対象の対局がありません。すべての席が別々の人の対局が"
        "対象で、コンピューターが入った対局はレート対象外です。"
    ),
    "st-board-line": "**{rank}.** {name} — {rating} · {games} 局 · 勝率 {share}",
    "st-you": "あなた",
    "st-board-you": "{total} 人中 {rank} 位（レート {rating}）",
    "st-board-you-none": "まだランキングに載っていません。レート対象の対局を遊んでください。",
    "st-page": "{pages} ページ中 {page} ページ目 · レート＝控えめな推定値（μ − 3σ）",
    "st-first": "最初",
    "st-prev": "前へ",
    "st-next": "次へ",
    "st-last": "最後",
    "st-col-rank": "順位",
    "st-col-player": "プレイヤー",
    "st-col-rating": "レート",
    "st-col-games": "対局",
    "st-col-wins": "勝率",
    "st-none": "{name} さんのこのサーバーでの対局記録はありません。",
    "st-stats-title": "{name} さんの成績",
    "st-stats-line": (
        "対局 {games} · 勝ち {wins}（{share}）· 最長連勝 {streak}\n"
        "レート：{rating}"
    ),
    "st-stats-partner": "よく組む相手：{partner}",
    "st-unrated": "レートなし",
    "st-nobody": "—",
    "st-partner": "{name}（{games} 局）",
    "st-history-title": "{name} さんの最近の対局",
    "st-history-line": "`{id}` {game} — {players} 人中 {place} 位（得点 {score}）{marks} · {when}",
    "st-history-hint": "/replay id:<番号> で対局を1手ずつ見られます。",
    "st-rated-mark": " · レート対象",
    "st-abandoned-mark": " · 途中離脱",
    "st-no-game": "このサーバーに終了した対局 {id} はありません。",
    "st-replay-title": "リプレイ：{game}、卓 {id}",
    "st-replay-step": "{total} 手中 {step} 手目",
    "st-replay-start": "配り終えたところ（最初の手の前）。",
    "st-replay-quiet": "（公開される情報のない手）",
    "st-forget-ask": (
        "すべてのサーバーからあなたの対局記録とレートを削除し、あなたを除いて全員のレートを"
        "計算し直します。元に戻せません。"
    ),
    "st-forget-confirm": "削除する",
    "st-forget-done": "完了：あなたの対局記録 {count} 件を削除しました。",
    "st-not-yours": "そのボタンは他の人のものです。",
})
COMMANDS_JA.update({
    "leaderboard": "leaderboard",
    "The best players of this server": "このサーバーの上位プレイヤー",
    "The game (all games when left out)": "ゲーム（省略すると全ゲーム）",
    "stats": "stats",
    "Games, wins and ratings of a player in this server": "このサーバーでの対局数・勝ち・レート",
    "user": "user",
    "The player (you when left out)": "プレイヤー（省略すると自分）",
    "history": "history",
    "Recent games of a player in this server": "このサーバーでの最近の対局",
    "replay": "replay",
    "Step through a finished game move by move": "終わった対局を1手ずつ見る",
    "id": "id",
    "The game's table number": "対局の卓番号",
    "privacy": "privacy",
    "Your data kept by Deckhand": "Deckhand が保存しているあなたのデータ",
    "forget-me": "forget-me",
    "Remove your game records and ratings": "あなたの対局記録とレートを削除する",
})


# -- the play loop: live panels, turn alerts, stale clicks (cogs/turn.py, cogs/panels.py,
# cogs/alerts.py) -----------------------------------------------------------------------------
MESSAGES["en"].update({
    "panel-waiting": "Waiting for {who}.",
    "panel-recent": "Just now: {news}",
    "panel-live": "This panel follows the game: it changes when it is your turn.",
    "panel-expiring": (
        "This panel stops following the game in a minute (Discord lets me change it for 15 "
        "minutes). Press **Keep following** for a fresh one."
    ),
    "panel-keep": "Keep following",
    "panel-over": "The game is over; the table message shows the result.",
    "panel-moved": "The table has moved on since then; this is the current position.",
    "part-first": "First choose the amount",
    "alert": "{who}: your turn at {game}.",
    "alert-timer": "{who}: your turn at {game} — time runs out {when}.",
    "alerts-on": (
        "When it is your turn I will mention you in a short message in the table's channel."
    ),
    "alerts-off": "I will no longer mention you when it is your turn.",
})
MESSAGES["ja"].update({
    "panel-waiting": "{who} さんを待っています。",
    "panel-recent": "直前：{news}",
    "panel-live": "このパネルは対局に合わせて変わります。あなたの番になると更新されます。",
    "panel-expiring": (
        "このパネルはあと1分ほどで対局に合わせて変わらなくなります（Discord では15分まで"
        "しか変更できません）。**新しいパネル** を押すと続けて表示します。"
    ),
    "panel-keep": "新しいパネル",
    "panel-over": "対局は終わりました。結果は卓のメッセージにあります。",
    "panel-moved": "その後に局面が進みました。これが現在の局面です。",
    "part-first": "まず数を選んでください",
    "alert": "{who} さん：{game} であなたの番です。",
    "alert-timer": "{who} さん：{game} であなたの番です。持ち時間は {when} に切れます。",
    "alerts-on": "あなたの番になると、卓のチャンネルで短いメッセージでお知らせします。",
    "alerts-off": "あなたの番になってもメンションしません。",
})
COMMANDS_JA.update({
    "alerts": "alerts",
    "Mention me in the channel when it is my turn (or not)": (
        "自分の番にチャンネルでメンションするかどうか"),
    "Mention me when it is my turn": "自分の番にメンションする",
})

def lang_of(locale: object) -> str:
    """'ja' for a Japanese locale (a discord.Locale or text), else 'en'."""
    value = locale.value if isinstance(locale, discord.Locale) else str(locale or "")
    return "ja" if value.lower().startswith("ja") else "en"


def t(key: str, lang: str = "en", **params: Any) -> str:
    """The sentence ``key`` in ``lang`` (English when missing) with its fields filled."""
    table = MESSAGES.get(lang, MESSAGES["en"])
    text = table.get(key) or MESSAGES["en"].get(key) or key
    return text.format(**params) if params else text


def fields(text: str) -> set[str]:
    """The ``{names}`` a sentence fills in."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


class Translator(app_commands.Translator):
    """discord.py's translator: command names and descriptions in Japanese, games by name."""

    def __init__(self, rules_for: Callable[[str], Any] | None = None) -> None:
        super().__init__()
        self.rules_for = rules_for

    async def translate(
        self, text: app_commands.locale_str, locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The Japanese text for a command string, or None to keep the English."""
        if locale is not discord.Locale.japanese:
            return None
        game = text.extras.get("game")
        if game is not None and self.rules_for is not None:
            try:
                return str(self.rules_for(game).name_ja)
            except KeyError:
                return None
        return COMMANDS_JA.get(text.message)

# -- /status for server managers (cogs/admin.py) ----------------------------------------------
MESSAGES["en"].update({
    "ad-title": "Deckhand status",
    "ad-tables": "Tables",
    "ad-tables-value": (
        "{here} open in this server ({here_playing} playing); "
        "{process} in this process ({playing} playing)"
    ),
    "ad-latency": "Gateway latency",
    "ad-ms": "{ms} ms",
    "ad-uptime": "Uptime",
    "ad-shards": "Shards",
    "ad-shards-value": "this server: shard {shard}; this process: {ids} of {count}",
    "ad-version": "Version",
    "ad-db": "Database",
})
MESSAGES["ja"].update({
    "ad-title": "Deckhand の状態",
    "ad-tables": "卓",
    "ad-tables-value": (
        "このサーバー：{here} 卓（対局中 {here_playing}）／"
        "このプロセス：{process} 卓（対局中 {playing}）"
    ),
    "ad-latency": "ゲートウェイの遅延",
    "ad-ms": "{ms} ミリ秒",
    "ad-uptime": "稼働時間",
    "ad-shards": "シャード",
    "ad-shards-value": "このサーバー：シャード {shard}／このプロセス：{count} 個中 {ids}",
    "ad-version": "バージョン",
    "ad-db": "データベース",
})
# -- /status: the computer players' search queue (bot/scheduler.py) ---------------------------
MESSAGES["en"].update({
    "ad-computers": "Computer players",
    "ad-computers-value": "moves being searched: {searching}, waiting: {waiting}",
    "ad-computers-behind": (
        "moves being searched: {searching}, waiting: {waiting}; played at the normal level "
        "in the last minute because the search could not keep up: {moves}"
    ),
})
MESSAGES["ja"].update({
    "ad-computers": "コンピューター",
    "ad-computers-value": "思考中の手：{searching}、待機中の手：{waiting}",
    "ad-computers-behind": (
        "思考中の手：{searching}、待機中の手：{waiting}。探索が追いつかず、"
        "直近1分間に「ふつう」のレベルで指した手：{moves}"
    ),
})
COMMANDS_JA.update({
    "status": "status",
    "How Deckhand is running: tables, latency, version":
        "Deckhand の稼働状況：卓・遅延・バージョン",
})

# -- results explained, unrated games, plural forms (bot/results.py) --------------------------
MESSAGES["en"].update({
    "rs-deal": "Deal {deal}",
    "rs-game": "Game {deal}",
    "rs-deals": "Deal by deal",
    "rs-result": "The result",
    "rs-ratings": "Ratings",
    "rs-games": "Game by game",
    "rs-and": " and ",
    "rs-sum": "= {points}",
    "rs-line": "{who}: {items}",
    # Finesse
    "rs-finesse-tricks": "{value} tricks ({points})",
    "rs-finesse-tricks-one": "{value} trick ({points})",
    "rs-finesse-last-trick": "last trick ({points})",
    "rs-finesse-dregs": "{value} trumps in the dregs {cards} ({points})",
    "rs-finesse-dregs-one": "{value} trump in the dregs {cards} ({points})",
    "rs-finesse-floor": "a deal never scores below 0 ({points})",
    # Bear
    "rs-bear-slop": "All passed: a Slop round.",
    "rs-bear-contract": "contract {value}",
    "rs-bear-card-points": "card points {value}",
    "rs-bear-discards": "discards {value}",
    "rs-bear-bond": "Bond {value}",
    "rs-bear-total": "total {value}",
    "rs-bear-tricks": "{value} tricks",
    "rs-bear-tricks-one": "{value} trick",
    "rs-bear-made": "made",
    "rs-bear-failed": "failed",
    "rs-bear-failed-early": "failed (certain before the end)",
    "rs-bear-score": "score {points}",
    # Spar
    "rs-spar-last-trick": "took the last trick (trick {value}) with {cards}",
    "rs-spar-essilfy": "Essilfy: both last tricks with {cards}",
    "rs-spar-run": "the last {value} tricks with {cards}",
    "rs-spar-deal-won": "wins {value} from each other player ({points})",
    "rs-spar-deal-won-deals": "wins the deal ({points})",
    # 22
    "rs-twenty-two-final": "final trick {cards}",
    "rs-twenty-two-penalty": "highest card: takes {cards} as a penalty ({points})",
    "rs-twenty-two-rebuy": "pays a stake and stays ({points})",
    "rs-twenty-two-out": "out with {value}",
    # 1234
    "rs-1234-won-empty": "won by emptying the hand",
    "rs-1234-won-last": "won as the last player in",
    "rs-1234-won-stock": "won with the lowest hand when the stock ran out",
    "rs-1234-hand": "hand {cards} = {value} ({points})",
    "rs-1234-hand-empty": "no cards left ({points})",
    # Sugekari 21
    "rs-sugekari-21-out": "went out",
    "rs-sugekari-21-stuck": "Nobody could play on: nobody went out.",
    "rs-sugekari-21-captured": "captured {value} cards ({points})",
    "rs-sugekari-21-captured-one": "captured {value} card ({points})",
    "rs-sugekari-21-jokers": "{value} jokers {cards} ({points})",
    "rs-sugekari-21-jokers-one": "{value} joker {cards} ({points})",
    # without cards that are back in a hand
    "rs-finesse-dregs-bare": "{value} trumps in the dregs ({points})",
    "rs-finesse-dregs-bare-one": "{value} trump in the dregs ({points})",
    "rs-spar-last-trick-bare": "took the last trick (trick {value})",
    "rs-spar-essilfy-bare": "Essilfy: both last tricks",
    "rs-spar-run-bare": "the last {value} tricks",
    "rs-twenty-two-final-bare": "played in the final trick",
    "rs-twenty-two-penalty-bare": "highest card: a penalty ({points})",
    "rs-twenty-two-rebuy-bare": "pays a stake and stays ({points})",
    "rs-1234-hand-bare": "hand = {value} ({points})",
    "rs-sugekari-21-jokers-bare": "{value} jokers ({points})",
    "rs-sugekari-21-jokers-bare-one": "{value} joker ({points})",
    # Getaway
    "rs-bhabhi-order": "Out in this order: {order}",
    "rs-bhabhi-last": "last: {who}",
    "rs-bhabhi-nobody-last": "everyone ran out together",
    # unrated games
    "move-play": "play",
    "move-exchange": "exchange",
    "move-discard": "discard",
    "move-pass": "pass",
    "move-any": "your move",
    "turn-deadline": "Time runs out {when}.",
    "st-board-line-one": "**{rank}.** {name} — {rating} · {games} game · {share} won",
    "st-partner-one": "{name} ({games} game)",
    "st-forget-done-one": "Done: {count} game record of yours was removed.",
    "lobby-need-exact": "a game for {most} players",
    "lobby-need-range": "a game for {least} to {most} players",
    "unrated-will": "Unrated: {why}.",
    "unrated-was": "This game was unrated: {why}.",
    "unrated-computer": "a computer plays in it",
    "unrated-computer-was": "a computer played in it",
    "unrated-repeat": "someone holds two seats",
})
MESSAGES["ja"].update({
    "rs-deal": "第{deal}ディール",
    "rs-game": "第{deal}ゲーム",
    "rs-deals": "ディールごとの得点",
    "rs-result": "結果",
    "rs-ratings": "レート",
    "rs-games": "ゲームごとの得点",
    "rs-and": "・",
    "rs-sum": "＝{points}",
    "rs-line": "{who}：{items}",
    "rs-finesse-tricks": "{value}トリック（{points}）",
    "rs-finesse-last-trick": "最後のトリック（{points}）",
    "rs-finesse-dregs": "残ったテーブルカードの切り札{value}枚 {cards}（{points}）",
    "rs-finesse-floor": "ディールの得点は0未満にならない（{points}）",
    "rs-bear-slop": "全員パス：スロップラウンド。",
    "rs-bear-contract": "契約 {value}",
    "rs-bear-card-points": "カード点 {value}",
    "rs-bear-discards": "捨て札 {value}",
    "rs-bear-bond": "ボンド {value}",
    "rs-bear-total": "合計 {value}",
    "rs-bear-tricks": "{value}トリック",
    "rs-bear-made": "成功",
    "rs-bear-failed": "失敗",
    "rs-bear-failed-early": "失敗（途中で確定）",
    "rs-bear-score": "得点 {points}",
    "rs-spar-last-trick": "最後のトリック（第{value}トリック）を{cards}で取った",
    "rs-spar-essilfy": "エシルフィ：最後の2トリックを{cards}で",
    "rs-spar-run": "最後の{value}トリックを{cards}で",
    "rs-spar-deal-won": "ほかの各プレイヤーから{value}点（{points}）",
    "rs-spar-deal-won-deals": "ディールの勝ち（{points}）",
    "rs-twenty-two-final": "最終トリック {cards}",
    "rs-twenty-two-penalty": "最高位：{cards}を失点として取る（{points}）",
    "rs-twenty-two-rebuy": "ステークを払って残る（{points}）",
    "rs-twenty-two-out": "{value}点で脱落",
    "rs-1234-won-empty": "手札を出し切って勝ち",
    "rs-1234-won-last": "最後まで残って勝ち",
    "rs-1234-won-stock": "山札が尽き、手札の合計が最も小さく勝ち",
    "rs-1234-hand": "手札 {cards} ＝ {value}（{points}）",
    "rs-1234-hand-empty": "手札なし（{points}）",
    "rs-sugekari-21-out": "上がり",
    "rs-sugekari-21-stuck": "誰も出せなくなり、上がった人はいません。",
    "rs-sugekari-21-captured": "獲得 {value}枚（{points}）",
    "rs-sugekari-21-jokers": "ジョーカー{value}枚 {cards}（{points}）",
    "rs-finesse-dregs-bare": "残ったテーブルカードの切り札{value}枚（{points}）",
    "rs-spar-last-trick-bare": "最後のトリック（第{value}トリック）を取った",
    "rs-spar-essilfy-bare": "エシルフィ：最後の2トリック",
    "rs-spar-run-bare": "最後の{value}トリック",
    "rs-twenty-two-final-bare": "最終トリックに出した",
    "rs-twenty-two-penalty-bare": "最高位：失点（{points}）",
    "rs-twenty-two-rebuy-bare": "ステークを払って残る（{points}）",
    "rs-1234-hand-bare": "手札 ＝ {value}（{points}）",
    "rs-sugekari-21-jokers-bare": "ジョーカー{value}枚（{points}）",
    "rs-bhabhi-order": "勝ち抜けた順：{order}",
    "rs-bhabhi-last": "最後：{who}",
    "rs-bhabhi-nobody-last": "全員同時に出し切り",
    "move-play": "出す",
    "move-exchange": "交換",
    "move-discard": "捨てる",
    "move-pass": "パス",
    "move-any": "あなたの手",
    "turn-deadline": "持ち時間は{when}に切れます。",
    "lobby-need-exact": "{most} 人用のゲーム",
    "lobby-need-range": "{least}〜{most} 人用のゲーム",
    "unrated-will": "レート対象外：{why}。",
    "unrated-was": "この対局はレート対象外でした：{why}。",
    "unrated-computer": "コンピューターが参加しています",
    "unrated-computer-was": "コンピューターが参加していました",
    "unrated-repeat": "同じ人が2つの席に座っています",
})

# -- /rules: every option with its default, and the rule book page (cogs/rules_text.py) -------
MESSAGES["en"].update({
    "rules-options": "**Options** (name = default; values):",
    "rules-option-line": "`{name}` = **{default}** ({values}): {help}",
    "rules-option-seat": "a seat number, or random",
    "rules-option-own": "the game's own",
    "rules-book": "Full rules, with every Decision and example: {page} in Deckhand's source",
})
MESSAGES["ja"].update({
    "rules-options": "**オプション**(名前 = 既定値、取りうる値):",
    "rules-option-line": "`{name}` = **{default}**({values}):{help}",
    "rules-option-seat": "席の番号、またはランダム",
    "rules-option-own": "ゲームごとの既定",
    "rules-book": "すべての裁定と例を含む完全なルール:Deckhand のソースの {page}",
})

# -- /rules: the picture of a typical position and the rule it shows (bot/rules_pictures.py) --
MESSAGES["en"].update({
    "rules-picture": "In the picture",
    "rules-picture-seat": "Seat {n}",
    "rules-picture-hand": "Seat {n}'s hand",
    "rules-picture-1234": "The number to beat was 13: Seat 1 played 9♠ + 4♦ + 3♣ = 16, which is "
                          "3 more. A play must total 1 to 4 more than the number to beat; now "
                          "Seat 2 must beat 16.",
    "rules-picture-twenty-two": "Seat 2 led 6♦. Seat 1 must play a card equal or higher (9♥ or "
                                "6♣) or their lowest card (2♣): the ringed cards are the ones "
                                "allowed.",
    "rules-picture-bhabhi": "Seat 4 led K♣ and Seat 1 has no club, so plays K♥: the round stops "
                            "at once, and Seat 4, who played the highest club, picks up the "
                            "round's cards (K♣ K♥, now in Seat 4's hand).",
    "rules-picture-finesse": "K♦ was led and Seat 2 has no diamonds, so trumps it with 2♠: "
                             "spades are trumps, and any trump beats every card of another "
                             "suit.",
    "rules-picture-sugekari-21": "The round's total is 15 (10 + 5 + 3, and the K counts −3). "
                                 "Seat 1 plays 6♦ to make exactly 21 and captures the round's "
                                 "cards.",
    "rules-picture-bear": "The auction: Seat 1 bid 60 spades and the others passed, so Seat 1 "
                          "is the declarer. The kitty's two cards (ringed) join the declarer's "
                          "hand, who then discards two cards face down.",
    "rules-picture-spar": "The last trick: Seat 1 led 6♣ and Seat 2 has no club (only 10♦), so "
                          "the 6 wins the last trick and the deal: 3 points from each other "
                          "player (a 7 scores 2, any other card 1).",
})
MESSAGES["ja"].update({
    "rules-picture": "図の局面",
    "rules-picture-seat": "席{n}",
    "rules-picture-hand": "席{n}の手札",
    "rules-picture-1234": "超える数は13でした。席1は9♠+4♦+3♣=16を出し、3だけ上回りました。"
                          "プレイの合計は超える数より1〜4大きくなければなりません。次は席2が16を"
                          "超える番です。",
    "rules-picture-twenty-two": "席2が6♦をリードしました。席1は同じか高いカード（9♥か6♣）か、"
                                "一番低いカード（2♣）を出さなければなりません。出せるカードを"
                                "枠で囲んでいます。",
    "rules-picture-bhabhi": "席4がK♣をリードし、席1はクラブがないのでK♥を出しました。ラウンドは"
                            "そこで終わり、一番高いクラブを出した席4が場のカードを引き取ります"
                            "（K♣ K♥は席4の手札に）。",
    "rules-picture-finesse": "K♦がリードされ、席2はダイヤがないので2♠で切り札を出しました。"
                             "切り札はスペードで、どんな切り札もほかのスートのカードすべてに"
                             "勝ちます。",
    "rules-picture-sugekari-21": "このラウンドの合計は15（10+5+3、Kは−3）。席1が6♦を出すと"
                                 "ちょうど21になり、ラウンドのカードを獲得します。",
    "rules-picture-bear": "ビッド：席1が60スペードをビッドし、ほかの2人はパスしたので、席1が"
                          "デクレアラーです。キティの2枚（枠付き）がデクレアラーの手札に入り、"
                          "そのあと2枚を裏向きに捨てます。",
    "rules-picture-spar": "最後のトリック：席1が6♣をリードし、席2はクラブがない（10♦だけ）"
                          "ので、6が最後のトリックとディールに勝ちます。ほかの各プレイヤーから"
                          "3点（7なら2点、それ以外は1点）。",
})

# -- hints: the table option, the panel's Hint button and its answer (bot/hints.py) ---------
MESSAGES["en"].update({
    "hints-menu": "Hints for the players",
    "hints-choice-on": "Hints: on",
    "hints-choice-on-about": "A Hint button on each panel; a game with a hint is unrated",
    "hints-choice-off": "Hints: off",
    "hints-choice-off-about": "No Hint button",
    "lobby-hints-on": "Hints: on (a game in which someone uses a hint is unrated)",
    "lobby-hints-off": "Hints: off",
    "hint": "Hint",
    "hints-off": "Hints are off at this table; the host can allow them in the lobby's options.",
    "hint-stale": "The turn moved on before your hint was ready, so it would no longer be "
                  "right; ask again when it is your turn.",
    "hint-not-your-turn": "A hint is for your own turn, and it is not your turn now.",
    "hint-busy": "The computer players are busy right now; ask for the hint again in a moment.",
    "hint-answer": "Hint: **{move}** — {reason}.",
    "hint-next": "Next best: {move} — {reason}.",
    "hint-reason": "{clauses} of the deals consistent with what you have seen",
    "hint-trick": "wins this trick in {share}%",
    "hint-trick-side": "your side wins this trick in {share}%",
    "hint-goal-spar": "you win the deal (the last trick) in {share}%",
    "hint-goal-bhabhi": "you get away (you are not left last) in {share}%",
    "hint-goal-sugekari-21": "you go out in {share}%",
    "hint-goal-sugekari-21-side": "your side goes out in {share}%",
    "hint-goal-twenty-two": "you escape the penalty card in {share}%",
    "hint-goal-bear-declarer": "you make your contract in {share}%",
    "hint-goal-bear": "the declarer fails in {share}%",
    "hint-points": "it is worth {points} points to you on average over the rest of this deal "
                   "(fewer penalty points count as more), in the deals consistent with what "
                   "you have seen",
    "hint-and": ", and ",
    "hint-forced": "it is your only move",
    "hint-footer": "Judged from your own view only, over {samples} deals that fit it. Hints you "
                   "used in this game: {count} (the game is unrated).",
    "unrated-hints": "a hint was used",
    "unrated-hints-was": "hints were used",
    "learn-hint": "Hint",
    "learn-hint-answer": "Hint: **{move}** — {why}",
})
MESSAGES["ja"].update({
    "hints-menu": "プレイヤーへのヒント",
    "hints-choice-on": "ヒント：あり",
    "hints-choice-on-about": "各パネルにヒントボタン。ヒントを使った対局はレート対象外",
    "hints-choice-off": "ヒント：なし",
    "hints-choice-off-about": "ヒントボタンを出しません",
    "lobby-hints-on": "ヒント：あり（誰かがヒントを使った対局はレート対象外になります）",
    "lobby-hints-off": "ヒント：なし",
    "hint": "ヒント",
    "hints-off": "この卓ではヒントはオフです。ホストがロビーのオプションで許可できます。",
    "hint-stale": "ヒントの用意ができる前に局面が進んだため、そのヒントはもう正しくありません。"
                  "あなたの番になったらもう一度どうぞ。",
    "hint-not-your-turn": "ヒントは自分の番に使えます。今はあなたの番ではありません。",
    "hint-busy": "コンピューターが混み合っています。少し待ってからもう一度ヒントを押してください。",
    "hint-answer": "ヒント：**{move}** — {reason}。",
    "hint-next": "次点：{move} — {reason}。",
    "hint-reason": "あなたから見てありうる配り方のうち、{clauses}",
    "hint-trick": "{share}%でこのトリックを取ります",
    "hint-trick-side": "{share}%でこのトリックをあなたの側が取ります",
    "hint-goal-spar": "{share}%で最後のトリックを取ってディールに勝ちます",
    "hint-goal-bhabhi": "{share}%で最後の一人にならずに抜けられます",
    "hint-goal-sugekari-21": "{share}%で上がれます",
    "hint-goal-sugekari-21-side": "{share}%であなたの側が上がれます",
    "hint-goal-twenty-two": "{share}%で失点カードを取らずに済みます",
    "hint-goal-bear-declarer": "{share}%で契約を達成します",
    "hint-goal-bear": "{share}%でデクレアラーの契約が失敗します",
    "hint-points": "あなたから見てありうる配り方で、このディールの残りにあなたが得る点は"
                   "平均{points}です（失点が減るのも得点に数えます）",
    "hint-and": "。また、",
    "hint-forced": "ほかに出せる手はありません",
    "hint-footer": "あなたに見えている情報だけから、それに合う{samples}通りの配り方で判断しました。"
                   "この対局で使ったヒント：{count}回（この対局はレート対象外です）。",
    "unrated-hints": "ヒントが使われています",
    "unrated-hints-was": "ヒントが使われました",
    "learn-hint": "ヒント",
    "learn-hint-answer": "ヒント：**{move}** — {why}",
})

# Japanese has a single form where English has one for exactly one ("1 trick").
MESSAGES["ja"].update({key: MESSAGES["ja"][key.removesuffix("-one")]
                       for key in MESSAGES["en"] if key.endswith("-one")
                       and key not in MESSAGES["ja"]})


def move_word(kind: str, lang: str = "en") -> str:
    """A kind of move in words ('exchange'), never the rules' internal name."""
    key = f"move-{kind}"
    return t(key if key in MESSAGES["en"] else "move-any", lang)


def plural(key: str, number: object, lang: str = "en", /, **params: Any) -> str:
    """The sentence ``key`` for a count: English uses ``key-one`` for exactly one when it
    exists; Japanese has a single form."""
    if lang != "ja" and number in (1, "1", 1.0) and f"{key}-one" in MESSAGES["en"]:
        key = f"{key}-one"
    return t(key, lang, **params)

# -- /learn, the guided deals (cogs/learn.py) -------------------------------------------------
MESSAGES["en"].update({
    "learn-happened": "What happened",
    "learn-table": "The table",
    "learn-step": "Step {step} of {steps}",
    "learn-play": "Open a table of {game}",
    "learn-in-dm": "Your lesson is in your direct messages.",
    "learn-gone": "This lesson has ended. Start a new one with /learn.",
    "learn-not-yours": "This is someone else's lesson. Start your own with /learn.",
    "learn-stale": "That step has passed: use the buttons of the newest step.",
    "learn-play-in-server": "Open a table with /play in a server channel.",
})
MESSAGES["ja"].update({
    "learn-happened": "これまでの流れ",
    "learn-table": "テーブル",
    "learn-step": "ステップ {step} / {steps}",
    "learn-play": "{game}の卓を開く",
    "learn-in-dm": "レッスンはダイレクトメッセージに送りました。",
    "learn-gone": "このレッスンは終了しています。/learn で新しく始めてください。",
    "learn-not-yours": "これは他の人のレッスンです。/learn で自分のレッスンを始めてください。",
    "learn-stale": "そのステップはもう終わっています。最新のステップのボタンを使ってください。",
    "learn-play-in-server": "サーバーのチャンネルで /play を使って卓を開いてください。",
})
COMMANDS_JA.update({
    "learn": "learn",
    "Learn a game: a guided deal against computer players":
        "ゲームを覚える：コンピューター相手のガイド付きディール",
    "The game to learn": "覚えるゲーム",
})

# -- the review after a game (cogs/review.py, bot/review.py) ----------------------------------
MESSAGES["en"].update({
    "rv-button": "My review",
    "rv-head": "**Your review of {game}, game #{id}**",
    "rv-judged": "{count} of your decisions were judged, each from what you could see at the "
                 "time (never from the cards hidden from you).",
    "rv-judged-one": "{count} decision of yours was judged, from what you could see at the "
                     "time (never from the cards hidden from you).",
    "rv-costliest": "Your {count} costliest:",
    "rv-costliest-one": "Your costliest ({count}):",
    "rv-none-costly": "None of them was costly: wherever the computer preferred another move, "
                      "the difference was within what its estimate can tell apart.",
    "rv-no-decisions": "You had no decision to judge in this game: every move you made was "
                       "the only one you could make.",
    "rv-scale": "The cost is in points of 100 of a deal's result (100: the best result of the "
                "table, 0: the worst), ± its margin of error.",
    "rv-decision": "{number}. Move {move} (deal {deal})",
    "rv-made": "You played: **{move}**",
    "rv-preferred": "The computer prefers: **{move}**",
    "rv-cost": "Estimated cost: **{points}** points (± {error})",
    "rv-hand": "Your hand then (the computer's move ringed)",
    "rv-working": "Your review is being prepared; it will appear here in a few seconds.",
    "rv-later": "The computers are busy with live games; your review will come when they have "
                "time (here, or in a direct message).",
    "rv-again": "Your review is already being prepared; it will come as soon as it is ready.",
    "rv-in-dm": "Your review will come in your direct messages.",
    "rv-not-seated": "You did not play in this game, so there is no review of yours: a review "
                     "is only for the people who played.",
    "rv-no-game": "There is no finished game #{id} in this server.",
    "rv-failed": "Your review could not be made; please ask again later.",
})
MESSAGES["ja"].update({
    "rv-button": "自分の振り返り",
    "rv-head": "**{game}(ゲーム #{id})の振り返り**",
    "rv-judged": "あなたの判断 {count} 回を、その時点で見えていた情報だけで評価しました"
                 "(あなたに見えなかったカードは使っていません)。",
    "rv-judged-one": "あなたの判断 {count} 回を、その時点で見えていた情報だけで評価しました"
                     "(あなたに見えなかったカードは使っていません)。",
    "rv-costliest": "損失の大きかった {count} 手:",
    "rv-costliest-one": "損失の大きかった {count} 手:",
    "rv-none-costly": "損失の大きい手はありませんでした。コンピューターが別の手を選ぶ場面でも、"
                      "差は推定の誤差の範囲内でした。",
    "rv-no-decisions": "このゲームでは評価する判断がありませんでした。どの手も、"
                       "出せる手がそれしかありませんでした。",
    "rv-scale": "損失はディールの結果を100点満点で表した点数です(100:卓で最良の結果、0:最悪)。"
                "± は誤差の幅です。",
    "rv-decision": "{number}. 第{move}手(第{deal}ディール)",
    "rv-made": "あなたの手:**{move}**",
    "rv-preferred": "コンピューターの推奨:**{move}**",
    "rv-cost": "推定損失:**{points}** 点(± {error})",
    "rv-hand": "その時の手札(コンピューターの推奨を囲んでいます)",
    "rv-working": "振り返りを準備しています。数秒後にここに表示されます。",
    "rv-later": "コンピューターは進行中のゲームで忙しいため、手が空きしだい振り返りを送ります"
                "(ここ、またはダイレクトメッセージで)。",
    "rv-again": "振り返りはすでに準備中です。できしだいお送りします。",
    "rv-in-dm": "振り返りはダイレクトメッセージに送ります。",
    "rv-not-seated": "このゲームに参加していないため、あなたの振り返りはありません。"
                     "振り返りはプレイした人だけのものです。",
    "rv-no-game": "このサーバーに終了したゲーム #{id} はありません。",
    "rv-failed": "振り返りを作れませんでした。後でもう一度お試しください。",
})
COMMANDS_JA.update({
    "review": "review",
    "Your review of a finished game: your three costliest decisions":
        "終了したゲームの振り返り:損失の大きかった3手",
})

# -- choosers of cards: moves made of several cards (cogs/panel_views.py, cogs/turn.py) -------
MESSAGES["en"].update({
    "pick-single": "One card to {move}",
    "pick-set": "Cards to {move}: tick {count}, then close the menu",
    "pick-set-range": "Cards to {move}: tick {low} to {high}, then close the menu",
    "not-a-set": "The rules do not allow that now ({move}: {cards}), so nothing happened. "
                 "Choose again.",
})
MESSAGES["ja"].update({
    "pick-single": "{move}：カードを1枚選ぶ",
    "pick-set": "{move}：カードを{count}枚選んでメニューを閉じる",
    "pick-set-range": "{move}：カードを{low}〜{high}枚選んでメニューを閉じる",
    "not-a-set": "今はそれはできません（{move}：{cards}）。何もしていません。選び直してください。",
})
