// The live count while aiming and the one-tap alternatives to a doubted card: what a whole
// hand is by the variant's record, when the shot is taken by itself, what is offered.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setLanguage } from '../../scorekeeper/web/static/i18n.js';
import { countLine, handTarget, liveState, readyToTake } from '../../scorekeeper/web/static/livecount.js';
import { nearestCards } from '../../scorekeeper/web/static/review-alts.js';
import { mostOfHand } from '../../scorekeeper/web/static/scanread.js';
import { SERVED } from './setup.mjs';

test('the target comes from the variant record, as the too-many warning reads it', () => {
  const chicago = SERVED.variants.find((v) => v.id === 'chicago').hand_size;
  assert.deepEqual(handTarget('chicago', 2), { least: chicago.cards, most: chicago.ender, whole: true });
  for (const variant of ['rummy', 'rummy10']) {
    for (const players of [2, 4]) {
      const t = handTarget(variant, players);
      assert.equal(t.whole, false);
      assert.equal(t.most, mostOfHand(variant, players));
      assert.ok(t.most > 0, `${variant} ${players}`);
    }
  }
  assert.deepEqual(handTarget('rummy500', 3), { least: null, most: null, whole: false });
});

test('a whole, sure hand is taken only once two reads in a row agree', () => {
  const target = handTarget('chicago', 2);
  const at = (count, unsure = 0, unread = 0) => liveState({ count, unsure, unread }, target);
  assert.deepEqual(at(5, 2), { n: 5, unsure: 2, whole: false, sure: false });
  assert.deepEqual(at(7, 1), { n: 7, unsure: 1, whole: true, sure: false });
  assert.equal(at(7, 0, 1).sure, false); // a card seen but not read is no sure card
  assert.equal(at(9).whole, false);
  assert.ok(!readyToTake(null, at(7)));
  assert.ok(readyToTake(at(7), at(7)));
  assert.ok(readyToTake(at(8), at(8)));
  assert.ok(!readyToTake(at(7), at(8))); // still being spread: wait for the next read
  assert.ok(!readyToTake(at(7, 1), at(7)));
  assert.ok(!readyToTake(at(6), at(6)));
  const rummy = handTarget('rummy', 2);
  const r = liveState({ count: rummy.most, unsure: 0 }, rummy);
  assert.ok(!readyToTake(r, r), 'no whole count in Rummy: the players tap');
  assert.deepEqual(liveState({}, target), { n: 0, unsure: 0, whole: false, sure: false });
});

test('the count says how many of how many, and how many are unsure', () => {
  setLanguage('en');
  const chicago = handTarget('chicago', 2);
  assert.equal(countLine(liveState({ count: 5, unsure: 2 }, chicago), chicago), '5 of 7 read · 2 unsure');
  assert.equal(countLine(liveState({ count: 8, unsure: 0 }, chicago), chicago), '8 of 8 read');
  assert.equal(countLine(liveState({ count: 9, unsure: 0 }, chicago), chicago), '9 of 7 read');
  const rummy = handTarget('rummy', 2);
  assert.equal(countLine(liveState({ count: 3, unsure: 1 }, rummy), rummy),
    `3 read · at most ${rummy.most} · 1 unsure`);
  const r500 = handTarget('rummy500', 2);
  assert.equal(countLine(liveState({ count: 12 }, r500), r500), '12 read');
  setLanguage('es');
  assert.equal(countLine(liveState({ count: 5, unsure: 2 }, chicago), chicago), '5 de 7 leídas · 2 dudosas');
  setLanguage('en');
});

test('a doubted card offers its rank in the other suits, the same colour first', () => {
  const one = { copies: 1, jokers: 0 };
  assert.deepEqual(nearestCards('8D', one), ['8H', '8S', '8C']);
  assert.deepEqual(nearestCards('10S', one), ['10C', '10H', '10D']);
  assert.deepEqual(nearestCards({ card: 'QC' }, one), ['QS', 'QH', 'QD']);
  // a card whose every copy is taken (here or by the other players) is not offered
  assert.deepEqual(nearestCards('8D', one, new Map([['8H', 1]])), ['8S', '8C']);
  assert.deepEqual(nearestCards('8D', { copies: 2, jokers: 2 }, new Map([['8H', 1]])), ['8H', '8S', '8C']);
  // never a joker, and nothing for one (no rank to keep)
  assert.deepEqual(nearestCards('JK', { copies: 2, jokers: 2 }), []);
  assert.deepEqual(nearestCards('??', one), []);
});
