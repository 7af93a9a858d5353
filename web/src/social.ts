// The social parts, as Discord's Activities have them (#53 item 5), through the Embedded App
// SDK's commands (docs: discord.com/developers/docs/developer-tools/embedded-app-sdk):
// - a lobby's free seats: "Take this seat" for a spectator (the server's `join`, the chat's
//   Join), and "Invite" (openInviteDialog) inside Discord in a server;
// - the person's presence (setActivity): the game, the deal, the party's seats; its join
//   secret names the table, so a friend joining from the profile (ACTIVITY_JOIN, in the same
//   Activity instance) lands at that table;
// - a finished game's result shared as the table picture the bot drew (openShareMomentDialog
//   takes a Discord CDN address: the server answers `share` with the table message's
//   picture), offered where the SDK supports it (Discord's web and desktop clients).
// The table view draws itself anew on every change: the controls are added after each
// drawing (a MutationObserver on the view's children), never kept in its state.

import {Events, Platform, type DiscordSDK} from '@discord/embedded-app-sdk';
import {h} from './dom';
import {w} from './words';
import type {TableId, TableModel} from './types';

/** The model with the lobby's free seats (bot/web/model.py: public_part). */
type Model = TableModel & {free?: number};

const STYLE = `
.free-seats{display:flex;flex-direction:column;gap:6px;margin:8px 12px}
.free-seat{display:flex;align-items:center;gap:8px;flex-wrap:wrap;padding:6px 10px;
  border:1px dashed rgba(255,255,255,.35);border-radius:10px}
.free-seat .label{flex:1;opacity:.8}
.free-seat button,button.share{min-height:36px;min-width:36px;padding:0 14px}
button.share{margin-top:8px}`;

/** A presence's join secret for a table, and the table it names. */
export function secretOf(table: TableId): string {
  return `table-${table}`;
}

export function tableOf(secret: string): TableId | null {
  const found = /^table-(\d{1,15})$/.exec(secret);
  return found ? Number(found[1]) : null;
}

export class Social {
  private sdk: DiscordSDK | null = null;
  private model: Model | null = null;
  private watched: HTMLElement | null = null;
  private observer = new MutationObserver(() => this.decorate());
  private presenceSent = '';
  private toast: HTMLElement | null = null;
  private toastTimer = 0;

  constructor(private send: (message: unknown) => void) {
    document.head.append(h('style', {}, STYLE));
  }

  /** Inside Discord, once signed in: the SDK's commands; a join from someone's presence
   * opens the table its secret names. */
  connect(sdk: DiscordSDK, open: (table: TableId) => void): void {
    this.sdk = sdk;
    sdk.subscribe(Events.ACTIVITY_JOIN, (data: {secret: string}) => {
      const table = tableOf(data.secret);
      if (table !== null) open(table);
    }).catch((error: unknown) => console.warn('ACTIVITY_JOIN', error));
    if (this.model) this.presence(this.model);
  }

  /** A table was drawn (its view's element, its model): its controls and the presence. */
  shown(el: HTMLElement, model: TableModel): void {
    this.model = model;
    if (this.watched !== el) {
      this.observer.disconnect();
      this.observer.observe(el, {childList: true});
      this.watched = el;
    }
    this.decorate();
    this.presence(model);
  }

  /** A message of the server for this part (true: taken). */
  receive(message: {type: string; url?: string}): boolean {
    if (message.type !== 'share') return false;
    const sdk = this.sdk;
    if (sdk && typeof message.url === 'string') {
      sdk.commands.openShareMomentDialog({mediaUrl: message.url})
        .catch(() => this.tell(w('share-failed')));
    }
    return true;
  }

  private decorate(): void {
    const el = this.watched;
    const m = this.model;
    if (!el || !m) return;
    const board = el.querySelector('.board');
    if (board && m.status === 'lobby' && (m.free ?? 0) > 0 && !board.querySelector('.free-seats')) {
      board.append(this.freeSeats(m));
    }
    if (m.status === 'finished' && this.canShare() && !el.querySelector('button.share')) {
      const place = el.querySelector('.result .box') ?? el.querySelector('header.bar');
      const share = h('button', {type: 'button', class: 'share'}, w('share'));
      share.addEventListener('click', () => this.send({type: 'share', table: m.table}));
      place?.append(share);
    }
  }

  private freeSeats(m: Model): HTMLElement {
    const seated = m.you.seat !== null;
    const invite = this.canInvite();
    const rows = Array.from({length: m.free ?? 0}, (_, i) => {
      const take = seated ? null : h('button', {type: 'button', class: 'take-seat primary'},
        w('take-seat'));
      take?.addEventListener('click', () => this.send({type: 'join', table: m.table}));
      const ask = invite ? h('button', {type: 'button', class: 'invite'}, w('invite')) : null;
      ask?.addEventListener('click', () => {
        this.sdk?.commands.openInviteDialog().catch(() => this.tell(w('invite-failed')));
      });
      return h('div', {class: 'free-seat', 'data-free': i},
        h('span', {class: 'label'}, w('free-seat')), take, ask);
    });
    return h('section', {class: 'free-seats'}, rows);
  }

  /** The invite dialog: inside Discord, in a server's channel (not a DM, where the SDK
   * refuses it). */
  private canInvite(): boolean {
    return this.sdk !== null && Boolean(this.sdk.guildId);
  }

  /** The share dialog: Discord's web and desktop clients (not its phone apps). */
  private canShare(): boolean {
    return this.sdk !== null && this.sdk.platform !== Platform.MOBILE;
  }

  /** The person's Discord presence: the game, the deal (or the lobby, the result), the
   * party's seats; sent again only when it changes. */
  private presence(m: Model): void {
    const sdk = this.sdk;
    if (!sdk) return;
    const game = m.title;
    const state = m.status === 'lobby' ? w('presence-lobby')
      : m.status === 'playing' ? (m.scene?.subtitle || '') : w(m.status);
    const seats = m.seats.length;
    const activity = {
      type: 0,
      details: w(m.you.seat === null ? 'presence-watching' : 'presence-playing', {game}),
      ...(state ? {state} : {}),
      party: {id: secretOf(m.table), size: [Math.max(seats, 1), Math.max(seats + (m.free ?? 0), 1)]},
      // joining from the presence: the same Activity instance, then this table
      secrets: {join: secretOf(m.table)},
      instance: true,
    };
    const key = JSON.stringify(activity);
    if (key === this.presenceSent) return;
    this.presenceSent = key;
    sdk.commands.setActivity({activity}).catch((error: unknown) => {
      // (a person who did not grant rpc.activities.write keeps Discord's plain presence)
      console.warn('setActivity', error);
    });
  }

  private tell(text: string): void {
    if (!this.toast) {
      this.toast = h('div', {class: 'toast social-toast', role: 'alert', hidden: true});
      document.body.append(this.toast);
    }
    const toast = this.toast;
    toast.textContent = text;
    toast.hidden = false;
    window.clearTimeout(this.toastTimer);
    this.toastTimer = window.setTimeout(() => { toast.hidden = true; }, 3500);
  }
}
