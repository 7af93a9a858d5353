// The person's hand and moves, below the felt. Every move is reachable by its own words
// (the server's label, as the chat's panel words it):
// - a move without cards of the hand (a bid, "Keep hand", a card of the partner's table) is a
//   button with its label;
// - a card whose only move is itself is played by a tap;
// - a card with several moves of its own ("Play A♦", "Lead A♦, no trumps") offers them in a
//   small menu on the card;
// - cards that go together are ticked, then the button of the ticked cards' move (its label:
//   "Exchange 5♥ 9♥ K♦"), one button for each move those cards make.

import {cardEl, cardName} from './cards';
import {h} from './dom';
import {w} from './words';
import type {Move, TableModel} from './types';

const key = (codes: string[]): string => [...codes].sort().join(',');

/** What the hand needs of its table view: to send a move, to be drawn again. */
export interface HandHost {
  act(what: {move: number}): void;
  render(): void;
  readonly pending: boolean;
}

export class Hand {
  /** the hand's ticked cards, by place (a two-pack hand may hold a card twice) */
  private ticked = new Set<number>();
  /** the place of the card whose menu of moves is open */
  private menu: number | null = null;
  /** the menu was just opened: its first move takes the focus (a keyboard goes on there) */
  private opened = false;
  /** the hand's width when it was last laid out: how many cards a row holds */
  private width = 0;
  /** how many cards each row held when drawn */
  private perRow = 0;
  /** the hand was drawn for a game over (nothing to tap) */
  private over = false;

  constructor(private host: HandHost) {}

  /** A new position: nothing ticked, no menu open. */
  reset(): void {
    this.ticked.clear();
    this.menu = null;
  }

  /** Close the card's menu (a tap elsewhere, Escape); whether one was open. */
  dismiss(): boolean {
    if (this.menu === null) return false;
    this.menu = null;
    return true;
  }

  draw(m: TableModel): HTMLElement {
    const you = m.you;
    const pending = this.host.pending;
    // a move is played by its cards when they are all in the hand; any other move (a take
    // of the pile's cards, a bid, a card of the partner's table) is a button
    const inHand = (cards: string[]): boolean => {
      const left = [...you.hand];
      return cards.every((c) => {
        const at = left.indexOf(c);
        if (at >= 0) left.splice(at, 1);
        return at >= 0;
      });
    };
    const cardMoves = you.moves.filter((mv) => mv.cards.length && inHand(mv.cards));
    const buttonMoves = you.moves.filter((mv) => !cardMoves.includes(mv));
    const multi = cardMoves.some((mv) => mv.cards.length > 1);
    const playable = new Set(you.playable);

    const buttons = h('div', {class: 'moves'});
    for (const move of buttonMoves) buttons.append(this.moveButton(move, `move kind-${move.kind}`));
    if (multi && you.may_act) {
      const chosen = key(this.tickedCodes(you.hand));
      const matching = this.ticked.size
        ? cardMoves.filter((mv) => key(mv.cards) === chosen) : [];
      for (const move of matching) {
        buttons.append(this.moveButton(move, `move chosen primary kind-${move.kind}`));
      }
      if (!matching.length) {
        // its place kept while no move is ticked, so the hand does not jump at the first tick
        buttons.append(h('button', {type: 'button', class: 'move chosen primary',
          disabled: true}, w('play')));
      }
      if (this.ticked.size) {
        const clear = h('button', {type: 'button', class: 'move clear'}, w('clear'));
        clear.addEventListener('click', () => {
          this.ticked.clear();
          this.host.render();
        });
        buttons.append(clear);
      }
    }

    // as many rows as it takes for each card to show a finger's width of itself (a phone's
    // 15-18 cards of Getaway make two rows), the rows as even as they go
    // a game over leaves nothing to tap: the hand shows each card's corner alone (Getaway's
    // loser may hold all 52 cards), clear of the result below it
    const over = m.status === 'finished' || m.status === 'cancelled';
    this.over = over;
    const perRow = rowLength(you.hand.length, this.width || window.innerWidth, over);
    this.perRow = perRow;
    const hand = h('div', {class: 'hand' + (over ? ' over' : ''), 'data-n': you.hand.length,
      'aria-label': w('your-hand'),
      'data-rows': Math.ceil(you.hand.length / perRow) || 1});
    const rows: HTMLElement[] = [];
    const rowOf = (place: number): HTMLElement => {
      const at = Math.floor(place / perRow);
      if (!rows[at]) {
        const n = Math.min(perRow, you.hand.length - at * perRow);
        rows[at] = h('div', {class: 'hand-row', style: `--n:${Math.max(n, 1)}`});
        hand.append(rows[at]);
      }
      return rows[at];
    };
    let menu: HTMLElement | null = null;
    you.hand.forEach((code, place) => {
      const usable = you.may_act && playable.has(code);
      const withCard = cardMoves.filter((mv) => mv.cards.includes(code));
      // its moves are of this card alone: a tap plays it, or opens the menu of its moves
      const alone = withCard.length > 0 && withCard.every((mv) => mv.cards.length === 1);
      const open = alone && withCard.length > 1 && this.menu === place && usable;
      const b = h('button', {type: 'button', class: 'hcard' + (usable ? ' playable' : '') +
        (you.may_act && !usable ? ' dim' : '') + (this.ticked.has(place) ? ' ticked' : '') +
        (open ? ' menu-open' : ''),
      'data-code': code, 'data-place': place, 'aria-label': cardName(code),
      'aria-pressed': multi && !alone ? String(this.ticked.has(place)) : null,
      'aria-haspopup': alone && withCard.length > 1 ? 'menu' : null,
      'aria-expanded': alone && withCard.length > 1 ? String(open) : null,
      disabled: !usable || pending}, cardEl(code, 'hand'));
      b.addEventListener('click', () => {
        if (alone && this.ticked.size === 0) {
          if (withCard.length === 1) this.host.act({move: withCard[0].index});
          else {
            this.menu = this.menu === place ? null : place;
            this.opened = this.menu !== null;
            this.host.render();
          }
        } else if (withCard.length) {
          if (this.ticked.has(place)) this.ticked.delete(place); else this.ticked.add(place);
          this.menu = null;
          this.host.render();
        }
      });
      rowOf(place).append(b);
      if (open) {
        menu = h('div', {class: 'card-menu', role: 'menu', 'data-place': place,
          'aria-label': cardName(code)},
        withCard.map((move) => {
          const item = this.moveButton(move, `move choice kind-${move.kind}`);
          item.setAttribute('role', 'menuitem');
          return item;
        }));
      }
    });
    let note: HTMLElement | null = null;
    if (!you.may_act && m.status === 'playing') {
      const acting = (m.scene?.seats ?? []).map((s, i) => s.acting
        ? m.scene?.seats[i]?.name || m.seats[i]?.name || '' : '').filter(Boolean);
      if (acting.length) note = h('div', {class: 'waiting'}, w('waiting-for', {who: acting.join(', ')}));
    }
    // the menu just above its card, in the flow: it covers nothing (the felt above gives
    // way) and the hand stays where the finger is. It takes the place of the move buttons
    // while open (a tap elsewhere brings them back): a short phone's felt gives no more way
    return h('section', {class: 'controls'}, note,
      buttons.childElementCount && !menu ? buttons : null, menu, hand);
  }

  /** A button playing one move, worded by the move's own label. */
  private moveButton(move: Move, cls: string): HTMLButtonElement {
    const b = h('button', {type: 'button', class: cls, 'data-move': move.index,
      disabled: this.host.pending}, move.label);
    b.addEventListener('click', () => this.host.act({move: move.index}));
    return b;
  }

  private tickedCodes(hand: string[]): string[] {
    return hand.filter((_, place) => this.ticked.has(place));
  }

  /** The open menu over its card, kept inside the controls' width; the hand drawn again
   * when its width holds another number of cards a row (a phone turned, the log shown). */
  place(root: HTMLElement): void {
    const drawn = root.querySelector<HTMLElement>('.controls .hand');
    if (drawn && drawn.clientWidth !== this.width) {
      this.width = drawn.clientWidth;
      const n = Number(drawn.dataset.n);
      if (rowLength(n, this.width, this.over) !== this.perRow) {
        this.host.render();
        return;
      }
    }
    const menu = root.querySelector<HTMLElement>('.controls .card-menu');
    const controls = menu?.parentElement;
    const card = menu && root.querySelector<HTMLElement>(
      `.hand .hcard[data-place="${menu.dataset.place}"]`);
    if (!menu || !controls || !card) return;
    const box = controls.getBoundingClientRect();
    const at = card.getBoundingClientRect();
    const width = menu.offsetWidth;
    const left = Math.min(Math.max(at.left + at.width / 2 - box.left - width / 2, 4),
      box.width - width - 4);
    menu.style.marginLeft = `${left}px`;
    if (this.opened) menu.querySelector<HTMLElement>('button')?.focus();
    this.opened = false;
  }
}

/** The narrowest part of a hand's card a finger is given (WCAG 2.5.8 asks 24 px; the rise of
 * a playable card in the row below takes some of a card's height, none of its width). */
const MIN_STEP = 28;
/** What a card shows of itself in a hand nobody taps any more (the game over): its corner */
const OVER_STEP = 12;

/** How many of a hand's ``n`` cards go in one row of ``width`` px: all of them when each shows
 * at least MIN_STEP px (OVER_STEP when the game is ``over``), else the fewest rows that give
 * that, their cards shared evenly. */
export function rowLength(n: number, width: number, over = false): number {
  const card = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--hw')) || 64;
  const most = Math.max(1, Math.floor((width - card) / (over ? OVER_STEP : MIN_STEP)) + 1);
  const rows = Math.max(1, Math.ceil(n / most));
  return Math.max(1, Math.ceil(n / rows));
}
