// The card picker over the review: a card changed, added, or moved to another group.
import { JOKER, cardLabel, cardName, deckRules, parseCard, pickerGrid, suitClass } from './cards.js';
import { t } from './i18n.js';
import { nearestCards } from './review-alts.js';
import {
  byCard, groupTitle, isLow, pct, pruneMelds, removeCard, renderReview, review,
} from './review.js';
import { countCodes } from './scanread.js';
import { $, closeDialog, fill, h, openDialog } from './util.js';

/** Copies of each card already taken: this hand's and the other players' entries. */
function usedCards() {
  const used = countCodes(review.cards.map((c) => c.card));
  for (const [code, n] of review.others) used.set(code, (used.get(code) || 0) + n);
  return used;
}

/** The cards nearest to `code` (its rank in the other suits) that the game's decks still
 * hold a copy of: one tap makes an offer, or a read card, one of them. */
export function alternativesTo(code) {
  return nearestCards(code, deckRules(review.variant, review.settings), usedCards());
}

/** The card being changed's nearest cards, one tap each, above the whole grid. */
function nearestRow(c) {
  const alts = alternativesTo(c.card);
  if (!alts.length) return null;
  return h('div', { class: 'scan-nearest', role: 'group', 'aria-label': t('scan.nearest') },
    h('span', { class: 'muted small' }, t('scan.nearest')),
    alts.map((card) => h('button', {
      type: 'button',
      class: `scan-alt ${suitClass(card)}`,
      testid: `scan-nearest-${card}`,
      'aria-label': t('scan.altMake', { card: cardName(card) }),
      onclick: () => commitPick(card),
    }, h('span', { 'aria-hidden': 'true' }, cardLabel(card)))));
}

export function openPicker(pick) {
  const c = pick.mode === 'change' ? byCard(pick.id) : null;
  if (c?.card && c.card !== JOKER) review.suit = parseCard(c.card).suit || review.suit;
  review.pick = { ...pick };
  renderPicker();
  renderReview(); // marks the card being changed, or shows where the new one goes
  const dlg = $('#scanpick');
  if (!dlg.dataset.wiredPick) {
    dlg.dataset.wiredPick = '1';
    dlg.addEventListener('close', () => {
      if (!review) return;
      review.pick = null;
      renderReview();
    });
  }
  openDialog(dlg);
}

function commitPick(code) {
  const pk = review.pick;
  let group = pk.group;
  if (group === 'new') {
    group = review.nextMeld++;
    review.meldIds.push(group);
  }
  if (pk.mode === 'add') {
    review.cards.push({ id: review.nextId++, card: code, conf: null, box: pk.box || null, group });
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
  const pk = review.pick;
  const c = pk.mode === 'change' ? byCard(pk.id) : null;
  const { copies, jokers } = deckRules(review.variant, review.settings);
  const counts = countCodes(review.cards.map((x) => x.card));
  const title = c ? t('scan.changeTitle', { card: cardLabel(c.card) }) : t('scan.addCard');
  let sub = t('scan.pickSub');
  if (c && isLow(c)) sub = t('scan.pickLow', { card: cardLabel(c.card), pct: pct(c) });
  else if (c) sub = t('scan.pickRight');
  const moves = review.mode === 'whole' ? null : h('div', { class: 'scan-move', role: 'radiogroup', 'aria-label': t('scan.putInLabel') },
    h('span', { class: 'muted small' }, t('scan.putIn')),
    [...review.meldIds, 'hand', 'new'].map((g) => h('button', {
      type: 'button',
      role: 'radio',
      class: `scan-move-btn${pk.group === g ? ' active' : ''}`,
      'aria-checked': pk.group === g ? 'true' : 'false',
      testid: g === 'hand' ? 'scan-move-hand' : g === 'new' ? 'scan-move-new' : `scan-move-meld-${review.meldIds.indexOf(g)}`,
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
    c && c.card !== JOKER ? nearestRow(c) : null,
    h('div', { class: 'picker' }, ...pickerGrid({
      prefix: 'scan-',
      suit: review.suit,
      jokers,
      verb: c ? t('cards.makeIt') : t('cards.add'),
      onSuit: (s) => {
        review.suit = s;
        renderPicker();
      },
      onPick: commitPick,
      state: (code) => {
        const n = (counts.get(code) || 0) + (review.others.get(code) || 0);
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
