"""``python -m bot.pictures gallery DIR``: pictures of every game at its start, mid-play and end,
and a contact sheet per game (every seat count, start/middle/end, English and Japanese, each
picture at phone size) so that a reviewer sees every state at once."""

from __future__ import annotations

import argparse
import io
import random
import sys
from pathlib import Path

from PIL import Image, ImageDraw

import games
from bot.pictures import fonts, hand_png, playable_cards, table_png
from games import wording

SAMPLE_NAMES = ["Alice", "山田 太郎", "สมชาย", "राम 🎉", "Zoë", "Παύλος", "Олег", "Kofi"]
SHEET_W, SHEET_H = 400, 225  # each picture as a phone shows it
LABELS = ("start", "mid", "end")
LANGS = wording.languages()  # the gallery shows every language with catalogues


def gallery_states(gid: str, seed: int = 11, players: int | None = None
                   ) -> list[tuple[str, games.State]]:
    """A game at its start, after some random play, and at its end."""
    rules = games.get(gid)
    state = rules.new_game(players or rules.usual_players, seed=seed)
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


def contact_sheet(gid: str) -> Image.Image:
    """One game's sheet: a row per seat count; start, middle and end in English, then the same
    in Japanese, each picture scaled to 400 px wide as a phone shows it."""
    rules = games.get(gid)
    counts = list(rules.player_counts())
    head, side, gap = 44, 60, 6
    sheet = Image.new("RGB", (side + len(LANGS) * len(LABELS) * (SHEET_W + gap),
                              head + len(counts) * (SHEET_H + gap)), (16, 40, 26))
    draw = ImageDraw.Draw(sheet)
    for col, (lang, label) in enumerate((lang, label) for lang in LANGS for label in LABELS):
        fonts.draw_text(sheet, (side + col * (SHEET_W + gap) + SHEET_W // 2, head // 2),
                        f"{rules.name} · {label} · {lang}", 24, (255, 255, 255), anchor="m")
    for row, players in enumerate(counts):
        top = head + row * (SHEET_H + gap)
        fonts.draw_text(sheet, (side // 2, top + SHEET_H // 2), str(players), 28,
                        (255, 255, 255), bold=True, anchor="m")
        states = dict(gallery_states(gid, players=players))
        for col, (lang, label) in enumerate((lang, label) for lang in LANGS for label in LABELS):
            state = states[label]
            data = table_png(state.view(None).to_dict(), SAMPLE_NAMES[:players], lang)
            with Image.open(io.BytesIO(data)) as picture:
                small = picture.convert("RGB").resize((SHEET_W, SHEET_H),
                                                      Image.Resampling.LANCZOS)
            sheet.paste(small, (side + col * (SHEET_W + gap), top))
    draw.line((0, head - 2, sheet.width, head - 2), fill=(90, 140, 110))
    return sheet


def sheet_png(gid: str) -> bytes:
    """A contact sheet as PNG (256 colours: a sheet is for looking, not for printing)."""
    out = io.BytesIO()
    contact_sheet(gid).quantize(256, method=Image.Quantize.MEDIANCUT,
                                dither=Image.Dither.NONE).save(out, "PNG", optimize=True)
    return out.getvalue()


def write_gallery(folder: Path, lang: str = "en", sheets: bool = True) -> list[Path]:
    """Write every game's pictures (and contact sheets) into ``folder``; returns the files."""
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
        if sheets:
            path = folder / f"{gid}-sheet.png"
            path.write_bytes(sheet_png(gid))
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """Run the command line."""
    parser = argparse.ArgumentParser(prog="python -m bot.pictures")
    sub = parser.add_subparsers(dest="command", required=True)
    p_gallery = sub.add_parser("gallery", help="write pictures of every game to a folder")
    p_gallery.add_argument("folder", type=Path)
    p_gallery.add_argument("--lang", choices=LANGS, default="en")
    p_gallery.add_argument("--no-sheets", action="store_true",
                           help="leave out the contact sheets (faster)")
    args = parser.parse_args(argv)
    files = write_gallery(args.folder, args.lang, sheets=not args.no_sheets)
    print(f"wrote {len(files)} pictures to {args.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
