"""Getaway (Bhabhi): the guided deal. Rules: docs/rules/bhabhi.md.

Plain data read by :mod:`games.tutorials.runner`: seat 0 is the learner, seats 1-3 computers.
"""

from typing import Any

TUTORIAL: dict[str, Any] = {
    "game": "bhabhi",
    "title": {"en": "Learn Getaway", "ja": "ゲッタウェイを覚える"},
    "parts": [{
        "players": 4,
        "options": {"dealer": 0},
        "deck": "AS 5S 9S QS 3S 7H TS TH 6S 8D 9H KC 7S 2S JH 5D 8S 4S AH JS QH 3H 2C KS "
                "KH 5H 3C 6H 4H 6D 4C 8H 2H 7D 5C TD 9D TC 6C JD 4D JC 7C QD 3D QC 8C KD "
                "2D AC 9C AD",
        "script": [
            {"say": {
                "en": "Getaway: get rid of all your cards. The last player still holding cards "
                      "loses. You are seat 1, against three computers. Aces are high and there "
                      "are no trumps. Whoever holds the ace of spades leads the first round with "
                      "it, and that is you: play A♠.",
                "ja": "ゲッタウェイは手札をすべて出し切るゲームです。最後まで手札が残った人が負け"
                      "です。あなたは席1で、相手は3人のコンピューター。Aが最強で、切り札はありま"
                      "せん。スペードのAを持つ人が最初のラウンドでそれをリードします。持っている"
                      "のはあなたなので、A♠を出しましょう。"},
             "do": ["play:AS"],
             "why": {"en": "The first round always starts with A♠, and you hold it.",
                     "ja": "最初のラウンドは必ずA♠から始まります。持っているのはあなたです。"}},
            "1 play:5S", "2 play:9S", "3 play:QS",
            {"say": {
                "en": "Everyone followed suit, so the four cards are discarded, out of play, "
                      "and you, who played the highest card of the led suit (A♠), lead next. "
                      "Lead low now: the highest card of the led suit takes every round, and "
                      "when someone cannot follow, the taker picks up every card on the table. "
                      "Lead 2♥.",
                "ja": "全員がスートに従ったので、4枚は捨て札になり、ゲームから除かれます。リード"
                      "したスートで一番強いカード（A♠）を出したあなたが、次のラウンドをリードします。"
                      "ここは弱いカードでリードしましょう。ラウンドを取るのは毎回リードしたスート"
                      "で一番強いカードで、誰かがフォローできなかったときは、取った人が場のカード"
                      "を全部手札に加えます。2♥をリードしてください。"},
             "do": ["play:2H"],
             "why": {"en": "A low lead like 2♥ will hardly be the highest heart, so you will "
                           "hardly be the one who picks up the table.",
                     "ja": "2♥のような弱いカードなら、一番強いハートになることはまずありません。"
                           "場のカードを拾う役になりにくいのです。"}},
            "1 play:7H", "2 play:9H", "3 play:TH",
            "3 play:KC",
            {"say": {
                "en": "Seat 4's 10♥ was the highest heart, so seat 4 led again, with K♣. You "
                      "have no clubs: you are void. When you cannot follow suit you may play "
                      "any card, and the round ends at once. The highest club, K♣, picks up "
                      "the table. Use the void to throw away your most dangerous card, K♥.",
                "ja": "一番強いハートは席4の10♥だったので、席4がまたリードしてK♣を出しました。"
                      "あなたはクラブを持っていません（ボイド）。フォローできないときは好きなカー"
                      "ドを出せて、ラウンドはその場で終わります。場のカードは一番強いクラブ、"
                      "K♣を出した人が拾います。ボイドを使って、一番危ないカードK♥を捨てましょう。"},
             "do": ["play:KH"],
             "why": {"en": "A void lets you choose what to give away. K♥ would make you the "
                           "taker of a later heart round, so now is the time to pass it on.",
                     "ja": "ボイドのときは何を押し付けるか選べます。K♥を持っていると、後のハートの"
                           "ラウンドで拾う役になりかねません。手放すなら今です。"}},
            "3 play:5D",
            {"say": {
                "en": "Seat 4 picked up K♣ and K♥ and leads again: 5♦. You have diamonds, so "
                      "you must follow suit. Play your lowest, 2♦: if someone cannot follow, "
                      "the highest diamond picks up everything.",
                "ja": "席4はK♣とK♥を拾い、また5♦をリードしました。あなたはダイヤを持っているの"
                      "で、スートに従わなければなりません。一番弱い2♦を出しましょう。誰かがフォ"
                      "ローできなければ、一番強いダイヤの人が場のカードを全部拾います。"},
             "do": ["play:2D"],
             "why": {"en": "2♦ is your lowest diamond: it cannot take this round, whatever "
                           "the others play.",
                     "ja": "2♦はあなたの一番弱いダイヤなので、他の人が何を出してもこのラウンドを"
                           "取ることはありません。"}},
            "1 play:8D", "2 play:AH",
            {"say": {
                "en": "Seat 3 had no diamonds and ended the round with A♥, so seat 2, with the "
                      "highest diamond (8♦), picks up the four cards. A player who runs out of "
                      "cards is safe and leaves the game; the earlier, the better. The last "
                      "one left with cards loses. If everyone left runs out in the same round, "
                      "the game is drawn.",
                "ja": "席3はダイヤがなくA♥を出してラウンドを終わらせたので、一番強いダイヤ（8♦）"
                      "を出した席2が4枚を拾います。手札がなくなった人は勝ち抜けで、早いほど上位"
                      "です。最後まで手札が残った人が負け。残った全員が同じラウンドで出し切った"
                      "ら引き分けです。"}},
            {"say": {
                "en": "An option worth knowing: shootout. When two players are left and one "
                      "wins a round with their last card against a card of the same suit, "
                      "they are not simply safe: the discards are shuffled and turned up one "
                      "at a time, and the other player must follow each from hand. A turned "
                      "card that beats theirs continues the shootout; the first time they "
                      "beat it, or cannot follow, they lose.",
                "ja": "知っておきたいオプション「シュートアウト」。残り2人のとき、一方が最後の"
                      "1枚で同じスートのカードに勝つと、そのまま勝ち抜けにはなりません。捨て札を"
                      "切って1枚ずつ表にし、もう一方は毎回手札からフォローします。めくったカード"
                      "の方が強ければ続行、初めて手札の方が強かったとき、またはフォローできな"
                      "かったときに負けが決まります。"}},
        ],
    }],
    "summary": {
        "en": "That is Getaway: follow suit if you can; if you cannot, play anything and the "
              "round ends, and the highest card of the led suit picks up the table. Lead "
              "low, keep your high cards for voids, and get out early.",
        "ja": "これがゲッタウェイです。フォローできるなら必ずフォロー。できなければ何を出しても"
              "よく、ラウンドはそこで終わり、リードしたスートで一番強いカードの人が場のカード"
              "を拾います。弱いカードでリードし、強いカードはボイドで捨て、早く勝ち抜けましょう。"
              ""},
}
