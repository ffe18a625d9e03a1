// Enrolling a deck from the phone (admin), inside the decks sheet: the prescribed layout
// drawn for each photo, the photos taken one by one (the phone's camera, a file, or the
// table's camera), each read on the server with `deck enrol`'s checks and its slips named
// so that photo can be taken again, then "Save deck" and the offer to adapt it.
import { request, requestBlob } from './api.js';
import { cardLabel, cardName, suitClass } from './cards.js';
import { t } from './i18n.js';
import { icon } from './icons.js';
import { shrinkPhoto } from './photo-shrink.js';
import { photoInput, scanHint } from './scan.js';
import { ask } from './ui.js';
import { h, s, fill, num } from './util.js';

export const DECK_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
const SLIP_STATES = new Set(['swapped', 'moved', 'design']);
const SKETCH_H = 30; // mm of the lower row's cards drawn: their indices and a little more

const enc = encodeURIComponent;
const base = (name) => `/api/decks/${enc(name)}/enrol`;

function photoForm(file) {
  const form = new FormData();
  form.append('image', file, file.name || 'photo.jpg');
  return form;
}

const enrolApi = {
  draft: (name) => request('GET', base(name)),
  /** Photo `n` of the layout: a file, or (none) the table's camera. */
  photo: (name, n, file) => request('POST', `${base(name)}/photos/${n}`, file ? photoForm(file) : {}),
  save: (name) => request('POST', `${base(name)}/save`),
  discard: (name) => request('DELETE', base(name)),
};

let enrolment = null; // the open one: {host, name, draft, current, busy, error, saved, ...}

// ---- the layout, drawn ---------------------------------------------------------------

/** Each place of a sheet: the draft's reading of photo `n`, or the layout's own cards. */
function placesOf(n) {
  const photo = enrolment.draft.photos.find((p) => p.number === n);
  if (photo) return photo.places;
  const sheet = enrolment.draft.layout.sheets[n % 2 ? 0 : 1];
  return sheet.rows.flatMap((cards, r) => cards.map((card, c) => ({ card, row: r + 1, place: c + 1, state: 'unread' })));
}

const stateClass = (state) => (SLIP_STATES.has(state) ? 'st-slip' : `st-${state}`);

/** The sheet as it lies on the mat, to scale: each card over the one before, row 2 lower. */
function sketch(n) {
  const { card_mm: [cw], step_mm: step, row_mm: rowMm } = enrolment.draft.layout;
  const places = placesOf(n);
  const width = step * 13 + cw + 2;
  const height = rowMm + SKETCH_H;
  const cards = places.map((p) => {
    const x = 1 + (p.place - 1) * step;
    const y = 1 + (p.row - 1) * rowMm;
    const label = cardLabel(p.card);
    const rank = p.card === 'JK' ? 'JK' : label.slice(0, -1);
    const suit = p.card === 'JK' ? '★' : label.slice(-1);
    return s('g', { class: `sk-card ${suitClass(p.card)} ${stateClass(p.state)}` },
      s('rect', { class: 'sk-face', x, y, width: cw, height: 88, rx: 3 }),
      s('rect', { class: 'sk-index', x: x + 0.8, y: y + 1.5, width: 12.5, height: 21, rx: 1.5 }),
      s('text', { x: x + 7, y: y + 10 }, rank),
      s('text', { x: x + 7, y: y + 20 }, suit));
  });
  return s('svg', {
    class: 'enrol-sketch',
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': t('enrol.sketchAlt', { n }),
    testid: 'enrol-sketch',
  }, s('rect', { class: 'sk-mat', x: 0, y: 0, width, height }), cards);
}

/** The rows in words, as `scorekeeper deck layout` prints them. */
function rowsList(n) {
  const places = placesOf(n);
  return h('ol', { class: 'enrol-rows small', testid: 'enrol-rows' }, [1, 2].map((r) => h('li', {},
    h('strong', {}, t('enrol.row', { n: r })), ' ',
    places.filter((p) => p.row === r).map((p) => h('span', {
      class: `enrol-place ${suitClass(p.card)} ${stateClass(p.state)}`,
      title: cardName(p.card),
    }, cardLabel(p.card))))));
}

function legend() {
  const item = (cls, key) => h('li', {}, h('span', { class: `enrol-key ${cls}`, 'aria-hidden': 'true' }), t(key));
  return h('ul', { class: 'enrol-legend small', testid: 'enrol-legend' },
    item('st-read', 'enrol.keyRead'), item('st-missing', 'enrol.keyMissing'),
    item('st-slip', 'enrol.keySlip'), item('st-absent', 'enrol.keyAbsent'));
}

// ---- one photo ---------------------------------------------------------------------------

/** A slip of the reading, in the page's words. */
export function slipText(n, slip) {
  const where = { n, row: slip.row, place: slip.place };
  const card = slip.card ? cardLabel(slip.card) : '';
  switch (slip.kind) {
    case 'no_mat': return t('enrol.slip.noMat', { n });
    case 'blurred': return t('enrol.slip.blurred', { n });
    case 'missing': return t('enrol.slip.missing', { ...where, card });
    case 'swapped': return t('enrol.slip.swapped', { ...where, card, other: cardLabel(slip.other), other_place: slip.other_place });
    case 'moved': return t('enrol.slip.moved', { ...where, card, reads: cardLabel(slip.reads) });
    case 'design': return t('enrol.slip.design', { ...where, card });
    default: return slip.text || slip.kind;
  }
}

/** The photo as read, each place marked (fetched with the token; kept while the sheet is open). */
function markedPhoto(photo) {
  const img = h('img', { class: 'enrol-marked', alt: t('enrol.markedAlt', { n: photo.number }), testid: 'enrol-marked' });
  const mine = enrolment;
  const known = mine.urls.get(photo.image);
  if (known) {
    img.src = known;
    return img;
  }
  requestBlob(photo.image).then((blob) => {
    if (enrolment !== mine) return;
    const url = URL.createObjectURL(blob);
    mine.urls.set(photo.image, url);
    img.src = url;
  }).catch(() => img.remove());
  return img;
}

function reading(photo) {
  const n = enrolment.current;
  if (enrolment.busy) {
    return h('p', { class: 'enrol-busy', testid: 'enrol-busy', role: 'status' },
      h('span', { class: 'spinner spinner-dark', 'aria-hidden': 'true' }), t('enrol.reading', { n }));
  }
  if (enrolment.error) {
    return h('div', { class: 'error-box', testid: 'enrol-error', role: 'alert' },
      h('p', { class: 'error' }, enrolment.error.message), h('p', { class: 'small' }, scanHint(enrolment.error)));
  }
  if (!photo) return h('p', { class: 'muted small', testid: 'enrol-result' }, t('enrol.notTaken'));
  const absent = photo.places.filter((p) => p.state === 'absent').length;
  return photo.ok
    ? h('div', { class: 'enrol-ok', testid: 'enrol-result', 'data-ok': 'true', role: 'status' },
      h('strong', {}, t('enrol.ok', { n, cards: num(photo.cards) })),
      absent ? h('p', { class: 'muted small' }, t('enrol.jokersLeftOut', { n: absent })) : null)
    : h('div', { class: 'error-box', testid: 'enrol-result', 'data-ok': 'false', role: 'alert' },
      h('strong', {}, t('enrol.retake', { n })),
      h('ul', { class: 'enrol-slips', testid: 'enrol-slips' },
        photo.slips.map((sl, i) => h('li', { testid: `enrol-slip-${i}`, 'data-kind': sl.kind }, slipText(n, sl)))));
}

function takeButtons() {
  const n = enrolment.current;
  const take = photoInput({ testid: 'enrol-file', onFile: (f) => send(f) });
  const pick = photoInput({ testid: 'enrol-pick', onFile: (f) => send(f) });
  pick.removeAttribute('capture'); // the phone's photos, not only its camera
  const taken = enrolment.draft.photos.some((p) => p.number === n);
  return h('div', { class: 'deck-actions' }, take, pick,
    h('button', { type: 'button', class: 'btn btn-primary', testid: 'enrol-take', disabled: !!enrolment.busy, onclick: () => take.click() },
      icon('camera'), t(taken ? 'enrol.takeAgain' : 'enrol.take', { n })),
    h('button', { type: 'button', class: 'btn btn-secondary', testid: 'enrol-choose', disabled: !!enrolment.busy, onclick: () => pick.click() },
      icon('photo'), t('enrol.choose')),
    enrolment.camera ? h('button', { type: 'button', class: 'btn btn-secondary', testid: 'enrol-table-camera', disabled: !!enrolment.busy, onclick: () => send(null) },
      icon('aim'), t('enrol.tableCamera')) : null);
}

function photoPanel() {
  const n = enrolment.current;
  const photo = enrolment.draft.photos.find((p) => p.number === n);
  const sheet = n % 2 ? 1 : 2;
  return h('section', { class: 'deck-card enrol-photo', testid: 'enrol-photo', 'data-photo': String(n), 'aria-labelledby': 'enrol-photo-title' },
    h('h3', { id: 'enrol-photo-title' }, t('enrol.photoTitle', { n, max: enrolment.draft.max_photos })),
    h('p', { class: 'small' }, t(`enrol.sheet${sheet}`)),
    n > 2 ? h('p', { class: 'muted small' }, t('enrol.extra')) : null,
    sketch(n), rowsList(n), photo ? legend() : null,
    reading(photo), takeButtons(), photo && !enrolment.busy ? markedPhoto(photo) : null);
}

// ---- the steps, and saving -------------------------------------------------------------

function steps() {
  const photos = new Map(enrolment.draft.photos.map((p) => [p.number, p]));
  const all = Array.from({ length: enrolment.draft.max_photos }, (_, i) => i + 1);
  return h('nav', { class: 'enrol-steps', 'aria-label': t('enrol.steps') }, all.map((n) => {
    const p = photos.get(n);
    const state = !p ? 'todo' : p.ok ? 'ok' : 'slip';
    return h('button', {
      type: 'button',
      class: `enrol-step step-${state}`,
      testid: `enrol-step-${n}`,
      'data-state': state,
      'aria-current': n === enrolment.current ? 'step' : null,
      'aria-label': t(`enrol.step.${state}`, { n }),
      disabled: !!enrolment.busy,
      onclick: () => { enrolment.current = n; enrolment.error = null; render(); },
    }, h('span', { class: 'enrol-step-n' }, String(n)), h('span', { 'aria-hidden': 'true' }, state === 'ok' ? '✓' : state === 'slip' ? '!' : n > 2 ? '+' : ''));
  }));
}

/** Why the deck cannot be saved yet, in the page's words (the server's rule). */
function whyNot() {
  const photos = [...enrolment.draft.photos].sort((a, b) => a.number - b.number);
  if (!photos.length) return t('enrol.whyNone');
  const last = photos[photos.length - 1].number;
  for (let n = 1; n <= last; n++) {
    if (!photos.some((p) => p.number === n)) return t('enrol.whyGap', { n });
  }
  const bad = photos.find((p) => !p.ok);
  if (bad) return t('enrol.whySlip', { n: bad.number });
  return photos.length === 1 ? t('enrol.onlySheet1') : null;
}

function saveBar() {
  const why = whyNot();
  return h('div', { class: 'enrol-save' },
    why ? h('p', { class: 'muted small', testid: 'enrol-why' }, why) : null,
    h('button', {
      type: 'button', class: 'btn btn-primary btn-block', testid: 'enrol-save', disabled: !enrolment.draft.ready || !!enrolment.busy, onclick: save,
    }, t(enrolment.draft.exists ? 'enrol.saveMore' : 'enrol.save', { name: enrolment.name })),
    enrolment.draft.photos.length ? h('button', {
      type: 'button', class: 'btn btn-danger-ghost btn-block', testid: 'enrol-discard', disabled: !!enrolment.busy, onclick: discard,
    }, t('enrol.discard')) : null);
}

function intro() {
  return h('details', { class: 'enrol-how', testid: 'enrol-how', open: !enrolment.draft.photos.length },
    h('summary', {}, t('enrol.how')),
    h('ol', { class: 'small' }, h('li', {}, t('enrol.how1')), h('li', {}, t('enrol.how2')),
      h('li', {}, t('enrol.how3')), h('li', {}, t('enrol.how4'))));
}

function savedView() {
  const sv = enrolment.saved;
  return h('section', { class: 'deck-card', testid: 'enrol-saved', role: 'status' },
    h('h3', {}, t(sv.created ? 'enrol.created' : 'enrol.added', { name: sv.deck })),
    h('p', { class: 'small' }, t('enrol.savedText', { cards: num(sv.cards), photos: num(sv.photos), examples: num(sv.examples) })),
    h('p', { class: 'muted small' }, enrolment.cannotAdapt ? t('decks.cannotAdapt', { why: enrolment.cannotAdapt }) : t('enrol.adaptText', { n: enrolment.minutes })),
    h('div', { class: 'deck-actions' },
      h('button', { type: 'button', class: 'btn btn-primary', testid: 'enrol-adapt', disabled: !!enrolment.cannotAdapt, onclick: () => enrolment.onAdapt(sv.deck) },
        t('enrol.adapt', { n: enrolment.minutes })),
      h('button', { type: 'button', class: 'btn btn-secondary', testid: 'enrol-later', onclick: () => enrolment.onBack() }, t('enrol.later'))));
}

function render() {
  if (!enrolment) return;
  fill(enrolment.host,
    h('div', { class: 'enrol-head' },
      h('button', { type: 'button', class: 'btn btn-small', testid: 'enrol-back', onclick: () => enrolment.onBack() }, `‹ ${t('decks.title')}`),
      h('h3', { testid: 'enrol-title' }, t('enrol.title', { name: enrolment.name }))),
    enrolment.saved ? savedView() : enrolment.draft ? [intro(), steps(), photoPanel(), saveBar()]
      : h('p', { class: 'muted' }, t('app.loading')));
}

// ---- what the buttons do -----------------------------------------------------------------

async function send(file) {
  const mine = enrolment;
  const n = mine.current;
  mine.busy = true;
  mine.error = null;
  render();
  try {
    const photo = file ? await shrinkPhoto(file) : null;
    const draft = await enrolApi.photo(mine.name, n, photo);
    if (enrolment !== mine) return;
    mine.draft = draft;
    const next = draft.photos.find((p) => p.number === n)?.ok && n < 2 ? n + 1 : n;
    mine.current = next;
  } catch (e) {
    if (enrolment !== mine) return;
    mine.error = e;
  }
  mine.busy = false;
  render();
}

async function save() {
  const mine = enrolment;
  mine.busy = true;
  mine.error = null;
  render();
  try {
    mine.saved = await enrolApi.save(mine.name);
  } catch (e) {
    mine.error = e;
  }
  mine.busy = false;
  if (enrolment === mine) render();
}

async function discard() {
  const mine = enrolment;
  const ok = await ask({ title: t('enrol.discardTitle', { name: mine.name }), text: t('enrol.discardText'), okLabel: t('enrol.discard'), danger: true });
  if (!ok || enrolment !== mine) return;
  try {
    await enrolApi.discard(mine.name);
    mine.draft = { ...mine.draft, photos: [], ready: false };
    mine.current = 1;
    mine.error = null;
  } catch (e) {
    mine.error = e;
  }
  if (enrolment === mine) render();
}

/** Close the enrolment (the sheet closed, or back to the list). */
export function closeEnrol() {
  for (const url of enrolment?.urls.values() || []) URL.revokeObjectURL(url);
  enrolment = null;
}

/**
 * Show deck `name`'s enrolment in `host`: `onBack()` returns to the decks, `onAdapt(name)`
 * starts "Improve this deck"; `cannotAdapt` says why this server cannot (null: it can).
 */
export async function openEnrol(host, name, { onBack, onAdapt, cannotAdapt, minutes, camera }) {
  closeEnrol();
  const mine = { host, name, draft: null, current: 1, busy: false, error: null, saved: null, urls: new Map(), onBack, onAdapt, cannotAdapt, minutes, camera };
  enrolment = mine;
  render();
  try {
    mine.draft = await enrolApi.draft(name);
    const slip = mine.draft.photos.find((p) => !p.ok);
    mine.current = slip ? slip.number : Math.min(mine.draft.photos.length + 1, mine.draft.max_photos);
  } catch (e) {
    if (enrolment !== mine) return;
    onBack(e);
    return;
  }
  if (enrolment === mine) render();
}
