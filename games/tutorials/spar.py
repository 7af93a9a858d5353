"""Spar: the guided deal, then Essilfy scoring. Rules: docs/rules/spar.md.

Plain data read by :mod:`games.tutorials.runner`: seat 0 is the learner, seat 1 a computer.
"""

from typing import Any

TUTORIAL: dict[str, Any] = {
    "game": "spar",
    "title": {"en": "Learn Spar", "ja": "スパーを覚える"},
    "parts": [{
        "players": 2,
        "options": {"dealer": 0},
        "deck": "9H 8H TD AH 7H KS 9D 8D QS 6C 6S 7S 8S 9S TS JS 6H TH JH QH KH 6D 7D JD QD "
                "KD AD 7C 8C 9C TC JC QC KC AC",
        "script": [
            "1 play:9H",
            {"say": {
                "en": "Spar: five tricks, and only the last one matters. Whoever wins the 5th "
                      "trick wins the deal. You are Seat 1, against one computer. There are no "
                      "trumps; cards rank A K Q J 10 9 8 7 6. Seat 2 led 9♥. You must follow "
                      "the led suit when you can: play a heart. Win it with A♥, so that you "
                      "lead the next tricks.",
                "ja": "スパーは5トリックのゲームで、大事なのは最後のトリックだけ。第5トリックを"
                      "取った人がそのディールの勝者です。あなたは1番、相手はコンピューター1人。"
                      "切り札はなく、強さはA K Q J 10 9 8 7 6の順です。2番が9♥をリードしました。"
                      "リードのスートを持っていれば必ず出します。ハートを出しましょう。A♥で勝て"
                      "ば、次のトリックからあなたがリードできます。"},
             "do": ["play:AH"],
             "why": {"en": "7♥ would lose this trick and hand the lead to Seat 2. With A♥ you "
                           "win it and lead next.",
                     "ja": "7♥ではこのトリックに負け、リードが2番に移ります。A♥なら勝って次も"
                           "あなたがリードできます。"}},
            {"say": {
                "en": "The highest card of the led suit wins the trick, and its winner leads "
                      "the next one. Lead K♠ now.",
                "ja": "リードしたスートで一番強いカードがトリックを取り、取った人が次をリード"
                      "します。K♠をリードしましょう。"},
             "do": ["play:KS"],
             "why": {"en": "Keep 6♣ for the last trick; your spades are the strong cards to "
                           "lead now.",
                     "ja": "6♣は最後のトリックのために取っておきます。今リードするのは強いスペ"
                           "ードです。"}},
            "1 play:8H",
            {"say": {
                "en": "Seat 2 had no spades and played 8♥. A card of another suit can never "
                      "win the trick. Lead Q♠ and keep the lead.",
                "ja": "2番はスペードを持っておらず8♥を出しました。違うスートのカードは決して"
                      "トリックを取れません。Q♠をリードして、リードを守りましょう。"},
             "do": ["play:QS"],
             "why": {"en": "Q♠ keeps the lead safely; your 6♣ must wait for the last trick.",
                     "ja": "Q♠なら確実にリードを守れます。6♣は最後のトリックまで待ちます。"}},
            "1 play:8D",
            {"say": {
                "en": "Trick 4: lead 7♥. Seat 2 has no hearts left, so even a 7 wins.",
                "ja": "第4トリック：7♥をリードします。2番にはもうハートがないので、7でも勝て"
                      "ます。"},
             "do": ["play:7H"],
             "why": {"en": "Lead 7♥ now and 6♣ last: the last trick pays more the lower the "
                           "card that wins it.",
                     "ja": "今は7♥、最後に6♣。最後のトリックは弱いカードで取るほど得点が高いの"
                           "です。"}},
            "1 play:9D",
            {"say": {
                "en": "The last trick. Winning it with a 6 scores 3 from each other player, "
                      "with a 7 scores 2, with anything else 1. Lead 6♣: Seat 2 cannot follow.",
                "ja": "最後のトリックです。6で取れば他の各プレイヤーから3点、7なら2点、それ以外"
                      "は1点。6♣をリードしましょう。2番はクラブを出せません。"},
             "do": ["play:6C"],
             "why": {"en": "6♣ is your last card.", "ja": "6♣が最後の1枚です。"}},
            "1 play:TD",
            {"say": {
                "en": "You won the deal with a 6: 3 points. The winner deals next, and the "
                      "first to 30 points wins. Next, the Essilfy option changes the scoring "
                      "of the last two tricks.",
                "ja": "6でディールに勝って3点です。勝者が次のディーラーになり、30点先取で勝ち。"
                      "次は、最後の2トリックの得点を変えるオプション「エシルフィ」です。"}},
        ],
    }, {
        "players": 2,
        "options": {"dealer": 1, "essilfy": True},
        "deck": "AH KH QH JH TH TD 6S 6C 9D 8D 7S 8S 9S TS JS QS KS 6H 7H 8H 9H 6D 7D JD QD "
                "KD AD 7C 8C 9C TC JC QC KC AC",
        "script": [
            {"say": {
                "en": "Essilfy: when the deal's winner won both of the last two tricks with "
                      "sixes or sevens, they score extra on top of the last trick's own "
                      "points: 6 more for two sixes, 5 more for a six and a seven, 4 more for "
                      "two sevens. You lead this deal. Take the first tricks with your hearts: "
                      "lead A♥.",
                "ja": "エシルフィ：ディールの勝者が最後の2トリックを両方とも6か7で取ると、最後の"
                      "トリックの点に加えて、6が2枚なら6点、6と7なら5点、7が2枚なら4点をもらえ"
                      "ます。このディールはあなたのリードです。まずハートで序盤のトリックを取り"
                      "ましょう。A♥をリード。"},
             "do": ["play:AH"],
             "why": {"en": "Save your sixes for the last two tricks; lead the hearts first.",
                     "ja": "6は最後の2トリックのために残し、先にハートをリードします。"}},
            "1 play:TH",
            {"say": {"en": "Lead K♥.", "ja": "K♥をリードします。"},
             "do": ["play:KH"],
             "why": {"en": "Save your sixes for the last two tricks; lead the hearts first.",
                     "ja": "6は最後の2トリックのために残し、先にハートをリードします。"}},
            "1 play:JH",
            {"say": {"en": "Lead Q♥.", "ja": "Q♥をリードします。"},
             "do": ["play:QH"],
             "why": {"en": "Save your sixes for the last two tricks; lead the hearts first.",
                     "ja": "6は最後の2トリックのために残し、先にハートをリードします。"}},
            "1 play:8D",
            {"say": {
                "en": "Seat 2 has only diamonds left. Trick 4: lead 6♠.",
                "ja": "2番の手札はもうダイヤだけです。第4トリック：6♠をリード。"},
             "do": ["play:6S"],
             "why": {"en": "6♠ now and 6♣ last: both of the last two tricks won by sixes.",
                     "ja": "今は6♠、最後に6♣。最後の2トリックを両方とも6で取ります。"}},
            "1 play:9D",
            {"say": {
                "en": "Trick 5: lead 6♣ and win the last two tricks with two sixes: the last "
                      "trick's 3 and Essilfy's 6, so 9 from each other player.",
                "ja": "第5トリック：6♣をリードして、最後の2トリックを6が2枚で取りましょう。最後の"
                      "トリックの3点とエシルフィの6点で、他の各プレイヤーから9点です。"},
             "do": ["play:6C"],
             "why": {"en": "6♣ is your last card.", "ja": "6♣が最後の1枚です。"}},
            "1 play:TD",
        ],
    }],
    "summary": {
        "en": "That is Spar: follow suit if you can, the highest card of the led suit wins, "
              "and only the last trick scores, more with a low card. Keep a 6 or 7 for the end "
              "and make sure you have the lead.",
        "ja": "これがスパーです。フォローできるなら必ずフォロー、リードしたスートで一番強い"
              "カードが勝ち、得点になるのは最後のトリックだけ、それも弱いカードで取るほど高得点"
              "です。6か7を最後に残し、リードを握っておきましょう。"},
}
