// The games, and the one on screen: which phone is the admin's, the list, the game opened
// (pinned by the URL, or following the newest), its views applied as they come.
import { api, getToken, setToken } from './api.js';
import { renderAll, showEmpty } from './game-view.js';
import { handInfo } from './hand-info.js';
import { t } from './i18n.js';
import { connect, liveStream } from './live.js';
import { keepScoreboard } from './offline.js';
import { gameOpened } from './tablegame.js';
import { toast } from './ui.js';
import { $ } from './util.js';
import { variantLabel } from './variants.js';

// Who is looking (the admin or a viewer), and the games and the one the page shows.
export const page = {
  admin: false,
  roleKnown: false,
  games: [],
  game: null,
  gameId: null,
  pinned: false, // true when the URL names the game; otherwise follow the newest game
};

/** Whether this phone is the admin's (its link's token), said by the role badge. */
export async function checkRole() {
  const hadToken = !!getToken();
  try {
    const s = await api.session();
    page.admin = !!s?.admin;
    page.roleKnown = true;
    if (hadToken && !page.admin) {
      setToken('');
      toast(t('role.badLink'), 'error');
    }
  } catch {
    page.admin = false;
  }
  showRole();
}

/** The page as the admin's or a viewer's: the body's class and the role badge. */
export function showRole() {
  document.body.classList.toggle('is-admin', page.admin);
  document.body.classList.toggle('is-viewer', !page.admin);
  const badge = $('#role-badge');
  badge.hidden = false;
  badge.textContent = page.admin ? t('role.admin') : t('role.viewer');
  badge.className = `badge ${page.admin ? 'badge-admin' : 'badge-viewer'}`;
}

export async function loadGames() {
  try {
    const list = await api.games();
    page.games = Array.isArray(list) ? list : list?.games || [];
    return true;
  } catch (e) {
    if (!page.game) showEmpty(t('load.games', { error: e.message }));
    return false;
  }
}

export function setUrlGame(id) {
  const url = new URL(location.href);
  if (id == null) url.searchParams.delete('game');
  else url.searchParams.set('game', id);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  hash.delete('game');
  url.hash = hash.toString() ? `#${hash}` : '';
  history.replaceState(null, '', url.pathname + url.search + url.hash);
}

export async function openGame(id, { pin } = {}) {
  if (pin !== undefined) {
    page.pinned = pin;
    setUrlGame(pin ? id : null);
  }
  const changedGame = String(id) !== String(page.gameId);
  page.gameId = id;
  if (changedGame) {
    page.game = null;
    handInfo.n = null;
  }
  try {
    const g = await api.game(id);
    applyGame(g, { force: changedGame });
  } catch (e) {
    if (changedGame) showEmpty(t('load.game', { id, error: e.message }));
    else toast(e.message, 'error');
  }
  if (changedGame) gameOpened(id, page.admin);
  if (changedGame || !liveStream.es) connect(id);
}

export function newestGameId() {
  if (!page.games.length) return null;
  return page.games[0].id;
}

export async function refreshGame() {
  if (page.gameId == null) return;
  try {
    applyGame(await api.game(page.gameId));
  } catch {
    /* the event stream will bring it */
  }
}

/** Follow the newest game unless the URL pins one. */
export async function followNewest() {
  if (!(await loadGames())) return;
  if (page.pinned) return;
  const newest = newestGameId();
  if (newest == null) {
    if (page.gameId == null) showEmpty();
    return;
  }
  if (String(newest) !== String(page.gameId)) {
    const hadGame = page.gameId != null;
    await openGame(newest);
    if (hadGame) toast(t('game.new', { variant: variantLabel(page.game?.variant) }));
  }
}

/** The table's game, opened from its notice (or followed): pinned unless it is the newest. */
export async function openTableGame(id) {
  await loadGames();
  await openGame(id, { pin: String(id) !== String(newestGameId()) });
}

/** The admin ended the game: shown as ended, or, deleted, left for the newest game (at
 *  once, before any await: the list's poll must not find the page on the deleted game and
 *  move it with a toast of its own over the one offering Undo). */
export async function afterEnd(view) {
  if (view.state !== 'deleted') {
    applyGame(view);
    return;
  }
  page.games = page.games.filter((x) => String(x.id) !== String(view.id));
  const next = newestGameId();
  if (next == null) {
    page.gameId = null;
    page.game = null;
    showEmpty();
  } else {
    await openGame(next, { pin: false });
  }
}

export function applyGame(g, { stream = false, force = false } = {}) {
  if (!g) return;
  const cur = page.game;
  // Responses to our own requests can arrive after a newer stream message: keep the newest.
  if (!force && !stream && cur && g.seq != null && cur.seq != null && g.seq < cur.seq) return;
  page.game = g;
  renderAll();
  keepScoreboard(g, page.admin); // shown on a load with no network
  // a viewer's game deleted (the admin's page leaves it itself): on to the newest game
  if (stream && g.state === 'deleted' && cur?.state !== 'deleted' && !page.admin) {
    page.pinned = false;
    setUrlGame(null);
    followNewest();
  }
}
