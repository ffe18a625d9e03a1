// The rules sheet in words: the server's statements and the hand it took apart (GET
// /api/games/{id}/rules), worded in the page's language. Nothing here scores or knows a
// rule: every number, and which statements apply, is the server's. Pure (no DOM):
// unit-tested with Node's test runner.
import { cardLabel } from './cards.js';
import { has, t } from './i18n.js';
import { num, signed } from './util.js';

/** A statement of the sheet: the message rulesheet.KEY with the server's numbers. */
export function lineText(line) {
  return t(`rulesheet.${line.key}`, line.params || {});
}

function rankText(rank) {
  return rank === 'JK' && has('cards.joker') ? t('cards.joker') : rank;
}

/** The card values: "A = 1 · 2–10 = as marked · J–K = 10" (ranks alike grouped). */
export function valuesText(groups) {
  const each = (groups || []).map((g) => {
    const ranks = g.first === g.last ? rankText(g.first) : `${rankText(g.first)}–${rankText(g.last)}`;
    return `${ranks} = ${g.points == null ? t('rulesheet.asMarked') : num(g.points)}`;
  });
  return t('rulesheet.values', { values: each.join(' · ') });
}

/** Cards and what they are worth: "7♣ 9♦ = 7 + 9 = 16", one card "9♣ = 9". */
export function cardsCalc(cards, value) {
  const labels = cards.map((c) => cardLabel(c.card)).join(' ');
  if (cards.length === 1) return `${labels} = ${num(value)}`;
  return `${labels} = ${cards.map((c) => num(c.points)).join(' + ')} = ${num(value)}`;
}

/** One part of a player's score for the hand, in words. */
export function partText(part) {
  const what = part.typed || !part.cards?.length
    ? t('rulesheet.typed', { pts: num(part.value) }) : cardsCalc(part.cards, part.value);
  switch (part.kind) {
    case 'deadwood': return t('rulesheet.part.deadwood', { what });
    case 'penalty': return t('rulesheet.part.penalty', { pts: signed(part.points) });
    case 'held': return t(part.points ? 'rulesheet.part.heldOff' : 'rulesheet.part.held', { what });
    case 'melded': return t('rulesheet.part.melded', { what });
    case 'collected': return t('rulesheet.part.collected', { name: part.source, pts: signed(part.points) });
    case 'rummy_bonus': return t('rulesheet.part.rummyBonus', { pts: signed(part.points) });
    default: return what;
  }
}

/** A player's points for the hand: "Ana: 24 points". */
export function playerText(player) {
  return t('rulesheet.player', { name: player.name, n: player.points, pts: num(player.points) });
}

/** How the parts make the points kept ("9 + 15 = 24", "6 + 27 − 10 = 23"); none when one
 * part says it all. */
export function sumText(player) {
  const parts = player.parts || [];
  if (parts.length < 2) return null;
  const sum = parts.map((p, i) => (i === 0 ? num(p.points)
    : `${p.points < 0 ? '−' : '+'} ${Math.abs(p.points)}`)).join(' ');
  return t('rulesheet.sum', { sum, pts: num(player.points) });
}

/** The melds that cost nothing (Chicago), and the knocker's card set aside. */
export function meldsText(player) {
  if (!player.melds?.length) return null;
  return t('rulesheet.meldsFree', { melds: player.melds.map((m) => m.map(cardLabel).join(' ')).join(' · ') });
}

export function droppedText(player) {
  return player.dropped ? t('rulesheet.dropped', { card: cardLabel(player.dropped) }) : null;
}

/** The hand's heading: the game's hand by number, or the made-up example. */
export function exampleTitle(example) {
  return example.n == null ? t('rulesheet.exampleTitle') : t('rulesheet.lastTitle', { n: example.n });
}

/** How the hand ended, in a sentence (none where the rules do not say who ended it). */
export function endingText(example) {
  const name = example.ender;
  const knock = example.knock;
  switch (example.ending) {
    case 'knocked': return t('rulesheet.ending.knocked', { name, deadwood: num(knock?.deadwood), limit: num(knock?.limit) });
    case 'rummy': return t('rulesheet.ending.rummy', { name });
    case 'went_out': return t('rulesheet.ending.wentOut', { name });
    case 'exhausted': return t('rulesheet.ending.exhausted');
    default: return null;
  }
}
