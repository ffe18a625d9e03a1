// Saving the entered hand, and what happens when the game moved on under it meanwhile.
import { api, newRequestKey } from './api.js';
import { clearDraft, draftKey } from './drafts.js';
import { requestBody } from './entry-players.js';
import { renderPreview, schedulePreview } from './entry-preview.js';
import { changed, handEntry, renderAll, renderError, renderFooter, storage } from './entry.js';
import { t } from './i18n.js';
import { changeTexts, missingEnder, missingPoints, saveErrorText } from './messages.js';
import { savingHand } from './nudge.js';
import { $, fill, h, signed } from './util.js';

export async function save() {
  if (handEntry.saving) return;
  schedulePreview.cancel();
  const missing = missingEnder(handEntry.variant, handEntry.players) || missingPoints(handEntry.variant, handEntry.players);
  if (missing) {
    handEntry.error = missing;
    renderError();
    renderPreview();
    return;
  }
  handEntry.saving = true;
  handEntry.error = null;
  renderFooter();
  renderError();
  // a new hand of this phone's own: no buzz or chime for it when the stream brings it
  const notMine = handEntry.n == null
    ? savingHand(handEntry.game.id, (handEntry.game.hands || []).length + 1) : () => {};
  try {
    const body = requestBody();
    // the version this hand was begun against: a 412 if another phone saved meanwhile
    const result = handEntry.n == null
      ? await api.addHand(handEntry.game.id, body, { seq: handEntry.base, key: handEntry.key })
      : await api.correctHand(handEntry.game.id, handEntry.n, body, { seq: handEntry.base, key: handEntry.key });
    const n = handEntry.n;
    const done = handEntry.onSaved;
    teachDeck(handEntry.players);
    clearDraft(storage(), handEntry.draftKey);
    handEntry.saving = false;
    handEntry.dirty = false;
    handEntry.dialog.close('saved');
    done?.(result, n);
  } catch (e) {
    // Keep every card the user entered; say clearly what went wrong.
    notMine();
    handEntry.saving = false;
    if (isConflict(e)) {
      await showConflict(e);
      return;
    }
    handEntry.error = saveErrorText(e);
    renderFooter();
    renderError();
    renderPreview();
    $('[data-testid="entry-error"]', handEntry.form)?.scrollIntoView({ block: 'nearest' });
  }
}

/** The game moved on under this draft (another phone saved), or its key saved it already. */
function isConflict(e) {
  const code = e?.data?.code;
  return (e?.status === 412 && code === 'game_changed') || code === 'idempotency_key_reused';
}

/** Keep the draft, show the game as it is now and let the admin choose what it becomes. */
async function showConflict(e) {
  const mine = handEntry;
  let latest = null;
  try {
    latest = await api.game(mine.game.id);
  } catch {
    latest = null;
  }
  if (handEntry !== mine) return;
  handEntry.conflict = { changes: changeTexts(e.data), latest, detail: e.message };
  renderAll();
  handEntry.els.conflict?.scrollIntoView({ block: 'nearest' });
}

/** Go on with the draft against the game as it is now: as its next hand, or as hand `n`. */
function rebase(n) {
  const latest = handEntry.conflict?.latest;
  if (!latest) return;
  const next = (latest.hands || []).length + 1;
  clearDraft(storage(), handEntry.draftKey);
  handEntry.game = latest;
  handEntry.n = n;
  handEntry.base = latest.seq;
  handEntry.key = newRequestKey();
  handEntry.draftKey = draftKey(latest.id, n, next);
  handEntry.conflict = null;
  handEntry.els.title.textContent = n == null ? t('entry.title', { n: next }) : t('entry.correct', { n });
  changed();
}

export function renderConflict() {
  const el = handEntry.els.conflict;
  const c = handEntry.conflict;
  el.hidden = !c;
  if (!c) {
    fill(el);
    return;
  }
  const hands = c.latest?.hands || [];
  const last = hands[hands.length - 1];
  const scores = (last?.result?.players || []).map((p) => h('li', { class: 'conflict-score' },
    h('span', { class: 'conflict-name' }, p.name), h('strong', {}, signed(p.points))));
  fill(el,
    h('p', { class: 'conflict-title' }, t('conflict.title')),
    c.changes.length
      ? h('ul', { class: 'conflict-changes', testid: 'conflict-changes' }, c.changes.map((x) => h('li', {}, x)))
      : h('p', { class: 'small' }, c.detail),
    last ? h('p', { class: 'small muted' }, t('conflict.saved', { n: last.n })) : null,
    scores.length ? h('ul', { class: 'conflict-scores', testid: 'conflict-saved' }, scores) : null,
    h('p', { class: 'small' }, t('conflict.kept')),
    c.latest
      ? h('div', { class: 'conflict-actions' },
        h('button', { type: 'button', class: 'btn btn-secondary', testid: 'conflict-next', onclick: () => rebase(null) },
          t('conflict.next', { n: hands.length + 1 })),
        last ? h('button', { type: 'button', class: 'btn btn-secondary', testid: 'conflict-correct', onclick: () => rebase(last.n) },
          t('conflict.correct', { n: last.n })) : null)
      : h('p', { class: 'small' }, t('conflict.offline')));
}

/**
 * The saved hand's scans teach the game's deck. In the background: scoring never waits for
 * it, and a scan the server no longer holds is simply not learned from.
 */
function teachDeck(players) {
  for (const p of players) {
    if (!p.learn || p.typed) continue;
    const { id, cards, added } = p.learn;
    p.learn = null;
    api.confirmScan(id, cards, added).catch(() => {});
  }
}
