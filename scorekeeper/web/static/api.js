// HTTP API client: bearer token from the admin link, JSON in and out; a refusal
// ({detail, code, params}) becomes an ApiError whose message is in the page's language.

import { language, t } from './i18n.js';
import { keep, kept } from './kept.js';
import { refusalText } from './messages.js';

const TOKEN_KEY = 'scorekeeper.token';

export class ApiError extends Error {
  /** `data` is the refusal's body: `code` says its kind (game_changed: the game moved on). */
  constructor(message, status, data = null) {
    super(message);
    this.status = status;
    this.data = data && typeof data === 'object' ? data : null;
  }
}

/** A key for a request meant once (Idempotency-Key): random, from a non-secure page too. */
export function newRequestKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Headers for a write made against version `seq` of a game, meant once under `key`. */
function writeHeaders({ seq, key } = {}) {
  const out = {};
  if (seq != null) out['If-Match'] = `"${seq}"`;
  if (key) out['Idempotency-Key'] = key;
  return out;
}

export function getToken() {
  return kept(TOKEN_KEY);
}

export function setToken(token) {
  keep(TOKEN_KEY, token); // private mode: the token lives only as long as the page
}

/**
 * Read `#token=…` (and `#game=…`) from the address, keep the token, strip it from the URL.
 * Returns the game id named in `?game=` or `#game=`, if any.
 */
export function absorbLocation() {
  const url = new URL(location.href);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  let game = url.searchParams.get('game');
  if (hash.has('token')) {
    setToken(hash.get('token'));
    hash.delete('token');
  }
  if (hash.has('game')) {
    game = game || hash.get('game');
  }
  const rest = hash.toString();
  url.hash = rest ? `#${rest}` : '';
  const clean = url.pathname + url.search + url.hash;
  if (clean !== location.pathname + location.search + location.hash) {
    history.replaceState(null, '', clean);
  }
  return game || null;
}

/** A refusal in the page's words: by its code, else the server's detail, else by status. */
export function describe(status, body) {
  const said = refusalText(body);
  if (said) return said;
  if (status === 401 || status === 403) return t('net.notAllowed');
  if (status === 404) return t('net.notFound');
  return t('net.server', { status });
}

function authHeaders(extra = {}) {
  // `detail` in the page's language, for a code this page does not know yet
  const headers = { 'Accept-Language': `${language()}, en;q=0.5`, ...extra };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** JSON in and out; a FormData body goes as multipart (the browser sets its boundary). */
export async function request(method, path, body, extra = {}) {
  const headers = authHeaders({ Accept: 'application/json', ...extra });
  const form = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(t('net.unreachable'), 0);
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!res.ok) throw new ApiError(describe(res.status, data), res.status, data);
  return data;
}

/** A binary answer (the camera snapshot) as a Blob; errors as for request(). */
export async function requestBlob(path) {
  let res;
  try {
    res = await fetch(path, { headers: authHeaders(), cache: 'no-store' });
  } catch {
    throw new ApiError(t('net.unreachable'), 0);
  }
  if (!res.ok) {
    let data = null;
    try {
      data = await res.json();
    } catch {
      /* not JSON */
    }
    throw new ApiError(describe(res.status, data), res.status, data);
  }
  return res.blob();
}

const enc = encodeURIComponent;

function scanForm(file, player) {
  const form = new FormData();
  form.append('image', file, file.name || 'photo.jpg');
  if (player) form.append('player', player);
  return form;
}

export const api = {
  session: () => request('GET', '/api/session'),
  /** Where other phones can open this page: {urls}, the server's network addresses. */
  addresses: () => request('GET', '/api/addresses'),
  variants: () => request('GET', '/api/variants'),
  games: () => request('GET', '/api/games'),
  /** The players' statistics across the table's finished games, per variant. */
  stats: () => request('GET', '/api/stats'),
  game: (id) => request('GET', `/api/games/${enc(id)}`),
  /** The game's rules explained, and its last hand (else an example) worked out. */
  rulesSheet: (id) => request('GET', `/api/games/${enc(id)}/rules`),
  createGame: (body, key) => request('POST', '/api/games', body, writeHeaders({ key })),
  // Every write names the game's version it was made against ({seq}: a 412 if the game
  // moved on) and a POST its key ({key}: sent again, it is done once).
  addHand: (id, body, once) => request('POST', `/api/games/${enc(id)}/hands`, body, writeHeaders(once)),
  preview: (id, body) => request('POST', `/api/games/${enc(id)}/preview`, body),
  correctHand: (id, n, body, once) => request('PUT', `/api/games/${enc(id)}/hands/${enc(n)}`, body, writeHeaders(once)),
  undo: (id, seq) => request('DELETE', `/api/games/${enc(id)}/hands/last`, undefined, writeHeaders({ seq })),
  rename: (id, oldName, newName, seq) => request('POST', `/api/games/${enc(id)}/rename`,
    { old: oldName, new: newName }, writeHeaders({ seq, key: newRequestKey() })),
  settings: (id, settings, seq) => request('PUT', `/api/games/${enc(id)}/settings`, { settings }, writeHeaders({ seq })),
  eventsUrl: (id) => `/api/games/${enc(id)}/events`,
  qrUrl: (url) => `/api/qr.svg?url=${enc(url)}`,
  /** Scan a player's cards: from the table camera, or from a photo file when given. */
  scan: (id, player, file) => request('POST', `/api/games/${enc(id)}/scan`,
    file ? scanForm(file, player) : { player }),
  /** Chicago's private "may I knock?": a photo of the hand, or {cards} tapped in. */
  knockCheck: (id, player, file, body) => request('POST', `/api/games/${enc(id)}/knock-check`,
    file ? scanForm(file, player) : { player, ...body }),
  /** The table's decks (public): names, examples, adapted or not, and the table's default. */
  decks: () => request('GET', '/api/decks'),
  /** The hand with a scan's cards was saved: they teach the game's deck ({read, card}, and
   * the codes of the cards added by hand). */
  confirmScan: (key, cards, added = []) => request('POST', `/api/scans/${enc(key)}/confirm`, { cards, added }),
  adaptStatus: () => request('GET', '/api/decks/adapt'),
  startAdapt: (name, minutes) => request('POST', `/api/decks/${enc(name)}/adapt`, { minutes }),
  cancelAdapt: () => request('DELETE', '/api/decks/adapt'),
  deleteLearned: (name) => request('DELETE', `/api/decks/${enc(name)}/learned`),
  camera: () => request('GET', '/api/camera'),
  /** The live count while aiming: the table camera's latest frame, or a viewfinder frame. */
  count: (id, frame) => request(frame ? 'POST' : 'GET', `/api/games/${enc(id)}/count`,
    frame ? scanForm(frame) : undefined),
  snapshot: () => requestBlob('/api/camera/snapshot'),
};
