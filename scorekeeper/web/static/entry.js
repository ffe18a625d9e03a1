// Hand entry and correction: a card picker per player, end-of-hand toggles,
// a live preview from /preview, Save (POST) or Save correction (PUT). Here the sheet is
// opened and its state kept (`handEntry`); its parts are the entry-*.js modules.
import { newRequestKey } from './api.js';
import { agoText, clearDraft, draftKey, loadDraft, pruneDrafts, saveDraft } from './drafts.js';
import { selectPlayer } from './entry-actions.js';
import { renderPicker, renderPlayer, renderTabs } from './entry-player.js';
import { blankPlayer, draftPlayers, fromInput, hasInput } from './entry-players.js';
import { dropPreview, renderPreview, runPreview, schedulePreview } from './entry-preview.js';
import { renderConflict, save } from './entry-save.js';
import { t } from './i18n.js';
import { offlineNote } from './offline.js';
import { ask } from './ui.js';
import { $, fill, h, openDialog } from './util.js';
import { variantLabel } from './variants.js';

export let handEntry = null; // the open form's state

export function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage blocked: no drafts, nothing else changes
  }
}

/** Keep the half-entered hand on this phone after every change. */
export function keepDraft() {
  if (hasInput()) {
    saveDraft(storage(), handEntry.draftKey, draftPlayers(), handEntry.active, Date.now(),
      { base: handEntry.base, key: handEntry.key });
  } else clearDraft(storage(), handEntry.draftKey);
}

export function changed() {
  handEntry.dirty = true;
  handEntry.error = null;
  handEntry.restored = null;
  keepDraft();
  renderAll();
  schedulePreview();
}

/** Whether this phone keeps a half-entered new hand for the game's next hand. */
export function hasDraft(game) {
  const next = (game.hands || []).length + 1;
  const names = (game.players || []).filter((p) => !p.eliminated).map((p) => p.name);
  return loadDraft(storage(), draftKey(game.id, null, next), names) != null;
}

async function close() {
  if (handEntry.dirty && hasInput()) {
    const ok = await ask({
      title: handEntry.n == null ? t('entry.discardHand') : t('entry.discardChanges'),
      text: t('entry.discardText'),
      okLabel: t('entry.discard'),
      danger: true,
    });
    if (!ok) return;
  }
  clearDraft(storage(), handEntry.draftKey);
  handEntry.dialog.close('cancel');
}

export function renderError() {
  const el = handEntry.els.error;
  el.hidden = !handEntry.error;
  el.textContent = handEntry.error || '';
}

export function renderFooter() {
  const save = handEntry.els.save;
  save.disabled = handEntry.saving;
  save.textContent = handEntry.saving ? t('entry.saving') : handEntry.n == null ? t('entry.save') : t('entry.saveN', { n: handEntry.n });
}

function startOver() {
  clearDraft(storage(), handEntry.draftKey);
  const fresh = handEntry.players.map((p) => blankPlayer(p.name));
  handEntry.players = fresh;
  handEntry.active = 0;
  handEntry.zone = 'hand';
  handEntry.restored = null;
  handEntry.dirty = false;
  handEntry.preview = null;
  renderAll();
  renderPreview();
}

function renderNotice() {
  const el = handEntry.els.notice;
  el.hidden = handEntry.restored == null;
  if (handEntry.restored == null) {
    fill(el);
    return;
  }
  fill(el,
    h('span', { class: 'draft-text' }, t('entry.restored', { ago: agoText(handEntry.restored) })),
    handEntry.n == null
      ? h('button', { type: 'button', class: 'btn btn-small btn-ghost', testid: 'draft-discard', onclick: startOver }, t('entry.startOver'))
      : null);
}

export function renderAll() {
  renderConflict();
  renderNotice();
  renderTabs();
  renderPlayer();
  renderPicker();
  renderFooter();
  renderError();
}

/** Fold the card keys away (to see what was entered and the preview), or back. */
function foldKeys() {
  const folded = handEntry.els.bottom.classList.toggle('folded');
  handEntry.els.fold.setAttribute('aria-expanded', folded ? 'false' : 'true');
  handEntry.els.fold.setAttribute('aria-label', t(folded ? 'entry.unfoldKeys' : 'entry.foldKeys'));
  handEntry.els.fold.textContent = folded ? '▴' : '▾';
}

/** The entry sheet's parts: tabs, the active player, notice, error, preview, picker, save. */
function buildForm(form, game, n) {
  const title = n == null ? t('entry.title', { n: (game.hands || []).length + 1 }) : t('entry.correct', { n });
  const els = handEntry.els;
  els.tabs = h('div', { class: 'ptabs', role: 'tablist', testid: 'entry-tabs' });
  els.player = h('section', { class: 'entry-player', testid: 'entry-player' });
  els.preview = h('section', { class: 'preview', testid: 'preview', 'aria-live': 'polite' });
  els.error = h('p', { class: 'error error-box', testid: 'entry-error', role: 'alert', hidden: true });
  els.notice = h('div', { class: 'draft-notice', testid: 'draft-notice', role: 'status', hidden: true });
  els.conflict = h('div', { class: 'conflict-box', testid: 'entry-conflict', role: 'alert', hidden: true });
  els.title = h('h2', { testid: 'entry-title' }, title);
  els.picker = h('div', { class: 'picker', testid: 'card-picker' });
  els.save = h('button', { type: 'button', class: 'btn btn-primary btn-grow', testid: 'entry-save', onclick: save }, t('entry.save'));
  els.fold = h('button', {
    type: 'button', class: 'btn btn-secondary btn-square', testid: 'entry-fold',
    'aria-expanded': 'true', 'aria-label': t('entry.foldKeys'), onclick: () => foldKeys(),
  }, '▾');

  els.bottom = h('div', { class: 'entry-bottom' },
    els.picker,
    h('div', { class: 'entry-actions' },
      els.fold,
      h('button', { type: 'button', class: 'btn btn-secondary btn-square', testid: 'entry-prev', 'aria-label': t('entry.prev'), onclick: () => selectPlayer(handEntry.active - 1) }, '‹'),
      h('button', { type: 'button', class: 'btn btn-secondary btn-square', testid: 'entry-next', 'aria-label': t('entry.next'), onclick: () => selectPlayer(handEntry.active + 1) }, '›'),
      els.save));

  fill(form,
    h('header', { class: 'sheet-head' },
      h('button', { type: 'button', class: 'icon-btn', testid: 'entry-close', 'aria-label': t('btn.close'), onclick: close }, '✕'),
      h('div', { class: 'sheet-title' },
        els.title,
        h('div', { class: 'muted small' }, variantLabel(game.variant)))),
    offlineNote('entry-offline'), // the page's Offline banner is under the sheet
    els.tabs,
    h('div', { class: 'entry-scroll' }, els.conflict, els.notice, els.player, els.error, els.preview),
    els.bottom,
  );
}

/** The players as the form starts: the stored input for a correction, else blank. */
function startingPlayers(game, n) {
  if (n == null) {
    return (game.players || []).filter((p) => !p.eliminated).map((p) => blankPlayer(p.name));
  }
  const hand = (game.hands || []).find((x) => x.n === n);
  const input = hand?.players || hand?.input?.players || [];
  return input.length
    ? input.map(fromInput)
    : (hand?.result?.players || []).map((r) => blankPlayer(r.name));
}

/** The draft this phone kept for this hand, if any, laid over the starting players. */
function withDraft(game, n, players) {
  const next = (game.hands || []).length + 1;
  const key = draftKey(game.id, n, next);
  if (n == null) pruneDrafts(storage(), game.id, next);
  const draft = loadDraft(storage(), key, players.map((p) => p.name));
  if (!draft) return { key, draft: null, players };
  const kept = new Map(draft.players.map((p) => [p.name, fromInput(p)]));
  return { key, draft, players: players.map((p) => kept.get(p.name) || p) };
}

/**
 * Open the entry form. `n` = hand number to correct (null for a new hand).
 * `onSaved(result, n)` runs after a successful save.
 */
export function openEntry({ game, n = null, onSaved }) {
  const dialog = $('#entry');
  const form = $('#entry-form');
  const { key, draft, players } = withDraft(game, n, startingPlayers(game, n));
  handEntry = {
    game,
    variant: game.variant,
    settings: game.settings || {},
    n,
    players,
    active: draft ? draft.active : 0,
    zone: 'hand',
    suit: 'S',
    preview: null,
    previewError: null,
    previewLoading: false,
    error: null,
    saving: false,
    dirty: !!draft,
    scan: { busy: null, error: null },
    draftKey: key,
    // the version the hand is begun against (If-Match) and its key (Idempotency-Key): a
    // restored draft keeps both, so a reload after another phone saved still conflicts
    base: draft?.base ?? game.seq ?? null,
    key: draft?.key || newRequestKey(),
    conflict: null,
    restored: draft ? draft.saved : null,
    onSaved,
    dialog,
    form,
    els: {},
  };

  buildForm(form, game, n);

  if (!dialog.dataset.wiredEntry) {
    dialog.dataset.wiredEntry = '1';
    // Esc: ask before throwing input away.
    dialog.addEventListener('cancel', (ev) => {
      ev.preventDefault();
      if (handEntry) close();
    });
    dialog.addEventListener('close', () => dropPreview());
  }
  renderAll();
  renderPreview();
  openDialog(dialog);
  if (n != null || draft) runPreview();
}
