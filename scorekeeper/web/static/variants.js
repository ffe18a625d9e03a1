// The variants. The rules (settings and their allowed values, defaults, decks, card values,
// hand sizes, the knock limit) come from the server's GET /api/variants, read from the
// rules package; the words for them are in the language catalogues (locales/): the
// variant.ID, setting.ID.KEY and option.ID.KEY.VALUE messages.
import { has, t } from './i18n.js';

const LOW_IS_GOOD = new Set(['chicago']); // how the scoreboard reads: the lowest total leads

/** The variants as the page uses them, by id; empty until setVariants() is called. */
export const VARIANTS = {};
export const VARIANT_ORDER = [];

function optionLabel(variant, key, value) {
  const msg = `option.${variant}.${key}.${value}`;
  if (has(msg)) return t(msg);
  if (typeof value === 'boolean') return value ? t('yes') : t('no');
  return String(value);
}

function words(variant, key) {
  const msg = `setting.${variant}.${key}`;
  return has(msg) ? t(msg) : key.replace(/_/g, ' ');
}

/** One setting as the forms use it: options as [value, label], the default first. */
function pageSetting(variant, s) {
  const out = { key: s.key, label: words(variant, s.key), default: s.default };
  if (s.options) {
    const values = [s.default, ...s.options.filter((v) => v !== s.default)];
    out.options = values.map((v) => [v, optionLabel(variant, s.key, v)]);
  } else {
    out.type = 'number';
    out.min = s.min;
    const hint = `setting.${variant}.${s.key}.placeholder`;
    if (has(hint)) out.placeholder = t(hint);
  }
  return out;
}

/** Take the server's variant data (GET /api/variants) and add the words. */
export function setVariants(data) {
  for (const key of Object.keys(VARIANTS)) delete VARIANTS[key];
  VARIANT_ORDER.length = 0;
  for (const v of data?.variants || []) {
    VARIANTS[v.id] = {
      label: has(`variant.${v.id}`) ? t(`variant.${v.id}`) : v.name,
      blurb: has(`variant.${v.id}.blurb`) ? t(`variant.${v.id}.blurb`) : '',
      lowIsGood: LOW_IS_GOOD.has(v.id),
      minPlayers: v.min_players,
      maxPlayers: v.max_players,
      settings: v.settings.map((s) => pageSetting(v.id, s)),
      deck: v.deck,
      cardValues: v.card_values,
      handSize: v.hand_size,
      knock: v.knock,
    };
    VARIANT_ORDER.push(v.id);
  }
}

/** The figure of `rules` ([{when, values}]) that applies to a game's settings. */
export function ruleFor(variant, rules, settings = {}) {
  const defs = VARIANTS[variant]?.settings || [];
  const value = (key) => {
    if (settings[key] !== undefined && settings[key] !== null) return settings[key];
    return defs.find((d) => d.key === key)?.default;
  };
  const hit = (rules || []).find((r) => Object.entries(r.when || {})
    .every(([key, want]) => String(value(key)) === String(want)));
  return hit?.values || null;
}

/** The most deadwood a Chicago player with `total` may knock with (0 or less: no knock). */
export function knockLimit(variant, total) {
  const k = VARIANTS[variant]?.knock;
  if (!k) return null;
  return Math.min(k.ceiling, k.base - (Number(total) || 0));
}

/** The total at which a player's knock limit is `limit` (the inverse of knockLimit). */
export function totalForLimit(variant, limit) {
  const k = VARIANTS[variant]?.knock;
  return k ? k.base - limit : null;
}

export function variantLabel(v) {
  return VARIANTS[v]?.label || (has(`variant.${v}`) ? t(`variant.${v}`) : v) || t('newgame.game');
}

export function defaultSettings(variant) {
  const out = {};
  for (const s of VARIANTS[variant]?.settings || []) out[s.key] = s.default;
  return out;
}

/** What the page calls a setting ("Knock penalty" for knock_penalty). */
export function settingLabel(variant, key) {
  const def = (VARIANTS[variant]?.settings || []).find((s) => s.key === key);
  return def?.label || words(variant, key);
}
