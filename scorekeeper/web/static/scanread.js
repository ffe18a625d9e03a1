// What a scan read, made ready for the players to check: each card with its box, put in
// its group (a meld, or the hand); the cards the decks cannot hold; how many a whole hand
// still lacks or holds too many. Pure (no DOM): unit-tested with Node's test runner.
import { JOKER, cardCode } from './cards.js';
import { VARIANTS, handEnd } from './variants.js';

/** How a scan's cards are grouped: melds in front count plus and the hand minus ('melds'),
 * only the cards left in hand score ('laid'), or the whole hand ('whole': Chicago). */
export function groupMode(variant) {
  return { melds: 'melds', leftovers: 'laid', hand: 'whole' }[handEnd(variant).reads] || 'whole';
}

export function validBox(b) {
  return Array.isArray(b) && b.length === 4 && b.every((v) => Number.isFinite(Number(v)))
    && Number(b[2]) > Number(b[0]) && Number(b[3]) > Number(b[1]);
}

export function countCodes(codes) {
  const m = new Map();
  for (const c of codes) m.set(c, (m.get(c) || 0) + 1);
  return m;
}

/** The scan's cards with their boxes, each put in its group (a meld id or 'hand'). */
export function readCards(result, mode) {
  const cards = (result.cards || []).map((c, i) => ({
    id: i,
    card: cardCode(c),
    conf: typeof c?.confidence === 'number' ? c.confidence : null,
    // the server's word on whether the review shows it sure (null: an older server's card)
    sure: typeof c?.sure === 'boolean' ? c.sure : null,
    box: validBox(c?.box) ? c.box.map(Number) : null,
    group: 'hand',
  }));
  let nextId = cards.length;
  const meldIds = [];
  const free = () => cards.filter((c) => c.group === 'hand');
  if (mode !== 'whole') {
    (result.melds || []).forEach((meld) => {
      const codes = (Array.isArray(meld) ? meld : meld?.cards || []).map(cardCode);
      if (!codes.length) return;
      const id = meldIds.length;
      meldIds.push(id);
      for (const code of codes) {
        const found = free().find((c) => c.card === code);
        if (found) found.group = id;
        else cards.push({ id: nextId++, card: code, conf: null, box: null, group: id });
      }
    });
  }
  // A hand card the server reports without a box still belongs in the list.
  const have = countCodes(free().map((c) => c.card));
  for (const code of (result.hand || []).map(cardCode)) {
    if ((have.get(code) || 0) > 0) have.set(code, have.get(code) - 1);
    else cards.push({ id: nextId++, card: code, conf: null, box: null, group: 'hand' });
  }
  return { cards, meldIds, nextId, nextMeld: meldIds.length };
}

/** A box's display order: left to right, then top to bottom; cards without a box last. */
export function ordered(cards) {
  return [...cards].sort((a, b) => {
    if (!a.box || !b.box) return (a.box ? 0 : 1) - (b.box ? 0 : 1) || a.id - b.id;
    return a.box[0] - b.box[0] || a.box[1] - b.box[1];
  });
}

/**
 * Cards this hand cannot hold: more copies than the decks have ({copies, jokers}), counting
 * `others` (Map code → copies in the other players' entries). The server's word
 * (`serverBad`) stands while a card is read as often as it was (`firstCounts`).
 */
export function impossibleCards(cards, { copies, jokers }, { others, serverBad, firstCounts }) {
  const counts = countCodes(cards.map((c) => c.card));
  const bad = new Map();
  for (const [code, n] of counts) {
    const elsewhere = others.get(code) || 0;
    const limit = code === JOKER ? jokers : copies;
    const server = serverBad.has(code) && n >= (firstCounts.get(code) || 0);
    if (n + elsewhere > limit || server) bad.set(code, { here: n, others: elsewhere, limit });
  }
  return bad;
}

/** How many cards a whole hand of `variant` still lacks (Chicago: 7), or 0 where every
 * player shows no set number. The one who ends the hand may show one more: not missing. */
export function shortOfHand(variant, count) {
  const size = VARIANTS[variant]?.handSize?.cards;
  return size && count < size ? size - count : 0;
}

/** The most cards a hand of `variant` may hold, from the variant's record: a whole hand's
 * size for the one who ends it (Chicago: 8), else the deal for `players` players (Rummy:
 * nobody ends a turn holding more than was dealt); null where no count is known. */
export function mostOfHand(variant, players) {
  const size = VARIANTS[variant]?.handSize || {};
  if (size.cards) return size.ender || size.cards;
  return size.dealt?.[String(players)] ?? null;
}

/** How many cards a hand read as `count` holds beyond the most it may (0 where it does
 * not, or no count is known), so the review says which to remove before it is saved. */
export function overOfHand(variant, count, players) {
  const most = mostOfHand(variant, players);
  return most && count > most ? count - most : 0;
}
