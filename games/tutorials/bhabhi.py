"""Getaway (Bhabhi): the guided deal. Rules: docs/rules/bhabhi.md.

Plain data read by :mod:`games.tutorials.runner`: seat 0 is the learner, seats 1-3 computers.
"""

from typing import Any

TUTORIAL: dict[str, Any] = {
    "game": "bhabhi",
    "title": "tut-bhabhi-title",
    "parts": [{
        "players": 4,
        "options": {"dealer": 0},
        "deck": "AS 5S 9S QS 3S 7H TS TH 6S 8D 9H KC 7S 2S JH 5D 8S 4S AH JS QH 3H 2C KS "
                "KH 5H 3C 6H 4H 6D 4C 8H 2H 7D 5C TD 9D TC 6C JD 4D JC 7C QD 3D QC 8C KD "
                "2D AC 9C AD",
        "script": [
            {"say": "tut-bhabhi-1-say",
             "do": ["play:AS"],
             "why": "tut-bhabhi-1-why"},
            "1 play:5S", "2 play:9S", "3 play:QS",
            {"say": "tut-bhabhi-2-say",
             "do": ["play:2H"],
             "why": "tut-bhabhi-2-why"},
            "1 play:7H", "2 play:9H", "3 play:TH",
            "3 play:KC",
            {"say": "tut-bhabhi-3-say",
             "do": ["play:KH"],
             "why": "tut-bhabhi-3-why"},
            "3 play:5D",
            {"say": "tut-bhabhi-4-say",
             "do": ["play:2D"],
             "why": "tut-bhabhi-4-why"},
            "1 play:8D", "2 play:AH",
            {"say": "tut-bhabhi-5-say"},
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
            {"say": "tut-bhabhi-6-say",
             "do": ["play:TC"],
             "why": "tut-bhabhi-6-why"},
            {"say": "tut-bhabhi-7-say",
             "do": ["play:4C"],
             "why": "tut-bhabhi-7-why"},
            {"say": "tut-bhabhi-8-say",
             "do": ["play:JD"],
             "why": "tut-bhabhi-8-why"},
            {"say": "tut-bhabhi-9-say",
             "do": ["play:QS", "play:3H", "play:8H", "play:AH", "play:QC", "play:AC"],
             "why": "tut-bhabhi-9-why"},
        ],
    }],
    "summary": "tut-bhabhi-summary",
}
