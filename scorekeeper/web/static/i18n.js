// The page's words in the players' language: one catalogue per language (locales/),
// chosen from the phone's languages unless the menu's switch says otherwise.
import { keep, kept } from './kept.js';
import en from './locales/en.js';
import es from './locales/es.js';
import pt from './locales/pt.js';
import ptBR from './locales/pt-BR.js';

// pt.js is European Portuguese; pt-BR.js is what Brazil says otherwise.
export const CATALOGUES = { en, es, 'pt-BR': ptBR, 'pt-PT': pt };
export const LANGUAGES = {
  en: 'English', es: 'Español', 'pt-BR': 'Português (Brasil)', 'pt-PT': 'Português (Portugal)',
};
const KEY = 'scorekeeper.lang';
let current = 'en';

/**
 * The catalogue for one language tag, or null: Portuguese by its region (plain `pt` and
 * pt-BR are Brazilian, the most speakers; pt-PT and the other regions, which write as
 * Portugal does, European), the others by their language.
 */
export function matchLanguage(tag) {
  const [base, region = ''] = String(tag || '').toLowerCase().split('-');
  if (base === 'pt') return region === '' || region === 'br' ? 'pt-BR' : 'pt-PT';
  return base === 'en' || base === 'es' ? base : null;
}

/**
 * What plain `pt` means on this phone: the Portuguese of the first regional tag it also
 * lists (a phone in Portugal may put bare `pt` above `pt-PT`), else Brazilian.
 */
function plainPortuguese(preferred) {
  const regional = preferred.find((tag) => /^pt-/i.test(String(tag)));
  return regional ? matchLanguage(regional) : 'pt-BR';
}

/**
 * The language to use: the saved choice, else the first of the phone's we have, else
 * English. Plain `pt`, from the phone or saved (before Brazilian and European were two),
 * follows the phone's regional Portuguese, if it names one.
 */
export function pickLanguage(saved, preferred = []) {
  if (saved && CATALOGUES[saved]) return saved;
  const pt = plainPortuguese(preferred);
  if (saved === 'pt') return pt;
  const phone = preferred.map((tag) => (/^pt$/i.test(String(tag)) ? pt : matchLanguage(tag)));
  return phone.find(Boolean) || 'en';
}

export function language() {
  return current;
}

export function setLanguage(lang) {
  current = CATALOGUES[lang] ? lang : matchLanguage(lang) || 'en';
  if (typeof document !== 'undefined') document.documentElement.lang = current;
}

export function savedLanguage() {
  return kept(KEY);
}

/** Keep the phone's choice ('' follows the phone's languages again). */
export function saveLanguage(lang) {
  keep(KEY, lang);
}

function fillIn(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (params && name in params ? String(params[name]) : whole));
}

/**
 * The message `key` in the current language, with {params} put in. With `params.n` and
 * `key.one`/`key.other` in the catalogue, the plural form for n is used: "one" for 1 only,
 * as both languages here say it ("0 cartas", where CLDR's pt rule would give "0 carta").
 */
export function t(key, params) {
  const cat = CATALOGUES[current];
  let k = key;
  if (params && typeof params.n === 'number' && cat[`${key}.other`] !== undefined) {
    k = Math.abs(params.n) === 1 ? `${key}.one` : `${key}.other`;
  }
  const text = cat[k] ?? en[k] ?? key;
  return fillIn(text, params);
}

/** The message `key` as the catalogue holds it, placeholders unfilled (its plural form). */
export function template(key) {
  const cat = CATALOGUES[current];
  return cat[key] ?? en[key] ?? cat[`${key}.other`] ?? en[`${key}.other`];
}

/** Whether the catalogue has `key` (for optional words, such as a setting's option). */
export function has(key) {
  return CATALOGUES[current][key] !== undefined || en[key] !== undefined;
}

/** Translate the page's fixed text: [data-i18n] (text), [data-i18n-aria] and [data-i18n-alt]. */
export function translateStatic(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-aria]')) el.setAttribute('aria-label', t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll('[data-i18n-alt]')) el.setAttribute('alt', t(el.dataset.i18nAlt));
}
