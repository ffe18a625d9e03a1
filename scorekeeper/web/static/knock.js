// Chicago's "may I knock?" answer in one glance, from a scan's or a check's knock result.
// Pure (no DOM): unit-tested with Node's test runner.
import { cardLabel } from './cards.js';
import { num } from './util.js';
import { totalForLimit } from './variants.js';

/** The one-glance answer: {legal: true|false|null, head, text}; `tail` never wraps. */
function verdictOf(legal, lead, tail, text) {
  return { legal, head: lead + tail, lead, tail, text };
}

/** `result` holds `knock` ({limit, deadwood, legal}), `impossible` and `hand` as a scan does. */
export function knockVerdict(result, total) {
  const k = result?.knock;
  if (k) {
    if (k.limit != null && k.limit <= 0) {
      const at = total ?? totalForLimit('chicago', k.limit);
      return verdictOf(false, 'Not legal — ', `may not knock at ${num(at)}`, 'Only rummy ends the hand for this player now.');
    }
    if (k.legal) return verdictOf(true, 'Legal knock — ', `${num(k.deadwood)} ≤ ${num(k.limit)}`, '');
    return verdictOf(false, 'Not legal — ', `${num(k.deadwood)} > ${num(k.limit)}`, 'A knock now costs the penalty.');
  }
  const bad = (result?.impossible || []).map(cardLabel);
  if (bad.length) {
    return { legal: null, head: 'Check the cards', text: `${bad.join(' ')} read more often than the decks hold. Review the cards.` };
  }
  if (!(result?.hand || []).length) {
    return { legal: null, head: 'No cards found', text: 'Lay the cards face up with their corners showing, and scan again.' };
  }
  return { legal: null, head: 'No answer', text: 'The knock check needs the player’s 7 or 8 cards.' };
}
