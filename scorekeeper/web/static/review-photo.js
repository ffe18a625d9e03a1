// The review's photo: a box and a label per read card over it, the labels laid out so
// none covers another, and a tap outside every box to add a card the reader missed.
import { cardName, suitClass } from './cards.js';
import { t } from './i18n.js';
import { openPicker } from './review-picker.js';
import {
  cardFace, cardFlags, editCard, maybeButton, removeCard, renderReview, review,
} from './review.js';
import { unreadOverlay } from './review-unread.js';
import { ordered } from './scanread.js';
import { swipeable } from './swipe.js';
import { fill, h } from './util.js';

export function renderOverlay(bad) {
  const ov = review.els.overlay;
  if (!review.nat) {
    fill(ov);
    return;
  }
  const { w, h: ht } = review.nat;
  const place = (b) => `left:${(b[0] / w) * 100}%;top:${(b[1] / ht) * 100}%;`
    + `width:${((b[2] - b[0]) / w) * 100}%;height:${((b[3] - b[1]) / ht) * 100}%`;
  const boxes = [];
  const labels = [];
  for (const c of ordered(review.cards)) {
    if (!c.box) continue;
    const f = cardFlags(c, bad);
    boxes.push(h('div', {
      class: `scan-box${f.cls}`,
      testid: `scan-box-${c.id}`,
      style: place(c.box),
      ...f.attrs,
      onclick: (ev) => {
        ev.stopPropagation();
        editCard(c.id);
      },
    }));
    const label = h('div', { class: `scan-label ${suitClass(c.card)}${f.cls}`, testid: `scan-label-${c.id}`, ...f.attrs, 'data-box': c.box.join(',') },
      h('button', {
        type: 'button',
        class: 'scan-label-main',
        onclick: (ev) => {
          ev.stopPropagation();
          editCard(c.id);
        },
      }, ...cardFace(c, t('scan.change'))),
      h('button', {
        type: 'button',
        class: 'scan-x',
        testid: `scan-remove-${c.id}`,
        'aria-label': t('scan.removeCard', { card: cardName(c.card) }),
        onclick: (ev) => {
          ev.stopPropagation();
          removeCard(c.id);
        },
      }, '✕'));
    swipeable(label, () => removeCard(c.id));
    labels.push(label);
  }
  for (const m of review.maybe) {
    boxes.push(h('div', { class: 'scan-box maybe', testid: `scan-maybe-box-${m.key}`, style: place(m.box) }));
    labels.push(h('div', { class: `scan-label maybe ${suitClass(m.card)}`, testid: `scan-maybe-${m.key}`, 'data-card': m.card, 'data-box': m.box.join(',') },
      maybeButton(m, 'scan-label-main')));
  }
  const unread = unreadOverlay(place);
  boxes.push(...unread.boxes);
  labels.push(...unread.labels);
  if (review.pick?.mode === 'add' && review.pick.box) {
    boxes.push(h('div', { class: 'scan-box ghost', testid: 'scan-box-new', style: place(review.pick.box) }));
  }
  fill(ov, ...boxes, ...labels);
  layoutLabels();
}

/**
 * Labels go just below their box (the index in the card's top corner stays visible), or
 * above it when that is free, else beside it; one that would cover another moves down a
 * row, so a fan of overlapping cards gets a readable stack of labels. A corner the reader
 * could not read (an unread mark of kind "index") is what the players must look at: its box
 * is kept clear of every label, and its "?" is placed first, beside it. The labels are sized
 * in rem (app.css), so they grow with the phone's text size; the gaps between them grow too.
 * When they cannot all sit whole without covering each other (a crowded fan, large text on
 * a narrow phone), they go compact (the card's name, no ✕: the chips below the photo keep
 * every action), and a label that still finds no free place is left out (its box stays).
 */
export function layoutLabels() {
  if (!review?.nat) return;
  const ov = review.els.overlay;
  const W = ov.clientWidth;
  const H = ov.clientHeight;
  if (!W || !H) return;
  ov.classList.remove('compact');
  if (placeLabels(ov, W, H, false)) return;
  ov.classList.add('compact');
  placeLabels(ov, W, H, true);
}

/** Place every label (`layoutLabels`); whether none covers another. `leaveOut`: one that
 * would is hidden instead. */
function placeLabels(ov, W, H, leaveOut) {
  const sx = W / review.nat.w;
  const sy = H / review.nat.h;
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const gap = (3 * rem) / 16; // 3 px at the default text size
  const clear = (2 * rem) / 16; // how far a label keeps off what it must not cover
  const boxOf = (el) => el.dataset.box.split(',').map(Number);
  const corner = (el) => el.dataset.kind === 'index';
  const labels = [...ov.querySelectorAll('.scan-label')];
  for (const el of labels) el.classList.remove('off');
  // kept clear: the corners no card was read from
  const placed = labels.filter(corner).map((el) => {
    const b = boxOf(el);
    return { x: b[0] * sx, y: b[1] * sy, w: (b[2] - b[0]) * sx, h: (b[3] - b[1]) * sy };
  });
  const near = (x, y, w, ht, m) => placed.find((p) => x < p.x + p.w + m && p.x < x + w + m && y < p.y + p.h + m && p.y < y + ht + m);
  const hits = (x, y, w, ht) => near(x, y, w, ht, clear);
  labels.sort((a, b) => {
    const ba = boxOf(a);
    const bb = boxOf(b);
    return corner(b) - corner(a) || ba[3] - bb[3] || ba[0] - bb[0];
  });
  let free = true;
  for (const el of labels) {
    const b = boxOf(el);
    const lw = el.offsetWidth;
    const lh = el.offsetHeight;
    const left = b[0] * sx;
    const right = b[2] * sx;
    const top = b[1] * sy;
    const bottom = b[3] * sy;
    const x = Math.max(0, Math.min(W - lw, left));
    const clampY = (y) => Math.max(0, Math.min(H - lh, y));
    const below = { x, y: bottom + gap };
    const above = { x, y: top - lh - gap };
    const besideR = { x: right + gap, y: clampY(top) };
    const besideL = { x: left - lw - gap, y: clampY(top) };
    const order = corner(el) ? [besideR, besideL, below, above] : [below, above, besideR, besideL];
    const tries = order.filter((p) => p.x >= 0 && p.x <= W - lw && p.y >= 0 && p.y <= H - lh);
    let spot = tries.find((p) => !hits(p.x, p.y, lw, lh));
    if (spot === undefined) {
      spot = { x, y: clampY(bottom + gap <= H - lh ? bottom + gap : top - lh - gap) };
      for (let n = 0; n < 12; n++) {
        const hit = hits(spot.x, spot.y, lw, lh);
        if (!hit) break;
        spot.y = hit.y + hit.h + gap;
        if (spot.y + lh > H) {
          spot.y = H - lh;
          break;
        }
      }
      if (hits(spot.x, spot.y, lw, lh)) spot = freeSpot(spot, { left, right, top, bottom, lw, lh, W, H, gap }, placed);
    }
    if (near(spot.x, spot.y, lw, lh, -0.5)) {
      free = false;
      // a corner's "?" is never left out: it is what the players must answer
      if (leaveOut && !corner(el)) {
        el.classList.add('off');
        continue;
      }
    }
    placed.push({ x: spot.x, y: spot.y, w: lw, h: lh });
    el.style.left = `${spot.x}px`;
    el.style.top = `${spot.y}px`;
  }
  return free;
}

/**
 * The stack ran off the photo (large text, a crowded fan): the free place nearest the box,
 * tried beside the box, at the photo's edges and against every label already placed; none
 * free: the place that covers least of the others.
 */
function freeSpot(spot, { left, right, top, bottom, lw, lh, W, H, gap }, placed) {
  const xs = [spot.x, right + gap, left - lw - gap, 0, W - lw];
  const ys = [spot.y, top, bottom - lh, 0, H - lh];
  for (const p of placed) {
    xs.push(p.x + p.w + gap, p.x - lw - gap, p.x);
    ys.push(p.y + p.h + gap, p.y - lh - gap, p.y);
  }
  const span = (a, aw, b, bw) => Math.max(0, Math.min(a + aw + gap, b + bw) - Math.max(a, b - gap));
  const covered = (x, y) => placed.reduce((sum, p) => sum + span(x, lw, p.x, p.w) * span(y, lh, p.y, p.h), 0);
  const apart = (x, y) => Math.hypot(Math.max(0, left - x - lw, x - right), Math.max(0, top - y - lh, y - bottom));
  let best = null;
  for (const x of xs) {
    if (x < 0 || x > W - lw) continue;
    for (const y of ys) {
      if (y < 0 || y > H - lh) continue;
      const c = covered(x, y);
      const d = apart(x, y);
      if (!best || c < best.c || (c === best.c && d < best.d)) best = { x, y, c, d };
    }
  }
  return best ? { x: best.x, y: best.y } : spot;
}

function typicalSize() {
  const sizes = review.cards.filter((c) => c.box).map((c) => [c.box[2] - c.box[0], c.box[3] - c.box[1]]);
  if (!sizes.length) return [review.nat.w * 0.1, review.nat.w * 0.14];
  const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return [med(sizes.map((s) => s[0])), med(sizes.map((s) => s[1]))];
}

/** A tap on the photo outside every box: a card the reader missed, right there. */
function tapPhoto(ev) {
  if (ev.target !== review.els.overlay || !review.nat) return;
  const r = review.els.overlay.getBoundingClientRect();
  const x = ((ev.clientX - r.left) / r.width) * review.nat.w;
  const y = ((ev.clientY - r.top) / r.height) * review.nat.h;
  const [bw, bh] = typicalSize();
  const x1 = Math.max(0, Math.min(review.nat.w - bw, x - bw / 2));
  const y1 = Math.max(0, Math.min(review.nat.h - bh, y - bh / 2));
  openPicker({ mode: 'add', group: 'hand', box: [x1, y1, x1 + bw, y1 + bh].map(Math.round) });
}

/** The review's photo: its load marks where the boxes go, its failure says so. */
export function reviewPhoto(els, player) {
  els.overlay = h('div', { class: 'scan-overlay', testid: 'scan-overlay', onclick: tapPhoto });
  els.img = h('img', { class: 'scan-photo', testid: 'scan-photo', alt: t('scan.photoAlt', { name: player }), decoding: 'async' });
  els.photoWrap = h('div', { class: 'scan-photo-wrap loading', testid: 'scan-photo-wrap' }, els.img, els.overlay);
  const mine = review;
  els.img.addEventListener('load', () => {
    if (review !== mine) return;
    review.nat = { w: els.img.naturalWidth, h: els.img.naturalHeight };
    els.photoWrap.classList.remove('loading');
    renderReview();
  });
  els.img.addEventListener('error', () => {
    if (review !== mine) return;
    els.photoWrap.classList.remove('loading');
    els.photoWrap.classList.add('failed');
    els.photoWrap.dataset.msg = t('scan.photoFailed');
  });
}
