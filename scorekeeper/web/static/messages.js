// The server's refusals in the players' words: each comes with a stable `code` and its
// `params` (players, cards, numbers, a variant's id), said here from the page's own
// catalogue (`refusal.<code>`), with the cards, variants and settings as the page names
// them. The server says `detail` from the same catalogue; it is shown only for a code this
// page does not know. Pure (no DOM): unit-tested with Node's test runner.
import { cardText } from './cards.js';
import { has, language, t, template } from './i18n.js';
import {
  entersMelds, missingEnderKey, settingLabel, typedFields, variantLabel,
} from './variants.js';

const LISTS = new Set(['players', 'decks']);

function number(value) {
  return new Intl.NumberFormat(language(), { useGrouping: false, maximumFractionDigits: 2 }).format(value);
}

/** "1, 2 or 3" in the page's language; a setting's options by their labels. */
function oneOf(options, variant, setting) {
  const said = options.map((o) => {
    const key = `option.${variant}.${setting}.${o}`;
    if (setting != null && has(key)) return t(key);
    return typeof o === 'number' ? number(o) : String(o);
  });
  if (said.length < 2) return said.join('');
  return `${said.slice(0, -1).join(', ')} ${t('refusal.or')} ${said[said.length - 1]}`;
}

function problemText(p, variant) {
  if (!p || typeof p !== 'object') return '';
  const values = {};
  for (const [k, v] of Object.entries(p)) values[k] = typeof v === 'number' ? number(v) : v;
  values.options = oneOf(Array.isArray(p.options) ? p.options : [], variant, p.setting);
  const what = has(`reason.${p.reason}`) ? t(`reason.${p.reason}`, values) : t('reason.invalid');
  const field = p.setting != null ? settingLabel(variant, String(p.setting)) : String(p.field ?? '');
  return t('refusal.problem', { field, what });
}

function values(params) {
  const out = {};
  for (const [key, value] of Object.entries(params)) {
    if (key === 'card' && typeof value === 'string') out[key] = cardText(value);
    else if (key === 'cards' && Array.isArray(value)) out[key] = value.map((c) => cardText(String(c))).join(', ');
    else if (key === 'variant') out[key] = variantLabel(value);
    else if (key === 'variants' && Array.isArray(value)) out[key] = oneOf(value.map(variantLabel));
    else if (LISTS.has(key) && Array.isArray(value)) out[key] = value.join(', ');
    else if (key === 'problems' && Array.isArray(value)) {
      const said = value.map((p) => problemText(p, params.variant));
      if (params.more > 0) said.push(t('refusal.more', { n: params.more }));
      out[key] = said.join('; ');
    } else if (typeof value === 'number' && key !== 'n') out[key] = number(value);
    else out[key] = value;
  }
  return out;
}

/**
 * A refusal's body ({detail, code, params}) in the page's language: from the catalogue by
 * its code, else the server's `detail`; null when the body says nothing.
 */
export function refusalText(body) {
  if (!body || typeof body !== 'object') return null;
  const detail = typeof body.detail === 'string' ? body.detail : null;
  const key = `refusal.${body.code}`;
  if (typeof body.code !== 'string' || template(key) === undefined) return detail;
  const params = body.params && typeof body.params === 'object' ? body.params : {};
  let text = t(key, values(params));
  if (params.player != null && !template(key).includes('{player}')) {
    text = t('refusal.ofPlayer', { player: params.player, message: text });
  }
  if (params.hand != null) text = t('refusal.inHand', { hand: params.hand, message: text });
  return text ? text[0].toUpperCase() + text.slice(1) : detail;
}

/**
 * What a hand still lacks before the server can score it, in the players' words, or null.
 * Saves a round trip whose answer would only say the same less kindly.
 */
export function missingEnder(variant, players) {
  const key = missingEnderKey(variant, players);
  return key ? t(key) : null;
}

/**
 * Whether a player who types points has typed what the hand needs, or the problem in the
 * players' words, or null. The one who went out holds nothing, so types nothing.
 */
export function missingPoints(variant, players) {
  for (const p of players) {
    if (!p.typed || (p.went_out && !entersMelds(variant))) continue;
    const fields = typedFields(variant);
    const typed = fields.filter(([key]) => String(p[key] ?? '').trim() !== '');
    if (!typed.length) return t('entry.typePoints', { name: p.name });
    for (const [key, label] of typed) {
      const { error } = checkNumber(`${p.name}: ${t(label)}`, p[key], { min: 0 });
      if (error) return error;
    }
  }
  return null;
}

/** A number setting's value as typed, or the problem with it in the players' words. */
export function checkNumber(label, raw, { min = null, optional = false } = {}) {
  const text = String(raw ?? '').trim();
  if (text === '') return optional ? { value: null } : { error: t('msg.enterNumber', { label }) };
  if (!/^-?\d+$/.test(text)) return { error: t('msg.whole', { label }) };
  const value = Number(text);
  if (min != null && value < min) return { error: t('msg.atLeast', { label, min }) };
  return { value };
}

/**
 * What changed on another phone, from a 412's params ({change, hand, old, new} each), in
 * the page's language; the server's words for a change this page cannot say.
 */
export function changeTexts(body) {
  const words = Array.isArray(body?.changes) ? body.changes : [];
  const moves = body?.params?.changes;
  if (!Array.isArray(moves)) return words;
  return moves.map((c, i) => {
    const key = `change.${c?.change}`;
    return template(key) !== undefined ? t(key, c) : words[i] ?? t('change.game');
  });
}

/**
 * What is wrong with the table camera, from its status's `reason` code in the page's
 * language; the server's English `error` (written for its log) only for a reason this page
 * does not know. Null when nothing is wrong.
 */
export function cameraText(status) {
  const key = `camera.reason.${status?.reason}`;
  if (typeof status?.reason === 'string' && has(key)) return t(key);
  return status?.error || null;
}

/**
 * What a failed hand save says. No answer at all (status 0) does not mean nothing was saved:
 * the server may have saved it and the answer been lost; its Idempotency-Key keeps Save
 * again from counting it twice, so the players are told to save again, not to worry.
 */
export function saveErrorText(error) {
  return error?.status === 0 ? t('net.noAnswerSave') : error?.message || String(error);
}
