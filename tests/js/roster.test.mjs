// The club's players on the new-game sheet: a typed name is the club player whose name it is
// (case and spaces aside) or a guest; while a name is typed the matching club players are
// offered and a tap completes that row, else a tap fills the first empty row.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setLanguage } from '../../scorekeeper/web/static/i18n.js';
import { clubName, kind, nameKey, suggestions, target } from '../../scorekeeper/web/static/roster.js';

const ROSTER = { club: true, players: ['Ana', 'Bruno', 'Carla Dias', 'Inês', 'Joana'], fresh: true };

test('a name is the club player it matches, whatever its case and spaces, else a guest', () => {
  setLanguage('en');
  assert.equal(nameKey('  ANA '), 'ana');
  assert.equal(nameKey('Ine\u0302s'), nameKey('Inês')); // NFC: one identity however typed
  assert.equal(clubName(ROSTER, ' carla dias'), 'Carla Dias');
  assert.equal(clubName(ROSTER, 'Carla'), null);
  assert.deepEqual(['ana', 'Visitor', '  ', ''].map((n) => kind(ROSTER, n)), ['club', 'guest', '', '']);
  assert.equal(kind(null, 'Ana'), ''); // outside club mode nothing is marked
});

test('accents and spaces aside, a name is the one club player it can only be', () => {
  assert.equal(clubName(ROSTER, 'ines'), 'Inês');
  assert.equal(clubName(ROSTER, 'CARLA   DIAS'), 'Carla Dias');
  const two = { ...ROSTER, players: ['José', 'Jose'] };
  assert.equal(clubName(two, 'jose'), 'Jose'); // case aside it is one of them exactly
  assert.equal(clubName(two, 'JOSÉ'), 'José');
  assert.equal(clubName({ ...ROSTER, players: ['José', 'Jôse'] }, 'jose'), null); // two: a guest
  assert.deepEqual(suggestions(ROSTER, ['ine'], 0).names, ['Inês']); // typed without its accent
});

test('typing offers the club players whose name holds it; a tap completes that row', () => {
  const names = ['Bruno', 'an', ''];
  const got = suggestions(ROSTER, names, 1);
  assert.deepEqual(got, { mode: 'complete', query: 'an', names: ['Ana', 'Joana'] });
  assert.equal(target(got.mode, names, 1, 8), 1);
});

test('otherwise every club player not seated is offered, and a tap fills the first empty row', () => {
  const names = ['Bruno', 'ana', ''];
  assert.deepEqual(suggestions(ROSTER, names, 0), { mode: 'add', query: '', names: ['Carla Dias', 'Inês', 'Joana'] });
  // a guest's name matches nobody: the others are offered to add, not to replace it
  const guest = suggestions(ROSTER, ['Visitor', ''], 0);
  assert.equal(guest.mode, 'add');
  assert.equal(target(guest.mode, ['Visitor', ''], 0, 8), 1);
  assert.equal(target('add', ['Ana', 'Bruno'], 0, 8), 2); // a new row
  assert.equal(target('add', ['Ana', 'Bruno'], 0, 2), -1); // the game is full
  assert.deepEqual(suggestions(null, ['a'], 0).names, []);
});
