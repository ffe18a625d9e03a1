// The phone's own viewfinder for a hand's photo: the camera's picture on the page, a small
// frame sent about once a second for the live count, and the photo taken by itself once
// the hand is whole and every card sure (or on the player's tap). Browsers give a page the
// camera only in a secure context (HTTPS, or localhost): elsewhere the photo comes from
// the camera app through the file input, and the review shows its count at once.
import { api } from './api.js';
import { t } from './i18n.js';
import { icon } from './icons.js';
import { liveCount } from './live-aim.js';
import { handTarget } from './livecount.js';
import { $, closeDialog, fill, h, openDialog } from './util.js';

const COUNT_SIDE = 640; // px, the longer side of a frame sent for the count
const COUNT_QUALITY = 0.7;
const PHOTO_QUALITY = 0.9;

let cameras = false; // whether the phone has a camera the page may ask for
let finder = null; // the open viewfinder

/** Look once (and again when devices change) whether a camera can be offered here. */
export function watchCameras() {
  const media = globalThis.navigator?.mediaDevices;
  if (!globalThis.isSecureContext || !media?.getUserMedia || !media.enumerateDevices) return;
  const look = () => media.enumerateDevices()
    .then((list) => { cameras = list.some((d) => d.kind === 'videoinput'); })
    .catch(() => { cameras = false; });
  look();
  media.addEventListener?.('devicechange', look);
}

/** Whether the Photo button opens the live viewfinder (else the camera app). */
export const canAim = () => cameras;

/** The video's picture as a JPEG file, at most `side` px across (null: the whole). */
function grab(video, side, quality) {
  const w = video.videoWidth;
  const hgt = video.videoHeight;
  if (!w || !hgt) return Promise.resolve(null);
  const k = side ? Math.min(1, side / Math.max(w, hgt)) : 1;
  const canvas = h('canvas', { width: Math.round(w * k), height: Math.round(hgt * k) });
  canvas.getContext('2d').drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(
    (blob) => resolve(blob ? new File([blob], 'photo.jpg', { type: 'image/jpeg' }) : null),
    'image/jpeg', quality,
  ));
}

function stopFinder() {
  if (!finder) return;
  finder.count?.stop();
  for (const track of finder.stream?.getTracks() || []) track.stop();
  finder = null;
}

async function take(mine, dlg, onPhoto) {
  if (finder !== mine || mine.taking) return;
  mine.taking = true;
  const file = await grab(mine.video, null, PHOTO_QUALITY);
  closeDialog(dlg);
  if (file) onPhoto(file);
}

/** The live view from the phone's camera for `player`'s hand; `onPhoto(file)` gets the
 * photo, `onApp()` opens the camera app instead (from a tap: a user gesture). */
export function openViewfinder({ game, player, onPhoto, onApp }) {
  const dlg = $('#finder');
  stopFinder();
  const video = h('video', { class: 'cam-img', testid: 'finder-video', autoplay: true, muted: true, playsinline: true, 'aria-label': t('finder.alt') });
  const state = h('p', { class: 'live-count', testid: 'finder-state', role: 'status', 'data-state': 'checking' }, t('finder.starting'));
  const mine = { video, stream: null, count: null, taking: false };
  finder = mine;
  const takeBtn = h('button', { type: 'button', class: 'btn btn-primary btn-grow', testid: 'finder-take', disabled: true, onclick: () => take(mine, dlg, onPhoto) }, icon('camera'), t('finder.take'));
  const body = h('div', { class: 'sheet-scroll', tabindex: '0' }, state, h('div', { class: 'cam-view' }, video));
  fill($('#finder-body'),
    h('header', { class: 'sheet-head' },
      h('button', { type: 'button', class: 'icon-btn', 'data-close': true, 'aria-label': t('btn.close'), testid: 'finder-close' }, '✕'),
      h('div', { class: 'sheet-title' }, h('h2', {}, t('finder.title', { name: player })), h('div', { class: 'muted small' }, t('finder.live')))),
    body,
    h('div', { class: 'sheet-foot' },
      h('button', {
        type: 'button', class: 'btn btn-secondary', testid: 'finder-app', 'aria-label': t('finder.appLabel'),
        onclick: () => { closeDialog(dlg); onApp(); },
      }, icon('photo'), t('finder.app')),
      takeBtn));
  if (!dlg.dataset.wiredFinder) {
    dlg.dataset.wiredFinder = '1';
    dlg.addEventListener('close', stopFinder);
  }
  openDialog(dlg);
  navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment', width: { ideal: 1920 } }, audio: false })
    .then((stream) => {
      if (finder !== mine) {
        for (const track of stream.getTracks()) track.stop();
        return;
      }
      mine.stream = stream;
      video.srcObject = stream;
      takeBtn.disabled = false;
      mine.count = liveCount({
        ask: async () => {
          const frame = await grab(video, COUNT_SIDE, COUNT_QUALITY);
          return frame && finder === mine ? api.count(game.id, frame) : null;
        },
        target: handTarget(game.variant, (game.players || []).length),
        onReady: () => take(mine, dlg, onPhoto),
      });
      state.replaceWith(mine.count.el);
      body.append(mine.count.hint);
    })
    .catch((e) => {
      if (finder !== mine) return;
      state.dataset.state = 'error';
      state.textContent = t('finder.denied', { error: e?.message || e?.name || '?' });
    });
}
