// Every string has its translation: the catalogues hold the same keys with the same
// placeholders, every key the page's code asks for is in them, and none is empty.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import {
  CATALOGUES, LANGUAGES, language, pickLanguage, setLanguage, t,
} from '../../scorekeeper/web/static/i18n.js';
import { stringLiterals } from './js-strings.mjs';

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

const sources = (ext) => readdirSync(STATIC).filter((f) => f.endsWith(ext))
  .map((f) => ({ f, src: readFileSync(new URL(f, STATIC), 'utf8') }));
const isKey = (k, cat = CATALOGUES.en) => k in cat || `${k}.other` in cat;

test('every key the code holds is in the catalogue, however it reaches t()', () => {
  // t(cond ? 'a' : 'b'), a table of keys, t(`prefix.${value}`): a string shaped like a key
  // (word.word) anywhere in the code must be one; storage keys and file names are not
  const unknown = [];
  const prefixes = [];
  for (const { f, src } of sources('.js')) {
    for (const { text } of stringLiterals(src)) {
      if (/^[a-z][a-zA-Z0-9]*(\.[a-zA-Z0-9_]+)+$/.test(text) && !text.startsWith('scorekeeper.')
        && !/\.(jpe?g|png|js|css|html|json|csv|pdf)$/.test(text) && !isKey(text)) unknown.push(`${f}: ${text}`);
    }
    for (const m of src.matchAll(/\b(?:t|has|template)\(`([a-zA-Z0-9_.]+)\$\{/g)) prefixes.push([f, m[1]]);
  }
  assert.deepEqual(unknown, []);
  const keys = Object.keys(CATALOGUES.en);
  const bare = prefixes.filter(([, p]) => !keys.some((k) => k.startsWith(p)));
  assert.deepEqual(bare.map(([f, p]) => `${f}: ${p}…`), []);
  assert.ok(prefixes.length > 15, `only ${prefixes.length} built keys found: is the scan broken?`);
});

test('pt-BR is pt with what Brazil says otherwise: it adds no key of its own', async () => {
  const own = readFileSync(new URL('locales/pt-BR.js', STATIC), 'utf8');
  assert.match(own, /\.\.\.pt,/); // the rest comes from pt.js, by design
  const pt = CATALOGUES['pt-PT'];
  const added = Object.keys(CATALOGUES['pt-BR']).filter((k) => !(k in pt));
  assert.deepEqual(added, []);
  // every key es and pt have, each in its own words somewhere (not the whole English)
  for (const lang of ['es', 'pt-PT']) {
    const same = Object.keys(CATALOGUES.en).filter((k) => CATALOGUES[lang][k] === CATALOGUES.en[k]);
    assert.ok(same.length < 25, `${lang}: ${same.length} strings still as in English`);
  }
});

// English written into the code where the page's other words go through t(): a
// capitalised word, or words with one of English's small words between them
const SMALL = new Set('the a an to of in is are and or for on with no not this your it at by from be can'.split(' '));
function english(text) {
  const words = text.replace(/\{\}/g, ' ').split(/\s+/).filter(Boolean);
  return words.some((w) => /^\(?[A-Z][a-z]{2,}/.test(w))
    || (words.length > 1 && words.some((w) => SMALL.has(w)));
}
// words that are not shown: HTTP's and the keyboard's names, and an error's; the language
// names, which each language says in its own words in the switch (LANGUAGES)
const NOT_SHOWN = new Set(['If-Match', 'Idempotency-Key', 'Accept-Language', 'Content-Type',
  'Bearer {}', 'Enter', 'AbortError', ...Object.values(LANGUAGES)]);
const PDF = /(^|\s)\/[A-Z][A-Za-z]+/; // a PDF's own names (sheet.js writes the file)

test('no English is written into the code, the styles or the pages past t()', () => {
  const found = [];
  for (const { f, src } of sources('.js')) {
    if (f === 'sw.js') continue; // the service worker shows nothing
    for (const { text, line } of stringLiterals(src)) {
      if (english(text) && !NOT_SHOWN.has(text) && !PDF.test(text)) found.push(`${f}:${line} ${text}`);
    }
  }
  for (const { f, src } of sources('.css')) {
    // generated content is shown but never translated: symbols only
    for (const m of src.matchAll(/content:\s*(["'])(.*?)\1/g)) {
      if (/\p{L}{2}/u.test(m[2])) found.push(`${f}: content "${m[2]}"`);
    }
  }
  for (const { f, src } of sources('.html')) {
    // the title (set from t() once the page runs) and noscript (no script to translate it)
    const page = src.replace(/<!--[\s\S]*?-->|<(script|style|title|noscript)[\s\S]*?<\/\1>/g, '');
    for (const m of page.matchAll(/<([a-z0-9]+)([^>]*)>([^<]*\p{L}{2}[^<]*)</gu)) {
      if (!/\sdata-i18n="/.test(m[2])) found.push(`${f}: <${m[1]}> ${m[3].trim()}`);
    }
    for (const m of page.matchAll(/<[a-z0-9]+[^>]*>/g)) {
      for (const [, attr, value] of m[0].matchAll(/\s(aria-label|alt|title|placeholder)="([^"]*)"/g)) {
        const by = attr === 'aria-label' ? 'aria' : attr;
        if (/\p{L}{2}/u.test(value) && !m[0].includes(`data-i18n-${by}="`)) found.push(`${f}: ${attr}="${value}"`);
      }
    }
  }
  assert.deepEqual(found, []);
});

test('each language names the page as its own app.name does', () => {
  for (const [lang, cat] of Object.entries(CATALOGUES)) {
    const other = Object.values(CATALOGUES).map((c) => c['app.name']).filter((n) => n !== cat['app.name']);
    const wrong = Object.entries(cat).filter(([, text]) => other.some((n) => text.includes(n)));
    assert.deepEqual(wrong, [], `${lang} names the page otherwise`);
  }
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
  // plain "pt" above a regional one (a phone in Portugal may list both): that region's
  assert.equal(pickLanguage('', ['pt', 'pt-PT']), 'pt-PT');
  assert.equal(pickLanguage('', ['pt', 'en-GB', 'pt-PT']), 'pt-PT');
  assert.equal(pickLanguage('', ['PT', 'pt-MZ']), 'pt-PT');
  assert.equal(pickLanguage('', ['pt', 'pt-BR', 'pt-PT']), 'pt-BR');
  assert.equal(pickLanguage('', ['es', 'pt', 'pt-PT']), 'es');
  assert.equal(pickLanguage('pt', ['pt', 'pt-PT']), 'pt-PT');
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
