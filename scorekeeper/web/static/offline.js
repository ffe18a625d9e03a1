// With no network: the last scoreboard kept on the phone (shown on a load the server does
// not answer), the banner saying since when, and the page's own service worker. The kept
// game and rules are plain localStorage, so they work on a plain-http table too, where
// browsers start no service worker (only the reload with no network needs one).
import { language, t } from './i18n.js';
import { $, h } from './util.js';

const LAST = 'scorekeeper.last';
const RULES = 'scorekeeper.rules';
const SINCE = 'scorekeeper.offlineSince';
const VERSION = 1;

// offline: the phone says it has no network, or the page was loaded without the server;
// kept: the scoreboard shown is the kept one; streamUp: the live stream is connected.
export const net = { offline: false, kept: false, since: null, streamUp: true };

function store() {
  try {
    return localStorage;
  } catch {
    return null; // storage refused: nothing is kept
  }
}

function write(storage, key, value) {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    /* full or refused: the page goes on without a copy */
  }
}

function read(storage, key) {
  try {
    return JSON.parse(storage?.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

/** Keep the game on screen (and whether this phone is the admin's) for a load offline. */
export function keepScoreboard(game, admin, storage = store(), now = Date.now()) {
  if (!game || game.id == null || game.state === 'deleted') return;
  write(storage, LAST, { v: VERSION, saved: now, admin: !!admin, game });
}

/** The variants' rules as the server last gave them: the kept scoreboard needs them. */
export function keepRules(variants, storage = store()) {
  write(storage, RULES, { v: VERSION, variants });
}

/**
 * The kept scoreboard ({game, admin, saved, variants}) for a page asking for game `wanted`
 * (null: the newest), or null when none fits.
 */
export function keptScoreboard(wanted, storage = store()) {
  const last = read(storage, LAST);
  const rules = read(storage, RULES);
  if (last?.v !== VERSION || rules?.v !== VERSION || !last.game || !rules.variants) return null;
  if (wanted != null && String(wanted) !== String(last.game.id)) return null;
  return { game: last.game, admin: !!last.admin, saved: last.saved, variants: rules.variants };
}

/** "21:04" (or "9:04 PM"): the time of day in the page's language. */
export function clock(ms) {
  return new Intl.DateTimeFormat(language(), { timeStyle: 'short' }).format(new Date(ms));
}

/** The banners: Offline (with its time) over Reconnecting, never both. */
export function showBanners() {
  const offline = $('#offline');
  const reconnecting = $('#reconnecting');
  offline.hidden = !net.offline;
  if (net.offline) {
    const time = clock(net.since);
    const board = !$('#scoreboard-panel').hidden;
    $('#offline-text').textContent = t(board ? 'offline.banner' : 'offline.since', { time });
  }
  for (const note of document.querySelectorAll('[data-offline-note]')) showNote(note);
  reconnecting.hidden = net.offline || net.streamUp;
  const shown = net.offline ? offline : reconnecting.hidden ? null : reconnecting;
  document.body.classList.toggle('offline', !!shown);
  // the title bar sticks just under the banner, so the banner never covers the game's name
  document.documentElement.style.setProperty('--banner-h', shown ? `${shown.offsetHeight}px` : '0px');
}

function showNote(note) {
  note.hidden = !net.offline;
  note.textContent = net.offline ? t('offline.entry', { time: clock(net.since) }) : '';
}

/** A line for a sheet, over the page and its banner: whether the phone is offline. */
export function offlineNote(testid) {
  const note = h('p', { class: 'sheet-offline', role: 'status', testid, 'data-offline-note': true });
  showNote(note);
  return note;
}

/** The network is gone (or the server never answered this load): say so, and since when. */
export function goOffline(now = Date.now()) {
  const kept = Number(read(store(), SINCE));
  net.since = net.since ?? (kept > 0 && kept <= now ? kept : now);
  write(store(), SINCE, net.since);
  net.offline = true;
  showBanners();
}

/** The server answered: unless the phone still says it has no network, the page is live. */
export function reached() {
  net.kept = false;
  if (navigator.onLine === false) return;
  net.offline = false;
  net.since = null;
  store()?.removeItem(SINCE);
  showBanners();
}

/** The live stream's state (live.js), for the Reconnecting banner. */
export function streamState(up) {
  net.streamUp = up;
  if (up) reached();
  else showBanners();
}

/** Watch the phone's network: the banner at once when it goes, `catchUp` when it is back. */
export function watchNetwork(catchUp) {
  window.addEventListener('offline', () => goOffline());
  window.addEventListener('online', catchUp);
  if (navigator.onLine === false) goOffline();
}

/**
 * The page's worker, which keeps the shell for a load with no network. Browsers start one
 * only on a secure page (HTTPS, or this machine itself): on a plain-http table the kept
 * scoreboard still shows while the page is open.
 */
export function startWorker() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register('/sw.js').catch(() => {
    /* no worker: the page works as before, only not from a load offline */
  });
}
