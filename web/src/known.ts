// The cards in front of a seat (Getaway's known cards, up to 13 in a phone's 104 px seat box;
// a penalty's cards; a partner's table) are tiny there: a tap on them opens them larger over
// the felt, with their label and whose they are; a tap anywhere, Escape or × closes them.

import {cardEl, cardName, cardRow} from './cards';
import {h} from './dom';
import {w} from './words';
import type {Code} from './types';

export class Known {
  /** the seat whose cards are open */
  private open: number | null = null;

  /** A new table (another game): nothing open. */
  reset(): void {
    this.open = null;
  }

  /** Close the open cards; whether any were open. */
  dismiss(): boolean {
    if (this.open === null) return false;
    this.open = null;
    return true;
  }

  /** The seat's cards in front of it, a button opening them larger. */
  front(seat: number, label: string, cards: Code[], render: () => void): HTMLElement {
    const opened = this.open === seat;
    const b = h('button', {type: 'button', class: 'front known', 'data-seat': seat,
      'aria-expanded': String(opened), 'aria-haspopup': 'dialog',
      'aria-label': `${label} ${cards.map(cardName).join(' ')}`.trim()},
    label ? h('div', {class: 'label'}, label) : null,
    // a short phone shows their count alone (app.css): the seat box stays small enough for
    // four of them round a felt above the result
    h('span', {class: 'count'}, String(cards.length)),
    cardRow(cards, 'tiny', 'fit'));
    b.addEventListener('click', (event) => {
      // (the table view's click elsewhere would close them again)
      event.stopPropagation();
      this.open = opened ? null : seat;
      render();
    });
    return b;
  }

  /** The open seat's cards, large, over the felt (null when none is open or the seat has no
   * cards in front of it now: the table moved on). */
  panel(name: string, seat: number, label: string, cards: Code[],
    render: () => void): HTMLElement | null {
    if (this.open !== seat) return null;
    if (!cards.length) {
      this.open = null;
      return null;
    }
    const close = h('button', {type: 'button', class: 'close', 'aria-label': w('close') || '×'},
      '×');
    close.addEventListener('click', () => {
      this.open = null;
      render();
    });
    return h('div', {class: 'known-cards', role: 'dialog', 'data-seat': seat,
      'aria-label': `${name}: ${label}`},
    close,
    h('div', {class: 'label'}, label ? `${name} · ${label}` : name),
    // wrapped in rows, side by side: each card whole
    h('div', {class: 'spread'}, cards.map((code) => cardEl(code, 'mid'))));
  }
}
