// The client's own words come from the server ('hello' words, in the person's language).
// Before the socket opens, /api/config gives them in the browser's language (the development
// sign-in, "Could not connect"); these English fallbacks serve only if that fails.

const FALLBACK: Record<string, string> = {
  'signing-in': 'Signing in…',
  'reconnecting': 'Reconnecting…',
  'signin-name': 'Your name',
  'signin-button': 'Sign in',
  'failed': 'Could not connect. Close the Activity and open it again.',
};

let words: Record<string, string> = {};

export function setWords(found: Record<string, string>): void {
  words = found;
}

/** The word for ``key`` with ``{name}`` placeholders filled; the key itself if unknown. */
export function w(key: string, params: Record<string, string | number> = {}): string {
  const text = words[key] ?? FALLBACK[key] ?? '';
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole);
}
