// The rules sheet's words: the server's statements and hand, worded exactly; no number of
// the page's own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import './setup.mjs';
import { CATALOGUES, setLanguage } from '../../scorekeeper/web/static/i18n.js';
import {
  cardsCalc, droppedText, endingText, exampleTitle, lineText, meldsText, partText, playerText,
  sumText, valuesText,
} from '../../scorekeeper/web/static/rulesheet-text.js';

const cards = (...pairs) => pairs.map(([card, points]) => ({ card, points }));

test('cards are worded with their points and the sum the server gave', () => {
  setLanguage('en');
  assert.equal(cardsCalc(cards(['7C', 7], ['9D', 9]), 16), '7♣ 9♦ = 7 + 9 = 16');
  assert.equal(cardsCalc(cards(['9C', 9]), 9), '9♣ = 9');
  assert.equal(cardsCalc(cards(['AC', 1], ['2C', 2], ['3C', 3]), 6), 'A♣ 2♣ 3♣ = 1 + 2 + 3 = 6');
});

test('each part says what it adds, a negative with a true minus', () => {
  setLanguage('en');
  const held = { kind: 'held', points: -16, value: 16, cards: cards(['7S', 7], ['9D', 9]) };
  assert.equal(partText(held), 'In hand, taken off: 7♠ 9♦ = 7 + 9 = 16');
  assert.equal(partText({ ...held, points: 0 }), 'Left in hand: 7♠ 9♦ = 7 + 9 = 16');
  assert.equal(partText({ kind: 'penalty', points: 15, value: 15, cards: [] }), 'Knock penalty: +15');
  assert.equal(partText({ kind: 'collected', points: 27, value: 27, cards: [], source: 'Ben' }), 'From Ben’s hand: +27');
  assert.equal(partText({ kind: 'deadwood', points: 33, value: 33, cards: [], typed: true }), 'Outside melds: 33 (typed)');
  assert.equal(partText({ kind: 'rummy_bonus', points: 25, value: 25, cards: [] }), 'Rummy bonus: +25');
});

test('a player line takes the plural from the points, the sum only when it adds parts', () => {
  setLanguage('en');
  const ann = { name: 'Ana', points: 24, parts: [{ points: 9 }, { points: 15 }] };
  assert.equal(playerText(ann), 'Ana: 24 points');
  assert.equal(playerText({ name: 'Ben', points: 1 }), 'Ben: 1 point');
  assert.equal(playerText({ name: 'Ben', points: -13 }), 'Ben: −13 points');
  assert.equal(sumText(ann), 'For the hand: 9 + 15 = 24');
  assert.equal(sumText({ points: 7, parts: [{ points: 7 }] }), null);
  assert.equal(sumText({ points: -13, parts: [{ points: 7 }, { points: -20 }] }), 'For the hand: 7 − 20 = −13');
  assert.equal(sumText({ points: -5, parts: [{ points: -5 }, { points: 0 }] }), 'For the hand: −5 + 0 = −5');
});

test('melds, the card set aside, the title and the ending', () => {
  setLanguage('en');
  assert.equal(meldsText({ melds: [['7H', '7S', '7D'], ['KC', 'KS', '2C']] }), 'Melds (cost nothing): 7♥ 7♠ 7♦ · K♣ K♠ 2♣');
  assert.equal(meldsText({ melds: [] }), null);
  assert.equal(droppedText({ dropped: 'QH' }), 'Set aside: Q♥');
  assert.equal(exampleTitle({ n: null }), 'Example hand');
  assert.equal(exampleTitle({ n: 3 }), 'Hand 3, worked out');
  assert.equal(endingText({ ending: 'knocked', ender: 'Ana', knock: { deadwood: 9, limit: 9 } }), 'Ana knocked with 9 (limit 9).');
  assert.equal(endingText({ ending: 'shown', ender: null }), null);
  setLanguage('es');
  assert.equal(endingText({ ending: 'went_out', ender: 'Ana' }), 'Ana salió.');
  setLanguage('en');
});

test('the statements and card values in each language, with the server’s numbers', () => {
  const groups = [{ first: 'A', last: 'A', points: 15 }, { first: '2', last: '10', points: null },
    { first: 'J', last: 'K', points: 10 }, { first: 'JK', last: 'JK', points: 15 }];
  setLanguage('en');
  assert.equal(valuesText(groups), 'Card values: A = 15 · 2–10 = as marked · J–K = 10 · joker = 15.');
  assert.equal(lineText({ key: 'deal', params: { n: 7 } }), 'Each player gets 7 cards.');
  assert.equal(lineText({ key: 'end.hands', params: { n: 1 } }), 'After 1 hand, the most points wins.');
  assert.match(lineText({ key: 'chicago.knockLimit', params: { ceiling: 9, base: 100 } }), /at most 9 points.*100 minus/);
  for (const lang of ['es', 'pt-PT', 'pt-BR']) {
    setLanguage(lang);
    assert.notEqual(lineText({ key: 'deal', params: { n: 7 } }), 'Each player gets 7 cards.', lang);
    assert.match(lineText({ key: 'chicago.penalty', params: { n: 20 } }), /20/, lang);
    assert.match(valuesText(groups), /= 15 · 2–10 = .+ · J–K = 10/, lang);
  }
  setLanguage('en');
});

test('every statement the rules can make has its words', () => {
  // the keys the server's statements use (tests/test_rules_explain.py checks the server side)
  const keys = Object.keys(CATALOGUES.en).filter((k) => k.startsWith('rulesheet.'));
  assert.ok(keys.length > 60, `only ${keys.length} rulesheet keys`);
});
