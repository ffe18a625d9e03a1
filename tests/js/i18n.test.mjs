// Every string has its translation: the catalogues hold the same keys with the same
// placeholders, every key the page's code asks for is in them, and none is empty.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import {
  CATALOGUES, LANGUAGES, language, pickLanguage, setLanguage, t,
} from '../../scorekeeper/web/static/i18n.js';

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

test('the phone languages pick the catalogue, Portuguese by its region', () => {
  assert.equal(pickLanguage('', ['pt-BR', 'en']), 'pt-BR');
  assert.equal(pickLanguage('', ['pt']), 'pt-BR'); // no region: Brazil, most speakers
  assert.equal(pickLanguage('', ['de-DE', 'pt-PT']), 'pt-PT');
  assert.equal(pickLanguage('', ['pt-AO']), 'pt-PT'); // written as in Portugal
  assert.equal(pickLanguage('', ['PT-br']), 'pt-BR');
  assert.equal(pickLanguage('', ['de-DE']), 'en');
  assert.equal(pickLanguage('', ['es-MX', 'en']), 'es');
  assert.equal(pickLanguage('', ['en-GB', 'pt-BR']), 'en');
  assert.equal(pickLanguage('en', ['pt-BR']), 'en');
  assert.equal(pickLanguage('pt-PT', ['pt-BR']), 'pt-PT');
  assert.equal(pickLanguage('xx', []), 'en');
  // a choice saved as plain "pt" before the two were apart follows the phone's Portuguese
  assert.equal(pickLanguage('pt', ['pt-PT']), 'pt-PT');
  assert.equal(pickLanguage('pt', ['en-US']), 'pt-BR');
});

test('the menu offers both Portuguese, and each has its own words', () => {
  assert.deepEqual(Object.keys(LANGUAGES).sort(), ['en', 'es', 'pt-BR', 'pt-PT']);
  setLanguage('pt-BR');
  assert.equal(language(), 'pt-BR');
  assert.equal(t('btn.share'), 'Compartilhar');
  assert.equal(t('app.loading'), 'Carregando…');
  setLanguage('pt-PT');
  assert.equal(t('btn.share'), 'Partilhar');
  assert.equal(t('app.loading'), 'A carregar…');
  setLanguage('pt');
  assert.equal(language(), 'pt-BR');
  setLanguage('en');
});

// What Brazil does not say: a European word or turn left in the Brazilian catalogue
// (one taken from pt.js because pt-BR.js does not change it) fails here.
const EUROPEAN = [
  /\bA [a-zà-ú]+(ar|er|ir)\b/, /\bcâmara/i, /\bpartilh/i, /\bregist(ar|ad|o\b|e\b)/i, /\bnuma?\b/i,
  /\bnoutr/i, /telemóvel/i, /\becrã/i, /ficheiro/i, /utilizador/i, /definições/i, /\btem de\b/i,
  /\btêm de\b/i, /separador/i, /\bcontrolo\b/i, /\bligação\b/i, /religar/i, /carácter/i, /píxe/i,
  /\bestá a\b/i, /Deitar fora/i, /\bguardad[ao]\b/i, /\b[a-zà-ú]+-(se|a|o|lhe)\b/i,
];

test('the Brazilian catalogue says nothing only Portugal says', () => {
  const found = Object.entries(CATALOGUES['pt-BR'])
    .filter(([, text]) => EUROPEAN.some((re) => re.test(text)))
    .map(([key, text]) => `${key}: ${text}`);
  assert.deepEqual(found, []);
});

test('plurals and placeholders', () => {
  setLanguage('pt-PT');
  assert.equal(t('board.handCount', { n: 1 }), '1 mão');
  assert.equal(t('board.handCount', { n: 3 }), '3 mãos');
  assert.equal(t('entry.cards', { n: 0 }), '0 cartas');
  assert.equal(t('over.wins', { name: 'Ana' }), '♛ Ana ganhou!');
  setLanguage('en');
  assert.equal(t('board.handCount', { n: 1 }), '1 hand');
  assert.equal(t('board.handCount', { n: 0 }), '0 hands');
  assert.equal(t('no.such.key'), 'no.such.key');
});
