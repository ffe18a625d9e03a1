// Every string has its translation: the catalogues hold the same keys with the same
// placeholders, every key the page's code asks for is in them, and none is empty.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { CATALOGUES, pickLanguage, setLanguage, t } from '../../scorekeeper/web/static/i18n.js';

const STATIC = new URL('../../scorekeeper/web/static/', import.meta.url);
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every language has every English string, with the same placeholders', () => {
  const en = CATALOGUES.en;
  for (const [lang, cat] of Object.entries(CATALOGUES)) {
    const missing = Object.keys(en).filter((k) => !(k in cat));
    const extra = Object.keys(cat).filter((k) => !(k in en));
    assert.deepEqual(missing, [], `${lang} lacks a translation`);
    assert.deepEqual(extra, [], `${lang} has strings English lacks`);
    for (const [key, text] of Object.entries(cat)) {
      assert.ok(text.trim(), `${lang} ${key} is empty`);
      assert.deepEqual(placeholders(text), placeholders(en[key]), `${lang} ${key} placeholders`);
    }
  }
});

test('every key the page asks for is in the catalogue', () => {
  const used = new Set();
  const files = readdirSync(STATIC).filter((f) => f.endsWith('.js') || f.endsWith('.html'));
  for (const f of files) {
    const src = readFileSync(new URL(f, STATIC), 'utf8');
    for (const m of src.matchAll(/\bt\('([a-zA-Z0-9_.]+)'/g)) used.add(m[1]);
    for (const m of src.matchAll(/data-i18n(?:-aria|-alt)?="([a-zA-Z0-9_.]+)"/g)) used.add(m[1]);
  }
  const en = CATALOGUES.en;
  const unknown = [...used].filter((k) => !(k in en) && !(`${k}.other` in en));
  assert.deepEqual(unknown, []);
  assert.ok(used.size > 150, `only ${used.size} keys found: is the scan broken?`);
});

test('the phone languages pick the catalogue', () => {
  assert.equal(pickLanguage('', ['pt-BR', 'en']), 'pt');
  assert.equal(pickLanguage('', ['de-DE', 'pt-PT']), 'pt');
  assert.equal(pickLanguage('', ['de-DE']), 'en');
  assert.equal(pickLanguage('', ['es-MX', 'en']), 'es');
  assert.equal(pickLanguage('en', ['pt-BR']), 'en');
  assert.equal(pickLanguage('xx', []), 'en');
});

test('plurals and placeholders', () => {
  setLanguage('pt');
  assert.equal(t('board.handCount', { n: 1 }), '1 mão');
  assert.equal(t('board.handCount', { n: 3 }), '3 mãos');
  assert.equal(t('entry.cards', { n: 0 }), '0 cartas');
  assert.equal(t('over.wins', { name: 'Ana' }), '♛ Ana ganhou!');
  setLanguage('en');
  assert.equal(t('board.handCount', { n: 1 }), '1 hand');
  assert.equal(t('board.handCount', { n: 0 }), '0 hands');
  assert.equal(t('no.such.key'), 'no.such.key');
});
