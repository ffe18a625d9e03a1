// A scan's answer made ready for review: groups by the variant's record, boxes checked,
// melds taken out of the hand, cards the decks cannot hold, and a whole hand's missing cards.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  countCodes, groupMode, impossibleCards, mostOfHand, ordered, overOfHand, readCards, shortOfHand,
  validBox,
} from '../../scorekeeper/web/static/scanread.js';
import './setup.mjs';

test('each variant groups a scan as its record says', () => {
  assert.equal(groupMode('chicago'), 'whole');
  assert.equal(groupMode('rummy'), 'laid');
  assert.equal(groupMode('rummy10'), 'laid');
  assert.equal(groupMode('rummy500'), 'melds');
});

test('a box is four finite numbers that enclose something', () => {
  assert.ok(validBox([0, 0, 10, 20]));
  assert.ok(validBox(['1', '2', '3', '4']));
  for (const bad of [null, [0, 0, 10], [0, 0, 0, 5], [5, 5, 1, 9], [0, 0, NaN, 3], 'box']) {
    assert.ok(!validBox(bad), JSON.stringify(bad));
  }
});

test('melds are taken out of the read cards; cards without a box are still listed', () => {
  const result = {
    cards: [
      { card: '5H', confidence: 0.9, box: [0, 0, 10, 10] },
      { card: '6H', confidence: 0.5, box: [20, 0, 30, 10] },
      { card: 'KC', box: 'bad' },
    ],
    melds: [['5H', '6H', '7H']],
    hand: ['KC', 'QD'],
  };
  const { cards, meldIds } = readCards(result, 'melds');
  assert.deepEqual(meldIds, [0]);
  const byGroup = (g) => cards.filter((c) => c.group === g).map((c) => c.card);
  assert.deepEqual(byGroup(0), ['5H', '6H', '7H']); // 7H was in the meld, not boxed
  assert.deepEqual(byGroup('hand'), ['KC', 'QD']);
  assert.equal(cards.find((c) => c.card === 'KC').box, null);
  assert.equal(cards.find((c) => c.card === '6H').conf, 0.5);
  const whole = readCards(result, 'whole'); // Chicago: no melds, the whole hand
  assert.deepEqual(whole.meldIds, []);
  assert.ok(whole.cards.every((c) => c.group === 'hand'));
});

test('cards are shown left to right, then top to bottom, unboxed last', () => {
  const cards = [
    { id: 0, box: [50, 0, 60, 10] }, { id: 1, box: null }, { id: 2, box: [10, 5, 20, 15] },
    { id: 3, box: [10, 0, 20, 10] },
  ];
  assert.deepEqual(ordered(cards).map((c) => c.id), [3, 2, 0, 1]);
});

test('a card the decks cannot hold, counting the other players', () => {
  const cards = ['7H', '7H', 'JK'].map((card, id) => ({ id, card }));
  const counts = countCodes(cards.map((c) => c.card));
  const none = { others: new Map(), serverBad: new Set(), firstCounts: counts };
  const bad = impossibleCards(cards, { copies: 1, jokers: 0 }, none);
  assert.deepEqual([...bad.keys()].sort(), ['7H', 'JK']);
  const two = impossibleCards(cards, { copies: 2, jokers: 1 }, none);
  assert.equal(two.size, 0);
  const elsewhere = { ...none, others: new Map([['7H', 1]]) };
  assert.deepEqual(impossibleCards(cards, { copies: 2, jokers: 1 }, elsewhere).get('7H'),
    { here: 2, others: 1, limit: 2 });
  const server = { ...none, serverBad: new Set(['JK']) };
  assert.ok(impossibleCards(cards, { copies: 2, jokers: 1 }, server).has('JK'));
});

test('a whole hand says how many cards it lacks; other variants never do', () => {
  assert.equal(shortOfHand('chicago', 5), 2);
  assert.equal(shortOfHand('chicago', 7), 0);
  assert.equal(shortOfHand('chicago', 8), 0);
  assert.equal(shortOfHand('rummy', 1), 0);
  assert.equal(shortOfHand('rummy500', 0), 0);
});

test('a hand says how many cards too many it holds, by the count its record gives', () => {
  assert.equal(mostOfHand('chicago', 4), 8);
  assert.equal(overOfHand('chicago', 10, 4), 2);
  assert.equal(overOfHand('chicago', 8, 4), 0);
  assert.equal(mostOfHand('rummy10', 3), 10);
  assert.equal(overOfHand('rummy10', 11, 3), 1);
  // Rummy deals by the number of players: 10 for two, 7 for three or four, 6 for more
  assert.equal(overOfHand('rummy', 8, 4), 1);
  assert.equal(overOfHand('rummy', 8, 2), 0);
  assert.equal(overOfHand('rummy', 7, 6), 1);
  // no count is known for Rummy 500's hands
  assert.equal(mostOfHand('rummy500', 4), null);
  assert.equal(overOfHand('rummy500', 30, 4), 0);
});

test("the server's sure is kept with each card (null where it gives none)", () => {
  const { cards } = readCards({
    cards: [
      { card: '5H', confidence: 0.95, sure: false, box: [0, 0, 10, 10] },
      { card: '6H', confidence: 0.6, sure: true, box: [20, 0, 30, 10] },
      { card: '7H', confidence: 0.6, box: [40, 0, 50, 10] },
    ],
  }, 'whole');
  assert.deepEqual(cards.map((c) => c.sure), [false, true, null]);
});
