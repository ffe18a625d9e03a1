// The live count while aiming ("5 of 7 read · 2 unsure"): what the table camera or the
// phone's viewfinder reads now against what a whole hand holds, by the variant's record
// (the same source as the review's too-many warning), and when to take the shot by
// itself. Pure (no DOM): unit-tested with Node's test runner.
import { t } from './i18n.js';
import { mostOfHand } from './scanread.js';
import { VARIANTS } from './variants.js';

/** What a hand of `variant` holds for `players` players: a whole count (Chicago: 7, or 8
 * for the one who ends it) where every hand shows one, else only the most (the deal). */
export function handTarget(variant, players) {
  const size = VARIANTS[variant]?.handSize || {};
  if (size.cards) return { least: size.cards, most: size.ender || size.cards, whole: true };
  return { least: null, most: mostOfHand(variant, players), whole: false };
}

/** A count answer (GET/POST …/count) against the target: how many read, how many unsure
 * (dashed, or seen and not read), whether that is a whole hand and every card sure. */
export function liveState(answer, target) {
  const n = Number(answer?.count) || 0;
  const unsure = (Number(answer?.unsure) || 0) + (Number(answer?.unread) || 0);
  const whole = target.whole && n >= target.least && n <= target.most;
  return { n, unsure, whole, sure: whole && unsure === 0 };
}

/** Take the shot by itself: a whole hand, every card sure, on two reads in a row (a hand
 * still being spread passes 7 on its way to 8). */
export function readyToTake(before, now) {
  return !!(now?.sure && before?.sure && before.n === now.n);
}

/** The count in a line: "5 of 7 read · 2 unsure". */
export function countLine(state, target) {
  let line;
  if (target.whole) {
    const of = state.n > target.least && state.n <= target.most ? state.n : target.least;
    line = t('live.countOf', { n: state.n, size: of });
  } else if (target.most) line = t('live.countMost', { n: state.n, most: target.most });
  else line = t('live.countRead', { n: state.n });
  return state.unsure ? `${line}${t('live.unsure', { n: state.unsure })}` : line;
}
