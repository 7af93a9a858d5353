"""The layout check of the Activity's page (#53 item 1): no button overlaps another button, a
hand's card or a seat's box, nor leaves the viewport; no seat's box or button lies on a card
played on the felt; every button and every hand card gives a finger at least 24x24 px of
itself (WCAG 2.5.8). Measured from the page's own boxes and where a tap lands, as the browser
lays them out, so a test can run it at any screen state of any page."""

from __future__ import annotations

import json
from typing import Any

from tests.browser.harness import DESKTOP, GALLERY, Viewer

#: the frame's transitions (a card rising, a play landing) taken to their end at once: the
#: layout a person sees once they have run, without waiting out their 0.4 s at every check
SETTLED = """() => {
  for (const a of document.getAnimations()) {
    try { a.finish(); } catch (e) { /* an endless one: left running */ }
  }
}"""
#: every button and seat box of the frame, as the page lays it out (getBoundingClientRect:
#: the box Playwright's bounding_box measures, less the frame's offset, which is none here:
#: the frame fills the page), in one call rather than two calls an element
BOXES = """() => [...document.querySelectorAll('button, .felt .seat, .felt .play .card')
].flatMap((e) => {
  let r = e.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0 || getComputedStyle(e).visibility === 'hidden') return [];
  // a box that scrolls (the buttons of a turn of many moves) shows its part inside it: the
  // rest is a scroll away, so a button cut by its edge is measured as shown
  let scrolled = false;
  for (let up = e.parentElement; up; up = up.parentElement) {
    const style = getComputedStyle(up);
    if (!/(auto|scroll)/.test(style.overflowX + style.overflowY)) continue;
    const c = up.getBoundingClientRect();
    const left = Math.max(r.left, c.left), top = Math.max(r.top, c.top);
    const right = Math.min(r.right, c.right), bottom = Math.min(r.bottom, c.bottom);
    if (right - left < 1 || bottom - top < 1) return [];
    if (right - left < r.width - 0.5 || bottom - top < r.height - 0.5) scrolled = true;
    r = new DOMRect(left, top, right - left, bottom - top);
  }
  const kind = e.matches('.seat') ? 'seat' : e.matches('.hcard') ? 'card'
    : e.matches('.play .card') ? 'played' : 'control';
  const name = (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 40);
  // a control of a seat's own (its cards in front, opening larger) lies inside its box
  const within = kind === 'control' ? e.closest('.seat')?.dataset.seat ?? null : null;
  return [[kind, `${JSON.stringify(e.className)} ${JSON.stringify(name)}`,
    {x: r.x, y: r.y, width: r.width, height: r.height}, within ?? e.dataset.seat ?? null,
    scrolled]];
})"""
#: the side of the square a finger is given (WCAG 2.5.8's 24 px)
TARGET = 24
#: every hand card whose part a tap reaches (where elementFromPoint finds it, every 4 px: the
#: cards after it in the row, the row below and a rising card cover the rest) holds no
#: TARGET-sided square: its name and the largest square's side found. A card that no other
#: card's box touches is sampled only at its middle (thousands of samples a check otherwise)
SMALL_CARDS = """(body, side) => {
  const step = 4, k = side / step + 1;
  const cards = [...document.querySelectorAll('.hand:not(.over) .hcard')];
  const boxes = cards.map((card) => card.getBoundingClientRect());
  const touch = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom
    && b.top < a.bottom;
  return cards.flatMap((card, at) => {
    let r = boxes[at];
    if (!boxes.some((other, i) => i !== at && touch(r, other))) {
      const x = r.left + r.width / 2 - side / 2, y = r.top + r.height / 2 - side / 2;
      r = {left: x, top: y, width: side + 1, height: side + 1};
    }
    const cols = Math.floor((r.width - 1) / step) + 1, rows = Math.floor((r.height - 1) / step) + 1;
    // sums[j][i]: the samples reaching the card above and left of (i, j)
    const sums = Array.from({length: rows + 1}, () => new Array(cols + 1).fill(0));
    for (let j = 0; j < rows; j++) {
      for (let i = 0; i < cols; i++) {
        const hit = document.elementFromPoint(r.left + 0.5 + i * step, r.top + 0.5 + j * step);
        const on = hit !== null && hit.closest('.hcard') === card ? 1 : 0;
        sums[j + 1][i + 1] = on + sums[j][i + 1] + sums[j + 1][i] - sums[j][i];
      }
    }
    let best = 0;
    for (let size = Math.min(k, cols, rows); size > best; size--) {
      for (let j = size; j <= rows && best < size; j++) {
        for (let i = size; i <= cols; i++) {
          if (sums[j][i] - sums[j - size][i] - sums[j][i - size] + sums[j - size][i - size]
              === size * size) { best = size; break; }
        }
      }
    }
    return best >= k ? [] : [[card.getAttribute('aria-label'), Math.max(best - 1, 0) * step]];
  });
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The area two boxes share (a pixel's rounding is not an overlap)."""
    w = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return w * h if w > 1 and h > 1 else 0.0


async def collisions(viewer: Viewer) -> list[str]:
    """Every button of the page that overlaps another button, a hand's card or a seat's
    box, or leaves the viewport (a hand's cards may overlap each other: it is a fan)."""
    body = viewer.page.frame_locator("#activity").locator("body")
    await body.evaluate(SETTLED)
    size = viewer.page.viewport_size or DESKTOP
    found: list[tuple[str, str, dict[str, float], str | None, bool]] = \
        await body.evaluate(BOXES)
    problems = []
    for i, (kind, name, box, seat, scrolled) in enumerate(found):
        if kind == "seat":
            continue
        if kind == "played":
            # a card on the felt (the trick, the last trick, a game's last cards) is in sight:
            # no seat's box or control lies on it (its own play's cards may overlap it)
            problems += [f"{name} on the felt is under {other_kind} {other}"
                         for other_kind, other, other_box, *_ in found
                         if other_kind in ("seat", "control") and overlap(box, other_box)]
            continue
        if box["x"] < -1 or box["y"] < -1 or box["x"] + box["width"] > size["width"] + 1 \
                or box["y"] + box["height"] > size["height"] + 1:
            problems.append(f"{name} leaves the viewport: {box}")
        if kind == "control" and not scrolled and min(box["width"], box["height"]) < TARGET - 0.5:
            problems.append(f"{name} is under {TARGET}x{TARGET} px: {box}")
        for j, (other_kind, other, other_box, other_seat, _) in enumerate(found):
            if j == i or (kind == "card" and other_kind in ("card", "seat")) \
                    or other_kind == "played":
                continue
            if other_kind == "control" and j < i:
                continue  # each pair of controls once
            if other_kind == "seat" and seat is not None and seat == other_seat:
                continue  # its own seat's control
            if overlap(box, other_box):
                problems.append(f"{name} overlaps {other_kind} {other}")
    for name, side in await body.evaluate(SMALL_CARDS, TARGET):
        problems.append(f"the hand's {name} gives a tap {side} px, under {TARGET}x{TARGET}")
    return problems



async def known_open_larger(viewer: Viewer, name: str) -> bool:
    """A seat's cards in front of it open larger on a tap, whole inside the viewport, and
    close again at a tap elsewhere; whether the page showed any to open."""
    ui = viewer.ui
    fronts = ui.locator(".felt .seat button.front")
    if not await fronts.count():
        return False
    front = fronts.first
    tiny = await front.locator(".card").first.bounding_box()
    codes = await front.locator(".card").evaluate_all("(els) => els.map((e) => e.dataset.code)")
    await front.click()
    panel = ui.locator(".felt .known-cards")
    await panel.wait_for()
    await panel.evaluate(SETTLED)
    assert await panel.locator(".card").evaluate_all(
        "(els) => els.map((e) => e.dataset.code)") == codes
    size = viewer.page.viewport_size or DESKTOP
    # (a short phone shows the cards' count alone in the seat's box)
    wide = max(40.0, 1.5 * tiny["width"] if tiny else 0)
    for card in await panel.locator(".card").all():
        box = await card.bounding_box()
        assert box is not None
        assert box["width"] >= wide, (name, box, tiny)
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (name, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (name, box)
    if name not in KNOWN_PICTURED:
        KNOWN_PICTURED.add(name)
        GALLERY.mkdir(parents=True, exist_ok=True)
        await viewer.page.screenshot(path=str(GALLERY / f"bhabhi-known-{name}.png"))
    await ui.locator(".titles").click()
    await panel.wait_for(state="detached")
    return True


KNOWN_PICTURED: set[str] = set()


#: a small phone's screen (an older Android's, in CSS pixels)
SMALL_PHONE = {"width": 360, "height": 640}


def screen_state(model: dict[str, Any], size: dict[str, int]) -> str:
    """What the page's layout depends on at a person's turn, cards' faces left out: the
    screen's size, how many cards each place holds (the hand, each play on the felt, the rows,
    each seat's cards in front and its lines) and the words of the moves' own buttons. Two
    turns alike in these lay the page out alike, so a walk checks each such state once."""
    scene = model.get("scene") or {}
    you = model["you"]
    shape = {
        "size": [size["width"], size["height"]],
        "status": model["status"],
        "hand": len(you["hand"]),
        "buttons": sorted(m["label"] for m in you["moves"] if not m["cards"]),
        "trick": [[seat, len(codes)] for seat, codes in scene.get("trick", [])],
        "last": [[seat, len(codes)] for seat, codes in scene.get("last_trick", [])],
        "rows": [[label, len(codes)] for label, codes in scene.get("rows", [])],
        "seats": [[len(s["cards"]), len(s["lines"]), len(s["badges"]), s["cards_label"],
                   s["hand_count"] is not None] for s in scene.get("seats", [])],
        "result": len(scene.get("result", [])),
    }
    return json.dumps(shape, ensure_ascii=False, sort_keys=True)


async def resize(viewer: Viewer, size: dict[str, int]) -> None:
    """The page's viewport set to ``size`` (a phone turned, a window dragged), once the frame
    has laid itself out again (its seats are placed by a ResizeObserver: two frames)."""
    if viewer.page.viewport_size == size:
        return
    await viewer.page.set_viewport_size(size)
    await viewer.page.frame_locator("#activity").locator("body").evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
