"""Picture speed and weight: per game, the median ms and PNG bytes of a table picture
(1200 × 675) and of a hand picture, over the gallery's states (start, mid-play, end).

    .venv/bin/python benchmarks/render.py [--repeat N]

Card faces are drawn once and cached, as in the running bot; the first drawing of each is a
warm-up and not counted. Text is cached too (a seat's name is drawn once per table): "table ms"
redraws one position, "in play" draws the table after each of 60 random moves of a game (what
the bot does), "cold" clears the text cache before every picture, as if every line had changed.
Every person's avatar is drawn (kept, as the bot keeps them), and the last seat is a computer.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

# The repository first: this folder's bot.py must not shadow the bot package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import io
from typing import Any

from PIL import Image

import games
from bot.pictures import fonts, hand_png, playable_cards, table_png
from bot.pictures.__main__ import SAMPLE_NAMES, gallery_states
from bot.pictures.avatars import shrink


def _avatar(seed: int) -> bytes:
    """A photo-like avatar (noise, so it is no easier to draw than a real face), kept small as
    the bot keeps them."""
    out = io.BytesIO()
    Image.effect_noise((256, 256), 40 + seed).convert("RGB").save(out, "PNG")
    found = shrink(out.getvalue())
    assert found is not None
    return found


AVATARS = [_avatar(i) for i in range(8)]


def faces(players: int) -> dict[str, Any]:
    """Every person's avatar kept (as in a running bot), the last seat a computer."""
    return {"avatars": [*AVATARS[: players - 1], None], "computers": [players - 1]}


def in_play(gid: str, moves: int = 60) -> float:
    """Median ms of the table picture drawn after each move of a random game."""
    rules = games.get(gid)
    state = rules.new_game(rules.usual_players, seed=99)
    names = SAMPLE_NAMES[: state.players]
    rng = random.Random(99)
    found = []
    for _ in range(moves):
        if state.over:
            break
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        view = state.view(None).to_dict()
        t0 = time.perf_counter()
        table_png(view, names, **faces(state.players))
        found.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(found)


def main() -> int:
    """Print the table of figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    print(f"{'game':12} {'table ms':>9} {'in play':>8} {'cold ms':>8} {'table KB':>9} "
          f"{'hand ms':>8} "
          f"{'hand KB':>8}  targets")
    for gid in games.ids():
        table_ms: list[float] = []
        cold_ms: list[float] = []
        hand_ms: list[float] = []
        table_kb: list[float] = []
        hand_kb: list[float] = []
        for _label, state in gallery_states(gid):
            view = state.view(None).to_dict()
            names = SAMPLE_NAMES[: state.players]
            seen = faces(state.players)
            seat = state.to_act[0] if state.to_act else 0
            own = state.view(seat).to_dict()
            legal = playable_cards(str(a) for a in state.legal_actions(seat))
            table_png(view, names, **seen)
            hand_png(own, legal)
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                data = table_png(view, names, **seen)
                table_ms.append((time.perf_counter() - t0) * 1e3)
                table_kb.append(len(data) / 1000)
                for cache in (fonts.text_tile, fonts.text_width, fonts.fit):
                    cache.cache_clear()
                t0 = time.perf_counter()
                table_png(view, names, **seen)
                cold_ms.append((time.perf_counter() - t0) * 1e3)
                t0 = time.perf_counter()
                data = hand_png(own, legal)
                hand_ms.append((time.perf_counter() - t0) * 1e3)
                hand_kb.append(len(data) / 1000)
        play_ms = in_play(gid)
        t_ms, h_ms = statistics.median(table_ms), statistics.median(hand_ms)
        verdict = "met" if play_ms <= 15 and max(table_kb) <= 200 and h_ms <= 8 else "MISSED"
        print(f"{gid:12} {t_ms:9.1f} {play_ms:8.1f} {statistics.median(cold_ms):8.1f} "
              f"{statistics.median(table_kb):9.1f} {h_ms:8.1f} "
              f"{statistics.median(hand_kb):8.1f}  table ≤ 15 ms, ≤ 200 KB, hand ≤ 8 ms: "
              f"{verdict}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
