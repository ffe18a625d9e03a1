import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_AGE_MS, agoText, clearDraft, draftKey, draftKeys, loadDraft, pruneDrafts, saveDraft,
} from '../../scorekeeper/web/static/drafts.js';
import { memoryStorage } from './setup.mjs';

const PLAYERS = [{ name: 'Ann', hand: ['AH'] }, { name: 'Bob', hand: [], melds: [['7S', '8S', '9S']] }];

test('a draft is kept per game and hand, and comes back for the same players', () => {
  const s = memoryStorage();
  assert.equal(draftKey(3, null, 2), 'scorekeeper.draft.3.new-2');
  assert.equal(draftKey(3, 1, 2), 'scorekeeper.draft.3.fix-1');
  assert.ok(saveDraft(s, draftKey(3, null, 2), PLAYERS, 1, 1000));
  const d = loadDraft(s, draftKey(3, null, 2), ['Ann', 'Bob'], 2000);
  assert.deepEqual(d, { players: PLAYERS, active: 1, saved: 1000, base: null, key: null });
  assert.equal(loadDraft(s, draftKey(4, null, 2), ['Ann', 'Bob'], 2000), null);
  clearDraft(s, draftKey(3, null, 2));
  assert.deepEqual(draftKeys(s), []);
});

test('a draft keeps the game version it was begun at and its request key', () => {
  const s = memoryStorage();
  const key = draftKey(3, null, 2);
  saveDraft(s, key, PLAYERS, 0, 1000, { base: 4, key: '0123456789abcdef' });
  const d = loadDraft(s, key, ['Ann', 'Bob'], 2000);
  assert.equal(d.base, 4);
  assert.equal(d.key, '0123456789abcdef');
  // a key or version that is not one is dropped (the draft itself is kept)
  saveDraft(s, key, PLAYERS, 0, 1000, { base: -1, key: 'not a key!' });
  const kept = loadDraft(s, key, ['Ann', 'Bob'], 2000);
  assert.deepEqual([kept.base, kept.key, kept.players], [null, null, PLAYERS]);
});

test('a draft for other players, a broken one or an old one is dropped', () => {
  const s = memoryStorage();
  const key = draftKey(1, null, 1);
  saveDraft(s, key, PLAYERS, 0, 0);
  assert.equal(loadDraft(s, key, ['Ann', 'Cy'], 1), null);
  assert.deepEqual(draftKeys(s), []);
  s.setItem(key, '{not json');
  assert.equal(loadDraft(s, key, ['Ann', 'Bob']), null);
  saveDraft(s, key, PLAYERS, 0, 0);
  assert.equal(loadDraft(s, key, ['Ann', 'Bob'], MAX_AGE_MS + 1), null);
  saveDraft(s, key, PLAYERS, 7, 0);
  assert.equal(loadDraft(s, key, ['Ann', 'Bob'], 1).active, 0);
});

test('pruning keeps only the next hand of a game', () => {
  const s = memoryStorage();
  saveDraft(s, draftKey(1, null, 1), PLAYERS, 0, 0);
  saveDraft(s, draftKey(1, null, 2), PLAYERS, 0, 0);
  saveDraft(s, draftKey(2, null, 1), PLAYERS, 0, 0);
  s.setItem('scorekeeper.token', 'kept');
  pruneDrafts(s, 1, 2, 10);
  assert.deepEqual(draftKeys(s).sort(), [draftKey(1, null, 2), draftKey(2, null, 1)]);
  assert.equal(s.getItem('scorekeeper.token'), 'kept');
});

test('blocked storage means no draft, never an error', () => {
  const s = memoryStorage({ broken: true });
  assert.equal(saveDraft(s, 'k', PLAYERS), false);
  assert.equal(loadDraft(s, 'k', ['Ann', 'Bob']), null);
  assert.doesNotThrow(() => pruneDrafts(s, 1, 1));
  assert.equal(loadDraft(null, 'k', ['Ann']), null);
});

test('how long ago', () => {
  assert.equal(agoText(0, 10_000), 'moments ago');
  assert.equal(agoText(0, 5 * 60_000), '5 min ago');
  assert.equal(agoText(0, 3 * 3600_000), '3 h ago');
});
