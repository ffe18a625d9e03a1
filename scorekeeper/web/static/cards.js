// Card codes: rank A 2 … 10 J Q K + suit C D H S ("10H", "AS"); joker "JK".
import { has, t } from './i18n.js';
import { h } from './util.js';
import { VARIANTS, ruleFor } from './variants.js';

export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
export const SUITS = ['S', 'H', 'D', 'C'];
export const SUIT_SYMBOL = { C: '♣', D: '♦', H: '♥', S: '♠' };
export const JOKER = 'JK';

/** Accept a card as a string or as a server object ({card}, {code}, {rank, suit}). */
export function cardCode(card) {
  if (typeof card === 'string') return card;
  if (card && typeof card === 'object') {
    if (typeof card.card === 'string') return card.card;
    if (typeof card.code === 'string') return card.code;
    if (card.rank && card.suit) return `${card.rank}${card.suit}`;
  }
  return String(card);
}

export function parseCard(code) {
  code = cardCode(code);
  if (code === JOKER) return { rank: JOKER, suit: null };
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

export function cardLabel(code) {
  code = cardCode(code);
  if (code === JOKER) return 'JK';
  const { rank, suit } = parseCard(code);
  return `${rank}${SUIT_SYMBOL[suit] || suit}`;
}

/** A suit's name in the page's language ("Hearts", "Copas"). */
export function suitName(suit) {
  return has(`suit.${suit}`) ? t(`suit.${suit}`) : suit;
}

/** A rank in words: the face cards and the ace named, the numbers as they are. */
export function rankName(rank) {
  return has(`cards.rankName.${rank}`) ? t(`cards.rankName.${rank}`) : rank;
}

/** A card in words, for screen readers: "ace of Hearts", "joker". */
export function cardName(code) {
  code = cardCode(code);
  if (code === JOKER) return t('cards.joker');
  const { rank, suit } = parseCard(code);
  return t('cards.name', { rank: rankName(rank), suit: suitName(suit) });
}

export function suitClass(code) {
  const { suit } = parseCard(code);
  if (!suit) return 'joker';
  return suit === 'H' || suit === 'D' ? 'red' : 'black';
}

const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };

/** Sort for display: by suit (♠ ♥ ♣ ♦), then rank; jokers last. Does not mutate. */
export function sortCards(cards) {
  return [...cards].sort((a, b) => {
    const pa = parseCard(a);
    const pb = parseCard(b);
    const sa = pa.suit == null ? 9 : SUIT_ORDER[pa.suit];
    const sb = pb.suit == null ? 9 : SUIT_ORDER[pb.suit];
    if (sa !== sb) return sa - sb;
    return RANKS.indexOf(pa.rank) - RANKS.indexOf(pb.rank);
  });
}

/** How many copies of each card the game's decks hold, and how many jokers (from the rules). */
export function deckRules(variant, settings = {}) {
  return ruleFor(variant, VARIANTS[variant]?.deck, settings) || { copies: 1, jokers: 0 };
}

/** Point value of each rank in a game ("A".."K", "JK"), from the rules. */
export function cardValues(variant, settings = {}) {
  return ruleFor(variant, VARIANTS[variant]?.cardValues, settings) || {};
}

/** A card chip; pass onclick to make it a removable button. */
export function chip(code, { onclick, testid, small, title } = {}) {
  code = cardCode(code);
  const cls = `chip ${suitClass(code)}${small ? ' chip-sm' : ''}`;
  if (onclick) {
    return h(
      'button',
      {
        type: 'button',
        class: `${cls} chip-remove`,
        testid: testid || `chip-${code}`,
        title: title || t('cards.tapRemove'),
        onclick,
      },
      h('span', { 'aria-hidden': 'true' }, cardLabel(code)),
      h('span', { class: 'sr-only' }, t('entry.remove', { what: cardName(code) })),
    );
  }
  return h('span', { class: cls, testid, title }, cardLabel(code));
}

export function chipRow(cards, opts = {}) {
  const list = opts.sort === false ? cards : sortCards((cards || []).map(cardCode));
  return h('span', { class: 'chips' }, list.map((c) => chip(c, { small: true, ...opts.chip })));
}

/**
 * The card picker's grid: a suit row, then the ranks of that suit (and a joker when the
 * decks hold any). The hand form and the scan review both use it; `prefix` keeps their
 * test ids apart when both are on screen. `state(code)` → {disabled, picked, badge}.
 */
export function pickerGrid({ suit, onSuit, onPick, jokers = 0, prefix = '', state = () => ({}), verb = t('cards.add') }) {
  const suits = SUITS.map((s) => h(
    'button',
    {
      type: 'button',
      class: `suit ${s === 'H' || s === 'D' ? 'red' : 'black'}${suit === s ? ' active' : ''}`,
      testid: `${prefix}suit-${s}`,
      'aria-pressed': suit === s ? 'true' : 'false',
      'aria-label': suitName(s),
      onclick: () => onSuit(s),
    },
    SUIT_SYMBOL[s],
  ));
  const red = suit === 'H' || suit === 'D';
  const rankButton = (code, cls, label, sub, testid, aria) => {
    const shown = state(code) || {};
    return h(
      'button',
      {
        type: 'button',
        class: `rank ${cls}${shown.picked ? ' picked' : ''}`,
        testid,
        'data-card': code,
        disabled: !!shown.disabled,
        onclick: () => onPick(code),
      },
      // the name is spoken from the hidden text, so it never disagrees with the key's face
      h('span', { class: 'rank-r', 'aria-hidden': 'true' }, label),
      h('span', { class: 'rank-s', 'aria-hidden': 'true' }, sub),
      shown.badge ? h('span', { class: 'rank-n', 'aria-hidden': 'true' }, shown.badge) : null,
      h('span', { class: 'sr-only' }, shown.badge ? `${aria} (${shown.badge})` : aria),
    );
  };
  const ranks = RANKS.map((rank) => rankButton(
    `${rank}${suit}`, red ? 'red' : 'black', rank, SUIT_SYMBOL[suit],
    `${prefix}rank-${rank}`, `${verb} ${cardName(`${rank}${suit}`)}`,
  ));
  if (jokers > 0) ranks.push(rankButton(JOKER, 'joker', 'JK', t('cards.joker'), `${prefix}card-JK`, `${verb} ${t('cards.joker')}`));
  return [
    h('div', { class: 'suits', role: 'group', 'aria-label': t('cards.suit') }, suits),
    h('div', { class: 'ranks', role: 'group', 'aria-label': t('cards.rank') }, ranks),
  ];
}

/**
 * A card in a sentence: a number card as its rank and suit symbol ("8♦"), an ace or a
 * face card in words ("king of diamonds"), as the server's messages name them.
 */
export function cardText(code) {
  code = cardCode(code);
  if (code === JOKER) return t('cards.joker');
  const { rank, suit } = parseCard(code);
  if (!SUIT_SYMBOL[suit] || !rank) return code;
  if (!has(`cards.rankName.${rank}`)) return `${rank}${SUIT_SYMBOL[suit]}`;
  return t('cards.name', { rank: rankName(rank), suit: suitName(suit).toLowerCase() });
}
