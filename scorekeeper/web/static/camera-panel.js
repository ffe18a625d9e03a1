// The camera panel: the live view to aim the table camera, and its state.
import { api } from './api.js';
import { t } from './i18n.js';
import { icon } from './icons.js';
import { liveCount } from './live-aim.js';
import { handTarget } from './livecount.js';
import { cameraText } from './messages.js';
import { $, closeDialog, fill, h, openDialog } from './util.js';

let cameraPanel = null; // the open panel's refresh loop

const CAMERA_STATE = {
  ok: ['ok', 'camera.ok'],
  busy: ['busy', 'camera.busy'],
  lost: ['lost', 'camera.lost'],
  none: ['none', 'camera.none'],
};

function renderCameraState(s, err) {
  const el = cameraPanel.els.state;
  if (err) {
    el.dataset.state = 'error';
    fill(el, h('span', { class: 'cam-dot' }), h('strong', {}, t('camera.unknown')),
      h('span', { class: 'cam-detail', testid: 'camera-error' }, err.message));
    return;
  }
  const [key, msg] = CAMERA_STATE[s?.state] || ['lost', null];
  const label = msg ? t(msg) : t('camera.other', { state: s?.state || '?' });
  el.dataset.state = key;
  // no camera: nothing to aim, and the server's placeholder picture has only English words
  cameraPanel.els.view.hidden = key === 'none';
  const bits = [];
  const problem = cameraText(s);
  if (problem) bits.push(problem);
  if (s?.retry_in_s != null && key !== 'ok') bits.push(t('camera.retry', { s: Math.ceil(s.retry_in_s) }));
  if (key === 'ok' && s?.frames != null) bits.push(t('camera.frames', { n: s.frames }));
  if (key === 'none') bits.push(t('camera.usePhoto'));
  const samples = s?.camera?.kind === 'replay';
  fill(el, h('span', { class: 'cam-dot' }), h('strong', { testid: 'camera-state-label' }, label),
    bits.length ? h('span', { class: 'cam-detail', testid: 'camera-error' }, bits.join(' · ')) : null,
    samples
      ? h('span', { class: 'cam-samples', testid: 'camera-samples', role: 'note' },
        t('camera.samples'))
      : null);
}

async function cameraTick(loop) {
  if (cameraPanel !== loop) return;
  if (!document.hidden) {
    const [status, shot] = await Promise.allSettled([api.camera(), api.snapshot()]);
    if (cameraPanel !== loop) return;
    renderCameraState(status.value, status.status === 'rejected' ? status.reason : null);
    if (shot.status === 'fulfilled') {
      const url = URL.createObjectURL(shot.value);
      const img = loop.els.img;
      const old = loop.url;
      loop.url = url;
      img.onload = () => {
        if (old) URL.revokeObjectURL(old);
        img.dataset.frames = String(Number(img.dataset.frames || 0) + 1);
        loop.els.view.classList.remove('loading');
      };
      img.src = url;
      loop.els.shotError.hidden = true;
    } else {
      loop.els.shotError.hidden = false;
      loop.els.shotError.textContent = t('camera.noPicture', { error: shot.reason?.message || '?' });
    }
  }
  if (cameraPanel === loop) loop.timer = setTimeout(() => cameraTick(loop), 1000);
}

/** The live count of the camera's frames for `game`'s hand, and the scan taken by itself
 * once it is whole and sure (`onScan`, the same as the player's tap). */
function cameraCount(game, dlg, onScan) {
  return liveCount({
    ask: () => api.count(game.id),
    target: handTarget(game.variant, (game.players || []).length),
    onReady: () => {
      closeDialog(dlg);
      onScan();
    },
  });
}

/** The live view to aim the table camera; refreshes every second while it is open. With
 * a `game` and `onScan` (aiming for a hand), the cards read are counted as they are spread. */
export function openCamera({ player, onScan, game } = {}) {
  const dlg = $('#camera');
  if (cameraPanel) {
    clearTimeout(cameraPanel.timer);
    cameraPanel.count?.stop();
  }
  const count = game && onScan ? cameraCount(game, dlg, onScan) : null;
  const els = {
    state: h('div', { class: 'cam-state', testid: 'camera-state', 'data-state': 'loading' },
      h('span', { class: 'spinner spinner-dark', 'aria-hidden': 'true' }), t('camera.checking')),
    img: h('img', { class: 'cam-img', testid: 'camera-snapshot', alt: t('camera.alt'), 'data-frames': '0' }),
    shotError: h('p', { class: 'error small', testid: 'camera-shot-error', hidden: true }),
  };
  // the words while the first picture comes: in the page's language, so not CSS `content`
  els.view = h('div', { class: 'cam-view loading' }, els.img,
    h('span', { class: 'cam-wait', testid: 'camera-loading' }, t('camera.loading')));
  fill($('#camera-body'),
    h('header', { class: 'sheet-head' },
      h('button', { type: 'button', class: 'icon-btn', 'data-close': true, 'aria-label': t('btn.close'), testid: 'camera-close' }, '✕'),
      h('div', { class: 'sheet-title' }, h('h2', {}, t('camera.title')), h('div', { class: 'muted small' }, t('camera.live')))),
    h('div', { class: 'sheet-scroll', tabindex: '0' },
      els.state,
      count?.el,
      els.view,
      count?.hint,
      els.shotError,
      h('ul', { class: 'cam-tips muted small' },
        h('li', {}, t('camera.tipCorners')),
        h('li', {}, t('camera.tipMat')))),
    h('div', { class: 'sheet-foot' },
      onScan
        ? h('button', {
          type: 'button',
          class: 'btn btn-primary btn-grow',
          testid: 'camera-scan',
          onclick: () => {
            closeDialog(dlg);
            onScan();
          },
        }, icon('camera'), t('camera.scan', { name: player }))
        : h('button', { type: 'button', class: 'btn btn-secondary btn-grow', 'data-close': true, testid: 'camera-done' }, t('btn.done'))));
  if (!dlg.dataset.wiredCam) {
    dlg.dataset.wiredCam = '1';
    dlg.addEventListener('close', () => {
      if (!cameraPanel) return;
      clearTimeout(cameraPanel.timer);
      cameraPanel.count?.stop();
      if (cameraPanel.url) URL.revokeObjectURL(cameraPanel.url);
      cameraPanel = null;
    });
  }
  cameraPanel = { els, timer: null, url: null, count };
  openDialog(dlg);
  cameraTick(cameraPanel);
}
