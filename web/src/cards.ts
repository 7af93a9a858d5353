// Cards drawn by the client: rank and suit symbol, red or black; a joker a star; face down a
// patterned back. Codes as games/cards.py writes them: rank (2-9, T, J, Q, K, A) and suit
// (S, H, D, C); 'RJ' and 'BJ' the red and black jokers.

import {h} from './dom';
import type {Code} from './types';

const SUITS: Record<string, string> = {S: '♠', H: '♥', D: '♦', C: '♣'};

export function rankText(code: string): string {
  return code[0] === 'T' ? '10' : code[0];
}

export function isRed(code: string): boolean {
  return code[1] === 'H' || code[1] === 'D' || code === 'RJ';
}

/** The card's short name, for screen readers and titles: '10♥', '★' for a joker. */
export function cardName(code: Code): string {
  if (code === null) return '🂠';
  if (code[1] === 'J' && (code[0] === 'R' || code[0] === 'B')) return code[0] === 'R' ? '★' : '☆';
  return rankText(code) + (SUITS[code[1]] ?? code[1]);
}

export function cardEl(code: Code, size: 'hand' | 'mid' | 'small' | 'tiny' = 'mid'): HTMLElement {
  if (code === null) {
    return h('div', {class: `card back ${size}`, 'aria-hidden': 'true'});
  }
  const joker = code.length === 2 && code[1] === 'J' && (code[0] === 'R' || code[0] === 'B');
  const colour = isRed(code) ? 'red' : 'black';
  if (joker) {
    return h('div', {class: `card joker ${colour} ${size}`, 'data-code': code, title: cardName(code)},
      h('span', {class: 'rank'}, '★'), h('span', {class: 'pip'}, '★'));
  }
  const suit = SUITS[code[1]] ?? '?';
  return h('div', {class: `card ${colour} ${size}`, 'data-code': code, title: cardName(code)},
    h('span', {class: 'rank'}, rankText(code), h('br'), suit),
    h('span', {class: 'pip'}, suit));
}

/** A row of cards, overlapping when there are many. */
export function cardRow(codes: Code[], size: 'mid' | 'small' | 'tiny', cls = ''): HTMLElement {
  // a few cards side by side; more overlap ('fit': as far as they must to fit the width
  // they are given, a seat's box or the middle)
  const overlap = codes.length <= 4 ? 0 : codes.length <= 8 ? 0.45 : 0.62;
  return h('div', {class: `cards ${cls}`, 'data-n': codes.length,
    style: `--ov:${overlap};--n:${Math.max(codes.length, 1)}`},
    codes.map((code) => cardEl(code, size)));
}
