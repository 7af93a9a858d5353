"""22: the guided deal. Rules: docs/rules/twenty-two.md.

Plain data read by :mod:`games.tutorials.runner`: seat 0 is the learner, seat 1 a computer.
"""

from typing import Any

TUTORIAL: dict[str, Any] = {
    "game": "twenty-two",
    "title": "tut-22-title",
    "parts": [{
        "players": 2,
        "options": {"dealer": 1},
        "deck": "AS JH KD TC 5H 8D 5C 7S 4S 7H 3D 6D 2C QS 9H 6C 2S 3S 5S 6S 8S 9S TS JS KS "
                "2H 3H 4H 6H 8H TH QH KH AH 2D 4D 5D 7D 9D TD JD QD AD 3C 4C 7C 8C 9C JC QC "
                "KC AC",
        "script": [
            {"say": "tut-22-1-say",
             "do": ["exchange:AS,KD"],
             "why": "tut-22-1-why"},
            "1 exchange",
            {"say": "tut-22-2-say",
             "do": ["play:5H,5C"],
             "why": "tut-22-2-why"},
            "1 play:7S,7H",
            "1 play:6D",
            {"say": "tut-22-3-say",
             "do": ["play:9H"],
             "why": "tut-22-3-why"},
            {"say": "tut-22-4-say",
             "do": ["play:6C"],
             "why": "tut-22-4-why"},
            "1 play:8D",
            "1 play:TC",
            {"say": "tut-22-5-say",
             "do": ["play:2C"],
             "why": "tut-22-5-why"},
            "1 play:JH",
            {"say": "tut-22-6-say",
             "do": ["play:3D"],
             "why": "tut-22-6-why"},
            {"say": "tut-22-7-say"},
        ],
    }],
    "summary": "tut-22-summary",
}
