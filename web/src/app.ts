// What the page shows: a status line, the launcher's list, or the table.

import {h} from './dom';
import {w} from './words';
import {TableView} from './table';
import type {ServerMessage, TableEntry, TableId, TableModel} from './types';

export class App {
  private watching: TableId | null = null;
  private view: TableView | null = null;
  private banner: HTMLElement;
  private toast: HTMLElement;
  private toastTimer = 0;
  private main: HTMLElement;
  private live = false;
  /** the signed-in person's user id (from hello) */
  private me = '';
  /** Open the only table by itself (not after the person asked for the list). */
  private auto = true;
  /** Told of every table drawn (its view's element and model): the social parts. */
  onTable: ((el: HTMLElement, model: TableModel) => void) | null = null;

  constructor(private root: HTMLElement, private base: string,
    private send: (message: unknown) => void) {
    this.banner = h('div', {class: 'banner', role: 'status', hidden: true});
    this.toast = h('div', {class: 'toast', role: 'alert', hidden: true});
    this.main = h('div', {class: 'main'});
  }

  /** A line alone on the page (connecting, failed). */
  status(text: string): void {
    this.root.replaceChildren(h('div', {class: 'status', role: 'status'}, text));
  }

  hello(user: {id: string; name: string}, wanted: string | null): void {
    this.me = user.id;
    this.root.replaceChildren(this.main, this.banner, this.toast);
    this.banner.hidden = true;
    this.live = true;
    if (this.watching === null && wanted !== null) this.watch(/^\d+$/.test(wanted) && wanted.length < 16 ? Number(wanted) : wanted);
    else if (this.watching !== null) this.watch(this.watching);
    else this.send({type: 'tables'});
  }

  connected(_again: boolean): void {
    // hello follows; it decides what to ask for
  }

  down(): void {
    this.live = false;
    if (this.root.contains(this.main)) {
      this.banner.textContent = w('reconnecting');
      this.banner.hidden = false;
      this.view?.freeze();
    } else {
      this.status(w('reconnecting'));
    }
  }

  /** Open a table the person was sent to (a join from someone's Discord presence). */
  visit(table: TableId): void {
    if (this.watching !== null && String(this.watching) === String(table)) return;
    this.view?.close();
    this.view = null;
    this.auto = false;
    this.watch(table);
  }

  private watch(table: TableId): void {
    this.watching = table;
    this.send({type: 'watch', table});
  }

  receive(message: ServerMessage): void {
    // the server sends the list again when a table opens or ends: it matters only while
    // the list (or nothing yet) is shown
    if (message.type === 'tables') {
      if (this.view === null) this.launcher(message.tables);
    } else if (message.type === 'table') this.table(message);
    else if (message.type === 'error') this.error(message.code, message.message);
  }

  private launcher(tables: TableEntry[]): void {
    const open = tables.filter((t) => t.status === 'lobby' || t.status === 'playing');
    if (this.watching === null && this.auto && open.length === 1) {
      this.watch(open[0].id);
      return;
    }
    this.view?.close();
    this.view = null;
    this.watching = null;
    if (tables.length === 0) {
      this.main.replaceChildren(h('div', {class: 'launcher empty'},
        h('p', {class: 'none'}, w('no-table'))));
      return;
    }
    const list = h('ul', {class: 'tables'}, tables.map((t) => h('li', {},
      h('button', {class: 'pick', type: 'button', 'data-table': String(t.id)},
        h('span', {class: 'game'}, t.title),
        t.status === 'playing' ? h('span', {class: 'state'}, w('players', {n: t.players}))
          : h('span', {class: 'state'}, w(t.status)),
        h('span', {class: 'who'}, t.seats.join(' · '))))));
    list.addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest('button.pick');
      const id = button?.getAttribute('data-table');
      const found = tables.find((t) => String(t.id) === id);
      if (found) this.watch(found.id);
    });
    this.main.replaceChildren(h('div', {class: 'launcher'},
      h('h1', {}, w('tables-here')), list));
  }

  private table(model: TableModel): void {
    if (this.watching !== null && String(model.table) !== String(this.watching)) return;
    this.watching = model.table;
    if (!this.view) {
      this.view = new TableView(this.base, this.me, this.send, () => {
        this.view?.close();
        this.watching = null;
        this.auto = false;
        this.view = null;
        this.send({type: 'tables'});
      });
      this.main.replaceChildren(this.view.el);
    }
    this.view.update(model);
    this.onTable?.(this.view.el, model);
  }

  private error(code: string, message: string): void {
    if (code === 'no-table' && this.view === null) this.send({type: 'tables'});
    this.view?.refused();
    this.toast.textContent = message;
    this.toast.hidden = false;
    window.clearTimeout(this.toastTimer);
    this.toastTimer = window.setTimeout(() => { this.toast.hidden = true; }, 3500);
  }

  get connectedNow(): boolean {
    return this.live;
  }
}
