// The club's players on the new-game sheet, at a table in club mode: the table's copy of its
// club's list (GET /api/club/players), offered as names to tap and as suggestions while a
// name is typed, and each name marked as a club player or a guest. Outside club mode the
// table says so and the sheet shows none of this.
import { request } from './api.js';
import { t } from './i18n.js';
import { fill, h, timeAgo } from './util.js';

const SHOWN = 12; // names offered at once before "type to find the others"

/** A name's identity, as the club matches it: NFC, trimmed, case-folded. */
export function nameKey(name) {
  return String(name ?? '').normalize('NFC').trim().toLowerCase();
}

/** The table's copy of the club's list ({players, fetched_at, fresh, problem}), or null
 *  outside club mode or when the table cannot be asked (the sheet then works as at home). */
export async function loadRoster() {
  try {
    const answer = await request('GET', '/api/club/players');
    return answer?.club && Array.isArray(answer.players) ? answer : null;
  } catch {
    return null;
  }
}

/** A name with case, accents and runs of spaces aside, as the server's club/spelling.py. */
export function foldName(name) {
  return String(name ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

/** The club's spelling of `name` when it is a club player, else null (a guest, or empty):
 *  case aside first, then accents and spaces too when that names one club player only. */
export function clubName(roster, name) {
  const key = nameKey(name);
  if (!roster || !key) return null;
  const exact = roster.players.find((p) => nameKey(p) === key);
  if (exact) return exact;
  const near = roster.players.filter((p) => foldName(p) === foldName(name));
  return near.length === 1 ? near[0] : null;
}

/** 'club', 'guest' or '' (no name yet): how the sheet marks a row. */
export function kind(roster, name) {
  if (!roster || !nameKey(name)) return '';
  return clubName(roster, name) ? 'club' : 'guest';
}

/**
 * The club players to offer: while the active row holds a name being typed (not a club
 * player yet), those whose name contains it ("complete": a tap puts it in that row);
 * otherwise every club player not seated yet ("add": a tap fills the first empty row).
 * Returns {mode, query, names}.
 */
export function suggestions(roster, names, active) {
  if (!roster) return { mode: 'add', query: '', names: [] };
  const seated = new Set(names.map(nameKey));
  const free = roster.players.filter((p) => !seated.has(nameKey(p)));
  const typed = active != null ? (names[active] ?? '') : '';
  const query = nameKey(typed);
  if (query && !clubName(roster, typed)) {
    const found = free.filter((p) => foldName(p).includes(foldName(typed)));
    if (found.length) return { mode: 'complete', query: typed.trim(), names: found };
  }
  return { mode: 'add', query: '', names: free };
}

/** Where a tapped name goes: the row being typed ("complete"), else the first empty row,
 *  else a new row when the variant allows one more player; -1 when the game is full. */
export function target(mode, names, active, max) {
  if (mode === 'complete' && active != null) return active;
  const empty = names.findIndex((n) => !nameKey(n));
  if (empty >= 0) return empty;
  return names.length < max ? names.length : -1;
}

/** How old the list is, in the players' words. */
function freshness(roster) {
  const when = timeAgo(roster.fetched_at);
  return roster.fresh ? t('roster.fresh', { when }) : t('roster.kept', { when });
}

/** The row's mark in club mode: "Club" or "Guest" (its place kept while the row is empty,
 *  so the names line up); none outside club mode. */
export function markRow(tag, roster, name) {
  const k = kind(roster, name);
  tag.hidden = !roster;
  tag.className = `who who-${k || 'none'}`;
  tag.textContent = k ? t(`roster.${k}`) : '';
}

/**
 * Fill `el` with the club's players to tap: a heading, how old the list is, and the names
 * (filtered by the name being typed). `pick(name, mode)` is called with the tapped name.
 */
export function renderRoster(el, roster, names, active, max, pick) {
  el.hidden = !roster;
  if (!roster) {
    fill(el);
    return;
  }
  if (!roster.fetched_at) {
    fill(el, h('h4', { class: 'roster-title' }, t('roster.title')),
      h('p', { class: 'muted small', testid: 'roster-none' }, t('roster.none')));
    return;
  }
  const { mode, query, names: offer } = suggestions(roster, names, active);
  const full = target(mode, names, active, max) < 0;
  const chips = offer.slice(0, SHOWN).map((name) => h('button', {
    type: 'button',
    class: 'roster-chip',
    testid: 'roster-chip',
    disabled: full,
    // a tap must not take the focus from the row being typed before the pick is made
    onpointerdown: (ev) => ev.preventDefault(),
    onclick: () => pick(name, mode),
  }, h('span', { 'aria-hidden': 'true' }, '+ '), name));
  const more = offer.length - chips.length;
  const head = mode === 'complete' ? t('roster.matching', { query }) : t('roster.title');
  fill(el,
    h('div', { class: 'roster-head' },
      h('h4', { class: 'roster-title' }, head),
      h('span', { class: `roster-age${roster.fresh ? '' : ' roster-stale'}`, testid: 'roster-age' }, freshness(roster))),
    roster.fresh ? null : h('p', { class: 'muted small', testid: 'roster-away' }, t('roster.away')),
    chips.length
      ? h('div', { class: 'roster-chips', role: 'group', 'aria-label': head }, chips)
      : h('p', { class: 'muted small', testid: 'roster-empty' }, t(roster.players.length ? 'roster.allSeated' : 'roster.empty')),
    more > 0 ? h('p', { class: 'muted small' }, t('roster.more', { n: more })) : null,
    full && chips.length ? h('p', { class: 'muted small' }, t('roster.full')) : null);
}
