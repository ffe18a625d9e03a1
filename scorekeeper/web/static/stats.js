// The players' statistics across the games kept on this table (GET /api/stats): a card per
// player, per variant, whose figures wrap under each other on a narrow phone.
import { api } from './api.js';
import { language, t } from './i18n.js';
import { $, fill, h, num, openDialog } from './util.js';
import { variantLabel } from './variants.js';

function decimal(n) {
  return n.toLocaleString(language(), { maximumFractionDigits: 1 });
}

function percent(n) {
  return n.toLocaleString(language(), { style: 'percent', maximumFractionDigits: 0 });
}

/** A player's figures as label and value; knocks only where the variant has them. */
export function figures(p, knocks) {
  const out = [
    ['stats.games', num(p.games)],
    ['stats.wins', num(p.wins)],
    ['stats.winRate', percent(p.win_rate)],
    ['stats.average', decimal(p.average)],
    ['stats.handsWon', num(p.hands_won)],
    ['stats.wentOut', num(p.went_out)],
  ];
  if (knocks) out.push(['stats.knocks', num(p.knocks)], ['stats.undercut', num(p.undercut)]);
  out.push(['stats.best', num(p.best_hand)]);
  return out;
}

function playerCard(table, p, i) {
  return h('li', { class: 'stats-player', testid: `stats-${table.variant}-${i}` },
    h('h4', { class: 'stats-name' }, p.name),
    h('dl', { class: 'stats-figures' },
      figures(p, table.knocks).map(([key, value]) =>
        h('div', { class: 'stats-figure' }, h('dt', {}, t(key)), h('dd', {}, value)))));
}

function variantSection(table) {
  return h('section', { class: 'stats-variant', testid: `stats-variant-${table.variant}` },
    h('h3', {}, variantLabel(table.variant)),
    h('p', { class: 'muted small' }, t(table.low_wins ? 'club.lowBest' : 'club.highBest')),
    h('ol', { class: 'stats-players' }, table.players.map((p, i) => playerCard(table, p, i))));
}

export async function openStats() {
  const dlg = $('#stats');
  const scroll = h('div', { class: 'sheet-scroll', tabindex: '0', testid: 'stats-body' },
    h('p', { class: 'muted' }, t('app.loading')));
  fill($('#stats-body'),
    h('header', { class: 'sheet-head' },
      h('button', { type: 'button', class: 'icon-btn', 'data-close': true, 'aria-label': t('btn.close'), testid: 'stats-close' }, '✕'),
      h('div', { class: 'sheet-title' }, h('h2', {}, t('stats.title')))),
    scroll);
  openDialog(dlg);
  let stats;
  try {
    stats = await api.stats();
  } catch (e) {
    fill(scroll, h('p', { class: 'error', role: 'alert', testid: 'stats-error' }, t('stats.error', { error: e.message })));
    return;
  }
  fill(scroll,
    h('p', { class: 'muted small' }, t('stats.note')),
    stats.variants.length
      ? stats.variants.map(variantSection)
      : h('p', { class: 'muted center', testid: 'stats-none' }, t('stats.none')));
}
