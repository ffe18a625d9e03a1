import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layoffTargets, splitLayoffs } from '../../scorekeeper/web/static/layoff.js';

test('a lay-off may join any meld entered this hand but itself and other lay-offs', () => {
  const laid = ['AH'];
  laid.on = ['2H', '3H', '4H'];
  const players = [
    { melds: [['2H', '3H', '4H'], []] },
    { melds: [['AH'], laid, ['9C', '9D', '9S']] },
  ];
  assert.deepEqual(layoffTargets(players, 1, 0), [[0, 0, ['2H', '3H', '4H']], [1, 2, ['9C', '9D', '9S']]]);
  assert.deepEqual(layoffTargets([{ melds: [['AH']] }], 0, 0), []);
});

test('a stored hand shows its melds and, apart, what was laid off on which meld', () => {
  assert.deepEqual(splitLayoffs([['2H', '3H', '4H'], { cards: ['AH'], on: ['2H', '3H', '4H'] }, { cards: ['5C'] }]), {
    melds: [['2H', '3H', '4H'], ['5C']],
    laidOff: [{ cards: ['AH'], on: ['2H', '3H', '4H'] }],
  });
  assert.deepEqual(splitLayoffs(undefined), { melds: [], laidOff: [] });
});
