// Scanning a player's cards (admin only): the review screen (the annotated photo with a
// box and label per card, the read cards as chips, corrections through the card picker),
// the one-glance "Knock?" check for Chicago, and the camera panel to aim the table camera.
import { api } from './api.js';
import {
  JOKER, cardCode, cardLabel, cardName, chipRow, deckRules, parseCard, pickerGrid, suitClass,
} from './cards.js';
import { language, t } from './i18n.js';
import { knockVerdict } from './knock.js';
import { $, h, s, fill, num, openDialog, closeDialog } from './util.js';
import {
  countCodes, groupMode, impossibleCards, ordered, readCards, shortOfHand, validBox,
} from './scanread.js';
import { VARIANTS } from './variants.js';

export const LOW_CONFIDENCE = 0.8; // below this a read card is marked for checking
const SWIPE_PX = 56; // a label or chip dragged this far left is removed
const SHRINK_OVER = 1_500_000; // photos bigger than this (bytes) are scaled down before upload
const MAX_SIDE = 2048;

// ---- icons (inline: no emoji font needed) --------------------------------------------

const ICONS = {
  camera: 'M9 3 7.2 5H4a2 2 0 0 0-2 2v11a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-3.2L15 3H9zm3 5a5 5 0 1 1 0 10 5 5 0 0 1 0-10zm0 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6z',
  photo: 'M4 4h16a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zm0 2v9.5l4.5-4.5 4 4 2.5-2.5 5 5V6H4zm12.5 1a2 2 0 1 1 0 4 2 2 0 0 1 0-4z',
  aim: 'M11 2h2v3.07A7 7 0 0 1 18.93 11H22v2h-3.07A7 7 0 0 1 13 18.93V22h-2v-3.07A7 7 0 0 1 5.07 13H2v-2h3.07A7 7 0 0 1 11 5.07V2zm1 5a5 5 0 1 0 0 10 5 5 0 0 0 0-10zm0 3a2 2 0 1 1 0 4 2 2 0 0 1 0-4z',
};

/** A small filled icon for a button: 'camera', 'photo' or 'aim'. */
export function icon(name) {
  return s('svg', { viewBox: '0 0 24 24', class: 'ico', 'aria-hidden': 'true' },
    s('path', { d: ICONS[name], 'fill-rule': 'evenodd' }));
}

// ---- scanning -------------------------------------------------------------------------

/** A big phone photo, scaled down on the phone: a quicker upload and decode on the Pi. */
export async function shrinkPhoto(file) {
  if (!file || file.size < SHRINK_OVER || typeof createImageBitmap !== 'function') return file;
  try {
    const bmp = await createImageBitmap(file, { imageOrientation: 'from-image' });
    const scale = Math.min(1, MAX_SIDE / Math.max(bmp.width, bmp.height));
    if (scale >= 1) {
      bmp.close?.();
      return file;
    }
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bmp.width * scale);
    canvas.height = Math.round(bmp.height * scale);
    canvas.getContext('2d').drawImage(bmp, 0, 0, canvas.width, canvas.height);
    bmp.close?.();
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.9));
    if (!blob) return file;
    const name = `${(file.name || 'photo').replace(/\.[^.]*$/, '')}.jpg`;
    return new File([blob], name, { type: 'image/jpeg' });
  } catch {
    return file; // the server reads the original as well
  }
}

/** Scan `player`'s cards: with the table camera, or from `file` (a photo) when given. */
export async function scanCards({ game, player, file }) {
  const photo = file ? await shrinkPhoto(file) : null;
  return api.scan(game.id, player, photo);
}

/** What to do about a failed scan, in a line. */
export function scanHint(err) {
  const msg = String(err?.message || '');
  if (/^camera\b/i.test(msg)) return t('scan.hintCamera');
  if (/card reader unavailable/i.test(msg)) return t('scan.hintReader');
  if (err?.status === 415) return t('scan.hint415');
  if (err?.status === 413) return t('scan.hint413');
  return t('scan.hintRetry');
}

/** A hidden file input that opens the phone's camera (or its photos) for one picture. */
export function photoInput({ testid, onFile }) {
  return h('input', {
    type: 'file',
    accept: 'image/*',
    capture: 'environment',
    hidden: true,
    testid,
    onchange: (ev) => {
      const file = ev.target.files?.[0];
      ev.target.value = ''; // the same photo may be chosen again
      if (file) onFile(file);
    },
  });
}

// ---- swipe to remove ------------------------------------------------------------------

/** Drag `el` left past SWIPE_PX to remove it; a drag never counts as a tap. */
function swipeable(el, onRemove) {
  let start = null;
  let dx = 0;
  let dragging = false;
  el.addEventListener('pointerdown', (ev) => {
    if (ev.button > 0) return;
    start = { x: ev.clientX, y: ev.clientY, id: ev.pointerId };
    dx = 0;
    dragging = false;
  });
  el.addEventListener('pointermove', (ev) => {
    if (!start || ev.pointerId !== start.id) return;
    dx = ev.clientX - start.x;
    const dy = ev.clientY - start.y;
    if (!dragging && Math.abs(dx) > 8 && Math.abs(dx) > Math.abs(dy)) {
      dragging = true;
      el.classList.add('swiping');
      try {
        el.setPointerCapture(ev.pointerId);
      } catch {
        /* synthetic pointers */
      }
    }
    if (dragging) {
      const x = Math.min(0, dx);
      el.style.transform = `translateX(${x}px)`;
      el.style.opacity = String(Math.max(0.3, 1 + x / (SWIPE_PX * 2.5)));
    }
  });
  const end = (ev) => {
    if (!start || ev.pointerId !== start.id) return;
    start = null;
    el.classList.remove('swiping');
    if (!dragging) return;
    el.dataset.swiped = '1'; // swallow the click that follows the drag
    setTimeout(() => delete el.dataset.swiped, 0);
    if (dx <= -SWIPE_PX) {
      onRemove();
      return;
    }
    el.style.transform = '';
    el.style.opacity = '';
  };
  el.addEventListener('pointerup', end);
  el.addEventListener('pointercancel', end);
  el.addEventListener('click', (ev) => {
    if (el.dataset.swiped) {
      ev.stopPropagation();
      ev.preventDefault();
    }
  }, true);
}

// ---- the review screen ----------------------------------------------------------------

let rv = null; // the open review

const isLow = (c) => c.conf != null && c.conf < LOW_CONFIDENCE;
// floored, so a card marked unsure never reads as the threshold itself (79.6 % → 79 %)
const pct = (c) => percent(Math.floor(c.conf * 100) / 100);

/** A share as the page's language writes it (80 %, 80%). */
function percent(x) {
  return new Intl.NumberFormat(language(), { style: 'percent', maximumFractionDigits: 0 }).format(x);
}
const byCard = (id) => rv.cards.find((c) => c.id === id);

/** Cards this hand cannot hold: more copies than the decks have, counting other players. */
function impossible() {
  return impossibleCards(rv.cards, deckRules(rv.variant, rv.settings), rv);
}

function removeCard(id) {
  rv.cards = rv.cards.filter((c) => c.id !== id);
  pruneMelds();
  renderReview();
}

function pruneMelds() {
  rv.meldIds = rv.meldIds.filter((m) => rv.cards.some((c) => c.group === m));
}

function groupTitle(g) {
  if (g === 'hand') {
    if (rv.mode === 'whole') return t('scan.hand');
    return rv.mode === 'melds' ? t('scan.inHand') : t('scan.leftInHand');
  }
  const n = rv.meldIds.indexOf(g) + 1;
  return rv.mode === 'melds' ? t('scan.meld', { n }) : t('scan.laidDown', { n });
}

function groupHint(g, count) {
  if (g === 'hand') {
    if (rv.mode === 'whole') return t('scan.wholeHint', { n: count });
    return rv.mode === 'melds' ? t('scan.countsMinus') : t('scan.theseScore');
  }
  return rv.mode === 'melds' ? t('scan.countsPlus') : t('scan.notCounted');
}

function cardFlags(c, bad) {
  const low = isLow(c);
  const wrong = bad.has(c.card);
  return {
    cls: `${low ? ' low' : ''}${wrong ? ' bad' : ''}${rv.pick?.id === c.id ? ' sel' : ''}`,
    attrs: { 'data-card': c.card, 'data-low': low ? 'true' : 'false', 'data-impossible': wrong ? 'true' : 'false' },
  };
}

function renderOverlay(bad) {
  const ov = rv.els.overlay;
  if (!rv.nat) {
    fill(ov);
    return;
  }
  const { w, h: ht } = rv.nat;
  const place = (b) => `left:${(b[0] / w) * 100}%;top:${(b[1] / ht) * 100}%;`
    + `width:${((b[2] - b[0]) / w) * 100}%;height:${((b[3] - b[1]) / ht) * 100}%`;
  const boxes = [];
  const labels = [];
  for (const c of ordered(rv.cards)) {
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
  for (const m of rv.maybe) {
    boxes.push(h('div', { class: 'scan-box maybe', testid: `scan-maybe-box-${m.key}`, style: place(m.box) }));
    labels.push(h('div', { class: `scan-label maybe ${suitClass(m.card)}`, testid: `scan-maybe-${m.key}`, 'data-card': m.card, 'data-box': m.box.join(',') },
      maybeButton(m, 'scan-label-main')));
  }
  if (rv.pick?.mode === 'add' && rv.pick.box) {
    boxes.push(h('div', { class: 'scan-box ghost', testid: 'scan-box-new', style: place(rv.pick.box) }));
  }
  fill(ov, ...boxes, ...labels);
  layoutLabels();
}

/**
 * Labels go just below their box (the index in the card's top corner stays visible), or
 * above it when that is free; one that would cover another moves down a row, so a fan of
 * overlapping cards gets a readable stack of labels.
 */
function layoutLabels() {
  if (!rv?.nat) return;
  const ov = rv.els.overlay;
  const W = ov.clientWidth;
  const H = ov.clientHeight;
  if (!W || !H) return;
  const placed = [];
  const hits = (x, y, w, ht) => placed.find((p) => x < p.x + p.w + 2 && p.x < x + w + 2 && y < p.y + p.h + 2 && p.y < y + ht + 2);
  const boxOf = (el) => el.dataset.box.split(',').map(Number);
  const labels = [...ov.querySelectorAll('.scan-label')];
  labels.sort((a, b) => {
    const ba = boxOf(a);
    const bb = boxOf(b);
    return ba[3] - bb[3] || ba[0] - bb[0];
  });
  for (const el of labels) {
    const b = boxOf(el);
    const lw = el.offsetWidth;
    const lh = el.offsetHeight;
    const x = Math.max(0, Math.min(W - lw, (b[0] / rv.nat.w) * W));
    const top = (b[1] / rv.nat.h) * H;
    const bottom = (b[3] / rv.nat.h) * H;
    const clampY = (y) => Math.max(0, Math.min(H - lh, y));
    const tries = [bottom + 3, top - lh - 3].filter((y) => y >= 0 && y <= H - lh);
    let y = tries.find((t) => !hits(x, t, lw, lh));
    if (y === undefined) {
      y = clampY(tries[0] ?? bottom - lh - 3);
      for (let n = 0; n < 12; n++) {
        const hit = hits(x, y, lw, lh);
        if (!hit) break;
        y = hit.y + hit.h + 3;
        if (y + lh > H) {
          y = H - lh;
          break;
        }
      }
    }
    placed.push({ x, y, w: lw, h: lh });
    el.style.left = `${x}px`;
    el.style.top = `${y}px`;
  }
}

/** A read card's face, and its spoken name (which then always includes what is shown). */
function cardFace(c, verb) {
  const low = isLow(c) ? pct(c) : null;
  return [
    h('span', { 'aria-hidden': 'true' }, cardLabel(c.card)),
    low ? h('small', { 'aria-hidden': 'true' }, low) : null,
    h('span', { class: 'sr-only' }, `${verb} ${low ? t('scan.sure', { name: cardName(c.card), pct: low }) : cardName(c.card)}`),
  ];
}

/** A card the reader was unsure of (under its card threshold): one tap adds it. */
function maybeButton(m, cls) {
  return h('button', {
    type: 'button',
    class: cls,
    'aria-label': t('scan.maybeAdd', { card: cardName(m.card) }),
    onclick: (ev) => {
      ev.stopPropagation();
      addMaybe(m.key);
    },
  }, h('span', { 'aria-hidden': 'true' }, `${cardLabel(m.card)}?`));
}

function addMaybe(key) {
  const m = rv.maybe.find((x) => x.key === key);
  if (!m) return;
  rv.maybe = rv.maybe.filter((x) => x !== m);
  // added by a person: no reader's confidence, and taught to a deck as a hand-added card
  rv.cards.push({ id: rv.nextId++, card: m.card, conf: null, box: m.box, group: 'hand' });
  renderReview();
}

function renderMaybe() {
  const el = rv.els.maybe;
  el.hidden = !rv.maybe.length;
  fill(el, rv.maybe.length ? h('div', { class: 'scan-group-head' },
    h('strong', {}, t('scan.maybeHead')),
    h('span', { class: 'muted small' }, t('scan.maybeHint'))) : null,
  h('div', { class: 'scan-chips' }, rv.maybe.map((m) => h('div', { class: `scan-chip maybe ${suitClass(m.card)}`, testid: `scan-maybe-chip-${m.key}` },
    maybeButton(m, 'scan-chip-main')))));
}

function chipFor(c, bad) {
  const f = cardFlags(c, bad);
  const el = h('div', { class: `scan-chip ${suitClass(c.card)}${f.cls}`, testid: `scan-chip-${c.id}`, ...f.attrs },
    h('button', {
      type: 'button',
      class: 'scan-chip-main',
      onclick: () => editCard(c.id),
    }, ...cardFace(c, t('scan.change'))),
    h('button', {
      type: 'button',
      class: 'scan-chip-x',
      testid: `scan-chip-remove-${c.id}`,
      'aria-label': t('scan.removeCard', { card: cardName(c.card) }),
      onclick: () => removeCard(c.id),
    }, '✕'));
  swipeable(el, () => removeCard(c.id));
  return el;
}

function renderGroups(bad) {
  const groups = rv.mode === 'whole' ? ['hand'] : [...rv.meldIds, 'hand'];
  const boxes = groups.map((g) => {
    const cards = ordered(rv.cards.filter((c) => c.group === g));
    return h('div', { class: `scan-group${g === 'hand' ? ' hand' : ' meld'}`, testid: g === 'hand' ? 'scan-group-hand' : `scan-group-meld-${rv.meldIds.indexOf(g)}` },
      h('div', { class: 'scan-group-head' },
        h('strong', {}, groupTitle(g)),
        h('span', { class: 'muted small' }, groupHint(g, cards.length))),
      h('div', { class: 'scan-chips' },
        cards.map((c) => chipFor(c, bad)),
        g === 'hand'
          ? h('button', { type: 'button', class: 'scan-add', testid: 'scan-add', 'aria-label': t('scan.addCard'), onclick: () => openPicker({ mode: 'add', group: 'hand' }) }, '+')
          : null));
  });
  const none = rv.cards.length
    ? null
    : h('p', { class: 'scan-empty', testid: 'scan-empty' },
      t('scan.noneRead'));
  fill(rv.els.groups, none, ...boxes);
}

function renderWarning(bad) {
  const el = rv.els.warning;
  if (!bad.size) {
    el.hidden = true;
    fill(el);
    return;
  }
  const lines = [...bad].map(([code, b]) => {
    const where = b.others ? t('scan.inOthers', { n: b.others }) : '';
    const deck = b.limit === 1 ? t('scan.deckOne') : t('scan.decksHold', { n: b.limit });
    return h('li', {}, h('strong', {}, cardLabel(code)), ` ×${b.here + b.others}${where}: ${deck}.`);
  });
  el.hidden = false;
  fill(el, h('div', { class: 'scan-warn-head' }, t('scan.impossibleHead')), h('ul', {}, lines));
}

function summary() {
  const hand = rv.cards.filter((c) => c.group === 'hand').length;
  if (rv.mode === 'whole') return t('scan.count', { n: rv.cards.length });
  if (rv.mode === 'laid') return t('scan.confirmWhat', { n: hand });
  return `${t('scan.melds', { n: rv.meldIds.length })} + ${t('scan.confirmWhat', { n: hand })}`;
}

/** A whole hand with cards missing (Chicago: fewer than 7 read): say how many, and put
 * the cards the reader may have seen first, where they are most likely the missing ones. */
function renderShort() {
  const short = rv.mode === 'whole' ? shortOfHand(rv.variant, rv.cards.length) : 0;
  const el = rv.els.short;
  el.hidden = !short;
  fill(el, short ? h('strong', {}, t('scan.short', { n: short, size: VARIANTS[rv.variant].handSize.cards })) : null,
    short && rv.maybe.length ? h('span', {}, ` ${t('scan.shortMaybe')}`) : null);
  if (short && rv.maybe.length) rv.els.groups.before(rv.els.maybe);
  else rv.els.groups.after(rv.els.maybe);
}

function renderReview() {
  if (!rv) return;
  const bad = impossible();
  renderOverlay(bad);
  renderGroups(bad);
  renderMaybe();
  renderShort();
  renderWarning(bad);
  const low = rv.cards.filter(isLow).length;
  rv.els.count.textContent = t('scan.count', { n: rv.cards.length })
    + (low ? t('scan.toCheck', { n: low }) : '');
  rv.els.confirm.disabled = bad.size > 0;
  fill(rv.els.confirm, h('span', {}, t('scan.confirmTick')), h('small', { testid: 'scan-confirm-what' }, summary()));
}

function typicalSize() {
  const sizes = rv.cards.filter((c) => c.box).map((c) => [c.box[2] - c.box[0], c.box[3] - c.box[1]]);
  if (!sizes.length) return [rv.nat.w * 0.1, rv.nat.w * 0.14];
  const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return [med(sizes.map((s) => s[0])), med(sizes.map((s) => s[1]))];
}

/** A tap on the photo outside every box: a card the reader missed, right there. */
function tapPhoto(ev) {
  if (ev.target !== rv.els.overlay || !rv.nat) return;
  const r = rv.els.overlay.getBoundingClientRect();
  const x = ((ev.clientX - r.left) / r.width) * rv.nat.w;
  const y = ((ev.clientY - r.top) / r.height) * rv.nat.h;
  const [bw, bh] = typicalSize();
  const x1 = Math.max(0, Math.min(rv.nat.w - bw, x - bw / 2));
  const y1 = Math.max(0, Math.min(rv.nat.h - bh, y - bh / 2));
  openPicker({ mode: 'add', group: 'hand', box: [x1, y1, x1 + bw, y1 + bh].map(Math.round) });
}

function editCard(id) {
  const c = byCard(id);
  if (c) openPicker({ mode: 'change', id, group: c.group });
}

/**
 * What the game's deck learns once the hand is saved: the reader's cards as the review left
 * them (corrected ones included, each by its number in the scan), and the codes of the cards
 * added by hand (no box of the reader's: the deck keeps them with the photo, unboxed). Null
 * when this scan teaches no deck.
 */
function learnedCards() {
  if (!rv.learn) return null;
  const cards = rv.cards.filter((c) => c.id < rv.readCount).map((c) => ({ read: c.id, card: c.card }));
  const added = rv.cards.filter((c) => c.id >= rv.readCount).map((c) => c.card);
  return cards.length ? { id: rv.learn, cards, added } : null;
}

function confirm() {
  if (impossible().size) return;
  const codes = (g) => ordered(rv.cards.filter((c) => c.group === g)).map((c) => c.card);
  const hand = rv.mode === 'whole' ? ordered(rv.cards).map((c) => c.card) : codes('hand');
  const melds = rv.mode === 'whole' ? [] : rv.meldIds.map(codes).filter((m) => m.length);
  const learn = learnedCards();
  const done = rv.onConfirm;
  closeDialog($('#scan'));
  done?.({ hand, melds, learn });
}

/** The review's photo: its load marks where the boxes go, its failure says so. */
function reviewPhoto(els, player) {
  els.overlay = h('div', { class: 'scan-overlay', testid: 'scan-overlay', onclick: tapPhoto });
  els.img = h('img', { class: 'scan-photo', testid: 'scan-photo', alt: t('scan.photoAlt', { name: player }), decoding: 'async' });
  els.photoWrap = h('div', { class: 'scan-photo-wrap loading', testid: 'scan-photo-wrap' }, els.img, els.overlay);
  const mine = rv;
  els.img.addEventListener('load', () => {
    if (rv !== mine) return;
    rv.nat = { w: els.img.naturalWidth, h: els.img.naturalHeight };
    els.photoWrap.classList.remove('loading');
    renderReview();
  });
  els.img.addEventListener('error', () => {
    if (rv !== mine) return;
    els.photoWrap.classList.remove('loading');
    els.photoWrap.classList.add('failed');
    els.photoWrap.dataset.msg = t('scan.photoFailed');
  });
}

function reviewLegend() {
  return h('div', { class: 'scan-legend', 'aria-hidden': 'true' },
    h('span', { class: 'lg lg-ok' }, t('scan.lgRead')),
    h('span', { class: 'lg lg-low' }, t('scan.lgUnsure', { pct: percent(LOW_CONFIDENCE) })),
    h('span', { class: 'lg lg-bad' }, t('scan.lgBad')));
}

/** Which deck read the scan, what confirming it teaches, and why a deck was not used. */
function deckNote(result) {
  const warnings = (result?.warnings || []).filter((w) => typeof w === 'string' && w);
  const lines = [];
  if (result?.deck) lines.push(h('span', { testid: 'scan-deck' }, t('scan.readWithDeck', { name: result.deck })));
  if (result?.learn) lines.push(h('span', { testid: 'scan-learns' }, t('scan.teachesDeck')));
  if (!lines.length && !warnings.length) return null;
  return h('div', { class: 'scan-deck muted small', testid: 'scan-deck-note' },
    lines.length ? h('p', {}, ...lines.flatMap((l, i) => (i ? [' ', l] : [l]))) : null,
    warnings.length
      ? h('ul', { testid: 'scan-deck-warnings', role: 'note' }, warnings.map((w) => h('li', {}, w)))
      : null);
}

function reviewSheet({ dlg, player, result, existing, fromPhoto, onRescan }) {
  const els = rv.els;
  const secs = result?.ms != null
    ? t('scan.readIn', { s: (result.ms / 1000).toLocaleString(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }) })
    : '';
  fill($('#scan-body'),
    h('header', { class: 'sheet-head' },
      h('button', { type: 'button', class: 'icon-btn', 'data-close': true, 'aria-label': t('btn.close'), testid: 'scan-close' }, '✕'),
      h('div', { class: 'sheet-title' },
        h('h2', { testid: 'scan-title' }, t('scan.title', { name: player })),
        h('div', { class: 'muted small' }, els.count, `${fromPhoto ? t('scan.fromPhoto') : ''}${secs}`))),
    h('div', { class: 'sheet-scroll scan-scroll' },
      result?.image ? h('div', { class: 'scan-stage' }, els.photoWrap) : h('p', { class: 'muted' }, t('scan.noPhoto')),
      h('p', { class: 'scan-help muted small' }, t('scan.help')),
      deckNote(result),
      reviewLegend(),
      els.warning,
      els.short,
      els.groups,
      els.maybe,
      existing ? h('p', { class: 'muted small scan-replace' }, t('scan.replaces', { n: existing, name: player })) : null),
    h('div', { class: 'sheet-foot' },
      onRescan ? h('button', {
        type: 'button',
        class: 'btn btn-secondary',
        testid: 'scan-rescan',
        onclick: () => {
          closeDialog(dlg);
          onRescan();
        },
      }, fromPhoto ? t('scan.newPhoto') : t('scan.rescanArrow')) : null,
      els.confirm));
}

/**
 * The review screen for one scan. `others`: Map card → copies already in other players'
 * entries; `existing`: how many cards the player has entered already (they are replaced);
 * `onConfirm({hand, melds})`; `onRescan()` repeats the scan (its click is a user gesture).
 */
export function openReview({ game, player, result, others = new Map(), existing = 0, fromPhoto = false, onConfirm, onRescan }) {
  const dlg = $('#scan');
  const mode = groupMode(game.variant);
  const read = readCards(result || {}, mode);
  rv = {
    variant: game.variant,
    settings: game.settings || {},
    mode,
    player,
    ...read,
    firstCounts: countCodes(read.cards.map((c) => c.card)),
    serverBad: new Set((result?.impossible || []).map(cardCode)),
    readCount: (result?.cards || []).length,
    maybe: (Array.isArray(result?.maybe) ? result.maybe : [])
      .filter((m) => validBox(m?.box)).map((m, key) => ({ key, card: cardCode(m), box: m.box.map(Number) })),
    learn: result?.learn && result?.id ? result.id : null,
    others,
    nat: null,
    pick: null,
    suit: 'S',
    onConfirm,
    els: {},
  };
  const els = rv.els;
  reviewPhoto(els, player);
  els.groups = h('div', { class: 'scan-groups', testid: 'scan-groups' });
  els.warning = h('div', { class: 'scan-warn', testid: 'scan-warning', role: 'alert', hidden: true });
  els.maybe = h('div', { class: 'scan-group scan-maybe', testid: 'scan-maybe', hidden: true });
  els.short = h('p', { class: 'scan-short', testid: 'scan-short', role: 'status', hidden: true });
  els.count = h('span', { testid: 'scan-count' });
  els.confirm = h('button', { type: 'button', class: 'btn btn-primary btn-grow btn-confirm', testid: 'scan-confirm', onclick: confirm }, t('scan.confirm'));
  reviewSheet({ dlg, player, result, existing, fromPhoto, onRescan });
  if (!dlg.dataset.wiredScan) {
    dlg.dataset.wiredScan = '1';
    dlg.addEventListener('close', () => {
      closeDialog($('#scanpick'));
      rv?.resize?.disconnect();
      rv = null;
    });
  }
  if (typeof ResizeObserver === 'function') {
    rv.resize = new ResizeObserver(() => layoutLabels());
    rv.resize.observe(els.photoWrap);
  }
  renderReview();
  openDialog(dlg);
  if (result?.image) els.img.src = result.image;
  els.confirm.focus({ preventScroll: true });
}

// ---- the picker over the review -------------------------------------------------------

function openPicker(pick) {
  const c = pick.mode === 'change' ? byCard(pick.id) : null;
  if (c?.card && c.card !== JOKER) rv.suit = parseCard(c.card).suit || rv.suit;
  rv.pick = { ...pick };
  renderPicker();
  renderReview(); // marks the card being changed, or shows where the new one goes
  const dlg = $('#scanpick');
  if (!dlg.dataset.wiredPick) {
    dlg.dataset.wiredPick = '1';
    dlg.addEventListener('close', () => {
      if (!rv) return;
      rv.pick = null;
      renderReview();
    });
  }
  openDialog(dlg);
}

function commitPick(code) {
  const pk = rv.pick;
  let group = pk.group;
  if (group === 'new') {
    group = rv.nextMeld++;
    rv.meldIds.push(group);
  }
  if (pk.mode === 'add') {
    rv.cards.push({ id: rv.nextId++, card: code, conf: null, box: pk.box || null, group });
  } else {
    const c = byCard(pk.id);
    if (c) {
      c.card = code;
      c.conf = null; // checked by a person now
      c.group = group;
    }
  }
  pruneMelds();
  closeDialog($('#scanpick')); // its close handler re-renders the review
}

function renderPicker() {
  const pk = rv.pick;
  const c = pk.mode === 'change' ? byCard(pk.id) : null;
  const { copies, jokers } = deckRules(rv.variant, rv.settings);
  const counts = countCodes(rv.cards.map((x) => x.card));
  const title = c ? t('scan.changeTitle', { card: cardLabel(c.card) }) : t('scan.addCard');
  let sub = t('scan.pickSub');
  if (c && isLow(c)) sub = t('scan.pickLow', { card: cardLabel(c.card), pct: pct(c) });
  else if (c) sub = t('scan.pickRight');
  const moves = rv.mode === 'whole' ? null : h('div', { class: 'scan-move', role: 'radiogroup', 'aria-label': t('scan.putInLabel') },
    h('span', { class: 'muted small' }, t('scan.putIn')),
    [...rv.meldIds, 'hand', 'new'].map((g) => h('button', {
      type: 'button',
      role: 'radio',
      class: `scan-move-btn${pk.group === g ? ' active' : ''}`,
      'aria-checked': pk.group === g ? 'true' : 'false',
      testid: g === 'hand' ? 'scan-move-hand' : g === 'new' ? 'scan-move-new' : `scan-move-meld-${rv.meldIds.indexOf(g)}`,
      onclick: () => {
        pk.group = g;
        renderPicker();
      },
    }, g === 'new' ? t('scan.newMeld') : groupTitle(g))));
  fill($('#scanpick-body'),
    h('div', { class: 'scan-pick-head' },
      h('div', {},
        h('h2', { testid: 'scan-picker-title' }, title),
        h('p', { class: 'muted small' }, sub)),
      h('button', { type: 'button', class: 'icon-btn icon-btn-sm', 'data-close': true, 'aria-label': t('btn.cancel'), testid: 'scan-pick-cancel' }, '✕')),
    moves,
    h('div', { class: 'picker' }, ...pickerGrid({
      prefix: 'scan-',
      suit: rv.suit,
      jokers,
      verb: c ? t('cards.makeIt') : t('cards.add'),
      onSuit: (s) => {
        rv.suit = s;
        renderPicker();
      },
      onPick: commitPick,
      state: (code) => {
        const n = (counts.get(code) || 0) + (rv.others.get(code) || 0);
        const limit = code === JOKER ? jokers : copies;
        return { picked: c?.card === code, badge: n ? (limit > 1 ? `${n}/${limit}` : '✓') : null };
      },
    })),
    c ? h('div', { class: 'modal-actions' },
      h('button', {
        type: 'button',
        class: 'btn btn-danger-ghost',
        testid: 'scan-pick-remove',
        onclick: () => {
          const id = c.id;
          closeDialog($('#scanpick'));
          removeCard(id);
        },
      }, t('scan.removeCard', { card: cardLabel(c.card) }))) : null);
}

// ---- Knock? (Chicago) -----------------------------------------------------------------

let kn = null; // the open knock check

function renderKnock() {
  const body = $('#knock-body');
  const retry = h('button', { type: 'button', class: 'btn btn-secondary', testid: 'knock-retry', disabled: !!kn.busy, onclick: () => runKnock() }, icon('camera'), t('scan.rescanShort'));
  const photo = h('button', { type: 'button', class: 'btn btn-secondary', testid: 'knock-photo', disabled: !!kn.busy, onclick: () => kn.input.click() }, icon('photo'), t('entry.photo'));
  const head = h('div', { class: 'scan-pick-head' },
    h('h2', { testid: 'knock-title' }, t('scan.knockTitle', { name: kn.player })),
    h('button', { type: 'button', class: 'icon-btn icon-btn-sm', 'data-close': true, 'aria-label': t('btn.close'), testid: 'knock-close' }, '✕'));
  if (kn.busy) {
    fill(body, head,
      h('div', { class: 'verdict busy', testid: 'knock-verdict', 'data-legal': '' },
        h('span', { class: 'spinner', 'aria-hidden': 'true' }), kn.busy === 'photo' ? t('scan.readingPhoto') : t('scan.scanning')),
      h('div', { class: 'modal-actions' }, retry, photo), kn.input);
    return;
  }
  if (kn.error) {
    fill(body, head,
      h('div', { class: 'verdict unknown', testid: 'knock-verdict', 'data-legal': '' }, t('scan.couldNot')),
      h('p', { class: 'scan-error-text', testid: 'knock-error', role: 'alert' }, kn.error.message),
      h('p', { class: 'muted small' }, scanHint(kn.error)),
      h('div', { class: 'modal-actions' }, retry, photo), kn.input);
    return;
  }
  const r = kn.result;
  const v = knockVerdict(r, kn.total, kn.game?.variant);
  const k = r.knock;
  const cls = v.legal === true ? 'legal' : v.legal === false ? 'illegal' : 'unknown';
  const rows = [];
  if (k) {
    rows.push(h('div', { class: 'kv', testid: 'knock-numbers' },
      h('span', {}, t('kv.limit')), h('strong', {}, k.limit > 0 ? num(k.limit) : t('kv.noKnock')),
      h('span', {}, t('kv.deadwood')), h('strong', {}, num(k.deadwood))));
    rows.push(h('div', { class: 'kline', testid: 'knock-melds' }, h('span', { class: 'hi-k' }, t('kv.melds')),
      (k.melds || []).length ? h('span', { class: 'hi-melds' }, k.melds.map((m) => chipRow(m))) : h('span', { class: 'muted small' }, t('kv.none'))));
    if ((k.unmelded || []).length) {
      rows.push(h('div', { class: 'kline' }, h('span', { class: 'hi-k' }, t('kv.deadwoodCards')), chipRow(k.unmelded)));
    }
    if (k.dropped) rows.push(h('div', { class: 'kline' }, h('span', { class: 'hi-k' }, t('kv.eighth')), chipRow([k.dropped]), h('span', { class: 'muted small' }, t('kv.notCounted'))));
  } else if ((r.hand || []).length) {
    rows.push(h('div', { class: 'kline' }, h('span', { class: 'hi-k' }, t('kv.read')), chipRow(r.hand)));
  }
  fill(body, head,
    h('div', { class: `verdict ${cls}`, testid: 'knock-verdict', 'data-legal': v.legal == null ? '' : String(v.legal) },
      h('span', { class: 'verdict-icon', 'aria-hidden': 'true' }, v.legal === true ? '✓' : v.legal === false ? '✗' : '?'),
      h('span', {}, v.tail ? [v.lead, h('span', { class: 'nowrap' }, v.tail)] : v.head)),
    v.text ? h('p', { class: 'muted small verdict-text' }, v.text) : null,
    ...rows,
    h('div', { class: 'knock-actions' },
      h('button', {
        type: 'button',
        class: 'btn btn-primary',
        testid: 'knock-review',
        onclick: () => {
          const { result, open, fromPhoto } = kn;
          closeDialog($('#knock'));
          open.onReview(result, fromPhoto);
        },
      }, t('scan.review')),
      h('div', { class: 'knock-more' }, retry, photo)),
    kn.input);
}

async function runKnock(file) {
  const mine = kn;
  if (!mine || mine.busy) return;
  mine.busy = file ? 'photo' : 'camera';
  mine.error = null;
  mine.fromPhoto = !!file;
  renderKnock();
  try {
    const result = await scanCards({ game: mine.game, player: mine.player, file });
    if (kn !== mine) return;
    mine.result = result;
  } catch (e) {
    if (kn !== mine) return;
    mine.error = e;
  }
  mine.busy = null;
  renderKnock();
}

/**
 * "Knock?" for one Chicago player: scan (camera, or a photo), then a large verdict.
 * `onReview(result, fromPhoto)` opens the review screen for the same scan.
 */
export function openKnock({ game, player, total, onReview }) {
  const dlg = $('#knock');
  kn = { game, player, total, busy: null, error: null, result: null, open: { onReview } };
  kn.input = photoInput({ testid: 'knock-file', onFile: (file) => runKnock(file) });
  if (!dlg.dataset.wiredKnock) {
    dlg.dataset.wiredKnock = '1';
    dlg.addEventListener('close', () => {
      kn = null;
    });
  }
  openDialog(dlg);
  runKnock();
}

// ---- the camera panel -----------------------------------------------------------------

let cam = null; // the open panel's refresh loop

const CAMERA_STATE = {
  ok: ['ok', 'camera.ok'],
  busy: ['busy', 'camera.busy'],
  lost: ['lost', 'camera.lost'],
  none: ['none', 'camera.none'],
};

function renderCameraState(s, err) {
  const el = cam.els.state;
  if (err) {
    el.dataset.state = 'error';
    fill(el, h('span', { class: 'cam-dot' }), h('strong', {}, t('camera.unknown')),
      h('span', { class: 'cam-detail', testid: 'camera-error' }, err.message));
    return;
  }
  const [key, msg] = CAMERA_STATE[s?.state] || ['lost', null];
  const label = msg ? t(msg) : t('camera.other', { state: s?.state || '?' });
  el.dataset.state = key;
  const bits = [];
  if (s?.error) bits.push(s.error);
  if (s?.retry_in_s != null && key !== 'ok') bits.push(t('camera.retry', { s: Math.ceil(s.retry_in_s) }));
  if (key === 'ok' && s?.frames != null) bits.push(t('camera.frames', { n: s.frames }));
  if (key === 'none') bits.push(t('camera.usePhoto'));
  const samples = s?.camera?.kind === 'replay';
  fill(el, h('span', { class: 'cam-dot' }), h('strong', { testid: 'camera-state-label' }, label),
    bits.length ? h('span', { class: 'cam-detail', testid: 'camera-error' }, bits.join(' · ')) : null,
    samples
      ? h('span', { class: 'cam-samples', testid: 'camera-samples', role: 'note' },
        t('camera.samples'))
      : null);
}

async function cameraTick(loop) {
  if (cam !== loop) return;
  if (!document.hidden) {
    const [status, shot] = await Promise.allSettled([api.camera(), api.snapshot()]);
    if (cam !== loop) return;
    renderCameraState(status.value, status.status === 'rejected' ? status.reason : null);
    if (shot.status === 'fulfilled') {
      const url = URL.createObjectURL(shot.value);
      const img = loop.els.img;
      const old = loop.url;
      loop.url = url;
      img.onload = () => {
        if (old) URL.revokeObjectURL(old);
        img.dataset.frames = String(Number(img.dataset.frames || 0) + 1);
        loop.els.view.classList.remove('loading');
      };
      img.src = url;
      loop.els.shotError.hidden = true;
    } else {
      loop.els.shotError.hidden = false;
      loop.els.shotError.textContent = t('camera.noPicture', { error: shot.reason?.message || '?' });
    }
  }
  if (cam === loop) loop.timer = setTimeout(() => cameraTick(loop), 1000);
}

/** The live view to aim the table camera; refreshes every second while it is open. */
export function openCamera({ player, onScan } = {}) {
  const dlg = $('#camera');
  const els = {
    state: h('div', { class: 'cam-state', testid: 'camera-state', 'data-state': 'loading' },
      h('span', { class: 'spinner spinner-dark', 'aria-hidden': 'true' }), t('camera.checking')),
    img: h('img', { class: 'cam-img', testid: 'camera-snapshot', alt: t('camera.alt'), 'data-frames': '0' }),
    shotError: h('p', { class: 'error small', testid: 'camera-shot-error', hidden: true }),
  };
  els.view = h('div', { class: 'cam-view loading' }, els.img);
  fill($('#camera-body'),
    h('header', { class: 'sheet-head' },
      h('button', { type: 'button', class: 'icon-btn', 'data-close': true, 'aria-label': t('btn.close'), testid: 'camera-close' }, '✕'),
      h('div', { class: 'sheet-title' }, h('h2', {}, t('camera.title')), h('div', { class: 'muted small' }, t('camera.live')))),
    h('div', { class: 'sheet-scroll', tabindex: '0' },
      els.state,
      els.view,
      els.shotError,
      h('ul', { class: 'cam-tips muted small' },
        h('li', {}, t('camera.tipCorners')),
        h('li', {}, t('camera.tipMat')))),
    h('div', { class: 'sheet-foot' },
      onScan
        ? h('button', {
          type: 'button',
          class: 'btn btn-primary btn-grow',
          testid: 'camera-scan',
          onclick: () => {
            closeDialog(dlg);
            onScan();
          },
        }, icon('camera'), t('camera.scan', { name: player }))
        : h('button', { type: 'button', class: 'btn btn-secondary btn-grow', 'data-close': true, testid: 'camera-done' }, t('btn.done'))));
  if (!dlg.dataset.wiredCam) {
    dlg.dataset.wiredCam = '1';
    dlg.addEventListener('close', () => {
      if (!cam) return;
      clearTimeout(cam.timer);
      if (cam.url) URL.revokeObjectURL(cam.url);
      cam = null;
    });
  }
  if (cam) clearTimeout(cam.timer);
  cam = { els, timer: null, url: null };
  openDialog(dlg);
  cameraTick(cam);
}
