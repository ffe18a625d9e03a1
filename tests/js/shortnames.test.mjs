// The hands table's short column heads: short, and never two alike.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shortNames, tabNames } from '../../scorekeeper/web/static/shortnames.js';

test('the first letter is enough when the first letters differ', () => {
  assert.deepEqual(shortNames(['Ann', 'Bob', 'Cy']), ['A', 'B', 'C']);
});

test('a label grows only where two would read the same', () => {
  assert.deepEqual(shortNames(['Annabelle Marguerite', 'Bartholomew Jones', 'Anton', 'Fitz', 'Fiona']),
    ['Ann', 'B', 'Ant', 'Fit', 'Fio']);
});

test('first names alike to four letters add the other initials, then a seat', () => {
  assert.deepEqual(shortNames(['Maria Silva', 'Maria Santos', 'Bo']), ['Mari S 1', 'Mari S 2', 'B']);
  assert.deepEqual(shortNames(['Ann Marie', 'Ann Rose']), ['Ann M', 'Ann R']);
  assert.deepEqual(shortNames(['Jo', 'Jo']), ['Jo 1', 'Jo 2']);
});

test('an accented or astral first letter counts as one', () => {
  assert.deepEqual(shortNames(['Élodie', 'Émile']), ['Él', 'Ém']);
  assert.deepEqual(shortNames(['🦊 Fox', 'Bea']), ['🦊', 'B']);
});

test('never two heads alike, whatever the names', () => {
  const pool = ['Ann', 'Anna', 'Ann Marie', 'Ann Marie', 'ann', 'Bo', 'Bob', 'Bobby', 'B', 'Ánn'];
  for (let n = 2; n <= 8; n++) {
    for (let start = 0; start + n <= pool.length; start++) {
      const out = shortNames(pool.slice(start, start + n));
      assert.equal(new Set(out.map((x) => x.toLowerCase())).size, n, out.join('|'));
    }
  }
});

test('hand-entry tabs: whole names while short, else first names, else short heads', () => {
  assert.deepEqual(tabNames(['Ann', 'Bob Smith']), ['Ann', 'Bob Smith']);
  assert.deepEqual(tabNames(['Annabelle Marguerite', 'Bob']), ['Annabelle', 'Bob']);
  assert.deepEqual(tabNames(['Ann Marie Long-Surname', 'Ann Rose']), ['Ann ML', 'Ann R']);
  assert.deepEqual(tabNames(['Bartholomewwwwwwww Jones', 'Cy']), ['B', 'Cy']);
  assert.deepEqual(tabNames(['Bo Long-Long-Surname', 'Bob', 'Bo']), ['Bo L', 'Bob', 'Bo']);
});
