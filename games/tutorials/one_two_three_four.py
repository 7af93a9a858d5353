"""1234: the guided game. Rules: docs/rules/1234.md.

Plain data read by :mod:`games.tutorials.runner`: seat 0 is the learner, seat 1 a computer.
"""

from typing import Any

TUTORIAL: dict[str, Any] = {
    "game": "1234",
    "title": "tut-1234-title",
    "parts": [{
        "players": 2,
        "options": {"dealer": 1},
        "deck": "QH KD AS 2H 3C 6S 4D 7C 9S JS TH 2S 3D 2C 3H 5D 4C 2D 3S 4S 5S 7S 8S TS QS "
                "KS 4H 5H 6H 7H 8H 9H JH KH AH 6D 7D 8D 9D TD JD QD AD 5C 6C 8C 9C TC JC QC "
                "KC AC",
        "script": [
            {"say": "tut-1234-1-say",
             "do": ["play:QH"],
             "why": "tut-1234-1-why"},
            "1 play:KD",
            {"say": "tut-1234-2-say",
             "do": ["play:9S,4D,3C"],
             "why": "tut-1234-2-why"},
            "1 play:7C,JS",
            {"say": "tut-1234-3-say",
             "do": ["pass:AS"],
             "why": "tut-1234-3-why"},
            {"say": "tut-1234-4-say"},
        ],
    }],
    "summary": "tut-1234-summary",
}
