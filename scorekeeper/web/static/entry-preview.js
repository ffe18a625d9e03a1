// The entry form's live preview: asked of /preview as the hand changes, and drawn.
import { api } from './api.js';
import { cardText, chipRow } from './cards.js';
import { hasInput, requestBody } from './entry-players.js';
import { handEntry } from './entry.js';
import { t } from './i18n.js';
import { missingEnder, missingPoints } from './messages.js';
import { debounce, fill, h, num, signed } from './util.js';
import { scoresDeadwood } from './variants.js';

let previewSeq = 0;

export async function runPreview() {
  if (!handEntry) return;
  const mine = ++previewSeq;
  if (!hasInput()) {
    handEntry.preview = null;
    handEntry.previewError = null;
    renderPreview();
    return;
  }
  const missing = missingEnder(handEntry.variant, handEntry.players) || missingPoints(handEntry.variant, handEntry.players);
  if (missing) {
    handEntry.preview = null;
    handEntry.previewError = missing;
    handEntry.previewLoading = false;
    renderPreview();
    return;
  }
  handEntry.previewLoading = true;
  renderPreview();
  try {
    const result = await api.preview(handEntry.game.id, requestBody());
    if (!handEntry || mine !== previewSeq) return;
    handEntry.preview = result;
    handEntry.previewError = null;
    handEntry.previewStale = false;
  } catch (e) {
    if (!handEntry || mine !== previewSeq) return;
    if (e.status === 0 && handEntry.preview) {
      handEntry.previewStale = true; // no network: the last preview stays, said to be older
    } else {
      handEntry.preview = null;
      handEntry.previewError = e.message;
    }
  }
  handEntry.previewLoading = false;
  renderPreview();
}

export const schedulePreview = debounce(runPreview, 300);

/** The sheet closed: a preview still due is not asked for, one on its way is not shown. */
export function dropPreview() {
  schedulePreview.cancel();
  previewSeq++;
}

function resultRowFor(result, name) {
  return (result?.players || []).find((r) => r.name === name);
}

/** A figure's cell. Its column's name, shown beside it when the rows stack, is hidden from
 * screen readers: the column's head says it to them. */
function figure(cls, testid, key, value) {
  return h('td', { class: `num ${cls}` },
    h('span', { class: 'pv-k', 'aria-hidden': 'true' }, t(key)), h('span', { testid }, value));
}

// Too narrow for its columns (large text, a small phone, long words): each player's figures
// go under the name, each with its column's name, rather than run past the screen's edge
// or end more names in "…" than need be. Measured as drawn, and as the preview's width changes.
const watched = new WeakSet();
function fitPreview(box) {
  const table = box.querySelector('.pv-table');
  if (table) {
    const stack = (on) => {
      table.classList.toggle('stacked', on);
      table.tHead.classList.toggle('sr-only', on); // the columns' names go beside each figure
    };
    const cut = () => [...table.querySelectorAll('.pv-nm .whole-name')].filter((n) => n.scrollWidth > n.clientWidth + 1).length;
    stack(false);
    const room = box.getBoundingClientRect().right - parseFloat(getComputedStyle(box).paddingRight);
    const wide = table.getBoundingClientRect().right > room + 1;
    const cutInColumns = cut();
    if (wide || cutInColumns) {
      stack(true);
      // a name too long for any line is cut either way: then the columns stay
      if (!wide && cut() >= cutInColumns) stack(false);
    }
  }
  if (watched.has(box) || typeof ResizeObserver !== 'function') return;
  watched.add(box);
  let width = box.clientWidth;
  new ResizeObserver(() => {
    if (box.clientWidth === width) return;
    width = box.clientWidth;
    fitPreview(box);
  }).observe(box);
}

function previewRow(r, p, i, editing) {
  const row = resultRowFor(r, p.name) || {};
  const detail = [];
  if (Array.isArray(row.melds) && row.melds.length) {
    detail.push(h('span', { class: 'pv-melds' },
      row.melds.map((m) => chipRow(Array.isArray(m) ? m : m?.cards || []))));
  }
  if (Array.isArray(row.unmelded) && row.unmelded.length && scoresDeadwood(handEntry.variant)) {
    detail.push(h('span', { class: 'pv-dead' }, t('entry.left'), chipRow(row.unmelded)));
  }
  return h(
    'tr',
    { testid: `preview-row-${i}`, class: row.eliminated ? 'out' : '' },
    h('td', { class: 'pv-name' },
      h('div', { class: 'pv-nm' }, h('span', { class: 'whole-name', title: p.name }, p.name),
        row.eliminated ? h('span', { class: 'tag tag-elim' }, t('entry.out')) : null),
      detail.length ? h('div', { class: 'pv-detail' }, detail) : null),
    scoresDeadwood(handEntry.variant) ? figure('', null, 'entry.dead', num(row.deadwood)) : null,
    figure('pv-points', `preview-points-${i}`, 'entry.points', signed(row.points)),
    editing ? null : figure('pv-total', `preview-total-${i}`, 'entry.total', num(row.total)),
  );
}

/** Chicago: whether the knock was legal, the penalty, and a knocker's eighth card. */
function previewKnock(r) {
  const k = r.knock;
  const legal = k.legal !== false;
  const dropped = resultRowFor(r, k.player)?.dropped;
  return h('p', { class: `knock ${legal ? 'legal' : 'illegal'}`, testid: 'preview-knock' },
    h('strong', {}, legal ? t('knock.legal') : t('knock.over')),
    t('knock.line', { player: k.player, deadwood: num(k.deadwood), limit: num(k.limit) }),
    k.penalty ? t('knock.penalty', { n: k.penalty }) : '',
    dropped ? t('knock.eighth', { card: cardText(dropped) }) : '');
}

export function renderPreview() {
  const box = handEntry.els.preview;
  const r = handEntry.preview;
  const head = h('div', { class: 'preview-head' },
    h('strong', {}, t('entry.preview')),
    handEntry.previewLoading ? h('span', { class: 'spinner spinner-dark', 'aria-hidden': 'true' }) : null);
  if (handEntry.previewError) {
    // said once: when saving was refused for the same reason, the error below says it
    const said = handEntry.previewError === handEntry.error ? null
      : h('p', { class: 'preview-note', testid: 'preview-error' }, handEntry.previewError);
    fill(box, head, said);
    return;
  }
  if (!r) {
    fill(box, head, h('p', { class: 'preview-note muted' }, t('entry.previewHint')));
    return;
  }
  const editing = handEntry.n != null;
  const stale = handEntry.previewStale
    ? h('p', { class: 'preview-note', testid: 'preview-stale' }, t('offline.preview')) : null;
  const parts = [head, stale, r.knock ? previewKnock(r) : null];
  parts.push(h('table', { class: 'pv-table' },
    h('thead', {}, h('tr', {},
      h('th', {}, t('entry.player')),
      scoresDeadwood(handEntry.variant) ? h('th', { class: 'num' }, t('entry.dead')) : null,
      h('th', { class: 'num' }, t('entry.points')),
      editing ? null : h('th', { class: 'num' }, t('entry.total')))),
    h('tbody', {}, handEntry.players.map((p, i) => previewRow(r, p, i, editing)))));
  if (Array.isArray(r.tie_at_top) && r.tie_at_top.length && !editing) {
    parts.push(h('p', { class: 'preview-note' }, t('entry.tie', { names: r.tie_at_top.join(', ') })));
  }
  if (r.game_over && !editing) {
    parts.push(h('p', { class: 'pv-over', testid: 'preview-game-over' },
      r.winner ? t(r.instant_win ? 'entry.winsInstant' : 'entry.wins', { name: r.winner }) : t('entry.draw')));
  }
  fill(box, ...parts);
  fitPreview(box);
}
