"""Finesse: the guided deal. Rules: docs/rules/finesse.md.

Plain data read by :mod:`games.tutorials.runner`: seat 0 is the learner, partner of seat 2;
seats 1-3 are computers. Seat 3 deals, so the learner leads the first trick.
"""

from typing import Any

_NOT_TRUMP = {
    "en": "Refill with 2♦: it is not a trump (a trump left among your table cards at the end "
          "of the deal costs your side 3 points), and it is the card you need least in hand.",
    "ja": "2♦で補充しましょう。切り札ではなく（ディールの終わりにテーブルカードに残った切り札"
          "は1枚につき3点の減点）、手札で一番必要のないカードです。",
}

TUTORIAL: dict[str, Any] = {
    "game": "finesse",
    "title": {"en": "Learn Finesse", "ja": "フィネスを覚える"},
    "parts": [{
        "players": 4,
        "options": {"dealer": 3},
        "deck": "KD 3C AH QC 7C 4C 6C KC 8H 5C JC AC AS 7S 8S 9S 3S 2S 8D 3H 4S 4H QC 9D 5S "
                "JH TS 2C 6S TH JS QH 2H QH JS KH 9H KH QS TD 3D 5H QS JD 4D KC KS JD 5D JC "
                "KS QD 2D TC 6H QD 6D 9C 7H KD 7D 8C JH AD",
        "script": [
            {"say": {
                "en": "Finesse: four players in two partnerships. You are Seat 1, partner of "
                      "Seat 3 opposite, against Seats 2 and 4. Each player has 13 cards in hand "
                      "and 3 table cards face up in front of them. The pack has 64 cards: a "
                      "second K, Q and J of each suit. The first card led in a deal makes its "
                      "suit trumps for the whole deal. You lead: lead A♠ and make spades "
                      "trumps, your longest suit.",
                "ja": "フィネスは2人ずつのペア戦です。あなたは席1で、向かいの席3とペア、相手は"
                      "席2と席4。各自、手札13枚と、自分の前に表向きのテーブルカード3枚を持ちま"
                      "す。カードは64枚（各スートのK・Q・Jがもう1枚ずつ）。ディールの最初にリー"
                      "ドされたカードのスートが、そのディールの切り札になります。あなたのリードで"
                      "す。A♠をリードして、一番長いスペードを切り札にしましょう。"},
             "do": ["play:AS"],
             "why": {"en": "The first lead picks trumps: spades, your longest suit, with A♠ "
                           "sure to win. (An ace led first may also declare no trumps; here "
                           "you want spades.)",
                     "ja": "最初のリードが切り札を決めます。一番長いスペードを、確実に勝つA♠で。"
                           "（最初にAをリードすれば切り札なしも宣言できますが、ここではスペード"
                           "を切り札にします。）"}},
            "1 play:7S", "2 play:8S", "3 play:9S",
            {"say": {
                "en": "Everyone followed suit and your A♠ won: you lead again. A leader may "
                      "lead from hand, or from their partner's table cards (never their own, "
                      "never an opponent's). Lead Seat 3's A♥ from the table.",
                "ja": "全員がスートに従い、A♠が勝ったので、またあなたのリードです。リードは手札"
                      "からでも、パートナーのテーブルカードからでもできます（自分のものや相手の"
                      "ものは不可）。席3のテーブルカードからA♥をリードしましょう。"},
             "do": ["table:AH"],
             "why": {"en": "Your own hearts are small; your partner's A♥ on the table is sure "
                           "to win. Leading it is what table cards are for.",
                     "ja": "あなたのハートは弱いですが、パートナーのテーブルにあるA♥は確実に勝ち"
                           "ます。テーブルカードはこのように使います。"}},
            "3 play:3H",
            {"say": {
                "en": "A card led from your partner's table counts as your partner's lead: "
                      "Seat 3 does not play, the others follow from Seat 3's left, and you play "
                      "again, from hand, third. You must follow suit. Your partner's A♥ is "
                      "already winning, so play your lowest heart, 2♥.",
                "ja": "パートナーのテーブルカードのリードは、パートナーのリードとして扱われます。"
                      "席3は出さず、席3の左から順にフォローし、あなたは3番目に手札からもう一度"
                      "出します。スートには従わなければなりません。パートナーのA♥がすでに勝って"
                      "いるので、一番弱いハート2♥を出しましょう。"},
             "do": ["play:2H"],
             "why": {"en": "Your partner's A♥ already wins this trick: 9♥ would be wasted.",
                     "ja": "パートナーのA♥でこのトリックはもう勝っています。9♥はもったいない"
                           "です。"}},
            "1 play:4H",
            "2 refill:6H",
            "2 table:KD",
            "1 play:2S", "2 play:8D", "3 play:9D",
            {"say": {
                "en": "The winning table card won the trick for Seat 3, who put a card from "
                      "hand on the table in place of A♥ (a refill), then led your K♦ from your "
                      "table. Seat 2 had no diamonds and trumped with 2♠: the highest trump "
                      "wins, even a small one. Now it is your table card that was led, so you "
                      "refill: put one card from hand among your table cards. Put 2♦ there.",
                "ja": "勝ったテーブルカードのトリックは席3のものになり、席3はA♥の代わりに手札から"
                      "1枚をテーブルに置き（補充）、あなたのテーブルのK♦をリードしました。席2は"
                      "ダイヤがなく2♠で切り札を出しました。一番強い切り札が勝ち、小さい切り札"
                      "でも勝てます。今度はあなたのテーブルカードが使われたので、あなたが補充"
                      "します。手札から1枚をテーブルカードに置きましょう。2♦を置きます。"},
             "do": ["refill:2D"],
             "why": _NOT_TRUMP},
            "1 play:KC", "2 play:QC", "3 play:2C",
            {"say": {
                "en": "Seat 2 led K♣. You have no clubs: you may play any card, and a trump "
                      "beats every club. You play last, so your lowest trump, 3♠, wins the "
                      "trick.",
                "ja": "席2がK♣をリードしました。あなたはクラブを持っていないので、どのカードでも"
                      "出せます。切り札はどのクラブにも勝ちます。あなたが最後なので、一番弱い切り"
                      "札3♠で勝てます。"},
             "do": ["play:3S"],
             "why": {"en": "You play last and any trump wins: 3♠ is enough, and your higher "
                           "trumps stay for later tricks.",
                     "ja": "あなたが最後で、どの切り札でも勝てます。3♠で十分、強い切り札は後の"
                           "トリックのために残します。"}},
            {"say": {
                "en": "Scoring, after 13 tricks, for each partnership: 4 points for the last "
                      "trick; for tricks taken, 7 → 2, 8 → 5, 9 → 10, 10 → 20, 11 → 10, "
                      "12 → 5, 13 → 2. So ten tricks beat thirteen! Each trump among your "
                      "side's six table cards at the end (the dregs) costs 3; in a no-trump "
                      "deal A, K, Q and J count as trumps. A deal never scores below 0. A side "
                      "with 42 or more that leads by 5 wins, or the first to 60.",
                "ja": "13トリック後、ペアごとに得点します。最終トリックは4点。取ったトリック数"
                      "は7→2、8→5、9→10、10→20、11→10、12→5、13→2点。13トリックより10トリック"
                      "の方が高いのです！終わりにペアの6枚のテーブルカード（ドレッグ）に残った"
                      "切り札は1枚につき−3点。切り札なしのディールではA・K・Q・Jが切り札扱い"
                      "です。1ディールの得点は0点未満になりません。42点以上で5点差をつけるか、"
                      "先に60点に達したペアの勝ちです。"}},
        ],
    }],
    "summary": {
        "en": "That is Finesse: the first lead sets trumps; lead from hand or from your "
              "partner's table cards; follow suit, else trump or throw anything; refill your "
              "table after your table card is led, and not with a trump. "
              "Aim for ten tricks and the last one.",
        "ja": "これがフィネスです。最初のリードで切り札が決まり、リードは手札かパートナーのテー"
              "ブルカードから。スートに従い、なければ切り札か何でも。テーブルカードを使われたら"
              "補充し、切り札は置かないように。10トリックと最終トリックを狙いましょう。"},
}
