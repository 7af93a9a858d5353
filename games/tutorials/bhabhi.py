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
        ],
    }, {
        # The shootout option, played: late in a two-player game, seat 2 leads their last card.
        "players": 2,
        "options": {"dealer": 0, "shootout": True},
        "deck": "5D 9S JD 7D KC 7C KS QS 3S 4D 3D JC QC TS 3C 5H KH 9C 8D JS AS "
                "QH 7H 5S 4C KD QD 4H 6S AC 8H AD 6H 2S 2H 7S 8S 6D 3H TH 8C 4S "
                "9H 2C 2D 5C 6C TC AH TD 9D JH",
        "prelude": "0/play:AS 1/play:2S 0/play:2D 1/play:TD 1/play:JH 0/play:9H 1/play:4H "
                "0/play:7H 0/play:6H 1/play:QH 1/play:7S 0/play:3S 1/play:AD 0/play:5D 1/play:4D "
                "0/play:QD 0/play:8S 1/play:JS 1/play:7D 0/play:8D 0/play:2H 1/play:TH 1/play:5H "
                "0/play:KH 0/play:8C 1/play:2C 0/play:9D 1/play:KD 1/play:7C 0/play:6C 1/play:4S "
                "0/play:KS 0/play:3D 1/play:6D 1/play:9C 0/play:3C 1/play:5S 0/play:6S 0/play:KC "
                "1/play:5C 0/play:8H 1/play:QS 0/play:AH 1/play:TC 0/play:AH 1/play:9S 0/play:3H "
                "1/play:AC 0/play:9S 1/play:TS",
        "script": [
            "1 play:JC",
            {"say": {
                "en": "Now a game with the shootout option, near its end: only you and seat 2 "
                      "are left, and seat 2 has just led J♣, their last card. Beat it and you "
                      "take the round: seat 2, out of cards, is safe and you lose. Play under "
                      "it and seat 2's last card wins the round, which starts a shootout. Play "
                      "10♣ under J♣.",
                "ja": "次はシュートアウトのオプションありのゲームの終盤です。残りはあなたと席2"
                      "だけで、席2は最後の1枚J♣をリードしました。これに勝つとあなたがラウンドを"
                      "取り、手札のなくなった席2は勝ち抜けで、あなたの負けです。J♣より弱いクラ"
                      "ブを出せば席2の最後の1枚がラウンドに勝ち、シュートアウトが始まります。"
                      "10♣を出しましょう。"},
             "do": ["play:TC"],
             "why": {"en": "Q♣ or A♣ would beat J♣: seat 2 would simply be safe and you would "
                           "lose. And 10♣ rather than 4♣: keep your small club for the "
                           "shootout, where you must play under each turned card.",
                     "ja": "Q♣やA♣ではJ♣に勝ってしまい、席2はそのまま勝ち抜けで、あなたの負けで"
                           "す。また4♣ではなく10♣を。シュートアウトではめくられたカードの下を出"
                           "し続けるので、小さいクラブを残しておきます。"}},
            {"say": {
                "en": "Shootout! The discards are shuffled and seat 2 turns them up one at a "
                      "time; you follow each from your hand. If the turned card is higher, "
                      "both go out of play and the next is turned. Beat a turned card and you "
                      "lose; if you cannot follow its suit, seat 2 loses. 8♣ is turned: play "
                      "4♣ under it.",
                "ja": "シュートアウト！捨て札を切り、席2が1枚ずつ表にします。あなたは毎回手札"
                      "からフォローします。めくったカードの方が強ければ、両方とも場から除かれ、"
                      "次の1枚がめくられます。めくったカードに勝つとあなたの負け、そのスートを"
                      "出せなければ席2の負けです。8♣がめくられました。8♣より弱い4♣を出しましょう。"},
             "do": ["play:4C"],
             "why": {"en": "Q♣ or A♣ would beat 8♣, and beating a turned card loses the "
                           "shootout.",
                     "ja": "Q♣やA♣は8♣に勝ってしまいます。めくったカードに勝つとシュートアウト"
                           "の負けです。"}},
            {"say": {
                "en": "K♦ is turned. You must follow suit, and J♦ is your only diamond: it "
                      "is lower than K♦, so the shootout goes on. Play J♦.",
                "ja": "K♦がめくられました。スートには従わなければならず、ダイヤはJ♦の1枚だけ"
                      "です。J♦はK♦より弱いので、シュートアウトは続きます。J♦を出しましょう。"},
             "do": ["play:JD"],
             "why": {"en": "You hold a diamond, so you must play it.",
                     "ja": "ダイヤを持っているので、それを出さなければなりません。"}},
            {"say": {
                "en": "2♦ is turned and you have no diamonds left: you cannot follow, so seat "
                      "2 loses the shootout and is the last player. Play any card.",
                "ja": "2♦がめくられましたが、もうダイヤがありません。フォローできないので、"
                      "席2がシュートアウトに負けて最後の1人になります。どのカードでも出しま"
                      "しょう。"},
             "do": ["play:QS", "play:3H", "play:8H", "play:AH", "play:QC", "play:AC"],
             "why": {"en": "With no diamond, any card ends the shootout.",
                     "ja": "ダイヤがないので、どのカードでもシュートアウトは終わります。"}},
        ],
    }],
    "summary": {
        "en": "That is Getaway: follow suit if you can; if you cannot, play anything and the "
              "round ends, and the highest card of the led suit picks up the table. Lead "
              "low, keep your high cards for voids, and get out early. With the shootout "
              "option, a last card that wins against the same suit starts a shootout: play "
              "under each turned card, and hope for a suit you lack.",
        "ja": "これがゲッタウェイです。フォローできるなら必ずフォロー。できなければ何を出しても"
              "よく、ラウンドはそこで終わり、リードしたスートで一番強いカードの人が場のカード"
              "を拾います。弱いカードでリードし、強いカードはボイドで捨て、早く勝ち抜けましょう。"
              "シュートアウトのオプションでは、同じスートに最後の1枚で勝つとシュートアウトにな"
              "ります。めくられたカードの下を出し続け、持っていないスートが出るのを待ちましょう。"},
}
