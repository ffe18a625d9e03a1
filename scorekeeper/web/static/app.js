// Scorekeeper page: scoreboard, chart, history, live updates; hand entry for the admin.
import { api, absorbLocation, getToken, setToken } from './api.js';
import { chipRow, cardCode } from './cards.js';
import { deckChoice, openDecks, usableDecks } from './decks.js';
import { renderChart, playerColor } from './chart.js';
import { hasDraft, openEntry } from './entry.js';
import { openMayKnock } from './mayknock.js';
import { shareFile, sheetCsv, sheetImage, sheetPdf } from './sheetshare.js';
import { splitLayoffs } from './layoff.js';
import { icon, openCamera } from './scan.js';
import { checkNumber } from './messages.js';
import { clubName, loadRoster, markRow, renderRoster, target } from './roster.js';
import { LANGUAGES, pickLanguage, savedLanguage, saveLanguage, setLanguage, t, translateStatic } from './i18n.js';
import { THEMES, savedTheme, setTheme } from './theme.js';
import {
  dealerField, dealerMark, endGame, followSwitch, gameOpened, overWords, reopenButton, stateTag, tableMoved,
} from './tablegame.js';
import { shortNames } from './shortnames.js';
import { ask, toast } from './ui.js';
import { $, h, fill, num, signed, timeAgo, openDialog, closeDialog } from './util.js';
import {
  VARIANTS, VARIANT_ORDER, variantLabel, defaultSettings, handMarks, scoresDeadwood, setVariants,
} from './variants.js';

const state = {
  admin: false,
  sessionKnown: false,
  games: [],
  game: null,
  gameId: null,
  pinned: false, // true when the URL names the game; otherwise follow the newest game
  es: null,
  connected: true, // until the event stream says otherwise
  reconnectTimer: null,
  handInfoN: null,
};

// ---- session and games ---------------------------------------------------------------

async function checkSession() {
  const hadToken = !!getToken();
  try {
    const s = await api.session();
    state.admin = !!s?.admin;
    state.sessionKnown = true;
    if (hadToken && !state.admin) {
      setToken('');
      toast(t('role.badLink'), 'error');
    }
  } catch {
    state.admin = false;
  }
  document.body.classList.toggle('is-admin', state.admin);
  document.body.classList.toggle('is-viewer', !state.admin);
  const badge = $('#role-badge');
  badge.hidden = false;
  badge.textContent = state.admin ? t('role.admin') : t('role.viewer');
  badge.className = `badge ${state.admin ? 'badge-admin' : 'badge-viewer'}`;
}

async function loadGames() {
  try {
    const list = await api.games();
    state.games = Array.isArray(list) ? list : list?.games || [];
    return true;
  } catch (e) {
    if (!state.game) showEmpty(t('load.games', { error: e.message }));
    return false;
  }
}

function setUrlGame(id) {
  const url = new URL(location.href);
  if (id == null) url.searchParams.delete('game');
  else url.searchParams.set('game', id);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  hash.delete('game');
  url.hash = hash.toString() ? `#${hash}` : '';
  history.replaceState(null, '', url.pathname + url.search + url.hash);
}

async function openGame(id, { pin } = {}) {
  if (pin !== undefined) {
    state.pinned = pin;
    setUrlGame(pin ? id : null);
  }
  const changedGame = String(id) !== String(state.gameId);
  state.gameId = id;
  if (changedGame) {
    state.game = null;
    state.handInfoN = null;
  }
  try {
    const g = await api.game(id);
    applyGame(g, { force: changedGame });
  } catch (e) {
    if (changedGame) showEmpty(t('load.game', { id, error: e.message }));
    else toast(e.message, 'error');
  }
  if (changedGame) gameOpened(id, state.admin);
  if (changedGame || !state.es) connect(id);
}

function newestGameId() {
  if (!state.games.length) return null;
  return state.games[0].id;
}

async function refreshGame() {
  if (state.gameId == null) return;
  try {
    applyGame(await api.game(state.gameId));
  } catch {
    /* the event stream will bring it */
  }
}

/** Follow the newest game unless the URL pins one. */
async function followNewest() {
  if (!(await loadGames())) return;
  if (state.pinned) return;
  const newest = newestGameId();
  if (newest == null) {
    if (state.gameId == null) showEmpty();
    return;
  }
  if (String(newest) !== String(state.gameId)) {
    const hadGame = state.gameId != null;
    await openGame(newest);
    if (hadGame) toast(t('game.new', { variant: variantLabel(state.game?.variant) }));
  }
}

// ---- live updates --------------------------------------------------------------------

function setConnected(ok) {
  state.connected = ok;
  const banner = $('#reconnecting');
  banner.hidden = ok;
  document.body.classList.toggle('offline', !ok);
  // the title bar sticks just under the banner, so the banner never covers the game's name
  document.documentElement.style.setProperty('--banner-h', ok ? '0px' : `${banner.offsetHeight}px`);
}

function connect(id) {
  clearTimeout(state.reconnectTimer);
  if (state.es) state.es.close();
  const es = new EventSource(api.eventsUrl(id));
  state.es = es;
  const onData = (ev) => {
    if (state.es !== es) return;
    setConnected(true);
    let g;
    try {
      g = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (g && String(g.id ?? id) === String(state.gameId)) applyGame(g, { stream: true });
  };
  es.onmessage = onData;
  es.addEventListener('game', onData);
  es.addEventListener('table', (ev) => {
    if (state.es !== es) return;
    let game = null;
    try {
      game = JSON.parse(ev.data).game;
    } catch {
      return;
    }
    tableMoved(game, { admin: state.admin, current: state.gameId, open: openTableGame });
  });
  es.onopen = () => {
    if (state.es !== es) return;
    const wasDown = !state.connected;
    setConnected(true);
    if (wasDown) {
      if (!state.sessionKnown) checkSession().then(renderAll);
      refreshGame();
      followNewest();
    }
  };
  es.onerror = () => {
    if (state.es !== es) return;
    setConnected(false);
    if (es.readyState === EventSource.CLOSED) {
      // The browser gave up (e.g. an HTTP error); keep trying ourselves.
      state.reconnectTimer = setTimeout(() => {
        if (state.es === es) connect(id);
      }, 2000);
    }
  };
}

/** The table's game, opened from its notice (or followed): pinned unless it is the newest. */
async function openTableGame(id) {
  await loadGames();
  await openGame(id, { pin: String(id) !== String(newestGameId()) });
}

/** The admin ended the game: shown as ended, or, deleted, left for the newest game (at
 *  once, before any await: the list's poll must not find the page on the deleted game and
 *  move it with a toast of its own over the one offering Undo). */
async function afterEnd(view) {
  if (view.state !== 'deleted') {
    applyGame(view);
    return;
  }
  state.games = state.games.filter((x) => String(x.id) !== String(view.id));
  const next = newestGameId();
  if (next == null) {
    state.gameId = null;
    state.game = null;
    showEmpty();
  } else {
    await openGame(next, { pin: false });
  }
}

function applyGame(g, { stream = false, force = false } = {}) {
  if (!g) return;
  const cur = state.game;
  // Responses to our own requests can arrive after a newer stream message: keep the newest.
  if (!force && !stream && cur && g.seq != null && cur.seq != null && g.seq < cur.seq) return;
  state.game = g;
  renderAll();
  // a viewer's game deleted (the admin's page leaves it itself): on to the newest game
  if (stream && g.state === 'deleted' && cur?.state !== 'deleted' && !state.admin) {
    state.pinned = false;
    setUrlGame(null);
    followNewest();
  }
}

// ---- rendering -----------------------------------------------------------------------

function showEmpty(message) {
  state.game = null;
  for (const id of ['#scoreboard-panel', '#chart-panel', '#history-panel', '#gameover']) {
    $(id).hidden = true;
  }
  const box = $('#empty');
  box.hidden = false;
  $('#game-title').textContent = t('app.noGame');
  const parts = [h('div', { class: 'empty-suits', 'aria-hidden': 'true' }, '♠ ♥ ♣ ♦')];
  if (message) {
    parts.push(h('p', { class: 'error' }, message));
  } else if (state.admin) {
    parts.push(h('h2', {}, t('empty.noGames')), h('p', { class: 'muted' }, t('empty.start')),
      h('button', { type: 'button', class: 'btn btn-primary btn-block', testid: 'empty-new-game', onclick: () => openNewGame() }, t('btn.newGame')));
  } else {
    parts.push(h('h2', {}, t('empty.waiting')), h('p', { class: 'muted' }, t('empty.waitingText')));
  }
  fill(box, ...parts);
  renderActions();
}

function leaders(g) {
  if (Array.isArray(g.leader)) return g.leader;
  if (g.leader && typeof g.leader === 'object') return [g.leader.name];
  return g.leader ? [g.leader] : [];
}

function lastPoints(g, name) {
  const last = (g.hands || [])[g.hands.length - 1];
  const row = last?.result?.players?.find((r) => r.name === name);
  return row ? row.points : null;
}

function playerSub(g, p) {
  const bits = [];
  if (p.eliminated) return [h('span', { class: 'tag tag-elim' }, t('board.out'))];
  const knocks = !!VARIANTS[g.variant]?.knock;
  if (knocks && p.knock_limit != null) {
    bits.push(h('span', { class: 'sub-item', testid: 'knock-limit' },
      p.knock_limit > 0 ? t('board.knockLimit', { n: num(p.knock_limit) }) : t('board.noKnock')));
  }
  if (!knocks && p.to_target != null) {
    bits.push(h('span', { class: 'sub-item', testid: 'to-target' },
      p.to_target > 0 ? t('board.needs', { n: num(p.to_target) }) : t('board.targetReached')));
  }
  if (p.hands_left != null) {
    const left = p.hands_left;
    bits.push(h('span', { class: 'sub-item', testid: 'hands-left' }, t('board.handsLeft', { n: left })));
  }
  return bits;
}

function renderScoreboard(g) {
  const lead = leaders(g);
  const over = !!g.game_over;
  const rows = (g.players || []).map((p, i) => {
    const isLeader = !p.eliminated && (over ? g.winner === p.name : lead.includes(p.name));
    const lp = lastPoints(g, p.name);
    return h(
      'li',
      {
        class: `prow${isLeader ? ' leader' : ''}${p.eliminated ? ' out' : ''}`,
        testid: `player-row-${i}`,
        'data-name': p.name,
        'data-leader': isLeader ? 'true' : 'false',
        'data-eliminated': p.eliminated ? 'true' : 'false',
      },
      h('span', { class: 'pdot', style: `background:${playerColor(i)}`, 'aria-hidden': 'true' }),
      h('div', { class: 'pmain' },
        h('div', { class: 'pname' },
          h('span', { testid: `player-name-${i}` }, p.name),
          isLeader ? h('span', { class: 'crown', title: over ? t('board.winner') : t('board.leader'), 'aria-label': over ? t('board.winner') : t('board.leader') }, over ? '♛' : '★') : null),
        h('div', { class: 'psub' }, dealerMark(g, p.name, { admin: state.admin, shown: applyGame }), playerSub(g, p))),
      h('div', { class: 'pscore' },
        h('div', { class: 'ptotal', testid: `player-total-${i}` }, num(p.total)),
        lp != null ? h('div', { class: `plast ${lp > 0 ? 'pos' : lp < 0 ? 'neg' : ''}` }, signed(lp)) : null),
      state.admin
        ? h('button', {
          type: 'button',
          class: 'icon-btn icon-btn-sm rename-btn',
          testid: `rename-${i}`,
          'aria-label': t('board.rename', { name: p.name }),
          onclick: () => renamePlayer(p.name),
        }, '✎')
        : null,
    );
  });
  fill($('#scoreboard'), ...rows);
  const n = (g.hands || []).length;
  $('#hand-count').textContent = n === 0 ? t('board.noHands') : t('board.handCount', { n });
  $('#scoreboard').classList.toggle('low-good', !!VARIANTS[g.variant]?.lowIsGood);
}

function renderGameOver(g) {
  const box = $('#gameover');
  if (!g.game_over) {
    box.hidden = true;
    fill(box);
    return;
  }
  box.hidden = false;
  const winner = g.winner;
  const row = (g.players || []).find((p) => p.name === winner);
  const words = overWords(g);
  fill(box,
    h('div', { class: 'go-label', testid: 'gameover-label' }, words.label),
    h('div', { class: 'go-winner', testid: 'winner' }, words.line),
    row ? h('div', { class: 'go-detail' }, t('over.detail', { total: num(row.total), n: (g.hands || []).length })) : null,
    h('div', { class: 'go-actions' },
      h('button', { type: 'button', class: 'btn btn-light', testid: 'gameover-share', onclick: () => openShare({ sheet: true }) }, t('sheet.shareFinal')),
      state.admin ? reopenButton(g, applyGame) : null,
      state.admin
        ? h('button', { type: 'button', class: 'btn btn-light', testid: 'gameover-new-game', onclick: () => openNewGame() }, t('over.again'))
        : null),
  );
}

function handMarker(variant, input) {
  if (!input) return null;
  const hit = handMarks(variant).find(([flag]) => input[flag]);
  return hit ? { letter: t(`mark.letter.${hit[1]}`), words: t(`mark.${hit[2]}`) } : null;
}

/** The legend lists the marks this game can show, and P once a hand was typed as points. */
function historyLegend(variant, hands) {
  const marks = handMarks(variant).map(([, letter, words]) => `${t(`mark.letter.${letter}`)} ${t(`mark.${words}`)}`);
  const typed = hands.some((hand) => (hand.result?.players || []).some((r) => r.typed));
  if (typed) marks.push(`${t('mark.letter.typed')} ${t('mark.typed')}`);
  return [...marks, t('history.tap')].join(' · ');
}

/**
 * A player's column head: the colour dot, the whole name, and a short label that shows
 * instead when the whole names do not fit across the screen (fitHistory). Either is whole:
 * nothing is cut off mid-name.
 */
function historyHead(name, i, short) {
  return h('th', { class: 'num hcol', scope: 'col', title: name },
    h('span', { class: 'th-dot', style: `background:${playerColor(i)}`, 'aria-hidden': 'true' }),
    h('span', { class: 'th-name' }, name),
    h('span', { class: 'th-short', 'aria-hidden': 'true' }, short[i]));
}

/**
 * Short heads when the whole names would make the table wider than the screen; and if even
 * the short heads do not fit (large text, many players), the table scrolls sideways inside
 * its own box with the hand numbers kept in view. Measured again when the screen turns.
 */
function fitHistory() {
  const box = $('#history .table-fit');
  const table = box?.querySelector('table');
  if (!table) return;
  table.classList.remove('short-heads');
  if (table.scrollWidth > box.clientWidth + 1) table.classList.add('short-heads');
}

function historyCell(g, hand, name, i) {
  const r = (hand.result?.players || []).find((x) => x.name === name);
  const inp = (hand.players || []).find((x) => x.name === name);
  const testid = `hand-${hand.n}-points-${i}`;
  if (!r) return h('td', { class: 'num muted', testid }, '·');
  const mark = handMarker(g.variant, inp);
  return h('td', { class: `num${r.eliminated ? ' elim' : ''}`, testid },
    h('div', { class: 'hp' },
      mark ? h('span', { class: 'hmark', title: mark.words }, mark.letter) : null,
      r.typed ? h('span', { class: 'hmark', title: t('mark.typed'), testid: 'typed-mark' }, t('mark.letter.typed')) : null,
      signed(r.points)),
    h('div', { class: 'ht' }, num(r.total)));
}

function renderHistory(g) {
  const hands = g.hands || [];
  const box = $('#history');
  $('#undo-btn').hidden = !state.admin || hands.length === 0;
  if (!hands.length) {
    fill(box, h('p', { class: 'muted center', testid: 'history-empty' },
      state.admin ? t('history.firstHand') : t('history.none')));
    return;
  }
  const names = (g.players || []).map((p) => p.name);
  const short = shortNames(names);
  const head = h('tr', {}, h('th', { class: 'hn', scope: 'col' }, '#'),
    names.map((name, i) => historyHead(name, i, short)));
  const body = [...hands].reverse().map((hand) => h(
    'tr',
    { class: 'hrow', testid: `hand-row-${hand.n}`, onclick: () => openHandInfo(hand.n) },
    h('td', { class: 'hn' },
      h('button', {
        type: 'button', class: 'hn-btn', 'aria-label': t('history.details', { n: hand.n }),
        onclick: (ev) => {
          ev.stopPropagation();
          openHandInfo(hand.n);
        },
      }, String(hand.n))),
    names.map((name, i) => historyCell(g, hand, name, i)),
  ));
  fill(box,
    h('div', { class: 'table-fit' },
      h('table', { class: `htable cols-${names.length}`, testid: 'history-table' },
        h('thead', {}, head), h('tbody', {}, body))),
    h('p', { class: 'muted small legend-note', testid: 'history-legend' }, historyLegend(g.variant, hands)),
  );
  fitHistory();
}

if (typeof window !== 'undefined') window.addEventListener('resize', () => fitHistory());

/** A knocking variant, still in play: every phone may ask "may I knock?" before knocking. */
function canAskKnock(g) {
  return !!g && !!VARIANTS[g.variant]?.knock && !g.game_over;
}

function renderActions() {
  const g = state.game;
  $('#mayknock-btn').hidden = !canAskKnock(g);
  const primary = $('#primary-btn');
  primary.hidden = !state.admin;
  if (!g || g.game_over) {
    primary.textContent = t('btn.newGame');
    primary.dataset.action = 'new';
  } else {
    primary.textContent = t('btn.hand', { n: (g.hands || []).length + 1 });
    primary.dataset.action = 'hand';
  }
}

function renderTitle(g) {
  $('#game-title').textContent = variantLabel(g.variant);
  const deck = $('#game-deck');
  deck.hidden = !g.deck;
  deck.textContent = g.deck ? t('game.deck', { name: g.deck }) : '';
  document.title = t('app.title', { variant: variantLabel(g.variant) });
}

function renderAll() {
  const g = state.game;
  renderActions();
  if (!g) return;
  $('#empty').hidden = true;
  $('#scoreboard-panel').hidden = false;
  $('#chart-panel').hidden = false;
  $('#history-panel').hidden = false;
  renderTitle(g);
  renderGameOver(g);
  renderScoreboard(g);
  fill($('#chart'), renderChart(g));
  renderHistory(g);
  if (state.handInfoN != null && $('#handinfo').open) renderHandInfo();
  document.body.dataset.seq = g.seq ?? '';
  document.body.dataset.hands = String((g.hands || []).length);
}

// ---- hand details, correction, undo ----------------------------------------------------

function openHandInfo(n) {
  state.handInfoN = n;
  renderHandInfo();
  openDialog($('#handinfo'));
}

function renderHandInfo() {
  const g = state.game;
  const dlg = $('#handinfo');
  const hand = (g?.hands || []).find((x) => x.n === state.handInfoN);
  if (!hand) {
    closeDialog(dlg);
    return;
  }
  const res = hand.result || {};
  const isLast = hand.n === (g.hands || []).length;
  const rows = (res.players || []).map((r, pi) => {
    const inp = (hand.players || []).find((x) => x.name === r.name) || {};
    const tags = [];
    if (inp.knocked) tags.push(h('span', { class: 'tag tag-knock' }, t('mark.knocked')));
    if (inp.rummy) tags.push(h('span', { class: 'tag tag-rummy' }, t('mark.rummy')));
    if (inp.went_out) tags.push(h('span', { class: 'tag tag-out' }, t('mark.wentOut')));
    if (r.typed) tags.push(h('span', { class: 'tag' }, t('mark.typed')));
    if (r.eliminated) tags.push(h('span', { class: 'tag tag-elim' }, t('info.outOfGame')));
    const lines = [];
    // as entered (Rummy 500: lay-offs apart, with the meld they joined), else as scored
    const entered = splitLayoffs(inp.melds);
    const melds = inp.melds?.length ? entered.melds : r.melds || [];
    if (melds.length) {
      lines.push(h('div', { class: 'hi-line' }, h('span', { class: 'hi-k' }, t('info.melds')),
        h('span', { class: 'hi-melds' }, melds.map((m) => chipRow(m.map(cardCode))))));
    }
    entered.laidOff.forEach((lay, k) => {
      lines.push(h('div', { class: 'hi-line hi-layoff', testid: `hand-layoff-${pi}-${k}` },
        h('span', { class: 'hi-k' }, t('info.laidOff')), chipRow(lay.cards.map(cardCode)),
        h('span', { class: 'hi-on' }, t('info.on')), chipRow(lay.on.map(cardCode))));
    });
    const deadwood = scoresDeadwood(g.variant);
    const left = deadwood ? r.unmelded || inp.hand : inp.hand;
    if (left?.length) {
      lines.push(h('div', { class: 'hi-line' }, h('span', { class: 'hi-k' }, deadwood ? t('info.deadwood') : t('info.inHand')), chipRow(left.map(cardCode))));
    }
    if (r.dropped) {
      lines.push(h('div', { class: 'hi-line' }, h('span', { class: 'hi-k' }, t('info.notCounted')), chipRow([r.dropped])));
    }
    if (!lines.length) lines.push(h('div', { class: 'hi-line muted small' }, t('info.noCards')));
    return h('li', { class: 'hi-player' },
      h('div', { class: 'hi-top' },
        h('strong', {}, r.name), ...tags,
        h('span', { class: 'hi-pts' }, signed(r.points), h('span', { class: 'muted' }, ` → ${num(r.total)}`))),
      ...lines);
  });
  const k = res.knock;
  fill(dlg.querySelector('#handinfo-body'),
    h('header', { class: 'sheet-head' },
      h('button', { type: 'button', class: 'icon-btn', 'data-close': true, 'aria-label': 'Close', testid: 'handinfo-close' }, '✕'),
      h('div', { class: 'sheet-title' }, h('h2', {}, t('info.title', { n: hand.n })), h('div', { class: 'muted small' }, variantLabel(g.variant)))),
    h('div', { class: 'sheet-scroll', tabindex: '0' },
      k ? h('p', { class: `knock ${k.legal !== false ? 'legal' : 'illegal'}` },
        h('strong', {}, k.legal !== false ? t('knock.legal') : t('knock.over')),
        t('knock.line', { player: k.player, deadwood: num(k.deadwood), limit: num(k.limit) })) : null,
      h('ul', { class: 'hi-list' }, rows),
      res.game_over ? h('p', { class: 'pv-over' }, res.winner ? t('info.won', { name: res.winner }) : t('toast.draw')) : null),
    state.admin
      ? h('div', { class: 'sheet-foot' },
        isLast ? h('button', { type: 'button', class: 'btn btn-danger-ghost', testid: 'handinfo-undo', onclick: () => undoLast() }, t('btn.undo')) : null,
        h('button', { type: 'button', class: 'btn btn-primary btn-grow', testid: 'correct-hand', onclick: () => { closeDialog(dlg); startCorrection(hand.n); } }, t('info.correct', { n: hand.n })))
      : null,
  );
}

function startCorrection(n) {
  if (!state.game) return;
  openEntry({
    game: state.game,
    n,
    onSaved: () => {
      toast(t('toast.corrected', { n }));
      refreshGame();
    },
  });
}

function startHand() {
  if (!state.game) return;
  openEntry({
    game: state.game,
    onSaved: (result) => {
      let msg = result?.n ? t('toast.saved', { n: result.n }) : t('toast.savedPlain');
      if (result?.game_over) msg = result.winner ? t('toast.gameOver', { name: result.winner }) : t('toast.draw');
      toast(msg);
      refreshGame();
    },
  });
}

/** What a stored hand was entered as: posting it again puts the hand back. */
function handInput(hand) {
  return { players: (hand?.players || []).map((p) => ({ ...p })) };
}

async function redoHand(gameId, n, body) {
  const g = state.game;
  if (!g || String(g.id) !== String(gameId) || (g.hands || []).length !== n - 1) {
    toast(t('toast.noRedo', { n }), 'error');
    return;
  }
  try {
    await api.addHand(gameId, body, { seq: g.seq });
    toast(t('toast.back', { n }));
    refreshGame();
  } catch (e) {
    toast(e.message, 'error');
  }
}

async function undoLast() {
  const g = state.game;
  if (!g || !(g.hands || []).length) return;
  const n = g.hands.length;
  const body = handInput(g.hands[n - 1]);
  const ok = await ask({
    title: t('undo.title', { n }),
    text: t('undo.text'),
    okLabel: t('undo.ok'),
    danger: true,
    validate: () => api.undo(g.id, g.seq),
  });
  if (!ok) return;
  closeDialog($('#handinfo'));
  toast(t('toast.removed', { n }), 'ok', 8000, {
    label: t('btn.redo'), testid: 'redo-btn', onclick: () => redoHand(g.id, n, body),
  });
  refreshGame();
}

async function renamePlayer(oldName) {
  const g = state.game;
  const name = await ask({
    title: t('rename.title', { name: oldName }),
    okLabel: t('rename.ok'),
    input: oldName,
    validate: async (value) => {
      if (!value) throw new Error(t('rename.empty'));
      if (value === oldName) return;
      await api.rename(g.id, oldName, value, g.seq);
    },
  });
  if (name && name !== oldName) {
    toast(t('toast.renamed', { old: oldName, new: name }));
    refreshGame();
  }
}

// ---- settings fields (new game and game settings) -----------------------------------

function settingsFields(variant, values, { disabled = false } = {}) {
  const defs = VARIANTS[variant]?.settings || [];
  const getters = [];
  const fields = defs.map((d) => {
    const id = `set-${d.key}`;
    const cur = values[d.key] !== undefined ? values[d.key] : d.options ? d.options[0][0] : d.default;
    let control;
    if (d.options) {
      control = h('select', { id, class: 'input', testid: `setting-${d.key}`, disabled },
        d.options.map(([v, label], i) => h('option', { value: String(i), selected: String(v) === String(cur) }, label)));
      getters.push(() => [d.key, d.options[Number(control.value)][0]]);
    } else {
      control = h('input', {
        id,
        class: 'input',
        type: 'number',
        inputmode: 'numeric',
        min: d.min,
        step: 1,
        placeholder: d.placeholder || '',
        value: cur == null ? '' : String(cur),
        testid: `setting-${d.key}`,
        disabled,
      });
      getters.push(() => {
        const raw = control.value.trim();
        if (raw === '' && d.default != null) return [d.key, d.default];
        const got = checkNumber(d.label, raw, { min: d.min, optional: d.default == null });
        if (got.error) throw new Error(got.error);
        return [d.key, got.value];
      });
    }
    return h('label', { class: 'field', for: id }, h('span', { class: 'field-label' }, d.label), control);
  });
  const read = () => Object.fromEntries(getters.map((g) => g()));
  return { el: h('div', { class: 'fields' }, fields), read };
}

// ---- new game -----------------------------------------------------------------------

// The new-game sheet's state: ng = {variant, names, prev, settingsUi, els}.

function renderVariantChoice(ng) {
  fill(ng.els.variants, ...VARIANT_ORDER.map((v) => h('button', {
    type: 'button',
    role: 'radio',
    'aria-checked': ng.variant === v ? 'true' : 'false',
    class: `variant${ng.variant === v ? ' active' : ''}`,
    testid: `variant-${v}`,
    onclick: () => {
      ng.variant = v;
      renderVariantChoice(ng);
      renderNewGameRules(ng);
    },
  }, h('strong', {}, VARIANTS[v].label), h('span', {}, VARIANTS[v].blurb))));
}

function syncNames(ng) {
  ng.names = [...ng.els.players.querySelectorAll('input')].map((i) => i.value);
}

function playerRow(ng, name, i) {
  return h('div', { class: 'player-row' },
    h('span', { class: 'pdot', style: `background:${playerColor(i)}` }),
    h('input', {
      class: 'input',
      value: name,
      placeholder: t('newgame.player', { n: i + 1 }),
      autocomplete: 'off',
      autocapitalize: 'words',
      enterkeyhint: 'next',
      maxlength: 40,
      testid: `player-input-${i}`,
      'aria-label': t('newgame.playerName', { n: i + 1 }),
      oninput: () => {
        syncNames(ng);
        refreshRoster(ng);
      },
      onfocus: () => {
        ng.active = i;
        refreshRoster(ng);
      },
      onkeydown: (ev) => nextName(ng, i, ev),
    }),
    h('span', { class: 'who', dataset: { who: String(i) }, testid: `player-who-${i}`, hidden: true }),
    h('button', {
      type: 'button',
      class: 'icon-btn icon-btn-sm',
      testid: `player-remove-${i}`,
      'aria-label': t('newgame.removePlayer', { n: i + 1 }),
      disabled: ng.names.length <= 2,
      onclick: () => {
        syncNames(ng);
        ng.names.splice(i, 1);
        renderPlayerRows(ng);
      },
    }, '✕'));
}

/** Enter in a name goes on to the next player's name; after the last, to Start (it never
 * starts the game by itself: a name typed by mistake is still easy to fix). */
function nextName(ng, i, ev) {
  if (ev.key !== 'Enter' || ev.isComposing) return;
  ev.preventDefault();
  const inputs = [...ng.els.players.querySelectorAll('input')];
  const next = inputs[i + 1];
  if (next) next.focus();
  else ng.els.create.focus();
}

function renderPlayerRows(ng, focusLast = false) {
  ng.active = null; // the rows are new: the one typed in is known again when focused
  const v = VARIANTS[ng.variant];
  const max = v?.maxPlayers || 8;
  const rows = ng.names.map((name, i) => playerRow(ng, name, i));
  rows.push(h('button', {
    type: 'button',
    class: 'btn btn-ghost btn-block',
    testid: 'add-player',
    disabled: ng.names.length >= max,
    onclick: () => {
      syncNames(ng);
      ng.names.push('');
      renderPlayerRows(ng, true);
    },
  }, t(ng.roster ? 'newgame.addGuest' : 'newgame.addPlayer')));
  rows.push(h('p', { class: 'muted small' }, t('newgame.range', { variant: v?.label, min: v?.minPlayers, max })));
  fill(ng.els.players, ...rows.slice(0, -2), ng.els.roster, ...rows.slice(-2));
  refreshRoster(ng);
  if (focusLast) ng.els.players.querySelectorAll('input')[ng.names.length - 1]?.focus();
}

/** In club mode: each row marked a club player or a guest, and the club's names to tap
 *  (those matching the name being typed, else those not seated yet). */
function refreshRoster(ng) {
  for (const tag of ng.els.players.querySelectorAll('[data-who]')) {
    markRow(tag, ng.roster, ng.names[Number(tag.dataset.who)]);
  }
  const max = VARIANTS[ng.variant]?.maxPlayers || 8;
  renderRoster(ng.els.roster, ng.roster, ng.names, ng.active, max, (name, mode) => {
    syncNames(ng);
    const at = target(mode, ng.names, ng.active, max);
    if (at < 0) return;
    ng.names[at] = name;
    renderPlayerRows(ng);
  });
}

function renderNewGameRules(ng) {
  const keep = ng.variant === ng.prev?.variant ? ng.prev.settings || {} : defaultSettings(ng.variant);
  ng.settingsUi = settingsFields(ng.variant, keep);
  fill(ng.els.settings, ng.settingsUi.el);
  renderPlayerRows(ng);
}

/** What is wrong with the names before the server is asked, in players' words; or null. */
function namesProblem(players) {
  if (players.length < 2) return t('newgame.twoNames');
  if (new Set(players.map((p) => p.toLowerCase())).size !== players.length) {
    return t('newgame.sameName');
  }
  return null;
}

function showNewGameError(ng, msg) {
  ng.els.error.textContent = msg;
  ng.els.error.hidden = !msg;
  if (msg) ng.els.error.scrollIntoView({ block: 'nearest' });
}

async function createGame(ng) {
  syncNames(ng);
  // a club player's name as the club spells it ("ana" typed is the club's "Ana")
  const players = ng.names.map((n) => clubName(ng.roster, n) || n.trim()).filter(Boolean);
  const problem = namesProblem(players);
  showNewGameError(ng, problem || '');
  if (problem) return;
  const btn = ng.els.create;
  btn.disabled = true;
  btn.textContent = t('newgame.creating');
  try {
    const body = { variant: ng.variant, players, settings: ng.settingsUi.read() };
    if (ng.deck) body.deck = ng.deck.value();
    const dealer = ng.dealer.read();
    if (dealer) body.dealer = clubName(ng.roster, dealer) || dealer;
    const game = await api.createGame(body);
    ng.dialog.close('created');
    await loadGames();
    await openGame(game.id, { pin: false });
    toast(t('game.started', { variant: variantLabel(ng.variant) }));
  } catch (e) {
    showNewGameError(ng, e.message);
  } finally {
    btn.disabled = false;
    btn.textContent = t('newgame.start');
  }
}

// the table asks its club at most once a minute; a sheet left open looks twice as often
const ROSTER_REFRESH_MS = 30_000;
let newGameSheet = null; // the sheet opened last: an older sheet's refresh stops

/** Show the club's list on the sheet; a name being typed keeps its caret. */
function showRoster(ng, roster) {
  ng.roster = roster;
  syncNames(ng);
  const inputs = () => [...ng.els.players.querySelectorAll('input')];
  const typing = inputs().indexOf(document.activeElement);
  renderPlayerRows(ng); // with the rows' marks and "Add a guest"
  const again = inputs()[typing];
  again?.focus();
  again?.setSelectionRange(again.value.length, again.value.length);
}

/** While the sheet stays open, show a club list that changed (a player the club added, the
 *  club back after an outage): the marks and the names to tap only, so the rows (and a name
 *  being typed in one) stay as they are; stops when the sheet closes. */
function keepRosterFresh(ng) {
  const same = (a, b) => a.fresh === b.fresh && a.fetched_at === b.fetched_at
    && JSON.stringify(a.players) === JSON.stringify(b.players);
  const timer = setInterval(async () => {
    if (newGameSheet !== ng || !ng.dialog.open) {
      clearInterval(timer);
      return;
    }
    const roster = await loadRoster();
    if (roster && newGameSheet === ng && ng.dialog.open && !same(roster, ng.roster)) {
      ng.roster = roster;
      syncNames(ng);
      refreshRoster(ng);
    }
  }, ROSTER_REFRESH_MS);
}

/** The new-game sheet: variant, players, rules; it starts from the current game's. */
function openNewGame() {
  if (!state.admin) return;
  closeDialog($('#menu'));
  const prev = state.game;
  const ng = {
    variant: prev?.variant || 'chicago',
    names: prev ? prev.players.map((p) => p.name) : ['', ''],
    prev,
    settingsUi: null,
    deck: null,
    roster: null, // the club's players, at a table in club mode
    active: null, // the row last typed in
    dialog: $('#newgame'),
    els: {
      variants: h('div', { class: 'variant-grid', role: 'radiogroup', 'aria-label': t('newgame.variant') }),
      players: h('div', { class: 'player-rows' }),
      roster: h('section', { class: 'roster', testid: 'newgame-roster', hidden: true }),
      settings: h('div', {}),
      deck: h('div', { testid: 'newgame-deck-section' }),
      error: h('p', { class: 'error error-box', testid: 'newgame-error', role: 'alert', hidden: true }),
    },
  };
  // the deck choice appears once the table's decks are known, and only when there are some
  usableDecks().then((list) => {
    ng.deck = deckChoice(list, prev ? prev.deck ?? null : undefined);
    if (ng.deck) fill(ng.els.deck, h('h3', { class: 'section-label' }, t('newgame.deck')), ng.deck.el);
  });
  newGameSheet = ng;
  loadRoster().then((roster) => {
    if (!roster || !ng.dialog.open) return;
    showRoster(ng, roster);
    keepRosterFresh(ng);
  });
  ng.dealer = dealerField(() => {
    if (ng.els.players.querySelector('input')) syncNames(ng); // once the rows are drawn
    return ng.names;
  });
  ng.els.create = h('button', { type: 'button', class: 'btn btn-primary btn-grow', testid: 'create-game', onclick: () => createGame(ng) }, t('newgame.start'));
  fill($('#newgame-form'),
    h('header', { class: 'sheet-head' },
      h('button', { type: 'button', class: 'icon-btn', 'data-close': true, 'aria-label': t('btn.close'), testid: 'newgame-close' }, '✕'),
      h('div', { class: 'sheet-title' }, h('h2', {}, t('newgame.title')))),
    h('div', { class: 'sheet-scroll', tabindex: '0' },
      h('h3', { class: 'section-label' }, t('newgame.game')), ng.els.variants,
      h('h3', { class: 'section-label' }, t('newgame.players')), ng.els.players, ng.dealer.el,
      h('h3', { class: 'section-label' }, t('newgame.rules')), ng.els.settings,
      ng.els.deck,
      ng.els.error),
    h('div', { class: 'sheet-foot' }, ng.els.create),
  );
  renderVariantChoice(ng);
  renderNewGameRules(ng);
  openDialog(ng.dialog);
}

// ---- game settings ------------------------------------------------------------------

function openSettings() {
  const g = state.game;
  if (!g) return;
  closeDialog($('#menu'));
  const dlg = $('#settings');
  const ui = settingsFields(g.variant, g.settings || {}, { disabled: !state.admin });
  const err = h('p', { class: 'error error-box', testid: 'settings-error', role: 'alert', hidden: true });
  const saveBtn = h('button', {
    type: 'button',
    class: 'btn btn-primary btn-grow',
    testid: 'settings-save',
    onclick: async () => {
      saveBtn.disabled = true;
      try {
        await api.settings(g.id, ui.read(), g.seq);
        dlg.close('saved');
        toast(t('toast.rulesUpdated'));
        refreshGame();
      } catch (e) {
        err.textContent = e.message;
        err.hidden = false;
      } finally {
        saveBtn.disabled = false;
      }
    },
  }, t('rules.save'));
  fill($('#settings-form'),
    h('header', { class: 'sheet-head' },
      h('button', { type: 'button', class: 'icon-btn', 'data-close': true, 'aria-label': t('btn.close'), testid: 'settings-close' }, '✕'),
      h('div', { class: 'sheet-title' }, h('h2', {}, t('rules.title')), h('div', { class: 'muted small' }, variantLabel(g.variant)))),
    h('div', { class: 'sheet-scroll', tabindex: '0' }, ui.el, err),
    state.admin ? h('div', { class: 'sheet-foot' }, saveBtn) : null,
  );
  openDialog(dlg);
}

// ---- games menu ---------------------------------------------------------------------

async function openMenu() {
  const dlg = $('#menu');
  const body = $('#menu-body');
  const render = () => {
    const items = state.games.map((g) => {
      const current = String(g.id) === String(state.gameId);
      const totals = (g.players || []).map((p) => `${p.name} ${num(p.total)}`).join(' · ');
      return h('li', {},
        h('button', {
          type: 'button',
          class: `game-item${current ? ' current' : ''}`,
          testid: `game-item-${g.id}`,
          onclick: async () => {
            dlg.close();
            await openGame(g.id, { pin: String(g.id) !== String(newestGameId()) });
          },
        },
        h('div', { class: 'gi-top' },
          h('strong', {}, variantLabel(g.variant)),
          stateTag(g)),
        h('div', { class: 'gi-players' }, totals),
        h('div', { class: 'muted small' }, timeAgo(g.created_at))));
    });
    fill(body,
      h('header', { class: 'sheet-head' },
        h('button', { type: 'button', class: 'icon-btn', 'data-close': true, 'aria-label': t('btn.close'), testid: 'menu-close' }, '✕'),
        h('div', { class: 'sheet-title' }, h('h2', {}, t('menu.title')))),
      h('div', { class: 'sheet-scroll', tabindex: '0' },
        state.admin ? h('button', { type: 'button', class: 'btn btn-primary btn-block', testid: 'menu-new-game', onclick: () => openNewGame() }, t('btn.newGame')) : null,
        state.game ? h('button', { type: 'button', class: 'btn btn-secondary btn-block', testid: 'menu-settings', onclick: openSettings }, state.admin ? t('menu.rulesAdmin') : t('menu.rules')) : null,
        state.admin && canAskKnock(state.game) ? h('button', { type: 'button', class: 'btn btn-secondary btn-block', testid: 'menu-mayknock', onclick: () => { closeDialog(dlg); openMayKnock(state.game); } }, t('menu.mayKnock')) : null,
        state.admin ? h('button', { type: 'button', class: 'btn btn-secondary btn-block', testid: 'menu-camera', onclick: () => { closeDialog(dlg); openCamera(); } }, icon('camera'), t('menu.camera')) : null,
        state.admin ? h('button', { type: 'button', class: 'btn btn-secondary btn-block', testid: 'menu-decks', onclick: () => { closeDialog(dlg); openDecks(); } }, t('menu.decks')) : null,
        state.admin && state.game && state.game.state !== 'deleted' ? h('button', { type: 'button', class: 'btn btn-danger-ghost btn-block', testid: 'menu-end-game', onclick: () => { closeDialog(dlg); endGame(state.game, { after: afterEnd, back: (view) => openTableGame(view.id) }); } }, t('end.menu')) : null,
        state.admin ? null : followSwitch(),
        themeSwitch(),
        languageSwitch(),
        items.length ? h('ul', { class: 'game-list', testid: 'game-list' }, items) : h('p', { class: 'muted center' }, t('menu.none')),
        h('p', { class: 'muted small center role-note' }, state.admin
          ? t('role.adminNote')
          : t('role.viewerNote'))),
    );
  };
  render();
  openDialog(dlg);
  if (await loadGames()) render();
}

// ---- share ------------------------------------------------------------------------------

function shareUrl() {
  const url = new URL(location.href);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  hash.delete('token');
  url.hash = hash.toString() ? `#${hash}` : '';
  return url.toString();
}

/** The score sheet's part of the share dialog: a picture or CSV of the game on screen. */
function sheetSection() {
  const g = state.game;
  const status = h('p', { class: 'muted small sheet-status', testid: 'sheet-status', role: 'status' });
  const send = async (btn, make) => {
    btn.disabled = true;
    status.textContent = t('sheet.making');
    try {
      const file = await make(g);
      const how = await shareFile(file, t('sheet.fileTitle', { variant: variantLabel(g.variant) }));
      status.textContent = how === 'cancelled' ? '' : t(how === 'shared' ? 'sheet.shared' : 'sheet.downloaded', { name: file.name });
    } catch (e) {
      status.textContent = t('sheet.failed', { error: e.message });
    } finally {
      btn.disabled = false;
    }
  };
  const image = h('button', { type: 'button', class: 'btn btn-secondary', testid: 'sheet-image', onclick: () => send(image, sheetImage) }, t('sheet.image'));
  const pdf = h('button', { type: 'button', class: 'btn btn-secondary', testid: 'sheet-pdf', onclick: () => send(pdf, sheetPdf) }, t('sheet.pdf'));
  const csv = h('button', { type: 'button', class: 'btn btn-secondary', testid: 'sheet-csv', onclick: () => send(csv, sheetCsv) }, t('sheet.csv'));
  return h('section', { id: 'sheet-share', class: 'sheet-share', testid: 'sheet-share', 'aria-labelledby': 'sheet-share-title' },
    h('h3', { id: 'sheet-share-title' }, g.game_over ? t('sheet.titleFinal') : t('sheet.title')),
    h('p', { class: 'muted small' }, t('sheet.text')),
    h('div', { class: 'sheet-buttons' }, image, pdf, csv),
    status);
}

function openShare({ sheet = false } = {}) {
  const url = shareUrl();
  $('#share-qr').src = api.qrUrl(url);
  $('#share-url').textContent = url;
  $('#sheet-share')?.remove();
  const section = state.game ? sheetSection() : null;
  if (section) $('#share .modal-actions').before(section);
  openDialog($('#share'));
  if (sheet && section) {
    section.scrollIntoView({ block: 'nearest' });
    $('[data-testid="sheet-image"]', section).focus();
  }
}

async function copyShare() {
  const url = shareUrl();
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    // Plain-http LAN pages have no clipboard API: fall back to a selected textarea.
    const ta = h('textarea', { style: 'position:fixed;opacity:0' }, url);
    $('#share').append(ta);
    ta.select();
    document.execCommand('copy');
    ta.remove();
  }
  toast(t('toast.copied'));
}

// ---- start --------------------------------------------------------------------------

function wire() {
  $('#menu-btn').addEventListener('click', openMenu);
  $('#games-btn').addEventListener('click', openMenu);
  $('#share-btn').addEventListener('click', () => openShare());
  $('#mayknock-btn').addEventListener('click', () => {
    if (canAskKnock(state.game)) openMayKnock(state.game);
  });
  $('#share-copy').addEventListener('click', copyShare);
  $('#undo-btn').addEventListener('click', undoLast);
  $('#primary-btn').addEventListener('click', () => {
    if ($('#primary-btn').dataset.action === 'hand') startHand();
    else openNewGame();
  });
  $('#toast').addEventListener('click', () => {
    $('#toast').hidden = true;
  });
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) {
      refreshGame();
      followNewest();
    }
  });
  schedulePoll();
  watchCamera();
}

/** Every phone learns when the table's camera is lost (and when it is back). */
async function watchCamera() {
  if (!document.hidden) {
    try {
      const s = await api.camera();
      $('#camera-lost').hidden = s?.state !== 'lost';
    } catch {
      /* the reconnecting banner already says the server is out of reach */
    }
  }
  setTimeout(watchCamera, CAMERA_POLL_MS);
}

const CAMERA_POLL_MS = 10000;

/**
 * Phones follow the newest game. A game's own changes come through its event stream; a
 * new game is found by asking for the list: often while there is nothing to watch or the
 * game is over (a new one is likely), rarely during play.
 */
function schedulePoll() {
  const idle = !state.game || state.game.game_over;
  setTimeout(async () => {
    if (!document.hidden && !state.pinned) await followNewest();
    schedulePoll();
  }, idle ? 3000 : 15000);
}

/** The variants' rules from the server: the page keeps no copy of them. */
async function loadVariants() {
  for (;;) {
    try {
      setVariants(await api.variants());
      return;
    } catch (e) {
      showEmpty(t('load.rules', { error: e.message }));
      await new Promise((resolve) => { setTimeout(resolve, 2000); });
    }
  }
}


/** The theme switch in the menu: Auto (the phone's choice), Light or Dark. */
function themeSwitch() {
  const current = savedTheme();
  const group = h('div', { class: 'segmented', role: 'group', 'aria-label': t('menu.theme') },
    THEMES.map((theme) => h('button', {
      type: 'button',
      class: `seg${theme === current ? ' active' : ''}`,
      testid: `theme-${theme}`,
      'aria-pressed': theme === current ? 'true' : 'false',
      onclick: () => {
        setTheme(theme);
        group.replaceWith(themeSwitch());
      },
    }, t(`theme.${theme}`))));
  return h('div', { class: 'menu-row' }, h('span', { class: 'field-label' }, t('menu.theme')), group);
}

/** The language switch in the menu: the phone's languages pick one unless this says. */
function languageSwitch() {
  const saved = savedLanguage();
  const control = h('select', {
    id: 'lang-select',
    class: 'input input-inline',
    testid: 'language',
    onchange: () => {
      saveLanguage(control.value);
      location.reload(); // every screen is drawn again in the new words
    },
  },
  h('option', { value: '', selected: !saved }, `Auto (${LANGUAGES[pickLanguage('', navigator.languages || [])]})`),
  Object.entries(LANGUAGES).map(([code, name]) => h('option', { value: code, selected: saved === code, lang: code }, name)));
  return h('label', { class: 'menu-row', for: 'lang-select' }, h('span', { class: 'field-label' }, t('menu.language')), control);
}

/** The page's words: the saved language, else the phone's. */
function startLanguage() {
  setLanguage(pickLanguage(savedLanguage(), navigator.languages || [navigator.language]));
  translateStatic(document);
}

async function init() {
  startLanguage();
  setTheme(savedTheme());
  const wanted = absorbLocation();
  wire();
  await loadVariants();
  await checkSession();
  await loadGames();
  if (wanted != null) {
    state.pinned = true;
    setUrlGame(wanted);
    await openGame(wanted);
  } else if (newestGameId() != null) {
    await openGame(newestGameId());
  } else {
    showEmpty();
  }
  // A hand this phone was entering when the page went away: back to it, cards and all.
  const g = state.game;
  if (state.admin && g && !g.game_over && hasDraft(g)) startHand();
  document.body.classList.add('ready');
}

init();
