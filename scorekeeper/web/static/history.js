// The hands' history: a table of every hand's points, its marks and its legend.
import { playerColor } from './chart.js';
import { page } from './games.js';
import { openHandInfo } from './hand-info.js';
import { t } from './i18n.js';
import { shortNames } from './shortnames.js';
import { $, fill, h, num, signed } from './util.js';
import { handMarks } from './variants.js';

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

export function renderHistory(g) {
  const hands = g.hands || [];
  const box = $('#history');
  $('#undo-btn').hidden = !page.admin || hands.length === 0;
  if (!hands.length) {
    fill(box, h('p', { class: 'muted center', testid: 'history-empty' },
      page.admin ? t('history.firstHand') : t('history.none')));
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
