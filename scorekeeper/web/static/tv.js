// The table's TV: the game the table plays now, big, from its live stream
// (GET /api/games/{id}/events). Read-only: it holds no token and has no control to touch.
// `?game=<id>` pins one game; else it follows the table (the stream's `table` event).
import { has, pickLanguage, savedLanguage, setLanguage, t, translateStatic } from './i18n.js';
import { $, fill, h, num, signed } from './util.js';

const RETRY_MS = 5000;
const IDLE_MS = 20000; // no game yet: ask again this often (one small read, not a stream)

const params = new URLSearchParams(location.search);
const pinned = params.get('game');
const state = { id: null, game: null, es: null, rules: {}, retry: null };

function variantName(id) {
  return has(`variant.${id}`) ? t(`variant.${id}`) : state.rules[id]?.name || id;
}

async function getJson(url) {
  const r = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!r.ok) throw new Error(`${r.status}`);
  return r.json();
}

/** Best first: the lowest total where low wins, the eliminated last; seat order breaks ties. */
export function byStanding(players, lowWins) {
  const dir = lowWins ? 1 : -1;
  return players
    .map((p, seat) => ({ ...p, seat }))
    .sort((a, b) => a.eliminated - b.eliminated || dir * (a.total - b.total) || a.seat - b.seat);
}

/** What a player still has before the game ends for them, in words. */
function standing(p) {
  if (p.eliminated) return t('board.out');
  if (p.knock_limit != null) return p.knock_limit > 0 ? t('board.knockLimit', { n: p.knock_limit }) : t('board.noKnock');
  if (p.to_target != null) return p.to_target > 0 ? t('board.needs', { n: num(p.to_target) }) : t('board.targetReached');
  return '';
}

/** Who ended a hand, and how, from the flags the phone sent with it. */
export function ending(hand) {
  for (const p of hand.players || []) {
    if (p.knocked) return t('tv.knocked', { name: p.name });
    if (p.rummy) return t('tv.rummy', { name: p.name });
    if (p.went_out) return t('tv.wentOut', { name: p.name });
  }
  return '';
}

function row(p, lead, last, dealer) {
  const points = last ? last.find((r) => r.name === p.name)?.points : null;
  return h(
    'div',
    { class: `tv-row${lead ? ' lead' : ''}${p.eliminated ? ' out' : ''}`, testid: `tv-row-${p.seat}` },
    h('span', { class: 'tv-name' }, lead ? h('span', { class: 'tv-crown', 'aria-hidden': 'true' }, '♛ ') : null, p.name,
      p.name === dealer ? h('span', { class: 'tv-deals' }, t('tv.deals')) : null),
    h('span', { class: 'tv-standing' }, standing(p)),
    h('span', { class: 'tv-points', testid: `tv-points-${p.seat}` }, points == null ? '' : signed(points)),
    h('span', { class: 'tv-total', testid: `tv-total-${p.seat}` }, num(p.total)),
  );
}

function goal(g) {
  const rules = state.rules[g.variant] || {};
  const target = rules.goal_key ? g.settings?.[rules.goal_key] : null;
  const left = g.players.find((p) => p.hands_left != null)?.hands_left;
  const parts = [];
  if (target != null) parts.push(t(rules.low_wins ? 'tv.outAt' : 'tv.target', { n: num(target) }));
  if (left != null) parts.push(t(`board.handsLeft.${left === 1 ? 'one' : 'other'}`, { n: left }));
  return parts.join(' · ');
}

function render() {
  const g = state.game;
  $('#tv-empty').hidden = !!g;
  $('#tv-board').hidden = !g;
  if (!g) {
    fill($('#tv-board'));
    for (const id of ['#tv-hands', '#tv-last', '#tv-goal', '#tv-dealer']) $(id).textContent = '';
    $('#tv-result').hidden = true;
    $('#tv-variant').textContent = t('app.name');
    return;
  }
  const rules = state.rules[g.variant] || {};
  const hands = g.hands || [];
  const last = hands.length ? hands[hands.length - 1] : null;
  const best = g.winner ?? g.leader;
  $('#tv-variant').textContent = variantName(g.variant);
  document.title = t('tv.pageTitle', { variant: variantName(g.variant) });
  $('#tv-hands').textContent = hands.length
    ? t(`board.handCount.${hands.length === 1 ? 'one' : 'other'}`, { n: hands.length })
    : t('board.noHands');
  const rows = byStanding(g.players, rules.low_wins).map((p) => row(p, p.name === best, last?.result.players, g.dealer));
  const board = $('#tv-board');
  board.dataset.count = String(Math.min(rows.length, 8));
  fill(board,
    h('div', { class: 'tv-row tv-head', 'aria-hidden': 'true' },
      h('span', { class: 'tv-name' }),
      h('span', { class: 'tv-standing' }),
      h('span', { class: 'tv-points' }, last ? t('tv.lastHand', { n: last.n }) : ''),
      h('span', { class: 'tv-total' }, t('board.totals'))),
    rows);
  const over = g.game_over || (g.state && g.state !== 'in_play');
  const result = $('#tv-result');
  result.hidden = !over;
  result.textContent = over ? (g.winner ? t('over.wins', { name: g.winner }) : t(g.state === 'abandoned' ? 'over.abandoned' : 'over.draw')) : '';
  $('#tv-last').textContent = last ? [t('tv.hand', { n: last.n }), ending(last)].filter(Boolean).join(': ') : '';
  $('#tv-goal').textContent = goal(g);
  $('#tv-dealer').textContent = !over && g.dealer ? t('tv.dealsHand', { name: g.dealer, n: hands.length + 1 }) : '';
}

function setStatus(kind, text) {
  const el = $('#tv-status');
  el.className = `tv-status ${kind}`;
  el.textContent = text;
}

/** The game to show: the pinned one, else the table's, else the newest in play. */
async function pick() {
  if (pinned) return pinned;
  const table = await getJson('/api/table');
  if (table.game != null) return String(table.game);
  const games = await getJson('/api/games');
  const playing = games.find((g) => g.state === 'in_play') || games[0];
  return playing ? String(playing.id) : null;
}

function retry(ms) {
  clearTimeout(state.retry);
  state.retry = setTimeout(start, ms);
}

function follow(id) {
  if (state.es) state.es.close();
  state.id = id;
  const es = new EventSource(`/api/games/${encodeURIComponent(id)}/events`);
  state.es = es;
  es.onmessage = (ev) => {
    if (state.es !== es) return;
    try {
      state.game = JSON.parse(ev.data);
    } catch {
      return;
    }
    setStatus('live', t('club.live'));
    render();
  };
  es.addEventListener('table', (ev) => {
    if (state.es !== es || pinned) return;
    try {
      const next = JSON.parse(ev.data).game;
      if (next != null && String(next) !== String(state.id)) follow(String(next));
    } catch {
      // a message this page cannot read: keep the game shown
    }
  });
  es.onerror = () => {
    if (state.es !== es) return;
    setStatus('down', t('app.reconnecting'));
    if (es.readyState === EventSource.CLOSED) {
      es.close();
      state.es = null;
      retry(RETRY_MS); // the game may be gone: pick again
    }
  };
}

async function start() {
  let id;
  try {
    id = await pick();
  } catch {
    setStatus('down', t('app.reconnecting'));
    retry(RETRY_MS);
    return;
  }
  if (id == null) {
    state.game = null;
    setStatus('live', t('club.live'));
    render();
    retry(IDLE_MS);
    return;
  }
  follow(id);
}

function tick() {
  $('#tv-clock').textContent = new Date().toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

async function boot() {
  setLanguage(pickLanguage(params.get('lang') || savedLanguage(), navigator.languages || []));
  document.documentElement.dataset.theme = params.get('theme') === 'light' ? 'light' : 'dark';
  translateStatic(document);
  document.title = t('tv.pageTitle', { variant: t('app.name') });
  tick();
  setInterval(tick, 1000);
  try {
    const { variants } = await getJson('/api/variants');
    state.rules = Object.fromEntries(variants.map((v) => [v.id, v]));
  } catch {
    // the names and directions fall back to the game's own; the stream still comes
  }
  await start();
  document.body.classList.add('ready');
}

boot();
