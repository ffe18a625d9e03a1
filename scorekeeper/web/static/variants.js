// The variants. The rules (settings and their allowed values, defaults, decks, card values,
// hand sizes, the knock limit) come from the server's GET /api/variants, read from the
// rules package; this file holds only the words the page shows for them.

const WORDS = {
  chicago: {
    label: 'Chicago Rummy',
    blurb: '2 decks, twos wild, low score is good',
    lowIsGood: true,
    settings: {
      knocker_tie: { label: 'Knocker ties for lowest', options: { safe: 'Safe: no penalty', penalised: 'Penalised' } },
      knock_penalty: { label: 'Knock penalty' },
      elimination_total: { label: 'Player is out at', options: { 100: '100 or more', 101: '101 or more' } },
      instant_win: {
        label: 'Instant win',
        options: { seven_of_a_kind: 'Seven of a kind', any_seven_card_meld: 'Any 7-card meld', off: 'Off' },
      },
      knocker_shows: { label: 'Knocker with 8 cards', options: { best_seven: 'Best seven count', as_shown: 'All cards count' } },
      duplicates_in_set: { label: 'Identical cards in a set', options: { true: 'Allowed', false: 'Not allowed' } },
      min_naturals: { label: 'Natural cards a meld needs', options: { 0: '0 (three 2s is a meld)', 1: 'At least 1' } },
    },
  },
  rummy: {
    label: 'Rummy',
    blurb: '1 deck, winner collects the others’ cards',
    settings: {
      ace: { label: 'Ace', options: { low: 'Low only (A-2-3)', high_or_low: 'High or low, counts 15' } },
      final_discard_required: { label: 'Final discard required' },
      target: { label: 'Target' },
      hands: { label: 'Fixed number of hands', placeholder: 'none: play to target' },
    },
  },
  rummy10: {
    label: 'Rummy 10-card',
    blurb: '10 cards each, first to the target',
    settings: {
      target: { label: 'Target' },
      exhausted_hand: {
        label: 'Stock runs out 3rd time',
        options: { void: 'Nobody scores', lowest_hand_collects: 'Lowest hand collects' },
      },
    },
  },
  rummy500: {
    label: 'Rummy 500',
    blurb: 'Everyone scores melds minus hand',
    settings: {
      jokers: { label: 'Jokers per deck', options: { 0: 'None' } },
      decks: { label: 'Decks' },
      scoring: { label: 'Scoring', options: { standard: 'Standard (A 15, face 10, pips)' } },
      ace: { label: 'Ace', options: { high_or_low: 'High or low', low: 'Low only' } },
      floating: { label: 'Floating' },
      target: { label: 'Target' },
    },
  },
};

const YES_NO = { true: 'Yes', false: 'No' };

/** The variants as the page uses them, by id; empty until setVariants() is called. */
export const VARIANTS = {};
export const VARIANT_ORDER = [];

function optionLabel(words, value) {
  const key = String(value);
  return words?.options?.[key] ?? (typeof value === 'boolean' ? YES_NO[key] : key);
}

/** One setting as the forms use it: options as [value, label], the default first. */
function pageSetting(s, words) {
  const out = { key: s.key, label: words?.label || s.key.replace(/_/g, ' '), default: s.default };
  if (s.options) {
    const values = [s.default, ...s.options.filter((v) => v !== s.default)];
    out.options = values.map((v) => [v, optionLabel(words, v)]);
  } else {
    out.type = 'number';
    out.min = s.min;
    if (words?.placeholder) out.placeholder = words.placeholder;
  }
  return out;
}

/** Take the server's variant data (GET /api/variants) and add the words. */
export function setVariants(data) {
  for (const key of Object.keys(VARIANTS)) delete VARIANTS[key];
  VARIANT_ORDER.length = 0;
  for (const v of data?.variants || []) {
    const words = WORDS[v.id] || {};
    VARIANTS[v.id] = {
      label: words.label || v.name,
      blurb: words.blurb || '',
      lowIsGood: !!words.lowIsGood,
      minPlayers: v.min_players,
      maxPlayers: v.max_players,
      settings: v.settings.map((s) => pageSetting(s, words.settings?.[s.key])),
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
  return VARIANTS[v]?.label || WORDS[v]?.label || v || 'Game';
}

export function defaultSettings(variant) {
  const out = {};
  for (const s of VARIANTS[variant]?.settings || []) out[s.key] = s.default;
  return out;
}

/** What the page calls a setting ("Knock penalty" for knock_penalty). */
export function settingLabel(variant, key) {
  const def = (VARIANTS[variant]?.settings || []).find((s) => s.key === key);
  return def?.label || WORDS[variant]?.settings?.[key]?.label || key.replace(/_/g, ' ');
}
