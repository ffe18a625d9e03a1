// The four variants, their settings (first value is the default) and how to show them.

const yesNo = [
  [false, 'No'],
  [true, 'Yes'],
];

export const VARIANTS = {
  chicago: {
    label: 'Chicago Rummy',
    blurb: '2 decks, twos wild, low score is good',
    lowIsGood: true,
    minPlayers: 2,
    maxPlayers: 8,
    settings: [
      {
        key: 'knocker_tie',
        label: 'Knocker ties for lowest',
        options: [
          ['safe', 'Safe: no penalty'],
          ['penalised', 'Penalised'],
        ],
      },
      { key: 'knock_penalty', label: 'Knock penalty', type: 'number', default: 15, min: 0 },
      {
        key: 'elimination_total',
        label: 'Player is out at',
        options: [
          [100, '100 or more'],
          [101, '101 or more'],
        ],
      },
      {
        key: 'instant_win',
        label: 'Instant win',
        options: [
          ['seven_of_a_kind', 'Seven of a kind'],
          ['any_seven_card_meld', 'Any 7-card meld'],
          ['off', 'Off'],
        ],
      },
      {
        key: 'knocker_shows',
        label: 'Knocker with 8 cards',
        options: [
          ['best_seven', 'Best seven count'],
          ['as_shown', 'All cards count'],
        ],
      },
      {
        key: 'duplicates_in_set',
        label: 'Identical cards in a set',
        options: [
          [true, 'Allowed'],
          [false, 'Not allowed'],
        ],
      },
      {
        key: 'min_naturals',
        label: 'Natural cards a meld needs',
        options: [
          [0, '0 (three 2s is a meld)'],
          [1, 'At least 1'],
        ],
      },
    ],
  },
  rummy: {
    label: 'Rummy',
    blurb: '1 deck, winner collects the others’ cards',
    minPlayers: 2,
    maxPlayers: 6,
    settings: [
      {
        key: 'ace',
        label: 'Ace',
        options: [
          ['low', 'Low only (A-2-3)'],
          ['high_or_low', 'High or low, counts 15'],
        ],
      },
      { key: 'final_discard_required', label: 'Final discard required', options: yesNo },
      { key: 'target', label: 'Target', type: 'number', default: 150, min: 1 },
      {
        key: 'hands',
        label: 'Fixed number of hands',
        type: 'number',
        default: null,
        min: 1,
        placeholder: 'none: play to target',
      },
    ],
  },
  rummy10: {
    label: 'Rummy 10-card',
    blurb: '10 cards each, first to the target',
    minPlayers: 2,
    maxPlayers: 5,
    settings: [
      {
        key: 'target',
        label: 'Target',
        options: [
          [100, '100'],
          [300, '300'],
          [500, '500'],
        ],
      },
      {
        key: 'exhausted_hand',
        label: 'Stock runs out 3rd time',
        options: [
          ['void', 'Nobody scores'],
          ['lowest_hand_collects', 'Lowest hand collects'],
        ],
      },
    ],
  },
  rummy500: {
    label: 'Rummy 500',
    blurb: 'Everyone scores melds minus hand',
    minPlayers: 2,
    maxPlayers: 8,
    settings: [
      {
        key: 'jokers',
        label: 'Jokers per deck',
        options: [
          [2, '2'],
          [0, 'None'],
        ],
      },
      {
        key: 'decks',
        label: 'Decks',
        options: [
          [1, '1'],
          [2, '2'],
        ],
      },
      {
        key: 'scoring',
        label: 'Scoring',
        options: [
          ['standard', 'Standard (A 15, face 10, pips)'],
          ['5-10-15', '5-10-15'],
        ],
      },
      {
        key: 'ace',
        label: 'Ace',
        options: [
          ['high_or_low', 'High or low'],
          ['low', 'Low only'],
        ],
      },
      { key: 'floating', label: 'Floating', options: yesNo },
      { key: 'target', label: 'Target', type: 'number', default: 500, min: 1 },
    ],
  },
};

export const VARIANT_ORDER = ['chicago', 'rummy', 'rummy10', 'rummy500'];

export function variantLabel(v) {
  return VARIANTS[v]?.label || v || 'Game';
}

export function defaultSettings(variant) {
  const out = {};
  for (const s of VARIANTS[variant]?.settings || []) {
    out[s.key] = s.options ? s.options[0][0] : s.default;
  }
  return out;
}

/** Human text for one setting value. */
export function settingText(variant, key, value) {
  const def = (VARIANTS[variant]?.settings || []).find((s) => s.key === key);
  if (def?.options) {
    const hit = def.options.find(([v]) => String(v) === String(value));
    if (hit) return hit[1];
  }
  if (value == null) return def?.placeholder || '–';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

export function settingLabel(variant, key) {
  const def = (VARIANTS[variant]?.settings || []).find((s) => s.key === key);
  return def?.label || key.replace(/_/g, ' ');
}
