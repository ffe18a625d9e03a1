// How a hand ends and what is entered for each player, read from the served variants: the
// entry sheet's toggles and what pressing one does, the history's marks, the typed points,
// the hand that still names nobody ending it, and the chart's goal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { missingEnder, missingPoints } from '../../scorekeeper/web/static/messages.js';
import {
  VARIANTS, endToggles, entersMelds, goalOf, handMarks, pressMark, scoresDeadwood, typedFields,
} from '../../scorekeeper/web/static/variants.js';
import { SERVED } from './setup.mjs';

const players = (...names) => names.map((name) => ({
  name, knocked: false, went_out: false, rummy: false, typed: false, held: '', melded: '',
}));
const flags = (ps) => ps.map((p) => [p.knocked, p.went_out, p.rummy].map(Number).join(''));

test('each variant reads how its hands end from the served record', () => {
  for (const v of SERVED.variants) {
    assert.equal(VARIANTS[v.id].lowIsGood, v.low_wins);
    assert.deepEqual(endToggles(v.id).map(([flag]) => flag), v.end.marks);
    assert.equal(scoresDeadwood(v.id), v.end.reads === 'hand');
    assert.equal(entersMelds(v.id), v.end.reads === 'melds');
  }
  assert.deepEqual(endToggles('chicago'), [['knocked', 'entry.knocked'], ['rummy', 'entry.rummy']]);
  assert.deepEqual(endToggles('rummy'), [['went_out', 'entry.wentOut'], ['rummy', 'entry.rummyDouble']]);
  assert.deepEqual(endToggles('rummy500'), []);
});

test('where rummy is its own way to end a hand, one mark on one player at a time', () => {
  const ps = players('Ann', 'Bob');
  pressMark('chicago', ps, 0, 'knocked');
  assert.deepEqual(flags(ps), ['100', '000']);
  pressMark('chicago', ps, 1, 'rummy');
  assert.deepEqual(flags(ps), ['000', '001']);
  pressMark('chicago', ps, 1, 'knocked');
  assert.deepEqual(flags(ps), ['000', '100']);
  pressMark('chicago', ps, 1, 'knocked');
  assert.deepEqual(flags(ps), ['000', '000']);
});

test('where rummy doubles going out, rummy also marks going out', () => {
  const ps = players('Ann', 'Bob');
  pressMark('rummy', ps, 0, 'rummy');
  assert.deepEqual(flags(ps), ['011', '000']);
  pressMark('rummy', ps, 1, 'went_out');
  assert.deepEqual(flags(ps), ['000', '010']);
  pressMark('rummy', ps, 1, 'rummy');
  assert.deepEqual(flags(ps), ['000', '011']);
  pressMark('rummy', ps, 1, 'went_out'); // pressed again: out no more, and no rummy
  assert.deepEqual(flags(ps), ['000', '000']);
});

test('the history shows the mark that outranks the others first', () => {
  assert.deepEqual(handMarks('chicago'), [['rummy', 'rummy', 'rummy'], ['knocked', 'knocked', 'knocked']]);
  assert.deepEqual(handMarks('rummy10'), [['rummy', 'rummy', 'rummyOut'], ['went_out', 'wentOut', 'wentOut']]);
  assert.deepEqual(handMarks('rummy500'), []);
});

test('typed points: deadwood for a whole hand, melded and held where melds are entered', () => {
  assert.deepEqual(typedFields('chicago'), [['held', 'entry.deadwoodPoints']]);
  assert.deepEqual(typedFields('rummy'), [['held', 'entry.heldPoints']]);
  assert.deepEqual(typedFields('rummy500'), [['melded', 'entry.meldedPoints'], ['held', 'entry.heldPoints']]);
  const ps = players('Ann', 'Bob');
  ps[0].typed = true;
  ps[0].went_out = true;
  assert.equal(missingPoints('rummy', ps), null); // out: nothing to type
  assert.match(missingPoints('rummy500', ps), /Ann/); // melds in front still count
});

test('a hand must name who ended it only where the rules say so', () => {
  const ps = players('Ann', 'Bob');
  assert.match(missingEnder('chicago', ps), /knock/i);
  assert.match(missingEnder('rummy', ps), /out/i);
  assert.equal(missingEnder('rummy10', ps), null); // the stock ran out: nobody went out
  assert.equal(missingEnder('rummy500', ps), null);
  ps[1].knocked = true;
  assert.equal(missingEnder('chicago', ps), null);
});

test('the chart draws the total that ends the game, none for a number of hands', () => {
  assert.equal(goalOf('chicago', {}), 100);
  assert.equal(goalOf('chicago', { elimination_total: 101 }), 101);
  assert.equal(goalOf('rummy', {}), 150);
  assert.equal(goalOf('rummy', { hands: 6 }), null);
  assert.equal(goalOf('rummy500', { target: 750 }), 750);
});
