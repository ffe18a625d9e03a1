// The review screen for one scan: the annotated photo with a box and label per card
// (review-photo.js), the read cards as chips (review-chips.js), corrections through the
// card picker (review-picker.js), then Confirm.
import { cardCode, cardLabel, cardName, deckRules } from './cards.js';
import { language, t } from './i18n.js';
import { renderGroups, renderMaybe, renderShort, renderWarning } from './review-chips.js';
import { layoutLabels, renderOverlay, reviewPhoto } from './review-photo.js';
import { openPicker } from './review-picker.js';
import { pruneUnread, renderUnread, unreadMarks } from './review-unread.js';
import {
  countCodes, groupMode, impossibleCards, ordered, readCards, validBox,
} from './scanread.js';
import { $, closeDialog, fill, h, openDialog } from './util.js';
import { VARIANTS } from './variants.js';

export let review = null; // the open review

/** Marked for checking: a read card the server did not call sure (a card without its word is
 * shown unsure, the safe reading: the page keeps no line of its own); a card a person set
 * or checked (no confidence) never. */
export const isLow = (c) => c.conf != null && c.sure !== true;
// floored, so a card marked unsure never reads as the threshold itself (79.6 % → 79 %)
export const pct = (c) => percent(Math.floor(c.conf * 100) / 100);

/** A share as the page's language writes it (80 %, 80%). */
/** The sure line to a tenth of a point, floored: a line of 99.94 % reads 99.9 %, never 100 %. */
function linePercent(x) {
  return new Intl.NumberFormat(language(), { style: 'percent', maximumFractionDigits: 1 }).format(
    Math.floor(x * 1000) / 1000,
  );
}

function percent(x) {
  return new Intl.NumberFormat(language(), { style: 'percent', maximumFractionDigits: 0 }).format(x);
}
export const byCard = (id) => review.cards.find((c) => c.id === id);

/** Cards this hand cannot hold: more copies than the decks have, counting other players. */
function impossible() {
  return impossibleCards(review.cards, deckRules(review.variant, review.settings), review);
}

export function removeCard(id) {
  review.cards = review.cards.filter((c) => c.id !== id);
  pruneMelds();
  renderReview();
}

export function pruneMelds() {
  review.meldIds = review.meldIds.filter((m) => review.cards.some((c) => c.group === m));
}

export function groupTitle(g) {
  if (g === 'hand') {
    if (review.mode === 'whole') return t('scan.hand');
    return review.mode === 'melds' ? t('scan.inHand') : t('scan.leftInHand');
  }
  const n = review.meldIds.indexOf(g) + 1;
  return review.mode === 'melds' ? t('scan.meld', { n }) : t('scan.laidDown', { n });
}

/** A whole hand's size from the variant's record (Chicago: 7, or 8 when knocking). */
function wholeSize() {
  const size = VARIANTS[review.variant]?.handSize || {};
  return { size: size.cards, ender: size.ender || size.cards };
}

export function groupHint(g, count) {
  if (g === 'hand') {
    if (review.mode === 'whole') return t('scan.wholeHint', { n: count, ...wholeSize() });
    return review.mode === 'melds' ? t('scan.countsMinus') : t('scan.theseScore');
  }
  return review.mode === 'melds' ? t('scan.countsPlus') : t('scan.notCounted');
}

export function cardFlags(c, bad) {
  const low = isLow(c);
  const wrong = bad.has(c.card);
  return {
    cls: `${low ? ' low' : ''}${wrong ? ' bad' : ''}${review.pick?.id === c.id ? ' sel' : ''}`,
    attrs: { 'data-card': c.card, 'data-low': low ? 'true' : 'false', 'data-impossible': wrong ? 'true' : 'false' },
  };
}

/** A read card's face, and its spoken name (which then always includes what is shown). */
export function cardFace(c, verb) {
  const low = isLow(c) ? pct(c) : null;
  return [
    h('span', { 'aria-hidden': 'true' }, cardLabel(c.card)),
    low ? h('small', { 'aria-hidden': 'true' }, low) : null,
    h('span', { class: 'sr-only' }, `${verb} ${low ? t('scan.sure', { name: cardName(c.card), pct: low }) : cardName(c.card)}`),
  ];
}

/** A card the reader was unsure of (under its card threshold): one tap adds it. */
export function maybeButton(m, cls) {
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
  const m = review.maybe.find((x) => x.key === key);
  if (!m) return;
  review.maybe = review.maybe.filter((x) => x !== m);
  // added by a person: no reader's confidence, and taught to a deck as a hand-added card
  review.cards.push({ id: review.nextId++, card: m.card, conf: null, box: m.box, group: 'hand' });
  renderReview();
}

function summary() {
  if (review.unread.length) return t('scan.unreadLeft', { n: review.unread.length });
  const hand = review.cards.filter((c) => c.group === 'hand').length;
  if (review.mode === 'whole') return t('scan.count', { n: review.cards.length });
  if (review.mode === 'laid') return t('scan.confirmWhat', { n: hand });
  return `${t('scan.melds', { n: review.meldIds.length })} + ${t('scan.confirmWhat', { n: hand })}`;
}


export function renderReview() {
  if (!review) return;
  const bad = impossible();
  pruneUnread();
  renderOverlay(bad);
  renderUnread();
  renderLegend(bad);
  renderGroups(bad);
  renderMaybe();
  renderShort();
  renderWarning(bad);
  const low = review.cards.filter(isLow).length;
  review.els.count.textContent = t('scan.count', { n: review.cards.length })
    + (low ? t('scan.toCheck', { n: low }) : '');
  // a card seen but not read is asked for: no confirming past it without an answer
  review.els.confirm.disabled = bad.size > 0 || review.unread.length > 0;
  fill(review.els.confirm, h('span', {}, t('scan.confirmTick')), h('small', { testid: 'scan-confirm-what' }, summary()));
}

export function editCard(id) {
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
  if (!review.learn) return null;
  const cards = review.cards.filter((c) => c.id < review.readCount).map((c) => ({ read: c.id, card: c.card }));
  const added = review.cards.filter((c) => c.id >= review.readCount).map((c) => c.card);
  return cards.length ? { id: review.learn, cards, added } : null;
}

function confirm() {
  if (impossible().size || review.unread.length) return;
  const codes = (g) => ordered(review.cards.filter((c) => c.group === g)).map((c) => c.card);
  const hand = review.mode === 'whole' ? ordered(review.cards).map((c) => c.card) : codes('hand');
  const melds = review.mode === 'whole' ? [] : review.meldIds.map(codes).filter((m) => m.length);
  const learn = learnedCards();
  const done = review.onConfirm;
  closeDialog($('#scan'));
  done?.({ hand, melds, learn });
}

/** The marks the photo shows now: "unsure" while a card is shown unsure (its line where the
 * server named one), "impossible" while a card is marked so (`bad`, as `impossible()`
 * gives), "can't read" while a card's mark is unanswered, "corner can't read" while a
 * corner's is (review-unread.js: the two look different). */
function renderLegend(bad) {
  const unsure = review.cards.some(isLow);
  const wrong = review.cards.some((c) => bad.has(c.card));
  fill(review.els.legend,
    h('span', { class: 'lg lg-ok' }, t('scan.lgRead')),
    unsure
      ? h('span', { class: 'lg lg-low' }, review.sureLine == null
        ? t('scan.lgUnsureBare')
        : t('scan.lgUnsure', { pct: linePercent(review.sureLine) }))
      : null,
    wrong ? h('span', { class: 'lg lg-bad' }, t('scan.lgBad')) : null,
    review.unread.some((m) => m.kind !== 'index') ? h('span', { class: 'lg lg-unread' }, t('scan.lgUnread')) : null,
    review.unread.some((m) => m.kind === 'index') ? h('span', { class: 'lg lg-corner' }, t('scan.lgCorner')) : null);
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
  const els = review.els;
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
      els.legend,
      els.warning,
      els.unread,
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
  review = {
    variant: game.variant,
    settings: game.settings || {},
    players: (game.players || []).length,
    mode,
    player,
    ...read,
    firstCounts: countCodes(read.cards.map((c) => c.card)),
    serverBad: new Set((result?.impossible || []).map(cardCode)),
    readCount: (result?.cards || []).length,
    sureLine: typeof result?.sure_line === 'number' ? result.sure_line : null,
    maybe: (Array.isArray(result?.maybe) ? result.maybe : [])
      .filter((m) => validBox(m?.box)).map((m, key) => ({ key, card: cardCode(m), box: m.box.map(Number) })),
    unread: unreadMarks(result),
    learn: result?.learn && result?.id ? result.id : null,
    others,
    nat: null,
    pick: null,
    suit: 'S',
    onConfirm,
    els: {},
  };
  const els = review.els;
  reviewPhoto(els, player);
  els.groups = h('div', { class: 'scan-groups', testid: 'scan-groups' });
  els.warning = h('div', { class: 'scan-warn', testid: 'scan-warning', role: 'alert', hidden: true });
  els.maybe = h('div', { class: 'scan-group scan-maybe', testid: 'scan-maybe', hidden: true });
  els.unread = h('div', { class: 'scan-group scan-unread', testid: 'scan-unread', role: 'status', hidden: true });
  els.short = h('p', { class: 'scan-short', testid: 'scan-short', role: 'status', hidden: true });
  els.count = h('span', { testid: 'scan-count' });
  els.legend = h('div', { class: 'scan-legend', testid: 'scan-legend', 'aria-hidden': 'true' });
  els.confirm = h('button', { type: 'button', class: 'btn btn-primary btn-grow btn-confirm', testid: 'scan-confirm', onclick: confirm }, t('scan.confirm'));
  reviewSheet({ dlg, player, result, existing, fromPhoto, onRescan });
  if (!dlg.dataset.wiredScan) {
    dlg.dataset.wiredScan = '1';
    dlg.addEventListener('close', () => {
      closeDialog($('#scanpick'));
      review?.resize?.disconnect();
      review = null;
    });
  }
  if (typeof ResizeObserver === 'function') {
    review.resize = new ResizeObserver(() => layoutLabels());
    review.resize.observe(els.photoWrap);
  }
  renderReview();
  openDialog(dlg);
  if (result?.image) els.img.src = result.image;
  els.confirm.focus({ preventScroll: true });
}
