import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cardValues, deckRules } from '../../scorekeeper/web/static/cards.js';
import {
  VARIANT_ORDER, VARIANTS, defaultSettings, knockLimit, settingLabel, totalForLimit,
} from '../../scorekeeper/web/static/variants.js';
import { SERVED } from './setup.mjs';

test('the page lists the served variants, with words for every setting and option', () => {
  assert.deepEqual(VARIANT_ORDER, SERVED.variants.map((v) => v.id));
  for (const v of SERVED.variants) {
    const page = VARIANTS[v.id];
    assert.equal(page.minPlayers, v.min_players);
    assert.equal(page.maxPlayers, v.max_players);
    assert.deepEqual(page.settings.map((s) => s.key), v.settings.map((s) => s.key));
    for (const [i, s] of v.settings.entries()) {
      const mine = page.settings[i];
      assert.notEqual(mine.label, s.key, `${v.id}.${s.key} has no label`);
      if (s.options) {
        assert.equal(mine.options[0][0], s.default, 'the default is listed first');
        assert.deepEqual(new Set(mine.options.map(([value]) => value)), new Set(s.options));
        for (const [value, label] of mine.options) assert.ok(label, `${v.id}.${s.key}=${value}`);
      } else {
        assert.equal(mine.type, 'number');
        assert.equal(mine.min, s.min);
      }
    }
  }
});

test('defaults come from the rules', () => {
  assert.deepEqual(defaultSettings('rummy10'), { target: 100, exhausted_hand: 'void' });
  assert.equal(defaultSettings('rummy').hands, null);
  assert.equal(settingLabel('chicago', 'knock_penalty'), 'Knock penalty');
});

test('deck rules follow the game settings', () => {
  assert.deepEqual(deckRules('chicago'), { copies: 2, jokers: 0 });
  assert.deepEqual(deckRules('rummy'), { copies: 1, jokers: 0 });
  assert.deepEqual(deckRules('rummy500'), { copies: 1, jokers: 2 });
  assert.deepEqual(deckRules('rummy500', { decks: 2, jokers: 2 }), { copies: 2, jokers: 4 });
  assert.deepEqual(deckRules('rummy500', { decks: 2, jokers: 0 }), { copies: 2, jokers: 0 });
  assert.deepEqual(deckRules('rummy500', { decks: '2' }), { copies: 2, jokers: 4 });
});

test('card values follow the game settings', () => {
  assert.equal(cardValues('rummy').A, 1);
  assert.equal(cardValues('rummy', { ace: 'high_or_low' }).A, 15);
  assert.equal(cardValues('rummy500', { scoring: '5-10-15' })['7'], 5);
  assert.equal(cardValues('rummy500').JK, 15);
  assert.equal(cardValues('chicago').K, 10);
});

test('the knock limit: at most 9, less near 100, none at 100', () => {
  assert.equal(knockLimit('chicago', 0), 9);
  assert.equal(knockLimit('chicago', 95), 5);
  assert.equal(knockLimit('chicago', 100), 0);
  assert.equal(totalForLimit('chicago', 0), 100);
  assert.equal(knockLimit('rummy', 10), null);
  assert.equal(VARIANTS.chicago.handSize.cards, 7);
});
