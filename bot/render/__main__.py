"""``python -m bot.render gallery DIR``: pictures of every game at its start, mid-play and end."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import games
from bot.render import hand_png, playable_cards, table_png

SAMPLE_NAMES = ["Alice", "山田 太郎", "สมชาย", "राम 🎉", "Zoë", "Παύλος", "Олег", "Kofi"]


def gallery_states(gid: str, seed: int = 11) -> list[tuple[str, games.State]]:
    """A game at its start, after some random play, and at its end."""
    rules = games.get(gid)
    state = rules.new_game(rules.usual_players, seed=seed)
    rng = random.Random(seed)
    found = [("start", state.clone())]
    steps = 0
    mid_taken = False
    while not state.over:
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        steps += 1
        view = state.view(None).to_dict()
        if not mid_taken and steps >= 6 and view.get("trick"):
            found.append(("mid", state.clone()))
            mid_taken = True
        if not mid_taken and steps >= 14:
            found.append(("mid", state.clone()))
            mid_taken = True
    found.append(("end", state))
    return found


def write_gallery(folder: Path, lang: str = "en") -> list[Path]:
    """Write every game's pictures into ``folder``; returns the files."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for gid in games.ids():
        for label, state in gallery_states(gid):
            names = SAMPLE_NAMES[: state.players]
            path = folder / f"{gid}-{label}-table.png"
            path.write_bytes(table_png(state.view(None).to_dict(), names, lang))
            written.append(path)
            if label != "end":
                seat = state.to_act[0] if state.to_act else 0
                legal = {str(a) for a in state.legal_actions(seat)}
                hand = folder / f"{gid}-{label}-hand.png"
                hand.write_bytes(hand_png(state.view(seat).to_dict(), playable_cards(legal),
                                          title=names[seat]))
                written.append(hand)
    return written


def main(argv: list[str] | None = None) -> int:
    """Run the command line."""
    parser = argparse.ArgumentParser(prog="python -m bot.render")
    sub = parser.add_subparsers(dest="command", required=True)
    p_gallery = sub.add_parser("gallery", help="write pictures of every game to a folder")
    p_gallery.add_argument("folder", type=Path)
    p_gallery.add_argument("--lang", choices=("en", "ja"), default="en")
    args = parser.parse_args(argv)
    files = write_gallery(args.folder, args.lang)
    print(f"wrote {len(files)} pictures to {args.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
