"""Sugekari 21: the guided game. Rules: docs/rules/sugekari-21.md.

Plain data read by :mod:`games.tutorials.runner`: seat 0 is the learner, partner of seat 2;
seats 1-3 are computers.
"""

from typing import Any

TUTORIAL: dict[str, Any] = {
    "game": "sugekari-21",
    "title": {"en": "Learn Sugekari 21", "ja": "菅刈21を覚える"},
    "parts": [{
        "players": 4,
        "options": {"first": 0},
        "deck": "TS 5H 3C KD 6D 8S AH 2H 9C 2S 4S 5S JC 6S 9S JS 7S KS 3H 6H 5C 7H 8H 9H 4H "
                "TH JH QH QS 2D 3D 4D 8D 5D 7D 9D 3S TD JD QD AS AD 4C 6C 2C 7C 8C TC KH QC "
                "KC AC",
        "script": [
            {"say": {
                "en": "Sugekari 21: add cards to a running total that may never pass 21. "
                      "Whoever plays the last card of a round captures the round's cards for "
                      "their side, and the side with more captured cards wins. You are Seat 1, "
                      "partner of Seat 3, against Seats 2 and 4. Suits never matter. Cards count "
                      "A 1, 2 to 10 their number, and J −1, Q −2, K −3. You start the first "
                      "round: lead 10♠.",
                "ja": "菅刈21では、場の合計にカードを足していきます。合計は21を超えてはいけませ"
                      "ん。ラウンドの最後のカードを出した人が、そのラウンドのカードを自分のチーム"
                      "のために獲得し、獲得枚数の多いチームが勝ちです。あなたは席1で、席3とペア、"
                      "相手は席2と席4です。マークは関係ありません。Aは1、2〜10は額面、Jは−1、Q"
                      "は−2、Kは−3。最初のラウンドはあなたから。10♠を出しましょう。"},
             "do": ["play:TS"],
             "why": {"en": "Any card may start a round; this lesson starts with 10♠, so that "
                           "21 comes quickly.",
                     "ja": "ラウンドはどのカードからでも始められますが、このレッスンでは10♠から"
                           "始めて、早く21に近づけます。"}},
            "1 play:5H", "2 play:3C", "3 play:KD",
            {"say": {
                "en": "10 + 5 + 3 − 3 = 15. In turn, each player plays one card or passes. A "
                      "card may not take the total past 21, and no rank may be played twice "
                      "in a round (after 5♥, no other 5). 6♦ makes exactly 21: the round ends "
                      "at once and you take it.",
                "ja": "10 + 5 + 3 − 3 = 15。順番に、1枚出すかパスします。合計が21を超えるカード"
                      "は出せず、同じランクはラウンド中に1度だけです（5♥の後に他の5は出せませ"
                      "ん）。6♦でちょうど21、ラウンドはその場で終わり、あなたが獲得します。"},
             "do": ["play:6D"],
             "why": {"en": "6♦ makes exactly 21: the round ends now and its five cards are "
                           "your side's.",
                     "ja": "6♦でちょうど21になり、ラウンドはここで終わって5枚があなたのチームの"
                           "ものになります。"}},
            {"say": {
                "en": "Your side captured 5 cards, face up for everyone to see. The taker starts "
                      "the next round: start with 9♣.",
                "ja": "あなたのチームが5枚を獲得しました（全員に見える表向き）。ラウンドを取っ"
                      "た人が次のラウンドを始めます。9♣から始めましょう。"},
             "do": ["play:9C"],
             "why": {"en": "Start high: after 9♣ only small cards fit, and the ranks used up "
                           "block the others sooner.",
                     "ja": "強いカードから始めると、後に出せるのは小さいカードだけになり、使われた"
                           "ランクが早く相手をふさぎます。"}},
            "1 play:8S", "2 play:AH", "3 play:2H",
            {"say": {
                "en": "9 + 8 + 1 + 2 = 20. If the other three all pass, the last card played "
                      "takes the round, and now that is Seat 4's 2♥. Play a minus card to be "
                      "the last: J♣ makes 19. Only a 2 or an A would fit then, and both are "
                      "used in this round.",
                "ja": "9 + 8 + 1 + 2 = 20。他の3人が続けてパスすると、最後にカードを出した人が"
                      "ラウンドを取ります。今それは席4の2♥です。マイナスのカードを出して最後の"
                      "1人になりましょう。J♣で19。そうすると出せるのは2かAだけで、どちらもこの"
                      "ラウンドで使用済みです。"},
             "do": ["play:JC"],
             "why": {"en": "After Q♠ or K♥ the total would be 18 or 17, and a 3 or a 4 would "
                           "make 21 for the other side. A pass gives Seat 4 the round.",
                     "ja": "Q♠やK♥では合計18か17になり、3か4で相手チームに21を作られます。パスす"
                           "れば席4がラウンドを取ります。"}},
            "1 pass", "2 pass", "3 pass",
            {"say": {
                "en": "Three passes in a row after your J♣: you take the round, 10 cards for "
                      "your side. The game ends as soon as someone plays their last card, even "
                      "mid-round: their side takes half the final round's cards, rounded up, and "
                      "the rest and all cards still in hand are out of play. Nobody may play "
                      "their last card if it is a J, Q or K. More captured cards wins; on a tie, "
                      "the side that went out.",
                "ja": "J♣の後に3人続けてパス。あなたがラウンドを取り、チームの獲得は10枚になり"
                      "ました。誰かが最後の1枚を出した時点で、ラウンドの途中でもゲームは終わり"
                      "ます。そのチームは最終ラウンドの半分（切り上げ）を獲得し、残りと手札はすべ"
                      "て無効です。最後の1枚をJ・Q・Kで出すことはできません。獲得枚数の多い方の"
                      "勝ち、同数なら上がったチームの勝ちです。"}},
        ],
    }, {
        # The jokers spice, played: game 2 of a best-of-three match, with two jokers in the pack.
        "players": 4,
        "options": {"first": 0, "best_of_three": True, "jokers": True},
        "seed": 3,
        "deck": "2H 4D 5S 8H 5D 2D AC JH QD QS 8D 8S KS 6H 9D JC KH 7D 3S 7H 7S "
                "4S TH 7C TC 6C 4C 3D 5C 9H 9S JS AH QC 2C AS 3H JD 5H 8C 2S 9C "
                "6S KC 3C 6D AD QH TS TD KD 4H",
        "prelude": "0/play:KH 1/play:9C 2/play:2C 3/pass 0/play:5C 1/play:QC 2/play:AD 3/play:4H "
                "0/play:3C 1/pass 2/pass 3/play:JS 0/pass 1/pass 2/pass 3/play:7C 0/play:TS "
                "1/play:JD 2/play:5H 2/play:AC 3/play:JC 0/play:7S 1/play:4S 2/play:8D 3/play:KC "
                "0/play:3H 1/pass 2/pass 3/play:QH 0/play:2S 1/pass 2/pass 3/pass 0/play:2H "
                "1/play:6C 2/play:KD 3/play:8C 0/play:5D 1/play:QS 2/pass 3/play:JH 0/pass 1/pass "
                "2/pass 3/play:7H 0/pass 1/play:2D 2/play:5S 3/play:AS 0/play:QD 1/play:4D "
                "2/play:3S 3/pass 0/play:KS 1/pass 2/pass 3/pass 0/play:TC 1/play:6H 2/pass "
                "3/pass 0/pass 1/play:9H 2/pass 3/pass 0/pass 1/play:TD 2/play:6S 3/play:3D "
                "0/pass 1/pass 2/pass 3/play:8S 0/pass 1/play:6D 2/pass 3/pass 0/play:AH "
                "1/discard:AD 3/discard:8C",
        "script": [
            "1 play:4C", "2 play:7S", "3 play:5S",
            {"say": {
                "en": "Now game 2 of a best-of-three match with the jokers spice: games 2 and 3 "
                      "add two jokers, and you hold the black joker. The round is 4♣ 7♠ 5♠, "
                      "total 16. A joker is played as a copy of a number card already played "
                      "this round, adding its value (here 4 or 5), or, when the total is even, "
                      "it halves the total (16 → 8). A joker cannot open a round. Play your "
                      "joker, whichever way you like.",
                "ja": "次はスパイス「ジョーカー」ありの3ゲームマッチの第2ゲームです。2・3ゲーム"
                      "目にはジョーカー2枚が加わり、あなたは黒ジョーカーを持っています。このラウ"
                      "ンドは4♣ 7♠ 5♠で、合計16。ジョーカーは、このラウンドで出た数札のコピーと"
                      "して出してその値を足すか（ここでは4か5）、合計が偶数なら合計を半分にしま"
                      "す（16→8）。ジョーカーでラウンドを始めることはできません。どちらの出し方"
                      "でもよいので、ジョーカーを出しましょう。"},
             "do": ["play=5:BJ", "play=4:BJ", "play=half:BJ"],
             "why": {"en": "This step is about the joker: play it as a copy of 4 or 5, or to "
                           "halve the total.",
                     "ja": "このステップではジョーカーを使います。4か5のコピーとして、または合計"
                           "を半分にするために出しましょう。"}},
            {"say": {
                "en": "A joker counts −5 for the side that captures it, and is not counted as "
                      "a captured card. Copied as 5 here it makes exactly 21 and takes the "
                      "round, but those four cards then count 3 − 5 = −2: a joker is best left "
                      "in a round the other side will take. A joker that can be played neither "
                      "way cannot be played.",
                "ja": "ジョーカーは獲得したチームにとって1枚につき−5で、獲得枚数には数えません。"
                      "ここで5のコピーにすればちょうど21でラウンドを取れますが、その4枚は3−5="
                      "−2になります。ジョーカーは相手チームが取るラウンドに残すのが得策です。どち"
                      "らの出し方もできないジョーカーは出せません。"}},
        ],
    }],
    "summary": {
        "en": "That is Sugekari 21: never pass 21, never repeat a rank in a round, make 21 or "
              "be the last to play to take a round, and go out with a number card. Minus cards "
              "keep a round alive for your side. With jokers, a joker copies a number card of "
              "the round or halves an even total, and costs −5 to the side that captures it.",
        "ja": "これが菅刈21です。21を超えない、ラウンド中に同じランクを出さない、21を作るか最後"
              "に出してラウンドを取る、上がりは数札で。マイナスのカードで自分のチームのために"
              "ラウンドをつなぎましょう。ジョーカーありでは、ジョーカーはラウンドの数札のコピー"
              "か偶数の合計の半分として出し、獲得したチームには−5です。"},
}
