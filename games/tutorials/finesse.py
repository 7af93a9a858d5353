"""Finesse: the guided deal. Rules: docs/rules/finesse.md.

Plain data read by :mod:`games.tutorials.runner`: seat 0 is the learner, partner of seat 2;
seats 1-3 are computers. Seat 3 deals, so the learner leads the first trick.
"""

from typing import Any

_NOT_TRUMP = "tut-finesse-not-trump"

TUTORIAL: dict[str, Any] = {
    "game": "finesse",
    "title": "tut-finesse-title",
    "parts": [{
        "players": 4,
        "options": {"dealer": 3},
        "deck": "KD 3C AH QC 7C 4C 6C KC 8H 5C JC AC AS 7S 8S 9S 3S 2S 8D 3H 4S 4H QC 9D 5S "
                "JH TS 2C 6S TH JS QH 2H QH JS KH 9H KH QS TD 3D 5H QS JD 4D KC KS JD 5D JC "
                "KS QD 2D TC 6H QD 6D 9C 7H KD 7D 8C JH AD",
        "script": [
            {"say": "tut-finesse-1-say",
             "do": ["play:AS"],
             "why": "tut-finesse-1-why"},
            "1 play:7S", "2 play:8S", "3 play:9S",
            {"say": "tut-finesse-2-say",
             "do": ["table:AH"],
             "why": "tut-finesse-2-why"},
            "3 play:3H",
            {"say": "tut-finesse-3-say",
             "do": ["play:2H"],
             "why": "tut-finesse-3-why"},
            "1 play:4H",
            "2 refill:6H",
            "2 table:KD",
            "1 play:2S", "2 play:8D", "3 play:9D",
            {"say": "tut-finesse-4-say",
             "do": ["refill:2D"],
             "why": _NOT_TRUMP},
            "1 play:KC", "2 play:QC", "3 play:2C",
            {"say": "tut-finesse-5-say",
             "do": ["play:3S"],
             "why": "tut-finesse-5-why"},
            {"say": "tut-finesse-6-say"},
        ],
    }],
    "summary": "tut-finesse-summary",
}
