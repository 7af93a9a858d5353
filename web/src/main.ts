// The Activity's page: signs the person in (Discord's SDK inside Discord; the development
// sign-in in a plain browser when the server allows it), keeps one WebSocket open (with
// backoff, watching its table again after a reconnect) and draws what the server sends.

import {DiscordSDK} from '@discord/embedded-app-sdk';
import {h} from './dom';
import {App} from './app';
import {Social} from './social';
import {setWords, w} from './words';
import type {ServerMessage} from './types';

const params = new URLSearchParams(location.search);
const inDiscord = params.has('frame_id');
/** Inside Discord every request goes through its proxy. */
const base = inDiscord ? '/.proxy' : '';

interface Config {client_id: string; dev: boolean; words?: Record<string, string>}
interface Session {session: string; instance: string; channel: string}

const root = document.getElementById('app') as HTMLElement;
const app = new App(root, base, (message) => socket.send(message));
const social = new Social((message) => socket.send(message));
app.onTable = (el, model) => social.shown(el, model);

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(base + path, {
    method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return await response.json() as Record<string, unknown>;
}

/** Inside Discord: the SDK's handshake, a code for the server, the session it answers. */
async function discordSignIn(config: Config): Promise<Session> {
  const sdk = new DiscordSDK(config.client_id);
  await sdk.ready();
  const {code} = await sdk.commands.authorize({
    client_id: config.client_id, response_type: 'code', state: '', prompt: 'none',
    // rpc.activities.write: the person's presence shows the table (setActivity)
    scope: ['identify', 'rpc.activities.write']});
  const answer = await post('/api/token', {code});
  await sdk.commands.authenticate({access_token: String(answer.access_token)});
  social.connect(sdk, (table) => app.visit(table));
  return {session: String(answer.session), instance: sdk.instanceId,
    channel: sdk.channelId ?? ''};
}

/** A plain browser in development mode: a name, a session for it. */
function devSignIn(): Promise<Session> {
  const kept = sessionStorage.getItem('deckhand-session');
  const channel = params.get('channel_id') ?? params.get('channel') ?? '';
  const instance = params.get('instance_id') ?? '';
  if (kept) return Promise.resolve({session: kept, instance, channel});
  return new Promise((resolve) => {
    const name = h('input', {id: 'signin-name', name: 'name', required: true, maxlength: 32,
      autocomplete: 'nickname'});
    const form = h('form', {class: 'signin'},
      h('h1', {}, w('signin-button')),
      h('label', {for: 'signin-name'}, w('signin-name')), name,
      h('button', {type: 'submit', class: 'primary'}, w('signin-button')));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const wanted = name.value.trim();
      if (!wanted) return;
      post('/api/dev-login', {name: wanted}).then((answer) => {
        const session = String(answer.session);
        sessionStorage.setItem('deckhand-session', session);
        resolve({session, instance, channel});
      }).catch(() => app.status(w('failed')));
    });
    root.replaceChildren(form);
    name.focus();
  });
}

class Socket {
  private ws: WebSocket | null = null;
  private delay = 500;
  private opened = false;
  private ping = 0;
  constructor(private url: string, private protocols: string[],
    private onMessage: (m: ServerMessage) => void,
    private onOpen: (again: boolean) => void, private onDown: () => void) {}

  open(): void {
    const ws = new WebSocket(this.url, this.protocols);
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.delay = 500;
      this.onOpen(this.opened);
      this.opened = true;
      this.ping = window.setInterval(() => this.send({type: 'ping'}), 25000);
    });
    ws.addEventListener('message', (event) => {
      try {
        this.onMessage(JSON.parse(String(event.data)) as ServerMessage);
      } catch (error) {
        console.error('bad message', error);
      }
    });
    ws.addEventListener('close', () => {
      window.clearInterval(this.ping);
      if (this.ws !== ws) return;
      this.ws = null;
      this.onDown();
      // backoff: 0.5 s doubling up to 10 s, with some jitter so that viewers do not return
      // all at once after a restart
      const wait = this.delay * (0.75 + Math.random() / 2);
      this.delay = Math.min(this.delay * 2, 10000);
      window.setTimeout(() => this.open(), wait);
    });
  }

  send(message: unknown): void {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  close(): void {
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }
}

let socket: Socket;

async function start(): Promise<void> {
  app.status(w('signing-in'));
  const response = await fetch(base + '/api/config');
  const config = await response.json() as Config;
  // the browser's language until the socket's hello brings the person's own
  if (config.words) setWords(config.words);
  let session: Session;
  if (inDiscord) session = await discordSignIn(config);
  else if (config.dev) session = await devSignIn();
  else {
    app.status(w('failed'));
    return;
  }
  app.status(w('signing-in'));
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  // the session goes among the socket's subprotocols, never in its URL (proxies log URLs)
  const query = new URLSearchParams({instance_id: session.instance, channel_id: session.channel});
  const protocols = ['deckhand', `session.${session.session}`];
  socket = new Socket(`${scheme}//${location.host}${base}/ws?${query}`, protocols, (message) => {
    if (social.receive(message)) return;
    if (message.type === 'hello') {
      setWords(message.words);
      document.documentElement.lang = message.lang;
      app.hello(message.user, wanted());
    } else if (message.type === 'error' && message.code === 'forbidden') {
      // not let in (the Activity is not running in this channel for this person): trying
      // again would not change that
      socket.close();
      app.status(message.message);
    } else if (message.type === 'error' && message.code === 'signed-out') {
      // the session ran out: sign in again (once; a second refusal soon after is shown)
      sessionStorage.removeItem('deckhand-session');
      socket.close();
      const last = Number(sessionStorage.getItem('deckhand-signed-out') ?? 0);
      if (Date.now() - last < 60000) app.status(message.message);
      else {
        sessionStorage.setItem('deckhand-signed-out', String(Date.now()));
        location.reload();
      }
    } else {
      app.receive(message);
    }
  }, (again) => app.connected(again), () => app.down());
  socket.open();
}

/** A table the launch named (?table=ID, or Discord's custom_id 'table-ID'), if any. */
function wanted(): string | null {
  const named = params.get('table') ?? params.get('custom_id');
  if (!named) return null;
  return named.replace(/^table[-:]/, '') || null;
}

start().catch((error) => {
  console.error(error);
  app.status(w('failed'));
});
