import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkNumber, missingEnder, missingPoints, playerWords,
} from '../../scorekeeper/web/static/messages.js';
import './setup.mjs';

test('internal names become the page words', () => {
  assert.equal(playerWords('setting knock_penalty=1.5: must be a whole number', 'chicago'),
    'Knock penalty: must be a whole number');
  assert.equal(playerWords("hand 1: no winner: one player must have 'went_out'", 'rummy'),
    'Hand 1: no winner: mark the player who went out');
  assert.equal(playerWords("Ann: Chicago melds stay in the hand; send them in 'hand'", 'chicago'),
    'Ann: Chicago melds stay in the hand; send them in the hand');
  assert.equal(playerWords('rummy10 needs 2 to 5 players, got 6', 'rummy10'),
    'Rummy 10-card needs 2 to 5 players, got 6');
  assert.equal(playerWords('Cannot reach the scorekeeper.'), 'Cannot reach the scorekeeper.');
});

test('who ended the hand is asked for before a preview', () => {
  assert.match(missingEnder('chicago', [{ knocked: false }, {}]), /knocked or went rummy/);
  assert.equal(missingEnder('chicago', [{ rummy: true }, {}]), null);
  assert.match(missingEnder('rummy', [{}, {}]), /went out/);
  assert.equal(missingEnder('rummy10', [{}, {}]), null); // the stock ran out: nobody went out
  assert.equal(missingEnder('rummy500', [{}, {}]), null);
});

test('numbers as typed', () => {
  assert.deepEqual(checkNumber('Target', '150', { min: 1 }), { value: 150 });
  assert.equal(checkNumber('Target', '1.5', { min: 1 }).error, 'Target: must be a whole number.');
  assert.equal(checkNumber('Target', '0', { min: 1 }).error, 'Target: must be 1 or more.');
  assert.deepEqual(checkNumber('Hands', '', { optional: true }), { value: null });
  assert.equal(checkNumber('Target', '').error, 'Target: enter a number.');
});

test('points typed instead of cards are asked for, whole and not negative', () => {
  const typed = (name, fields) => ({ name, typed: true, held: '', melded: '', ...fields });
  assert.equal(missingPoints('rummy', [{ name: 'Ann', went_out: true }, typed('Bob', { held: '12' })]), null);
  assert.equal(missingPoints('rummy', [typed('Ann', { went_out: true }), { name: 'Bob' }]), null);
  assert.equal(missingPoints('chicago', [typed('Ann', { knocked: true })]), 'Type Ann’s points.');
  assert.equal(missingPoints('chicago', [typed('Ann', { held: '0' })]), null);
  assert.equal(missingPoints('chicago', [typed('Ann', { held: '2.5' })]),
    'Ann: Deadwood (points not in melds): must be a whole number.');
  assert.equal(missingPoints('rummy500', [typed('Ann', { held: '-5' })]),
    'Ann: Points left in hand: must be 0 or more.');
  assert.equal(missingPoints('rummy500', [typed('Ann', { melded: '40' })]), null);
  assert.equal(missingPoints('rummy500', [typed('Ann', { went_out: true })]), 'Type Ann’s points.');
  assert.equal(missingPoints('rummy', [{ name: 'Ann', held: '' }]), null); // cards, not points
});
