"""1234: the guided game. Rules: docs/rules/1234.md.

Plain data read by :mod:`games.tutorials.runner`: seat 0 is the learner, seat 1 a computer.
"""

from typing import Any

TUTORIAL: dict[str, Any] = {
    "game": "1234",
    "title": {"en": "Learn 1234", "ja": "1234を覚える"},
    "parts": [{
        "players": 2,
        "options": {"dealer": 1},
        "deck": "QH KD AS 2H 3C 6S 4D 7C 9S JS TH 2S 3D 2C 3H 5D 4C 2D 3S 4S 5S 7S 8S TS QS "
                "KS 4H 5H 6H 7H 8H 9H JH KH AH 6D 7D 8D 9D TD JD QD AD 5C 6C 8C 9C TC JC QC "
                "KC AC",
        "script": [
            {"say": {
                "en": "1234: on your turn, put down cards whose values add up to 1, 2, 3 or 4 "
                      "more than the number to beat. The total becomes the new number. Cards "
                      "count A 1, 2 to 10 their number, J 11, Q 12, K 13. You are Seat 1, "
                      "against one computer. The start card, 10♥, makes the number to beat 10, "
                      "so you need 11 to 14. Play Q♥ (12).",
                "ja": "1234では、自分の番に、合計が「超えるべき数」より1〜4大きくなるカードを出し"
                      "ます。その合計が新しい超えるべき数です。Aは1、2〜10は数字どおり、Jは11、"
                      "Qは12、Kは13。あなたは1番、相手はコンピューター1人です。スタートカードは"
                      "10♥なので超えるべき数は10、必要なのは11〜14。Q♥（12）を出しましょう。"},
             "do": ["play:QH"],
             "why": {"en": "This step shows a play of one card: Q♥ alone makes 12. Keep your "
                           "ace for later.",
                     "ja": "このステップは1枚のプレイです。Q♥だけで12になります。Aは後のために"
                           "取っておきましょう。"}},
            "1 play:KD",
            {"say": {
                "en": "After a turn you draw back up to 5 cards (at most 3 at a time). Seat 2 "
                      "played K♦: the number is 13, you need 14 to 17. Several cards can make "
                      "one play: 9♠ 4♦ 3♣ make 16, Seat 2 will then need 17 or more, and you keep "
                      "your ace.",
                "ja": "手番の後は5枚になるまで引きます（1回に最大3枚）。2番がK♦を出して超える"
                      "べき数は13、必要なのは14〜17です。複数のカードで1回のプレイにできます。"
                      "9♠ 4♦ 3♣で16、次の2番は17以上が必要になり、Aは手元に残ります。"},
             "do": ["play:9S,4D,3C"],
             "why": {"en": "9♠ 4♦ 3♣ make a high number for Seat 2 and keep your ace: an ace "
                           "alone is a pass, and you will need it.",
                     "ja": "9♠ 4♦ 3♣なら2番に大きい数を残しつつ、Aを手元に残せます。A1枚はパス"
                           "になり、すぐに必要になります。"}},
            "1 play:7C,JS",
            {"say": {
                "en": "Seat 2 made 18 with 7♣ J♠: you need 19 to 22, and your cards cannot "
                      "make it. Instead of a play you may pass with a special combination; the "
                      "number does not change. The passes: a single ace; two number cards of "
                      "one rank and a court card; three cards of one suit; three of one rank; "
                      "two pairs of number cards. Pass with A♠.",
                "ja": "2番は7♣ J♠で18にしました。必要なのは19〜22ですが、あなたの手札では作れ"
                      "ません。プレイの代わりに、特別な組み合わせで「パス」ができます。超えるべき"
                      "数は変わりません。パスの組み合わせ：A1枚、同じランクの数字札2枚と絵札1枚、"
                      "同じスート3枚、同じランク3枚、数字札のペア2組。A♠でパスしましょう。"},
             "do": ["pass:AS"],
             "why": {"en": "The ace is your only way to stay in.",
                     "ja": "残るための手段はAだけです。"}},
            {"say": {
                "en": "Seat 2 could neither play nor pass, so they dropped out, and the last "
                      "player left wins. If the stock runs out first, the player holding the "
                      "highest card wins (K highest, A lowest). Each loser pays the winner the "
                      "total of their hand in chips, and a series is 5 games.",
                "ja": "2番はプレイもパスもできずドロップアウトし、最後に残ったあなたの勝ちです。"
                      "先に山札が尽きたら、一番高いカードを持つ人が勝ちます（Kが最高、Aが最低）。"
                      "負けた人は手札の合計をチップで勝者に払い、シリーズは5ゲームです。"}},
        ],
    }],
    "summary": {
        "en": "That is 1234: play cards that total 1 to 4 more than the number to beat, or "
              "pass with a special combination; a player who can do neither drops out. Make "
              "the number high for the next player, and keep an ace for a pass.",
        "ja": "これが1234です。超えるべき数より1〜4大きい合計のカードを出すか、特別な組み合わせ"
              "でパス。どちらもできなければドロップアウトです。次の人のために数を大きくし、パス"
              "用にAを残しておきましょう。"},
}
