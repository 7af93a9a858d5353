"""Spar: the guided deal, then Essilfy scoring. Rules: docs/rules/spar.md.

Plain data read by :mod:`games.tutorials.runner`: seat 0 is the learner, seat 1 a computer.
"""

from typing import Any

TUTORIAL: dict[str, Any] = {
    "game": "spar",
    "title": "tut-spar-title",
    "parts": [{
        "players": 2,
        "options": {"dealer": 0},
        "deck": "9H 8H TD AH 7H KS 9D 8D QS 6C 6S 7S 8S 9S TS JS 6H TH JH QH KH 6D 7D JD QD "
                "KD AD 7C 8C 9C TC JC QC KC AC",
        "script": [
            "1 play:9H",
            {"say": "tut-spar-1-say",
             "do": ["play:AH"],
             "why": "tut-spar-1-why"},
            {"say": "tut-spar-2-say",
             "do": ["play:KS"],
             "why": "tut-spar-2-why"},
            "1 play:8H",
            {"say": "tut-spar-3-say",
             "do": ["play:QS"],
             "why": "tut-spar-3-why"},
            "1 play:8D",
            {"say": "tut-spar-4-say",
             "do": ["play:7H"],
             "why": "tut-spar-4-why"},
            "1 play:9D",
            {"say": "tut-spar-5-say",
             "do": ["play:6C"],
             "why": "tut-spar-5-why"},
            "1 play:TD",
            {"say": "tut-spar-6-say"},
        ],
    }, {
        "players": 2,
        "options": {"dealer": 1, "essilfy": True},
        "deck": "AH KH QH JH TH TD 6S 6C 9D 8D 7S 8S 9S TS JS QS KS 6H 7H 8H 9H 6D 7D JD QD "
                "KD AD 7C 8C 9C TC JC QC KC AC",
        "script": [
            {"say": "tut-spar-7-say",
             "do": ["play:AH"],
             "why": "tut-spar-7-why"},
            "1 play:TH",
            {"say": "tut-spar-8-say",
             "do": ["play:KH"],
             "why": "tut-spar-8-why"},
            "1 play:JH",
            {"say": "tut-spar-9-say",
             "do": ["play:QH"],
             "why": "tut-spar-9-why"},
            "1 play:8D",
            {"say": "tut-spar-10-say",
             "do": ["play:6S"],
             "why": "tut-spar-10-why"},
            "1 play:9D",
            {"say": "tut-spar-11-say",
             "do": ["play:6C"],
             "why": "tut-spar-11-why"},
            "1 play:TD",
        ],
    }],
    "summary": "tut-spar-summary",
}
