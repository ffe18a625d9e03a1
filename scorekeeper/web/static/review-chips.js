// The review's cards as chips, by group (melds, the hand), the cards the reader was
// unsure of, a hand short of cards, and the cards no deck can hold.
import { cardLabel, cardName, suitClass } from './cards.js';
import { t } from './i18n.js';
import { alternativesTo, openPicker } from './review-picker.js';
import {
  cardFace, cardFlags, editCard, groupHint, groupTitle, maybeButton, removeCard, renderReview, review,
} from './review.js';
import { mostOfHand, ordered, overOfHand, shortOfHand } from './scanread.js';
import { swipeable } from './swipe.js';
import { fill, h } from './util.js';
import { VARIANTS } from './variants.js';

/** An offer taken as another card (a suit the reader mistook): one tap, where it lies. */
function takeOfferAs(key, card) {
  const m = review.maybe.find((x) => x.key === key);
  if (!m) return;
  review.maybe = review.maybe.filter((x) => x !== m);
  review.cards.push({ id: review.nextId++, card, conf: null, box: m.box, group: 'hand' });
  renderReview();
}

function offerRow(m) {
  const alts = alternativesTo(m.card);
  return h('div', { class: 'scan-offer', testid: `scan-offer-${m.key}` },
    h('div', { class: `scan-chip maybe ${suitClass(m.card)}`, testid: `scan-maybe-chip-${m.key}` },
      maybeButton(m, 'scan-chip-main')),
    alts.length ? h('span', { class: 'scan-alt-or muted small', 'aria-hidden': 'true' }, t('scan.altOr')) : null,
    alts.map((card) => h('button', {
      type: 'button',
      class: `scan-alt ${suitClass(card)}`,
      testid: `scan-alt-${m.key}-${card}`,
      'aria-label': t('scan.altAdd', { card: cardName(card), offer: cardName(m.card) }),
      onclick: () => takeOfferAs(m.key, card),
    }, h('span', { 'aria-hidden': 'true' }, cardLabel(card)))));
}

export function renderMaybe() {
  const el = review.els.maybe;
  el.hidden = !review.maybe.length;
  fill(el, review.maybe.length ? h('div', { class: 'scan-group-head' },
    h('strong', {}, t('scan.maybeHead')),
    h('span', { class: 'muted small' }, t('scan.maybeHint'))) : null,
  h('div', { class: 'scan-offers' }, review.maybe.map(offerRow)));
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

export function renderGroups(bad) {
  const groups = review.mode === 'whole' ? ['hand'] : [...review.meldIds, 'hand'];
  const boxes = groups.map((g) => {
    const cards = ordered(review.cards.filter((c) => c.group === g));
    return h('div', { class: `scan-group${g === 'hand' ? ' hand' : ' meld'}`, testid: g === 'hand' ? 'scan-group-hand' : `scan-group-meld-${review.meldIds.indexOf(g)}` },
      h('div', { class: 'scan-group-head' },
        h('strong', {}, groupTitle(g)),
        h('span', { class: 'muted small' }, groupHint(g, cards.length))),
      h('div', { class: 'scan-chips' },
        cards.map((c) => chipFor(c, bad)),
        g === 'hand'
          ? h('button', { type: 'button', class: 'scan-add', testid: 'scan-add', 'aria-label': t('scan.addCard'), onclick: () => openPicker({ mode: 'add', group: 'hand' }) }, '+')
          : null));
  });
  const none = review.cards.length
    ? null
    : h('p', { class: 'scan-empty', testid: 'scan-empty' },
      t('scan.noneRead'));
  fill(review.els.groups, none, ...boxes);
}

export function renderWarning(bad) {
  const el = review.els.warning;
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

/** A whole hand with cards missing (Chicago: fewer than 7 read): say how many, and put
 * the cards the reader may have seen first, where they are most likely the missing ones.
 * A hand with more cards than it may hold (Chicago: over 8; Rummy: over the deal) says how
 * many to remove: a stray card from the next player's hand or the pile gets read too. */
export function renderShort() {
  const hand = review.cards.filter((c) => c.group === 'hand').length;
  const short = review.mode === 'whole' ? shortOfHand(review.variant, review.cards.length) : 0;
  const over = review.mode === 'melds' ? 0 : overOfHand(review.variant, hand, review.players);
  const el = review.els.short;
  el.hidden = !short && !over;
  el.dataset.kind = over ? 'over' : 'short';
  fill(el, short ? h('strong', {}, t('scan.short', { n: short, size: VARIANTS[review.variant].handSize.cards })) : null,
    short && review.maybe.length ? h('span', {}, ` ${t('scan.shortMaybe')}`) : null,
    over ? h('strong', {}, t('scan.over', { n: over, count: hand, most: mostOfHand(review.variant, review.players) })) : null);
  if (short && review.maybe.length) review.els.groups.before(review.els.maybe);
  else review.els.groups.after(review.els.maybe);
}
