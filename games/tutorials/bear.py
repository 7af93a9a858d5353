"""Bear: the guided deal. Rules: docs/rules/bear.md.

Plain data read by :mod:`games.tutorials.runner`: seat 0 is the learner, seats 1-2 computers.
Seat 2 deals, so the learner bids first and leads the first trick.
"""

from typing import Any

TUTORIAL: dict[str, Any] = {
    "game": "bear",
    "title": {"en": "Learn Bear", "ja": "ベアを覚える"},
    "parts": [{
        "players": 3,
        "options": {"dealer": 2},
        "deck": "AS KS QS KH 9H 7C 7S 6S 5S TS 7D JS AH 9S 8S 8C 9C TC 6C QH JH TH 8H TD 5C "
                "6H 5D 6D 8D 7H 5H 9D",
        "script": [
            {"say": {
                "en": "Bear: three players, 32 cards (spades and hearts A to 5, clubs and "
                      "diamonds 10 to 5). Card points: K 5, Q 3, J 2, 10 10, 5 5, 80 in all. "
                      "Taking the Q and J of spades, or of hearts, is a Bond: +5. First, one "
                      "lap of bidding from the dealer's left: pass, or bid 40 to 100 in steps "
                      "of 5 with a game, or Null. The highest bidder becomes the declarer and "
                      "plays alone against the other two. In a trump game all eight honours "
                      "(A K Q J of spades and of hearts) are trumps. With spades as trumps you "
                      "hold seven of them: bid 60 spades.",
                "ja": "ベアは3人で32枚（スペードとハートはA〜5、クラブとダイヤは10〜5）を使い"
                      "ます。得点はK 5、Q 3、J 2、10は10、5は5で、合計80点。同じスート（スペード"
                      "かハート）のQとJを両方取るとボンドで+5。まずディーラーの左から1周だけビッ"
                      "ド：パスするか、40〜100（5刻み）とゲームを宣言するか、ヌル。一番高いビッド"
                      "の人がデクレアラーになり、1人で2人と戦います。切り札のあるゲームでは、絵札"
                      "8枚（スペードとハートのA K Q J）がすべて切り札です。スペードを切り札にす"
                      "れば、あなたの切り札は7枚。60スペードをビッドしましょう。"},
             "do": ["bid=60-S"],
             # every bid the text names fits the buttons: each number in spades, the other
             # games at 60, Null and a pass (the first twenty legal bids stop at 50)
             "offer": " ".join(["pass", *(f"bid={n}-S" for n in range(40, 105, 5)),
                                *(f"bid=60-{g}" for g in ("H", "D", "C", "grand-red",
                                                          "grand-black")), "bid=null"]),
             "why": {"en": "With seven trumps, spades are your game, and 60 is a bid this hand "
                           "can make: your honours and tens bring the points.",
                     "ja": "切り札7枚ならスペードのゲームで、60はこの手札で達成できるビッドです。"
                           "絵札と10が得点を運んでくれます。"}},
            "1 pass", "2 pass",
            {"say": {
                "en": "Seats 2 and 3 passed: you are the declarer, at 60 spades. You took the "
                      "kitty (10♠ 7♦) into your hand and now discard two cards face down. The "
                      "points of your discards count for you. Discard 10♦ and 5♣.",
                "ja": "席2と席3はパスしたので、あなたが60スペードのデクレアラーです。キティ"
                      "（10♠ 7♦）を手札に加えたので、2枚を裏向きに捨てます。捨てたカードの点は"
                      "あなたのものです。10♦と5♣を捨てましょう。"},
             "do": ["discard:TD,5C"],
             "why": {"en": "10♦ and 5♣ are point cards outside trumps that an opponent could win "
                           "with a trump; discarded, their 15 points are yours for sure.",
                     "ja": "10♦と5♣は切り札以外の得点札で、相手に切り札で取られるかもしれません。"
                           "捨てれば15点が確実にあなたのものになります。"}},
            {"say": {
                "en": "The dealer's left leads the first trick: you. Lead A♠, the highest "
                      "trump, to draw the opponents' trumps.",
                "ja": "最初のトリックはディーラーの左、つまりあなたのリードです。一番強い切り札"
                      "A♠をリードして、相手の切り札を引き出しましょう。"},
             "do": ["play:AS"],
             "why": {"en": "A♠ cannot lose, and an opponent who holds a trump must play one.",
                     "ja": "A♠は負けず、切り札を持っている相手はそれを出さなければなりません。"}},
            "1 play:KH", "2 play:5S",
            {"say": {
                "en": "Seat 2 had to play K♥: with spades as trumps, the heart honours are "
                      "trumps and belong to the trump suit, not to hearts. The heart suit is "
                      "only 10♥ down to 5♥. Now lead your lone 6♥: once you have no hearts, "
                      "you can trump them.",
                "ja": "席2はK♥を出すしかありませんでした。スペードが切り札のとき、ハートの絵札"
                      "は切り札で、ハートではなく切り札のスートに属します。ハートのスートは10♥"
                      "〜5♥だけです。1枚だけの6♥をリードしましょう。ハートがなくなれば、ハート"
                      "に切り札を出せます。"},
             "do": ["play:6H"],
             "why": {"en": "6♥ is worth nothing, and without hearts you can trump a heart lead.",
                     "ja": "6♥は0点で、ハートがなくなればハートのリードに切り札で勝てます。"}},
            "1 play:9H", "2 play:TH",
            "2 play:JH",
            {"say": {
                "en": "Seat 3 won with 10♥ and led J♥, a trump. You must follow the led suit, "
                      "and here that is trumps. A♥ is the highest trump left: take the trick.",
                "ja": "席3が10♥で取り、J♥をリードしました。これは切り札です。リードされたスート、"
                      "つまり切り札でフォローしなければなりません。残っている一番強い切り札A♥で"
                      "取りましょう。"},
             "do": ["play:AH"],
             "why": {"en": "A♥ is the highest trump still out: it takes J♥'s 2 points safely.",
                     "ja": "A♥は残っている一番強い切り札で、J♥の2点を確実に取れます。"}},
            "1 play:7C",
            {"say": {
                "en": "Keep drawing trumps: lead K♠, now the highest.",
                "ja": "切り札を引き出し続けましょう。今一番強いK♠をリードします。"},
             "do": ["play:KS"],
             "why": {"en": "Seat 3 still holds trumps; K♠ cannot lose and draws one more.",
                     "ja": "席3にはまだ切り札があります。K♠は負けず、もう1枚引き出せます。"}},
            "1 play:8C", "2 play:6S",
            {"say": {
                "en": "Your total is the card points of your tricks, plus your discards, plus "
                      "any Bond. Make your bid and you score +60; fail and you lose 60. The "
                      "deal stops as soon as failure is certain. In Null the declarer must "
                      "take no trick at all (±100). If all three pass, a Slop round is played: "
                      "no trumps, and each player scores the highest total minus their own. "
                      "The game lasts 12 deals, or until someone reaches 500.",
                "ja": "あなたの合計は、取ったトリックの得点＋捨てたカード＋ボンドです。ビッド以上"
                      "取れば+60、届かなければ−60。失敗が確定した時点でディールは終わります。"
                      "ヌルではデクレアラーが1トリックも取らないこと（±100）。全員パスならスロップ"
                      "ラウンド：切り札なしで、各自が（最高の合計−自分の合計）点を得ます。ゲームは"
                      "12ディール、または誰かが500点に達するまでです。"}},
        ],
    }],
    "summary": {
        "en": "That is Bear: one lap of bidding, the declarer takes the kitty and discards two, "
              "then plays alone for at least the bid in card points. All eight honours are "
              "trumps in a trump game, and the Q and J of a suit make a Bond.",
        "ja": "これがベアです。ビッドは1周、デクレアラーはキティを取って2枚捨て、1人でビッド"
              "以上の得点を目指します。切り札のあるゲームでは絵札8枚がすべて切り札、同じスート"
              "のQとJでボンドです。"},
}
