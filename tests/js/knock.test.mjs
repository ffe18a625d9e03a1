import assert from 'node:assert/strict';
import { test } from 'node:test';
import { knockVerdict } from '../../scorekeeper/web/static/knock.js';
import './setup.mjs';

const knock = (k) => ({ knock: { melds: [], ...k }, hand: ['AH'] });

test('a legal knock', () => {
  const v = knockVerdict(knock({ limit: 9, deadwood: 4, legal: true }), 0);
  assert.equal(v.legal, true);
  assert.equal(v.head, 'Legal knock — 4 ≤ 9');
});

test('over the limit', () => {
  const v = knockVerdict(knock({ limit: 5, deadwood: 12, legal: false }), 95);
  assert.equal(v.legal, false);
  assert.equal(v.head, 'Not legal — 12 > 5');
  assert.match(v.text, /penalty/);
});

test('no knock at all at 100, the total read from the limit when not given', () => {
  assert.equal(knockVerdict(knock({ limit: 0, deadwood: 3, legal: false }), 100).head,
    'Not legal — may not knock at 100');
  assert.equal(knockVerdict(knock({ limit: 0, deadwood: 3, legal: false })).head,
    'Not legal — may not knock at 100');
});

test('no answer without cards, or with impossible cards', () => {
  assert.equal(knockVerdict({ hand: [] }).head, 'No cards found');
  assert.equal(knockVerdict({ hand: ['AH'], impossible: ['AH'] }).head, 'Check the cards');
  assert.equal(knockVerdict({ hand: ['AH'] }).legal, null);
});

test('part of a hand gets no verdict: how many were read, and what to do', () => {
  const v = knockVerdict({ knock: null, hand: ['9H'] });
  assert.equal(v.legal, null);
  assert.equal(v.head, 'Read 1 of 7 cards');
  assert.match(v.text, /6 missing/);
  const nine = knockVerdict({ hand: ['AH', '2H', '3H', '4H', '5H', '6H', '7H', '8H', '9H'] });
  assert.equal(nine.legal, null);
  assert.equal(nine.head, '9 cards read');
});

test('a hand with no deadwood may go rummy', () => {
  const v = knockVerdict(knock({ limit: 9, deadwood: 0, legal: true, rummy: true }), 0);
  assert.equal(v.legal, true);
  assert.match(v.text, /rummy/);
});

test('a card seen but not read gets no verdict, however many were read', () => {
  const lost = { box: [0, 0, 10, 10], confidence: 0.9 };
  // seven read and judged legal, one more seen: it may be an eight-card hand
  const v = knockVerdict({ ...knock({ limit: 9, deadwood: 4, legal: true }), hand: ['AH', '2H', '3H', '4C', '4D', '4S', '5C'], unread: [lost] }, 0);
  assert.equal(v.legal, null);
  assert.equal(v.head, '1 card here I cannot read');
  assert.match(v.text, /retake the photo, or tap in that card/);
  const two = knockVerdict({ knock: null, hand: [], unread: [lost, lost] });
  assert.equal(two.head, '2 cards here I cannot read');
  assert.equal(knockVerdict({ ...knock({ limit: 9, deadwood: 4, legal: true }), unread: [] }).legal, true);
});
