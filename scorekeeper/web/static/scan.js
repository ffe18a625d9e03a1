// Scanning a player's cards (admin only): the scan itself, what to do when it fails, and
// the hidden file input a photo comes from.
import { api } from './api.js';
import { t } from './i18n.js';
import { shrinkPhoto } from './photo-shrink.js';
import { h } from './util.js';

/** Scan `player`'s cards: with the table camera, or from `file` (a photo) when given. */
export async function scanCards({ game, player, file }) {
  const photo = file ? await shrinkPhoto(file) : null;
  return api.scan(game.id, player, photo);
}

/** What to do about a failed scan, in a line. */
export function scanHint(err) {
  const code = err?.data?.code; // the refusal's kind, whatever language it is said in
  if (/^camera_/.test(code || '')) return t('scan.hintCamera');
  if (code === 'reader_unavailable') return t('scan.hintReader');
  if (err?.status === 415) return t('scan.hint415');
  if (err?.status === 413) return t('scan.hint413');
  return t('scan.hintRetry');
}

/** A hidden file input that opens the phone's camera (or its photos) for one picture. */
export function photoInput({ testid, onFile }) {
  return h('input', {
    type: 'file',
    accept: 'image/*',
    capture: 'environment',
    hidden: true,
    testid,
    onchange: (ev) => {
      const file = ev.target.files?.[0];
      ev.target.value = ''; // the same photo may be chosen again
      if (file) onFile(file);
    },
  });
}
