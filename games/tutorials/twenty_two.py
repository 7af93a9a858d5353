"""22: the guided deal. Rules: docs/rules/twenty-two.md.

Plain data read by :mod:`games.tutorials.runner`: seat 0 is the learner, seat 1 a computer.
"""

from typing import Any

TUTORIAL: dict[str, Any] = {
    "game": "twenty-two",
    "title": {"en": "Learn 22", "ja": "22を覚える"},
    "parts": [{
        "players": 2,
        "options": {"dealer": 1},
        "deck": "AS JH KD TC 5H 8D 5C 7S 4S 7H 3D 6D 2C QS 9H 6C 2S 3S 5S 6S 8S 9S TS JS KS "
                "2H 3H 4H 6H 8H TH QH KH AH 2D 4D 5D 7D 9D TD JD QD AD 3C 4C 7C 8C 9C JC QC "
                "KC AC",
        "script": [
            {"say": {
                "en": "22: nobody wants to win the last trick of a deal. Whoever plays the "
                      "highest card in it loses the deal and takes that card as penalty points "
                      "(A 11, K Q J 10, others their number), and 22 points put you out. "
                      "You are Seat 1, against one computer. Suits never matter, only ranks. "
                      "First the exchange: throw away cards face down and draw as many. High "
                      "cards are dangerous at the end, so exchange A♠ and K♦.",
                "ja": "22は、各回の最終トリックを誰も取りたくないゲームです。最終トリックで一番"
                      "強いカードを出した人がこの回の敗者となり、そのカードを失点として受け取り"
                      "（A 11点、K Q J 10点、他は数字どおり）、"
                      "22点で脱落します。あなたは1番席、相手はコンピューター1人。スートは関係な"
                      "く、ランクだけが意味を持ちます。まず交換：好きな枚数を裏向きに捨て、同じ"
                      "枚数を引きます。強いカードは最後に危ないので、A♠とK♦を交換しましょう。"},
             "do": ["exchange:AS,KD"],
             "why": {"en": "A♠ and K♦ are the cards most likely to lose the last trick and the "
                           "costliest if they do: exchange exactly those two.",
                     "ja": "A♠とK♦は最終トリックで負けやすく、負けたときの失点も一番大きいカード"
                           "です。この2枚を交換しましょう。"}},
            "1 exchange",
            {"say": {
                "en": "You drew 9♥ and 6♣; Seat 2 kept their hand. You lead the first trick. "
                      "You may lead one card or a set of cards of one rank. Lead your pair, "
                      "5♥ 5♣: two cards go at once.",
                "ja": "9♥と6♣を引きました。2番席は交換しませんでした。最初のトリックはあなたの"
                      "リードです。1枚か、同じランクのセットをリードできます。ペアの5♥ 5♣を"
                      "リードして、2枚を一度に出しましょう。"},
             "do": ["play:5H,5C"],
             "why": {"en": "Leading the pair of fives shows the set lead: the other player must "
                           "answer with two cards too.",
                     "ja": "5のペアでリードすると、セットのリードが分かります。相手も2枚で応えな"
                           "ければなりません。"}},
            "1 play:7S,7H",
            "1 play:6D",
            {"say": {
                "en": "Seat 2 beat your fives with 7♠ 7♥ (each card equal or higher), won the "
                      "trick and led 6♦. To follow, play a card equal to or higher than the "
                      "highest card on the table, or your lowest card. Beat it with 9♥: this "
                      "gets rid of your highest card while it cannot hurt you.",
                "ja": "2番席は7♠ 7♥（どちらも同じか強いカード）であなたの5を上回ってトリック"
                      "を取り、6♦をリードしました。フォローは、場の一番強いカードと同じか強い"
                      "カード、または手札の一番弱いカードです。9♥で上回りましょう。一番強い"
                      "カードを、害のないうちに手放せます。"},
             "do": ["play:9H"],
             "why": {"en": "Your 9♥ is the card you least want at the end: play it while it "
                           "only wins an ordinary trick.",
                     "ja": "9♥は最後に一番持っていたくないカードです。普通のトリックを取るだけで"
                           "済む今のうちに出しましょう。"}},
            {"say": {
                "en": "You won that trick, so you lead. Lead 6♣, your highest card now.",
                "ja": "トリックを取ったので、あなたのリードです。今一番強い6♣をリードしましょう。"},
             "do": ["play:6C"],
             "why": {"en": "Lead the highest card you hold and keep the low ones for the end.",
                     "ja": "持っている一番強いカードをリードし、弱いカードは最後のために"
                           "残します。"}},
            "1 play:8D",
            "1 play:TC",
            {"say": {
                "en": "Seat 2 led 10♣. Nothing in your hand is 10 or higher, so you must play "
                      "your lowest card: 2♣. Any other card is refused.",
                "ja": "2番席が10♣をリードしました。手札に10以上のカードがないので、一番弱い"
                      "2♣を出さなければなりません。他のカードは出せません。"},
             "do": ["play:2C"],
             "why": {"en": "You cannot beat 10♣, so the lowest card is the only play.",
                     "ja": "10♣を上回れないので、出せるのは一番弱いカードだけです。"}},
            "1 play:JH",
            {"say": {
                "en": "Again you cannot beat J♥: play your lowest card, 3♦.",
                "ja": "今度もJ♥を上回れません。一番弱い3♦を出しましょう。"},
             "do": ["play:3D"],
             "why": {"en": "You cannot beat J♥, so the lowest card is the only play.",
                     "ja": "J♥を上回れないので、出せるのは一番弱いカードだけです。"}},
            {"say": {
                "en": "The final trick plays itself: everyone shows their last card at once. "
                      "Your 4♠ met Seat 2's Q♠, the highest card, so Seat 2 loses the deal and "
                      "takes 10 penalty points. The loser deals next, and the next hand size is "
                      "the value of the losing card: 10 cards each.",
                "ja": "最終トリックは自動です。全員が最後の1枚を同時に出します。あなたの4♠に対"
                      "し2番席はQ♠で一番強く、2番席がこの回の敗者となり10点の失点です。敗者が"
                      "次のディーラーになり、次に配る枚数は負けたカードの失点と同じ、10枚ずつ"
                      "です。"}},
        ],
    }],
    "summary": {
        "en": "That is 22: exchange your high cards, beat a trick with a card equal or higher "
              "or give your lowest, and keep low cards for the final trick. 22 penalty points "
              "put a player out; the last one in wins.",
        "ja": "これが22です。強いカードは交換し、トリックには同じか強いカードで上回るか一番弱い"
              "カードを出し、弱いカードを最終トリックに残しましょう。失点22点で脱落、最後まで"
              "残った人の勝ちです。"},
}
