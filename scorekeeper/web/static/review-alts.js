// The nearest cards to a card the reader doubted ("8♦?") or the players correct: the same
// rank in the other suits, the suit of the same colour first (the reader's most common
// slip). Only cards the game's decks hold, with a copy left. Pure: unit-tested.
import { JOKER, SUITS, cardCode, parseCard } from './cards.js';

const SAME_COLOUR = { H: 'D', D: 'H', S: 'C', C: 'S' };

/** Up to three one-tap alternatives to `code`; `used`: Map code → copies already taken
 * (this hand and the other players'), `rules`: the decks' {copies, jokers}. */
export function nearestCards(code, { copies, jokers }, used = new Map()) {
  const { rank, suit } = parseCard(cardCode(code));
  if (rank === JOKER || !SUITS.includes(suit)) return [];
  const suits = [SAME_COLOUR[suit], ...SUITS.filter((s) => s !== suit && s !== SAME_COLOUR[suit])];
  return suits.map((s) => `${rank}${s}`)
    .filter((c) => (c === JOKER ? jokers : copies) > (used.get(c) || 0));
}
