// What the admin does to hands and players: a new hand, a correction, undo and redo, a rename.
import { api } from './api.js';
import { openEntry } from './entry.js';
import { page, refreshGame } from './games.js';
import { t } from './i18n.js';
import { ask, toast } from './ui.js';
import { $, closeDialog } from './util.js';

export function startCorrection(n) {
  if (!page.game) return;
  openEntry({
    game: page.game,
    n,
    onSaved: () => {
      toast(t('toast.corrected', { n }));
      refreshGame();
    },
  });
}

export function startHand() {
  if (!page.game) return;
  openEntry({
    game: page.game,
    onSaved: (result) => {
      let msg = result?.n ? t('toast.saved', { n: result.n }) : t('toast.savedPlain');
      if (result?.game_over) msg = result.winner ? t('toast.gameOver', { name: result.winner }) : t('toast.draw');
      toast(msg);
      refreshGame();
    },
  });
}

/** What a stored hand was entered as: posting it again puts the hand back. */
function handInput(hand) {
  return { players: (hand?.players || []).map((p) => ({ ...p })) };
}

async function redoHand(gameId, n, body) {
  const g = page.game;
  if (!g || String(g.id) !== String(gameId) || (g.hands || []).length !== n - 1) {
    toast(t('toast.noRedo', { n }), 'error');
    return;
  }
  try {
    await api.addHand(gameId, body, { seq: g.seq });
    toast(t('toast.back', { n }));
    refreshGame();
  } catch (e) {
    toast(e.message, 'error');
  }
}

export async function undoLast() {
  const g = page.game;
  if (!g || !(g.hands || []).length) return;
  const n = g.hands.length;
  const body = handInput(g.hands[n - 1]);
  const ok = await ask({
    title: t('undo.title', { n }),
    text: t('undo.text'),
    okLabel: t('undo.ok'),
    danger: true,
    validate: () => api.undo(g.id, g.seq),
  });
  if (!ok) return;
  closeDialog($('#handinfo'));
  toast(t('toast.removed', { n }), 'ok', 8000, {
    label: t('btn.redo'), testid: 'redo-btn', onclick: () => redoHand(g.id, n, body),
  });
  refreshGame();
}

export async function renamePlayer(oldName) {
  const g = page.game;
  const name = await ask({
    title: t('rename.title', { name: oldName }),
    okLabel: t('rename.ok'),
    input: oldName,
    validate: async (value) => {
      if (!value) throw new Error(t('rename.empty'));
      if (value === oldName) return;
      await api.rename(g.id, oldName, value, g.seq);
    },
  });
  if (name && name !== oldName) {
    toast(t('toast.renamed', { old: oldName, new: name }));
    refreshGame();
  }
}
