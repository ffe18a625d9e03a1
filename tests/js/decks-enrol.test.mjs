// Enrolling a deck from the phone: each slip the server names as data is said in the page's
// words, in every language, and a deck name is checked as the server checks it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DECK_NAME, slipText } from '../../scorekeeper/web/static/enrol.js';
import { setLanguage } from '../../scorekeeper/web/static/i18n.js';

const SLIPS = [
  { kind: 'no_mat', text: 'photo 1: no scan mat found (…)' },
  { kind: 'blurred', text: 'photo 1 is blurred (…)', sharpness: 20, needs: 80 },
  { kind: 'missing', card: 'QC', row: 1, place: 12 },
  { kind: 'swapped', card: '5C', other: '9C', row: 1, place: 5, other_place: 9 },
  { kind: 'moved', card: '7C', reads: 'KH', row: 1, place: 7 },
  { kind: 'design', card: '7C', row: 1, place: 7, mm: 12, others_mm: 20 },
];

test('every slip is named in plain words, with the card and its place', () => {
  setLanguage('en');
  assert.deepEqual(SLIPS.map((s) => slipText(1, s)), [
    'Photo 1: the scan mat is not found. Keep its four corner markers in the picture, uncovered.',
    'Photo 1 is blurred. Hold the phone still, let it focus, and take it again.',
    'Photo 1: Q♣ is missing (row 1, place 12).',
    'Photo 1: 5♣ and 9♣ are swapped (row 1, places 5 and 9).',
    'Photo 1: the card in 7♣’s place (row 1, place 7) looks like K♥. Is a card out of place?',
    'Photo 1: 7♣ (row 1, place 7) has an index of another size than the others. Is it a card of another deck?',
  ]);
});

test('the slips are translated, and an unknown kind shows the server’s own words', () => {
  for (const lang of ['pt', 'es']) {
    setLanguage(lang);
    for (const s of SLIPS) {
      const text = slipText(2, s);
      assert.match(text, /2/);
      assert.doesNotMatch(text, /\{\w+\}|undefined/, `${lang} ${s.kind}: ${text}`);
    }
  }
  setLanguage('pt');
  assert.equal(slipText(1, SLIPS[2]), 'Foto 1: falta o Q♣ (fila 1, lugar 12).');
  setLanguage('en');
  assert.equal(slipText(3, { kind: 'new', text: 'photo 3: something new' }), 'photo 3: something new');
});

test('a deck name is what the server accepts', () => {
  for (const ok of ['home', 'Blue-2', 'a', 'x_y', 'A'.repeat(40)]) assert.ok(DECK_NAME.test(ok), ok);
  for (const bad of ['', '-x', '_x', 'blue deck', '../x', 'A'.repeat(41), 'ação']) assert.ok(!DECK_NAME.test(bad), bad);
});
