// The table: seats around an oval felt, the trick in the middle, the person's hand and moves
// below. Everything worded comes from the server (the scene's lines and labels, the moves'
// labels, hello's words); the client adds only cards, places and colours.

import {cardName, cardRow} from './cards';
import {h} from './dom';
import {Hand} from './hand';
import {Known} from './known';
import {placePlays} from './spots';
import {w} from './words';
import type {Code, Scene, SeatInfo, SeatScene, TableModel} from './types';

/** The news lines a result shows when no card on the felt tells how the game ended. */
const HOW_LINES = 3;

export class TableView {
  readonly el: HTMLElement;
  private model: TableModel | null = null;
  private hand: Hand;
  private known = new Known();
  private pending = false;
  private resultClosed = -1;
  private clock = 0;
  private failed = new Set<string>();

  constructor(private base: string, private me: string, private send: (message: unknown) => void,
    private back: () => void) {
    this.el = h('div', {class: 'table-view'});
    this.clock = window.setInterval(() => this.tick(), 1000);
    // the felt's size changes with the window, a phone turned, Discord's safe areas
    this.sized = new ResizeObserver(() => this.place());
    const view = this;
    this.hand = new Hand({act: (what) => this.act(what), render: () => this.render(),
      get pending() { return view.pending; }});
    // a card's menu of moves closes at a tap elsewhere, or Escape
    this.el.addEventListener('click', (event) => {
      const target = event.target as HTMLElement;
      if (!target.closest('.card-menu, .hcard') && this.hand.dismiss()) this.render();
      else if (!target.closest('.known-cards') && this.known.dismiss()) this.render();
    });
    this.el.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && (this.hand.dismiss() || this.known.dismiss())) this.render();
    });
  }

  private sized: ResizeObserver;

  /** The view is left (back to the list): its clock and observer go with it. */
  close(): void {
    window.clearInterval(this.clock);
    this.sized.disconnect();
  }

  /** The connection is down: nothing may be played until the table arrives again. */
  freeze(): void {
    this.pending = true;
    this.el.classList.add('frozen');
  }

  /** A move was refused: the person may try again (the fresh table follows). */
  refused(): void {
    this.pending = false;
    this.el.classList.remove('frozen');
  }

  update(model: TableModel): void {
    const previous = this.model;
    if (!previous || previous.version !== model.version) this.hand.reset();
    if (previous && previous.table !== model.table) this.known.reset();
    this.model = model;
    this.pending = false;
    this.el.classList.remove('frozen');
    this.render();
    if (previous && previous.version !== model.version) this.animate(model);
  }

  private render(): void {
    const m = this.model as TableModel;
    const scene = m.scene ?? emptyScene(m);
    // a seat of a lobby has no hand yet (its 'you' is a spectator's): it is not watching
    const spectator = m.you.seat === null && !m.seats.some((s) => s.user_id === this.me);
    this.el.className = `table-view game-${m.game} status-${m.status}` +
      (spectator ? ' spectator' : '') + (m.you.may_act ? ' my-turn' : '');
    // the version drawn (a test waits for the page to show the table it was sent)
    this.el.dataset.version = String(m.version);

    const header = h('header', {class: 'bar'},
      h('button', {type: 'button', class: 'back', 'aria-label': w('back'), title: w('back')},
        '‹'),
      h('div', {class: 'titles'},
        h('h1', {}, scene.title || m.title),
        scene.subtitle ? h('div', {class: 'subtitle'}, scene.subtitle) : null),
      spectator ? h('span', {class: 'note spectating'}, w('spectating')) : null,
      m.you.may_act ? h('span', {class: 'note your-turn'}, w('your-turn')) : null);
    header.querySelector('.back')?.addEventListener('click', () => this.back());

    const info = this.info(m, scene);
    const felt = this.felt(m, scene);
    const parts: (HTMLElement | null)[] = [header, info, felt];
    // a game over: no hand to draw, the result in its place (below the felt, not over it:
    // the cards that decided the game stay in sight)
    const over = m.status === 'finished' || m.status === 'cancelled';
    parts.push(spectator || (over && !m.you.hand.length) ? null : this.hand.draw(m));
    parts.push(this.result(m, scene));
    const log = h('aside', {class: 'log'},
      h('ol', {}, m.log.map((line) => h('li', {}, line))));
    const board = h('div', {class: 'board'}, parts);
    // the focus stays where it was (a keyboard ticking cards one by one keeps its place)
    const focused = document.activeElement;
    const again = focused instanceof HTMLElement && this.el.contains(focused)
      ? focusKey(focused) : null;
    this.el.replaceChildren(board, m.log.length ? log : '');
    if (again) this.el.querySelector<HTMLElement>(again)?.focus();
    this.sized.disconnect();
    this.sized.observe(felt);
    this.place();
    this.tick();
  }

  /** What the picture writes beside the table: the corner's tallies, the scene's lines, the
   * previous trick (while a trick is played), the latest move (phones show no log). */
  private info(m: TableModel, scene: Scene): HTMLElement {
    const blocks: HTMLElement[] = [];
    if (m.status !== 'playing' && w(m.status)) {
      blocks.push(h('div', {class: 'block state'}, w(m.status)));
    }
    if (scene.corner.length) {
      blocks.push(h('div', {class: 'block corner'}, scene.corner.map((l) => h('div', {}, l))));
    }
    if (scene.lines.length) {
      blocks.push(h('div', {class: 'block lines'}, scene.lines.map((l) => h('div', {}, l))));
    }
    if (scene.last_trick.length && scene.trick.length) {
      blocks.push(h('div', {class: 'block last-trick'},
        scene.last_label ? h('div', {class: 'label'}, scene.last_label) : null,
        h('div', {class: 'plays'}, scene.last_trick.map(([seat, codes]) => h('div', {class: 'lplay'},
          cardRow(codes, 'tiny'), h('div', {class: 'who'}, this.seatName(m, seat)))))));
    }
    if (m.log.length) blocks.push(h('div', {class: 'block latest'}, m.log[m.log.length - 1]));
    return h('section', {class: 'info'}, blocks);
  }

  private seatName(m: TableModel, seat: number): string {
    return m.scene?.seats[seat]?.name ?? m.seats[seat]?.name ?? '';
  }

  /** The relative place of a seat: the viewer (or seat 0) at the bottom, then round to the
   * left as play goes. Returns the angle in radians, screen coordinates. */
  private angle(m: TableModel, seat: number): number {
    const n = Math.max(m.scene?.seats.length ?? m.seats.length, 1);
    const mine = m.seats.findIndex((s) => s.user_id === this.me);
    const me = m.you.seat ?? (mine >= 0 ? mine : 0);
    return Math.PI / 2 + ((seat - me + n) % n) * 2 * Math.PI / n;
  }

  private felt(m: TableModel, scene: Scene): HTMLElement {
    const felt = h('section', {class: 'felt'}, h('div', {class: 'oval'}));
    scene.seats.forEach((seat, i) => felt.append(this.seat(m, scene, i, seat, m.seats[i])));
    const {plays, last, final} = feltPlays(m, scene);
    const crowded = plays.length > 4;
    const seen = new Map<number, number>();
    plays.forEach(([seat, codes], i) => {
      const a = this.angle(m, seat);
      const again = seen.get(seat) ?? 0;
      seen.set(seat, again + 1);
      // (the last move's cards alone at the end are no lead)
      const lead = i === 0 && scene.lead_label && !final;
      const play = h('div', {
        class: 'play' + (!last && i === scene.trick_best ? ' best' : '') +
          (crowded ? ' crowded' : '') + (last || final ? ' last' : '') +
          (m.status === 'finished' ? ' final' : ''),
        'data-seat': seat,
        'data-again': again,
        style: `--x:${50 + 22 * Math.cos(a)}%;--y:${50 + 20 * Math.sin(a)}%`,
        'aria-label': `${this.seatName(m, seat)}: ${codes.map(cardName).join(' ')}`},
      lead ? h('span', {class: `badge ${last ? 'kind-lead-last' : 'kind-lead'}`}, scene.lead_label)
        : null,
      cardRow(codes, crowded ? 'small' : 'mid'));
      felt.append(play);
    });
    // the middle: the rows of cards (a pile, a round's cards), the previous trick's label
    const middle: HTMLElement[] = scene.rows.map(([label, codes]) => h('div', {class: 'row'},
      label ? h('div', {class: 'label'}, label) : null,
      cardRow(codes, 'small', 'fit')));
    if (last && scene.last_label) middle.push(h('div', {class: 'label'}, scene.last_label));
    if (middle.length) felt.append(h('div', {class: 'middle'}, middle));
    scene.seats.forEach((seat, i) => felt.append(this.known.panel(this.seatName(m, i), i,
      seat.cards_label, seat.cards, () => this.render()) ?? ''));
    return felt;
  }

  private seat(m: TableModel, scene: Scene, i: number, seat: SeatScene,
    info: SeatInfo | undefined): HTMLElement {
    const a = this.angle(m, i);
    const classes = ['seat'];
    if (seat.acting) classes.push('acting');
    if (!seat.live) classes.push('out');
    if (info?.away) classes.push('away');
    if (seat.team !== null && seat.team !== undefined) classes.push(`team-${seat.team % 2}`);
    if (i === m.you.seat) classes.push('mine');
    const name = seat.name || info?.name || '';
    const disc = h('span', {class: 'avatar disc' + (seat.computer ? ' computer' : ''),
      style: `--hue:${hue(name)}`, 'aria-hidden': 'true'},
    seat.computer ? '🤖' : initials(name));
    let avatar: HTMLElement = disc;
    if (info?.avatar) {
      const src = info.avatar.startsWith('/') ? this.base + info.avatar : info.avatar;
      if (this.failed.has(src)) avatar = disc;
      else {
        const img = h('img', {class: 'avatar', alt: '', src});
        // no picture kept for this person yet: their initials instead
        img.addEventListener('error', () => {
          this.failed.add(src);
          img.replaceWith(disc);
        });
        avatar = img;
      }
    }
    const clock = seat.acting && m.deadline && scene.seats.filter((s) => s.acting).length === 1;
    return h('div', {class: classes.join(' '), 'data-seat': i,
      style: `--x:${50 + 41 * Math.cos(a)}%;--y:${50 + 40 * Math.sin(a)}%`},
    h('div', {class: 'who'}, avatar, h('span', {class: 'name', title: name}, name),
      // the dealer's button, a D as on the chat table's picture
      seat.dealer ? h('span', {class: 'dealer'}, 'D') : null),
    h('div', {class: 'marks'},
      clock ? h('span', {class: 'clock', 'data-deadline': m.deadline}) : null,
      seat.badges.map(([kind, text]) => h('span', {class: `badge kind-${kind}`}, text))),
    seat.lines.length ? h('div', {class: 'lines'}, seat.lines.map((l) => h('div', {}, l))) : null,
    seat.cards.length
      ? this.known.front(i, seat.cards_label, seat.cards, () => this.render()) : null);
  }

  private act(what: {move: number}): void {
    const m = this.model;
    if (!m || this.pending) return;
    this.pending = true;
    this.el.classList.add('frozen');
    this.send({type: 'act', table: m.table, version: m.version, ...what});
  }

  private result(m: TableModel, scene: Scene): HTMLElement | null {
    const lines = scene.result;
    if (!lines.length || this.resultClosed === m.version) return null;
    const close = h('button', {type: 'button', class: 'close', 'aria-label': w('close') || '×'}, '×');
    close.addEventListener('click', () => {
      this.resultClosed = m.version;
      this.render();
    });
    // a game decided with no card on the felt (Getaway's takes before the first round): the
    // last news says how it ended, the phone having no log to read it in
    const bare = !feltPlays(m, scene).plays.length && !scene.rows.length;
    const how = bare ? m.log.slice(-HOW_LINES) : [];
    return h('section', {class: 'result', role: 'status'},
      h('div', {class: 'box'}, close, h('h2', {}, lines[0]),
        lines.slice(1).map((l) => h('p', {}, l)),
        how.length ? h('div', {class: 'how'}, how.map((l) => h('p', {}, l))) : null));
  }

  /** Seats kept inside the felt: each box centred on its place on the oval, then moved in
   * as far as it sticks out. */
  private place(): void {
    this.hand.place(this.el);
    const felt = this.el.querySelector<HTMLElement>('.felt');
    if (!felt) return;
    const W = felt.clientWidth;
    const H = felt.clientHeight;
    felt.querySelectorAll<HTMLElement>('.seat').forEach((seat) => {
      const x = parseFloat(seat.style.getPropertyValue('--x')) / 100 * W;
      const y = parseFloat(seat.style.getPropertyValue('--y')) / 100 * H;
      const w2 = seat.offsetWidth / 2;
      const h2 = seat.offsetHeight / 2;
      const cx = Math.min(Math.max(x, w2 + 2), W - w2 - 2);
      const cy = Math.min(Math.max(y, h2 + 2), H - h2 - 2);
      seat.style.left = `${cx - w2}px`;
      seat.style.top = `${cy - h2}px`;
    });
    // each play between the middle and its seat, as far out as it goes without touching
    // the seat's box (a seat's second play of a trick nearer the middle)
    // the middle as wide as the seats beside it leave room for
    const middle = felt.querySelector<HTMLElement>('.middle');
    if (middle) {
      let left = 0;
      let right = W;
      felt.querySelectorAll<HTMLElement>('.seat').forEach((seat) => {
        const top = seat.offsetTop;
        const bottom = top + seat.offsetHeight;
        if (bottom < H / 2 - 60 || top > H / 2 + 60) return;
        // (a seat above or below the middle, reaching into its band on a short felt, is
        // no neighbour beside it)
        if (seat.offsetLeft < W / 2 && seat.offsetLeft + seat.offsetWidth > W / 2) return;
        if (seat.offsetLeft + seat.offsetWidth / 2 < W / 2) {
          left = Math.max(left, seat.offsetLeft + seat.offsetWidth);
        } else right = Math.min(right, seat.offsetLeft);
      });
      const room = 2 * Math.min(W / 2 - left, right - W / 2) - 16;
      middle.style.width = `${Math.max(Math.min(room, 0.56 * W, 320), 80)}px`;
    }
    placePlays(felt, W, H);
  }

  /** The move just made: its cards fly from the mover's seat to where they lie now. */
  private animate(m: TableModel): void {
    const last = m.last;
    if (!last || last.seat === null || !last.cards.length) return;
    const from = this.el.querySelector<HTMLElement>(`.felt .seat[data-seat="${last.seat}"]`);
    const plays = this.el.querySelectorAll<HTMLElement>(`.felt .play[data-seat="${last.seat}"]`);
    // the trick's play, or else the row in the middle the cards went to (a pile to beat)
    const to = plays[plays.length - 1] ?? [...this.el.querySelectorAll<HTMLElement>(
      '.felt .middle .card')].reverse().find((card) => last.cards.includes(card.dataset.code ?? ''));
    if (!from || !to) return;
    const a = from.getBoundingClientRect();
    const b = to.getBoundingClientRect();
    const dx = a.left + a.width / 2 - (b.left + b.width / 2);
    const dy = a.top + a.height / 2 - (b.top + b.height / 2);
    // (a play is centred on its place by a transform of its own)
    const centred = to.classList.contains('play') ? '-50%' : '0px';
    to.style.transition = 'none';
    to.style.transform = `translate(calc(${centred} + ${dx}px), calc(${centred} + ${dy}px)) scale(0.6)`;
    void to.offsetWidth;  // the start is laid out before the transition begins
    to.style.transition = '';
    to.style.transform = '';
  }

  private tick(): void {
    this.el.querySelectorAll<HTMLElement>('.clock').forEach((el) => {
      const left = Math.max(0, Math.round(Number(el.dataset.deadline) - Date.now() / 1000));
      el.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
      el.classList.toggle('short', left <= 10);
    });
  }
}

/** The cards on the felt and why: the trick being played; else the previous trick (`last`),
 * the game's result shown or not; else, a game over without a trick or a row to show (a
 * round's cards gathered in), the last move's cards where its seat laid them (`final`). The
 * result box reads it too: with nothing here it says how the game ended in words. */
function feltPlays(m: TableModel, scene: Scene):
    {plays: [number, Code[]][]; last: boolean; final: boolean} {
  const last = !scene.trick.length && scene.last_trick.length > 0;
  const plays = last ? scene.last_trick : scene.trick;
  const end = m.last;
  if (m.status === 'finished' && !plays.length && !scene.rows.length && end !== null &&
      end.seat !== null && end.cards.length > 0) {
    return {plays: [[end.seat, end.cards]], last, final: true};
  }
  return {plays, last, final: false};
}

/** A selector finding an element again after the view is drawn anew. */
function focusKey(el: HTMLElement): string | null {
  if (el.dataset.place !== undefined) return `.hand [data-place="${el.dataset.place}"]`;
  if (el.dataset.move !== undefined) return `button[data-move="${el.dataset.move}"]`;
  for (const name of ['chosen', 'clear', 'back']) {
    if (el.classList.contains(name)) return `button.${name}`;
  }
  return null;
}

/** A table without a scene yet (a lobby): its seats by name. */
function emptyScene(m: TableModel): Scene {
  return {title: m.title, subtitle: '', trick: [], trick_best: -1, lead_label: '', last_trick: [],
    last_label: '', rows: [], lines: [], corner: [], result: [],
    seats: m.seats.map((s) => ({name: s.name, lines: [], acting: false, dealer: false, live: true,
      badges: [], cards: [], hand_count: 0, computer: s.computer, team: null, cards_label: ''}))};
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const chars = parts.length > 1 ? [...parts[0]][0] + [...parts[1]][0] : [...(parts[0] ?? '?')].slice(0, 2).join('');
  return chars.toUpperCase();
}

function hue(name: string): number {
  let n = 0;
  for (const ch of name) n = (n * 31 + (ch.codePointAt(0) ?? 0)) % 360;
  return n;
}

export type {Code};
