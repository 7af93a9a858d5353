// The messages of docs/design/activity.md, as the client reads them.

export type TableId = number | string;
export type Code = string | null; // a card code ('TS', '7C', 'RJ'), or null face down

export interface SeatInfo {
  seat: number;
  name: string;
  user_id: string | null;
  computer: boolean;
  away: boolean;
  avatar: string | null;
}

export interface SeatScene {
  name: string;
  lines: string[];
  acting: boolean;
  dealer: boolean;
  live: boolean;
  badges: [string, string][];
  cards: Code[];
  hand_count: number;
  computer: boolean;
  team: number | null;
  cards_label: string;
}

export interface Scene {
  title: string;
  subtitle: string;
  trick: [number, Code[]][];
  trick_best: number;
  lead_label: string;
  last_trick: [number, Code[]][];
  last_label: string;
  rows: [string, Code[]][];
  lines: string[];
  corner: string[];
  result: string[];
  seats: SeatScene[];
}

export interface Move {
  index: number;
  label: string;
  kind: string;
  cards: string[];
}

export interface You {
  seat: number | null;
  hand: string[];
  playable: string[];
  may_act: boolean;
  moves: Move[];
}

export interface Last {
  seat: number | null;
  kind: string;
  cards: string[];
}

export interface TableModel {
  type: 'table';
  table: TableId;
  version: number;
  game: string;
  title: string;
  status: 'lobby' | 'playing' | 'finished' | 'cancelled';
  deadline: number | null;
  seats: SeatInfo[];
  scene: Scene | null;
  you: You;
  log: string[];
  last: Last | null;
}

export interface TableEntry {
  id: TableId;
  game: string;
  title: string;
  status: string;
  players: number;
  seats: string[];
  version: number;
}

export interface Hello {
  type: 'hello';
  user: {id: string; name: string};
  lang: string;
  words: Record<string, string>;
}

export type ServerMessage =
  | Hello
  | TableModel
  | {type: 'tables'; tables: TableEntry[]}
  | {type: 'error'; code: string; message: string}
  | {type: 'pong'};
