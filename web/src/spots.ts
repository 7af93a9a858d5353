// Where the plays go on the felt (the trick, the last trick, a game's last cards): each between
// the middle and its seat, as far out as it goes without touching a seat's box, the middle or
// a play placed before. On a short felt (a small phone's, or a desktop's above the result)
// where no such place is along the line to the seat, the clear place nearest it; where none
// is clear at all, the play's cards overlap as a hand's do, then shrink, before a seat's box
// may cover a card that decided the trick.

interface Box {l: number; t: number; r: number; b: number}

/** The plays of ``felt`` (``W``x``H``) placed, its seats placed already. */
export function placePlays(felt: HTMLElement, W: number, H: number): void {
  const at = felt.getBoundingClientRect();
  const boxes: Box[] = [...felt.querySelectorAll<HTMLElement>('.seat, .middle')].map((el) => {
    const box = el.getBoundingClientRect();
    return {l: box.left - at.left - 6, t: box.top - at.top - 6,
      r: box.right - at.left + 6, b: box.bottom - at.top + 6};
  });
  felt.querySelectorAll<HTMLElement>('.play').forEach((play) => {
    const seat = felt.querySelector<HTMLElement>(`.seat[data-seat="${play.dataset.seat}"]`);
    if (!seat) return;
    const sx = seat.offsetLeft + seat.offsetWidth / 2 - W / 2;
    const sy = seat.offsetTop + seat.offsetHeight / 2 - H / 2;
    const goal: [number, number] = [W / 2 + sx * 0.45, H / 2 + sy * 0.45];
    const cards = play.querySelector<HTMLElement>('.cards');
    // as drawn; then its cards overlapping; then smaller too (each placing starts again as
    // drawn: the felt may have grown)
    play.style.removeProperty('--fit');
    if (cards) {
      cards.dataset.ov ??= cards.style.getPropertyValue('--ov');
      cards.style.setProperty('--ov', cards.dataset.ov);
    }
    let spot: [number, number] | null = null;
    let [pw, ph] = [0, 0];
    for (const [overlap, scale] of [[-1, 1], [0.5, 1], [0.5, 0.75], [0.6, 0.6]]) {
      if (overlap >= 0 && cards && cards.childElementCount > 1) {
        cards.style.setProperty('--ov', String(overlap));
      } else if (overlap >= 0 && scale === 1) continue;
      if (scale !== 1) play.style.setProperty('--fit', String(scale));
      pw = play.offsetWidth / 2 * scale;
      ph = play.offsetHeight / 2 * scale;
      spot = along(W, H, sx, sy, pw, ph, Number(play.dataset.again ?? 0), boxes) ??
        nearestClear(W, H, pw, ph, boxes, goal);
      if (spot) break;
    }
    const [x, y] = spot ?? goal;
    play.style.left = `${x}px`;
    play.style.top = `${y}px`;
    boxes.push({l: x - pw - 4, t: y - ph - 4, r: x + pw + 4, b: y + ph + 4});
  });
}

/** The place nearest its seat (at ``sx``, ``sy`` from the middle) that is clear, along the
 * line to the seat, else a little to either side (a short felt's seat above or below the
 * middle: beside it); a seat's ``again``-th play of the trick nearer the middle. */
function along(W: number, H: number, sx: number, sy: number, pw: number, ph: number,
  again: number, boxes: Box[]): [number, number] | null {
  const length = Math.hypot(sx, sy) || 1;
  const [nx, ny] = [-sy / length, sx / length];  // across the line to the seat
  for (const side of [0, 0.6, -0.6, 1.2, -1.2, 1.8, -1.8, 2.4, -2.4]) {
    for (let t = 0.8 - again * 0.25; t > 0.05; t -= 0.05) {
      const x = W / 2 + sx * t + nx * side * 2 * pw;
      const y = H / 2 + sy * t + ny * side * 2 * ph;
      if (clear(W, H, x, y, pw, ph, boxes)) return [x, y];
    }
  }
  return null;
}

function clear(W: number, H: number, x: number, y: number, pw: number, ph: number,
  boxes: Box[]): boolean {
  return x - pw > 0 && x + pw < W && y - ph > 0 && y + ph < H && boxes.every((box) =>
    x + pw < box.l || x - pw > box.r || y + ph < box.t || y - ph > box.b);
}

/** The clear centre nearest ``goal`` (sought every 6 px), or null when none is. */
function nearestClear(W: number, H: number, pw: number, ph: number, boxes: Box[],
  goal: [number, number]): [number, number] | null {
  let best: [number, number] | null = null;
  let far = Infinity;
  for (let y = ph + 1; y < H - ph; y += 6) {
    for (let x = pw + 1; x < W - pw; x += 6) {
      const d = (x - goal[0]) ** 2 + (y - goal[1]) ** 2;
      if (d < far && clear(W, H, x, y, pw, ph, boxes)) {
        best = [x, y];
        far = d;
      }
    }
  }
  return best;
}
