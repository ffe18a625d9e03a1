// The server's messages in the players' words: the rules name their JSON keys and setting
// keys ('went_out', knock_penalty=1.5); a player should read what the page calls them.
// Pure (no DOM): unit-tested with Node's test runner.
import { t } from './i18n.js';
import {
  VARIANTS, entersMelds, missingEnderKey, settingLabel, typedFields, variantLabel,
} from './variants.js';

const FLAGS = {
  went_out: 'went out',
  knocked: 'knocked',
  rummy: 'rummy',
  hand: 'the hand',
  melds: 'the melds',
};

/** `message` as a player should read it; `variant` names the game's setting labels. */
export function playerWords(message, variant) {
  let text = String(message ?? '');
  // "setting knock_penalty=1.5: must be a whole number" → "Knock penalty: must be …"
  text = text.replace(/\bsetting ([a-z_]+)=[^:]*:/g, (_, key) => `${settingLabel(variant, key)}:`);
  text = text.replace(/\bunknown setting '([a-z_]+)' for [a-z0-9]+/g, (_, key) => `“${key}” is not a rule of this game`);
  text = text.replace(/'(went_out|knocked|rummy|hand|melds)'/g, (_, key) => FLAGS[key]);
  text = text.replace(/\bone player must have went out\b/, 'mark the player who went out');
  text = text.replace(/\bexactly one player must have knocked or gone rummy, got none\b/,
    'mark the player who knocked or went rummy');
  for (const id of Object.keys(VARIANTS)) {
    text = text.replace(new RegExp(`\\b(in|for) ${id}\\b`, 'g'), `$1 ${variantLabel(id)}`);
    text = text.replace(new RegExp(`^${id} needs`), `${variantLabel(id)} needs`);
  }
  text = text.replace(/^hand (\d+): /, 'Hand $1: ');
  return text ? text[0].toUpperCase() + text.slice(1) : text;
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
