// Half-entered hands kept on the phone (localStorage), per game and hand, so a reload, a
// sleeping phone or a dropped tab loses nothing. Pure: `storage` is passed in (tests give
// a Map-backed one), and every failure (private mode, a full quota) only means no draft.

import { t } from './i18n.js';

const PREFIX = 'scorekeeper.draft.';
const VERSION = 1;
export const MAX_AGE_MS = 7 * 24 * 3600 * 1000; // older drafts are dropped

/** `n` is the hand being corrected, or null for a new hand numbered `next`. */
export function draftKey(gameId, n, next) {
  return `${PREFIX}${gameId}.${n == null ? `new-${next}` : `fix-${n}`}`;
}

/**
 * `once` ({base, key}): the game's version the hand was begun against (sent as If-Match)
 * and the draft's request key (Idempotency-Key), kept so a reload still saves it once.
 */
export function saveDraft(storage, key, players, active = 0, now = Date.now(), once = {}) {
  try {
    const { base = null, key: requestKey = null } = once;
    storage.setItem(key, JSON.stringify({
      v: VERSION, saved: now, active, players, base, key: requestKey,
    }));
    return true;
  } catch {
    return false;
  }
}

function validPlayer(p, names) {
  return p && typeof p === 'object' && typeof p.name === 'string' && names.includes(p.name)
    && Array.isArray(p.hand) && (p.melds == null || Array.isArray(p.melds));
}

/**
 * The draft for `key` if it is for exactly these players ({players, active, saved, base,
 * key}), else
 * null; a draft that no longer fits (renamed players, another version) is removed.
 */
export function loadDraft(storage, key, names, now = Date.now()) {
  let raw = null;
  try {
    raw = storage.getItem(key);
  } catch {
    return null;
  }
  if (raw == null) return null;
  let d = null;
  try {
    d = JSON.parse(raw);
  } catch {
    d = null;
  }
  const fits = d && d.v === VERSION && Array.isArray(d.players)
    && d.players.length === names.length
    && d.players.every((p) => validPlayer(p, names))
    && typeof d.saved === 'number' && now - d.saved < MAX_AGE_MS;
  if (!fits) {
    clearDraft(storage, key);
    return null;
  }
  const active = Number.isInteger(d.active) && d.active >= 0 && d.active < names.length ? d.active : 0;
  const base = Number.isInteger(d.base) && d.base >= 0 ? d.base : null;
  const requestKey = typeof d.key === 'string' && /^[0-9a-f]{8,64}$/.test(d.key) ? d.key : null;
  return { players: d.players, active, saved: d.saved, base, key: requestKey };
}

export function clearDraft(storage, key) {
  try {
    storage.removeItem(key);
  } catch {
    /* nothing kept, nothing to clear */
  }
}

/** Every key of a kept draft (for pruning), whatever storage holds besides. */
export function draftKeys(storage) {
  const out = [];
  try {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(PREFIX)) out.push(key);
    }
  } catch {
    /* no storage */
  }
  return out;
}

/** Drop a game's drafts for hands that are no longer the next one, and any stale draft. */
export function pruneDrafts(storage, gameId, next, now = Date.now()) {
  const mine = `${PREFIX}${gameId}.new-`;
  for (const key of draftKeys(storage)) {
    let old = false;
    try {
      const d = JSON.parse(storage.getItem(key));
      old = !d || now - d.saved >= MAX_AGE_MS;
    } catch {
      old = true;
    }
    if (old || (key.startsWith(mine) && key !== `${mine}${next}`)) clearDraft(storage, key);
  }
}

/** How long ago, in words, for the restore notice. */
export function agoText(saved, now = Date.now()) {
  const min = Math.round((now - saved) / 60000);
  if (min < 1) return t('time.moments');
  if (min < 60) return t('time.min', { n: min });
  const hours = Math.round(min / 60);
  return hours < 48 ? t('time.hours', { n: hours }) : t('time.days', { n: Math.round(hours / 24) });
}
