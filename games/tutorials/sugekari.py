"""Sugekari 21: the guided game. Rules: docs/rules/sugekari-21.md.

Plain data read by :mod:`games.tutorials.runner`: seat 0 is the learner, partner of seat 2;
seats 1-3 are computers.
"""

from typing import Any

TUTORIAL: dict[str, Any] = {
    "game": "sugekari-21",
    "title": "tut-sk-title",
    "parts": [{
        "players": 4,
        "options": {"first": 0},
        "deck": "TS 5H 3C KD 6D 8S AH 2H 9C 2S 4S 5S JC 6S 9S JS 7S KS 3H 6H 5C 7H 8H 9H 4H "
                "TH JH QH QS 2D 3D 4D 8D 5D 7D 9D 3S TD JD QD AS AD 4C 6C 2C 7C 8C TC KH QC "
                "KC AC",
        "script": [
            {"say": "tut-sk-1-say",
             "do": ["play:TS"],
             "why": "tut-sk-1-why"},
            "1 play:5H", "2 play:3C", "3 play:KD",
            {"say": "tut-sk-2-say",
             "do": ["play:6D"],
             "why": "tut-sk-2-why"},
            {"say": "tut-sk-3-say",
             "do": ["play:9C"],
             "why": "tut-sk-3-why"},
            "1 play:8S", "2 play:AH", "3 play:2H",
            {"say": "tut-sk-4-say",
             "do": ["play:JC"],
             "why": "tut-sk-4-why"},
            "1 pass", "2 pass", "3 pass",
            {"say": "tut-sk-5-say"},
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
            {"say": "tut-sk-6-say",
             "do": ["play=5:BJ", "play=4:BJ", "play=half:BJ"],
             "why": "tut-sk-6-why"},
            {"say": "tut-sk-7-say"},
        ],
    }],
    "summary": "tut-sk-summary",
}
