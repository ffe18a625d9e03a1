// Scanning in the entry form: a player's cards from the table camera or a photo, the
// review, and "Knock?".
import { openCamera } from './camera-panel.js';
import { selectPlayer } from './entry-actions.js';
import { renderPlayer } from './entry-player.js';
import { otherCounts } from './entry-players.js';
import { changed, handEntry } from './entry.js';
import { t } from './i18n.js';
import { icon } from './icons.js';
import { openKnock } from './knock-check.js';
import { openReview } from './review.js';
import { photoInput, scanCards, scanHint } from './scan.js';
import { $, h } from './util.js';
import { VARIANTS, entersMelds } from './variants.js';
import { canAim, openViewfinder, watchCameras } from './viewfinder.js';

watchCameras();

function entered(p) {
  return p.hand.length + p.melds.reduce((a, m) => a + m.length, 0);
}

/** Chicago: make player `i` the one who knocked (exactly one player ends the hand). */
function markKnocker(i) {
  handEntry.players.forEach((q, j) => {
    q.knocked = j === i;
    q.rummy = false;
  });
}

/**
 * A confirmed scan replaces the player's cards (Rummy 500: melds and hand). After "Knock?"
 * the player is the knocker: their eighth card then counts as a knocker's.
 */
function takeScan(i, { hand, melds, learn = null }, { knocker = false } = {}) {
  const p = handEntry.players[i];
  p.hand = [...hand];
  p.learn = learn; // sent once the hand is saved: the deck learns only from saved hands
  if (entersMelds(handEntry.variant)) p.melds = melds.map((m) => [...m]);
  if (knocker) markKnocker(i);
  handEntry.active = i;
  handEntry.zone = 'hand';
  changed();
}

function reviewScan(i, result, file, { knocker = false } = {}) {
  const mine = handEntry;
  const p = handEntry.players[i];
  openReview({
    game: handEntry.game,
    player: p.name,
    result,
    others: otherCounts(i),
    existing: entered(p),
    fromPhoto: !!file,
    onConfirm: (cards) => {
      if (handEntry === mine) takeScan(i, cards, { knocker });
    },
    onRescan: () => {
      if (handEntry !== mine) return;
      if (!file) {
        runScan(i);
        return;
      }
      if (handEntry.active !== i) selectPlayer(i); // its photo input is in its panel
      $(`[data-testid="scan-file-${i}"]`, handEntry.form)?.click();
    },
  });
}

async function runScan(i, file) {
  const mine = handEntry;
  if (!mine || mine.scan.busy) return;
  const p = mine.players[i];
  mine.scan = { busy: { i, kind: file ? 'photo' : 'camera' }, error: null };
  renderPlayer();
  let result = null;
  let error = null;
  try {
    result = await scanCards({ game: mine.game, player: p.name, file });
  } catch (e) {
    error = e;
  }
  if (handEntry !== mine || !mine.dialog.open) return;
  mine.scan = { busy: null, error: error ? { i, message: error.message, hint: scanHint(error) } : null };
  renderPlayer();
  if (result) reviewScan(i, result, file);
}

/** The player's cards as entered, when they are a whole hand to check (7, or 8). */
function wholeHand(p) {
  const size = VARIANTS[handEntry.variant]?.handSize || {};
  const n = p.hand.length;
  return !p.typed && size.cards && n >= size.cards && n <= (size.ender || size.cards) ? [...p.hand] : null;
}

/** "Knock?": the cards already tapped in are checked as they are; without them, a scan. */
function knockCheck(i) {
  const mine = handEntry;
  const p = handEntry.players[i];
  const total = (handEntry.game.players || []).find((x) => x.name === p.name)?.total;
  openKnock({
    game: handEntry.game,
    player: p.name,
    total,
    cards: wholeHand(p),
    onReview: (result, fromPhoto) => {
      if (handEntry === mine) reviewScan(i, result, fromPhoto ? true : null, { knocker: true });
    },
    onKnocker: () => {
      if (handEntry !== mine) return;
      markKnocker(i);
      handEntry.active = i;
      changed();
    },
  });
}

export function scanBar(p) {
  const i = handEntry.active;
  const busy = handEntry.scan.busy;
  const here = busy?.i === i;
  const file = photoInput({ testid: `scan-file-${i}`, onFile: (f) => runScan(i, f) });
  const label = (kind, ico, text) => (here && busy.kind === kind
    ? [h('span', { class: 'spinner spinner-dark', 'aria-hidden': 'true' }), t('entry.reading')]
    : [icon(ico), text]);
  const err = handEntry.scan.error?.i === i ? handEntry.scan.error : null;
  return h('div', { class: 'scan-tools' },
    h('div', { class: 'scan-bar', role: 'group', 'aria-label': t('entry.scanGroup', { name: p.name }) },
      h('button', {
        type: 'button', class: 'btn btn-scan', testid: `scan-camera-${i}`, disabled: !!busy, 'aria-busy': here && busy.kind === 'camera' ? 'true' : 'false',
        onclick: () => runScan(i),
      }, label('camera', 'camera', t('entry.scan'))),
      h('button', {
        type: 'button', class: 'btn btn-scan', testid: `scan-photo-${i}`, disabled: !!busy, 'aria-busy': here && busy.kind === 'photo' ? 'true' : 'false',
        onclick: () => (canAim()
          ? openViewfinder({ game: handEntry.game, player: p.name, onPhoto: (f) => runScan(i, f), onApp: () => file.click() })
          : file.click()),
      }, label('photo', 'photo', t('entry.photo'))),
      h('button', {
        type: 'button', class: 'btn btn-scan btn-aim', testid: `scan-aim-${i}`, 'aria-label': t('entry.aimLabel'),
        onclick: () => openCamera({ player: p.name, game: handEntry.game, onScan: () => runScan(i) }),
      }, icon('aim'), t('entry.aim')),
      file),
    VARIANTS[handEntry.variant]?.knock
      ? h('button', { type: 'button', class: 'btn btn-knock', testid: `knock-check-${i}`, disabled: !!busy, onclick: () => knockCheck(i) },
        t('entry.knock'), h('span', { class: 'btn-knock-sub' }, wholeHand(p) ? t('entry.knockSubCards') : t('entry.knockSub')))
      : null,
    err
      ? h('div', { class: 'scan-error', testid: 'scan-error', role: 'alert' },
        h('strong', {}, t('entry.scanFailed')), h('span', { testid: 'scan-error-text' }, err.message),
        h('div', { class: 'scan-error-hint' }, err.hint),
        h('button', { type: 'button', class: 'icon-btn icon-btn-sm scan-error-x', 'aria-label': t('btn.dismiss'), testid: 'scan-error-close', onclick: () => { handEntry.scan.error = null; renderPlayer(); } }, '✕'))
      : null);
}
