// The club's big screen: every live table and the league table, live from one stream
// (GET /api/club/events). What does not fit on the TV is shown a page at a time.
import { has, language, pickLanguage, savedLanguage, setLanguage, t, translateStatic } from './i18n.js';
import { $, fill, h, num } from './util.js';

const PAGE_MS = 12000; // tables: one page of cards this long when they do not all fit
const VARIANT_MS = 15000; // standings: one variant this long when several have games
const RETRY_MS = 5000;
const CARD_REM = 13; // a card is never narrower than this: a 14-letter name on one line
const FEW = 4; // this many tables or fewer: their cards' text 1.15× larger (club.css)

const params = new URLSearchParams(location.search);
const state = { view: null, es: null, page: 0, variant: 0 };

function variantName(id, label) {
  return has(`variant.${id}`) ? t(`variant.${id}`) : label || id;
}

/** Best first: the lowest total where low wins, the eliminated last; seat order breaks ties. */
function byStanding(table) {
  const dir = table.low_wins ? 1 : -1;
  return table.players
    .map((p, seat) => ({ ...p, seat }))
    .sort((a, b) => a.eliminated - b.eliminated || dir * (a.total - b.total) || a.seat - b.seat);
}

/** The most columns `count` tables may take in `width` px: one per table while they fit
 *  side by side at CARD_REM or wider, so a few tables use the whole width. */
function columns(count, width, rem, gapRem, scale) {
  const card = CARD_REM * scale * rem;
  const most = Math.max(1, Math.floor((width + gapRem * rem) / (card + gapRem * rem)));
  return Math.max(1, Math.min(count, most));
}

/** When a table last reached the club: its time today, else its date and time. */
function since(iso) {
  const when = new Date(iso);
  const sameDay = when.toDateString() === new Date().toDateString();
  const opts = sameDay ? { hour: '2-digit', minute: '2-digit' } : { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' };
  return when.toLocaleString(language(), opts);
}

/** A table's state in words: live, behind with what it still holds, offline since when. */
export function stateText(table) {
  if (table.state === 'behind') return t('club.behind', { n: num(table.pending_events ?? 0) });
  if (table.state === 'offline') {
    return table.offline_since ? t('club.offline', { time: since(table.offline_since) }) : t('club.neverSeen');
  }
  return t('club.live');
}

function card(table) {
  const best = table.winner ?? table.leader;
  const state = table.state ?? 'live';
  const rows = byStanding(table).map((p) =>
    h(
      'li',
      { class: `club-player${p.name === best ? ' lead' : ''}${p.eliminated ? ' out' : ''}` },
      h('span', { class: 'club-player-name' }, p.name),
      h('span', { class: 'club-player-total' }, p.eliminated ? `${num(p.total)} ${t('board.out')}` : num(p.total)),
    ),
  );
  let result = null;
  if (table.game_over) {
    const text = table.winner ? t('over.wins', { name: table.winner }) : t('over.draw');
    result = h('div', { class: 'club-card-result' }, text);
  }
  return h(
    'article',
    { class: `club-card ${state}${table.game_over ? ' over' : ''}`, testid: `club-card-${table.table}`, dataset: { state } },
    h('h3', { class: 'club-card-name' }, table.table),
    h(
      'div',
      { class: 'club-card-meta' },
      h('span', { class: 'club-card-variant' }, variantName(table.variant, table.label)),
      h('span', { class: `club-card-state ${state}`, testid: `club-state-${table.table}` }, stateText(table)),
    ),
    result,
    h('ul', { class: 'club-players' }, rows),
  );
}

/** Give each card its page: a card that would end below the grid starts the next one. */
function paginate(grid, cards) {
  for (const c of cards) c.hidden = false;
  const height = grid.clientHeight;
  const top0 = grid.getBoundingClientRect().top;
  let pageTop = null;
  let page = 0;
  for (const c of cards) {
    const r = c.getBoundingClientRect();
    const top = r.top - top0;
    if (pageTop === null) pageTop = top;
    if (r.bottom - top0 - pageTop > height && top > pageTop) {
      page += 1;
      pageTop = top;
    }
    c.dataset.page = String(page);
  }
  return page + 1;
}

/** Lay the cards out in the columns that show them in the fewest pages (the most columns
 *  on a tie: a few tables side by side); a layout where a card is taller than the grid
 *  would cut it, so it is never chosen while another is possible. Returns the pages. */
function arrange(grid, cards, most) {
  let best = null;
  for (let cols = most; cols >= 1; cols -= 1) {
    grid.style.setProperty('--cols', String(cols));
    const pages = paginate(grid, cards);
    const fits = cards.every((c) => c.offsetHeight <= grid.clientHeight);
    const score = (fits ? 0 : 1000) + pages;
    if (best === null || score < best.score) best = { cols, score };
    if (score === 1) break; // nothing beats one page
  }
  grid.style.setProperty('--cols', String(best.cols));
  return paginate(grid, cards);
}

function renderTables(tables) {
  const grid = $('#club-grid');
  const few = tables.length <= FEW;
  const rem = Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
  grid.dataset.few = String(few);
  const cards = tables.map(card);
  fill(grid, cards);
  $('#club-no-tables').hidden = tables.length > 0;
  const most = columns(tables.length, grid.clientWidth, rem, 0.7, few ? 1.15 : 1);
  const pages = cards.length ? arrange(grid, cards, most) : 1;
  const shown = state.page % pages;
  for (const c of cards) c.hidden = c.dataset.page !== String(shown);
  $('#club-page').textContent = pages > 1 ? t('club.page', { page: shown + 1, pages }) : '';
}

function standingRow(variant, row, i) {
  const rank = row.rank == null ? '–' : String(row.rank);
  const name = h('td', { class: 'name' }, row.name, row.guest ? h('span', { class: 'club-guest-tag' }, t('club.guest')) : null);
  return h(
    'tr',
    { class: row.guest ? 'guest' : row.rank === 1 ? 'top' : '', testid: `club-row-${variant}-${i}` },
    h('td', { class: 'rank' }, rank),
    name,
    h('td', {}, String(row.played)),
    h('td', {}, String(row.wins)),
    h('td', {}, num(row.points)),
    h('td', {}, row.average.toLocaleString(language(), { maximumFractionDigits: 1 })),
  );
}

function standingTable(table) {
  const better = table.low_wins ? t('club.lowBest') : t('club.highBest');
  const head = ['#', t('club.player'), t('club.played'), t('club.wins'), t('club.points'), t('club.average')];
  return h(
    'table',
    { class: 'club-table', testid: `club-table-${table.variant}` },
    h('caption', {}, variantName(table.variant, table.label), ' ', h('small', {}, better)),
    h('thead', {}, h('tr', {}, head.map((text, i) => h('th', { scope: 'col', class: i === 1 ? 'name' : '' }, text)))),
    h('tbody', {}, table.rows.map((row, i) => standingRow(table.variant, row, i))),
  );
}

/** Drop the rows that do not fit, saying how many. */
function fitRows(board) {
  const body = board.querySelector('tbody');
  if (!body) return;
  let dropped = 0;
  while (board.scrollHeight > board.clientHeight && body.rows.length > 1) {
    body.lastElementChild.remove();
    dropped += 1;
  }
  if (dropped) {
    board.append(h('div', { class: 'club-more' }, t('club.more', { n: dropped })));
    if (board.scrollHeight > board.clientHeight && body.rows.length > 1) {
      body.lastElementChild.remove();
      board.lastElementChild.textContent = t('club.more', { n: dropped + 1 });
    }
  }
}

function renderStandings(standings) {
  const { season, ranking, tables } = standings;
  $('#club-season').textContent = season
    ? t('club.season', { name: season.name, starts: season.starts, ends: season.ends })
    : t('club.allGames');
  $('#club-ranking').textContent = t(`club.rule.${ranking}`);
  const shown = tables.length ? state.variant % tables.length : 0;
  fill(
    $('#club-variants'),
    tables.length > 1
      ? tables.map((tb, i) => h('span', { class: `club-variant${i === shown ? ' shown' : ''}` }, variantName(tb.variant, tb.label)))
      : null,
  );
  const board = $('#club-board');
  fill(board, tables.length ? standingTable(tables[shown]) : null);
  board.hidden = !tables.length;
  $('#club-no-standings').hidden = tables.length > 0;
  fitRows(board);
}

function render() {
  if (!state.view) return;
  renderTables(state.view.tables);
  renderStandings(state.view.standings);
}

function setStatus(kind, text) {
  const el = $('#club-status');
  el.className = `club-status ${kind}`;
  el.textContent = text;
}

async function explainRefusal() {
  // EventSource hides the HTTP status: ask the standings route what is wrong, if anything.
  try {
    const r = await fetch(`/api/club/standings?${params}`);
    if (r.status >= 400 && r.status < 500) {
      setStatus('down', (await r.json()).detail);
      return true;
    }
  } catch {
    // the server is down: keep retrying
  }
  return false;
}

function connect() {
  const season = params.get('season');
  const es = new EventSource(`/api/club/events${season ? `?season=${encodeURIComponent(season)}` : ''}`);
  state.es = es;
  es.onmessage = (ev) => {
    try {
      state.view = JSON.parse(ev.data);
    } catch {
      return;
    }
    setStatus('live', t('club.live'));
    render();
  };
  es.onerror = async () => {
    if (state.es !== es) return;
    setStatus('down', t('app.reconnecting'));
    if (es.readyState === EventSource.CLOSED) {
      es.close();
      if (await explainRefusal()) return;
      setTimeout(() => state.es === es && connect(), RETRY_MS);
    }
  };
}

function tick() {
  $('#club-clock').textContent = new Date().toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

function start() {
  setLanguage(pickLanguage(params.get('lang') || savedLanguage(), navigator.languages || []));
  document.documentElement.dataset.theme = params.get('theme') === 'light' ? 'light' : 'dark';
  translateStatic(document);
  document.title = t('club.pageTitle');
  tick();
  setInterval(tick, 1000);
  setInterval(() => {
    state.page += 1;
    if (state.view) renderTables(state.view.tables);
  }, PAGE_MS);
  setInterval(() => {
    state.variant += 1;
    if (state.view) renderStandings(state.view.standings);
  }, VARIANT_MS);
  addEventListener('resize', render);
  connect();
  document.body.classList.add('ready');
}

start();
