"""Bear: the guided deal. Rules: docs/rules/bear.md.

Plain data read by :mod:`games.tutorials.runner`: seat 0 is the learner, seats 1-2 computers.
Seat 2 deals, so the learner bids first and leads the first trick.
"""

from typing import Any

TUTORIAL: dict[str, Any] = {
    "game": "bear",
    "title": "tut-bear-title",
    "parts": [{
        "players": 3,
        "options": {"dealer": 2},
        "deck": "AS KS QS KH 9H 7C 7S 6S 5S TS 7D JS AH 9S 8S 8C 9C TC 6C QH JH TH 8H TD 5C "
                "6H 5D 6D 8D 7H 5H 9D",
        "script": [
            {"say": "tut-bear-1-say",
             "do": ["bid=60-S"],
             # every bid the text names fits the buttons: each number in spades, the other
             # games at 60, Null and a pass (the first twenty legal bids stop at 50)
             "offer": " ".join(["pass", *(f"bid={n}-S" for n in range(40, 105, 5)),
                                *(f"bid=60-{g}" for g in ("H", "D", "C", "grand-red",
                                                          "grand-black")), "bid=null"]),
             "why": "tut-bear-1-why"},
            "1 pass", "2 pass",
            {"say": "tut-bear-2-say",
             "do": ["discard:TD,5C"],
             "why": "tut-bear-2-why"},
            {"say": "tut-bear-3-say",
             "do": ["play:AS"],
             "why": "tut-bear-3-why"},
            "1 play:KH", "2 play:5S",
            {"say": "tut-bear-4-say",
             "do": ["play:6H"],
             "why": "tut-bear-4-why"},
            "1 play:9H", "2 play:TH",
            "2 play:JH",
            {"say": "tut-bear-5-say",
             "do": ["play:AH"],
             "why": "tut-bear-5-why"},
            "1 play:7C",
            {"say": "tut-bear-6-say",
             "do": ["play:KS"],
             "why": "tut-bear-6-why"},
            "1 play:8C", "2 play:6S",
            {"say": "tut-bear-7-say"},
        ],
    }],
    "summary": "tut-bear-summary",
}
