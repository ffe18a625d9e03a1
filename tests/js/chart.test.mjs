import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spread } from '../../scorekeeper/web/static/chart.js';

test('lines on the same total are fanned out, others stay put', () => {
  const shift = spread([[0, 10, 20], [0, 10, 25], [0, 5, 20]], 3);
  assert.deepEqual(shift.map((s) => s[0]), [-3, 0, 3]);
  assert.deepEqual(shift.map((s) => s[1]), [-1.5, 1.5, 0]);
  assert.deepEqual(shift.map((s) => s[2]), [-1.5, 0, 1.5]);
});

test('a single line is never moved', () => {
  assert.deepEqual(spread([[1, 2, 3]]), [[0, 0, 0]]);
  assert.deepEqual(spread([]), []);
});

test('lines that share 0 (where every line starts) fan upwards only, never below 0', () => {
  const shift = spread([[0, 10], [0, 10], [0, 5]], 3, [0]);
  assert.deepEqual(shift.map((s) => s[0]), [0, -3, -6]); // SVG: negative is up
  assert.deepEqual(shift.map((s) => s[1]), [-1.5, 1.5, 0]);
});
