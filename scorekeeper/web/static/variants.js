// The variants. The rules (settings and their allowed values, defaults, decks, card values,
// hand sizes, the knock limit, who leads, how a hand ends and what is entered for each
// player) come from the server's GET /api/variants, read from the rules package: the page
// asks a variant's record, never which variant it is. The words for them are in the
// language catalogues (locales/): the variant.ID, setting.ID.KEY and option.ID.KEY.VALUE
// messages.
import { has, t } from './i18n.js';

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
      lowIsGood: !!v.low_wins,
      minPlayers: v.min_players,
      maxPlayers: v.max_players,
      settings: v.settings.map((s) => pageSetting(v.id, s)),
      deck: v.deck,
      cardValues: v.card_values,
      handSize: v.hand_size,
      knock: v.knock,
      end: {
        marks: v.end?.marks || [],
        rummyGoesOut: !!v.end?.rummy_goes_out,
        required: !!v.end?.required,
        reads: v.end?.reads || 'hand',
        typed: v.end?.typed || ['held'],
      },
      goalKey: v.goal_key ?? null,
      handLimitKey: v.hand_limit_key ?? null,
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

const NO_END = { marks: [], rummyGoesOut: false, required: false, reads: 'hand', typed: ['held'] };

/** How a hand of `variant` ends and what is entered for each player (see setVariants). */
export function handEnd(variant) {
  return VARIANTS[variant]?.end || NO_END;
}

/** Whether a player's entry is the whole hand, scored by its minimal deadwood. */
export function scoresDeadwood(variant) {
  return handEnd(variant).reads === 'hand';
}

/** Whether players lay melds in front of them, entered apart from the cards held. */
export function entersMelds(variant) {
  return handEnd(variant).reads === 'melds';
}

const MARK_WORDS = { knocked: 'knocked', went_out: 'wentOut', rummy: 'rummy' };

/** The end-of-hand toggles the entry sheet shows: [flag, label key]. */
export function endToggles(variant) {
  const end = handEnd(variant);
  return end.marks.map((flag) => [flag, flag === 'rummy' && end.rummyGoesOut
    ? 'entry.rummyDouble' : `entry.${MARK_WORDS[flag]}`]);
}

/** History markers: [input flag, letter, words], the one that outranks the others first. */
export function handMarks(variant) {
  const end = handEnd(variant);
  return [...end.marks].reverse().map((flag) => [flag, MARK_WORDS[flag],
    flag === 'rummy' && end.rummyGoesOut ? 'rummyOut' : MARK_WORDS[flag]]);
}

/** The points a player may type instead of cards: [key, label key]. */
export function typedFields(variant) {
  return handEnd(variant).typed.map((key) => [key, key === 'melded' ? 'entry.meldedPoints'
    : scoresDeadwood(variant) ? 'entry.deadwoodPoints' : 'entry.heldPoints']);
}

/**
 * Player `i` presses end-of-hand mark `key` (in place). One player ends a hand: marking one
 * clears the others'. Where rummy is its own way to end the hand, the marks exclude each
 * other; where it is going out in one go, it also marks going out.
 */
export function pressMark(variant, players, i, key) {
  const end = handEnd(variant);
  const p = players[i];
  const on = !p[key];
  const others = players.filter((q) => q !== p);
  if (!end.rummyGoesOut) {
    for (const q of players) for (const flag of end.marks) q[flag] = false;
    p[key] = on;
    return;
  }
  for (const q of others) for (const flag of end.marks) q[flag] = false;
  if (key === 'rummy') {
    p.rummy = on;
    if (on) p.went_out = true;
  } else {
    p[key] = on; // going out again (or not at all) is not rummy until rummy is pressed
    p.rummy = false;
  }
}

/** What the hand still lacks: the message key when nobody is marked as ending it. */
export function missingEnderKey(variant, players) {
  const end = handEnd(variant);
  if (!end.required || players.some((p) => end.marks.some((flag) => p[flag]))) return null;
  return end.rummyGoesOut ? 'entry.markOut' : 'entry.markEnder';
}

/** The scoreboard's line under the chart: the total that ends the game, or none. */
export function goalOf(variant, settings = {}) {
  const v = VARIANTS[variant];
  if (!v?.goalKey) return null;
  if (v.handLimitKey && settings[v.handLimitKey]) return null;
  const value = Number(settings[v.goalKey] ?? defaultSettings(variant)[v.goalKey]);
  return Number.isFinite(value) ? value : null;
}
