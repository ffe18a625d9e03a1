// The cards the reader saw but could not read (the scan's `unread` boxes): each is marked
// "?" on the photo and listed, and the hand cannot be confirmed until each is answered,
// by picking the card there or by saying it is no card. Never a silent miss.
import { t } from './i18n.js';
import { openPicker } from './review-picker.js';
import { renderReview, review } from './review.js';
import { validBox } from './scanread.js';
import { fill, h } from './util.js';

/** The scan's unread boxes as the review keeps them (numbered from 1 as the photo shows). */
export function unreadMarks(result) {
  return (Array.isArray(result?.unread) ? result.unread : [])
    .filter((m) => validBox(m?.box))
    .map((m, key) => ({ key, n: key + 1, box: m.box.map(Number), kind: m.kind === 'index' ? 'index' : 'card' }));
}

/** A mark is answered once a card was added from it (the picker keeps its box). */
export function pruneUnread() {
  review.unread = review.unread.filter((m) => !review.cards.some((c) => c.box === m.box));
}

/** The mark's name on the photo: "?" alone, "?1", "?2"… when there are several. */
const tag = (m) => (review.unread.length > 1 || m.n > 1 ? `?${m.n}` : '?');

export function addUnread(key) {
  const m = review.unread.find((x) => x.key === key);
  if (m) openPicker({ mode: 'add', group: 'hand', box: m.box });
}

export function dismissUnread(key) {
  review.unread = review.unread.filter((x) => x.key !== key);
  renderReview();
}

/** A corner seen but not read (kind "index") is marked by corner brackets, a card's body
 * by a whole dashed box: the two ask the players to look for different things. */
const corner = (m) => m.kind === 'index';
const addLabel = (m) => t(corner(m) ? 'scan.unreadAddCorner' : 'scan.unreadAdd', { n: m.n });

/** The marks' boxes and labels for the photo's overlay (review-photo.js lays them out). */
export function unreadOverlay(place) {
  const boxes = [];
  const labels = [];
  for (const m of review.unread) {
    const open = (ev) => {
      ev.stopPropagation();
      addUnread(m.key);
    };
    const cls = `unread${corner(m) ? ' corner' : ''}`;
    boxes.push(h('div', { class: `scan-box ${cls}`, testid: `scan-unread-box-${m.key}`, 'data-kind': m.kind, style: place(m.box), onclick: open }));
    labels.push(h('div', { class: `scan-label ${cls}`, testid: `scan-unread-label-${m.key}`, 'data-box': m.box.join(','), 'data-kind': m.kind },
      h('button', { type: 'button', class: 'scan-label-main', 'aria-label': addLabel(m), onclick: open }, tag(m))));
  }
  return { boxes, labels };
}

/** "1 card here I cannot read: add it", with each mark's two answers. */
export function renderUnread() {
  const el = review.els.unread;
  const marks = review.unread;
  el.hidden = !marks.length;
  if (!marks.length) {
    fill(el);
    return;
  }
  fill(el,
    h('div', { class: 'scan-group-head' },
      h('strong', {}, t('scan.unread', { n: marks.length })),
      h('span', { class: 'muted small' }, t('scan.unreadHint'))),
    h('div', { class: 'scan-chips' }, marks.map((m) => h('div', { class: 'scan-chip unread', testid: `scan-unread-chip-${m.key}` },
      h('button', { type: 'button', class: 'scan-chip-main', 'aria-label': addLabel(m), onclick: () => addUnread(m.key) },
        h('span', { 'aria-hidden': 'true' }, `${tag(m)} +`)),
      h('button', {
        type: 'button',
        class: 'scan-chip-no',
        testid: `scan-unread-no-${m.key}`,
        'aria-label': t(corner(m) ? 'scan.notACardCorner' : 'scan.notACardLabel', { n: m.n }),
        onclick: () => dismissUnread(m.key),
      }, t('scan.notACard'))))));
}
