// The players as the entry form holds them: blank or from a stored hand, as the request
// and the draft send them, and the cards they hold between them.
import { cardCode } from './cards.js';
import { handEntry } from './entry.js';
import { typedFields } from './variants.js';

export function blankPlayer(name) {
  return {
    name, hand: [], melds: [], knocked: false, rummy: false, went_out: false, typed: false, held: '', melded: '',
  };
}

const pointText = (v) => (v == null ? '' : String(v));

export function fromInput(p) {
  // A stored lay-off ({cards, on}) keeps its `on` as a property of the card list,
  // so a correction sends it back unchanged.
  const melds = (p.melds || []).map((m) => {
    if (Array.isArray(m)) return m.map(cardCode);
    const cards = (m?.cards || []).map(cardCode);
    if (m?.on?.length) cards.on = m.on.map(cardCode);
    return cards;
  });
  return {
    name: p.name,
    hand: (p.hand || []).map(cardCode),
    melds,
    knocked: !!p.knocked,
    rummy: !!p.rummy,
    went_out: !!p.went_out,
    typed: 'typed' in p ? !!p.typed : p.held != null || p.melded != null,
    held: pointText(p.held),
    melded: pointText(p.melded),
  };
}

/** A player entered as points: the flags and the numbers typed, no cards. */
function typedBody(p) {
  const out = { name: p.name, knocked: p.knocked, went_out: p.went_out, rummy: p.rummy };
  for (const [key] of typedFields(handEntry.variant)) {
    const text = String(p[key]).trim();
    if (text !== '') out[key] = Number(text);
  }
  return out;
}

function cardsBody(p) {
  return {
    name: p.name,
    hand: [...p.hand],
    melds: p.melds
      .filter((m) => m.length > 0)
      .map((m) => (m.on?.length ? { cards: [...m], on: [...m.on] } : [...m])),
    knocked: p.knocked,
    went_out: p.went_out,
    rummy: p.rummy,
  };
}

export function requestBody() {
  return { players: handEntry.players.map((p) => (p.typed ? typedBody(p) : cardsBody(p))) };
}

/** A draft keeps both: the cards tapped so far and the points typed, and which one counts. */
export function draftPlayers() {
  return handEntry.players.map((p) => ({ ...cardsBody(p), typed: p.typed, held: p.held, melded: p.melded }));
}

export function usedCounts() {
  const counts = new Map();
  for (const p of handEntry.players) {
    for (const c of [...p.hand, ...p.melds.flat()]) counts.set(c, (counts.get(c) || 0) + 1);
  }
  return counts;
}

/** Cards in the other players' entries: a scan may not make a card impossible. */
export function otherCounts(i) {
  const counts = new Map();
  handEntry.players.forEach((p, j) => {
    if (j === i) return;
    for (const c of [...p.hand, ...p.melds.flat()]) counts.set(c, (counts.get(c) || 0) + 1);
  });
  return counts;
}

export function hasInput() {
  return handEntry.players.some(
    (p) => p.hand.length || p.melds.some((m) => m.length) || p.knocked || p.rummy || p.went_out
      || (p.typed && (p.held !== '' || p.melded !== '')),
  );
}
