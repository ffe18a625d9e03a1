// Chicago's "may I knock?" answer in one glance, from a scan's or a check's knock result.
// Pure (no DOM): unit-tested with Node's test runner.
import { cardLabel } from './cards.js';
import { t } from './i18n.js';
import { num } from './util.js';
import { VARIANTS, totalForLimit } from './variants.js';

/** The one-glance answer: {legal: true|false|null, head, text}; `tail` never wraps. */
function verdictOf(legal, lead, tail, text) {
  return { legal, head: lead + tail, lead, tail, text };
}

/** The knocking variant's record: the game's (`variant`), else the one that knocks. */
function knocking(variant) {
  return VARIANTS[variant]?.knock ? variant
    : Object.keys(VARIANTS).find((id) => VARIANTS[id].knock) || variant;
}

/**
 * `result` holds `knock` ({limit, deadwood, legal}), `impossible`, `hand` and `unread` as a
 * scan does; `variant` is the game's.
 */
export function knockVerdict(result, total, variant) {
  const id = knocking(variant);
  // a card seen but not read makes any count no whole read (7 read and one unread may be 8):
  // no verdict, as on part of a hand, even where the cards read were judged
  const unread = Array.isArray(result?.unread) ? result.unread.length : 0;
  if (unread) {
    return { legal: null, head: t('verdict.unread', { n: unread }), text: t('verdict.unreadText', { n: unread }) };
  }
  const k = result?.knock;
  if (k) {
    if (k.limit != null && k.limit <= 0) {
      const at = total ?? totalForLimit(id, k.limit);
      return verdictOf(false, t('verdict.notLegal'), t('verdict.notAt', { total: num(at) }), t('verdict.rummyOnly'));
    }
    if (k.legal) {
      return verdictOf(true, t('verdict.legal'), `${num(k.deadwood)} ≤ ${num(k.limit)}`, k.rummy ? t('verdict.mayRummy') : '');
    }
    return verdictOf(false, t('verdict.notLegal'), `${num(k.deadwood)} > ${num(k.limit)}`, t('verdict.costs'));
  }
  const bad = (result?.impossible || []).map(cardLabel);
  if (bad.length) {
    return { legal: null, head: t('verdict.check'), text: t('verdict.checkText', { cards: bad.join(' ') }) };
  }
  const count = (result?.hand || []).length;
  if (!count) {
    return { legal: null, head: t('verdict.noCards'), text: t('verdict.noCardsText') };
  }
  // never a verdict on part of a hand: say how many were read and what to do
  const shape = VARIANTS[id]?.handSize || { cards: 7, ender: 8 };
  if (count < shape.cards) {
    return {
      legal: null,
      head: t('verdict.partial', { count: num(count), size: num(shape.cards) }),
      text: t('verdict.partialText', { missing: num(shape.cards - count) }),
    };
  }
  if (count > shape.ender) {
    return { legal: null, head: t('verdict.tooMany', { count: num(count) }), text: t('verdict.tooManyText') };
  }
  return { legal: null, head: t('verdict.none'), text: t('verdict.noneText') };
}
