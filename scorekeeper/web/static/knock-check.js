// "Knock?" (Chicago): a large verdict on one player's hand, from the cards entered or a scan.
import { api } from './api.js';
import { chipRow } from './cards.js';
import { t } from './i18n.js';
import { icon } from './icons.js';
import { knockVerdict } from './knock.js';
import { photoInput, scanCards, scanHint } from './scan.js';
import { $, closeDialog, fill, h, num, openDialog } from './util.js';

let knockCheck = null; // the open knock check

function renderKnock() {
  const body = $('#knock-body');
  const retry = h('button', { type: 'button', class: 'btn btn-secondary', testid: 'knock-retry', disabled: !!knockCheck.busy, onclick: () => runKnock() }, icon('camera'), t('scan.rescanShort'));
  const photo = h('button', { type: 'button', class: 'btn btn-secondary', testid: 'knock-photo', disabled: !!knockCheck.busy, onclick: () => knockCheck.input.click() }, icon('photo'), t('entry.photo'));
  const head = h('div', { class: 'scan-pick-head' },
    h('h2', { testid: 'knock-title' }, t('scan.knockTitle', { name: knockCheck.player })),
    h('button', { type: 'button', class: 'icon-btn icon-btn-sm', 'data-close': true, 'aria-label': t('btn.close'), testid: 'knock-close' }, '✕'));
  if (knockCheck.busy) {
    fill(body, head,
      h('div', { class: 'verdict busy', testid: 'knock-verdict', 'data-legal': '' },
        h('span', { class: 'spinner', 'aria-hidden': 'true' }),
        { photo: t('scan.readingPhoto'), cards: t('mayknock.checking') }[knockCheck.busy] || t('scan.scanning')),
      h('div', { class: 'modal-actions' }, retry, photo), knockCheck.input);
    return;
  }
  if (knockCheck.error) {
    // the cards entered could not be checked (the server out of reach): ask again for them
    const again = knockCheck.fromCards
      ? h('button', { type: 'button', class: 'btn btn-secondary', testid: 'knock-again', onclick: () => runKnock(null, knockCheck.cards) }, t('knock.again'))
      : null;
    fill(body, head,
      h('div', { class: 'verdict unknown', testid: 'knock-verdict', 'data-legal': '' }, knockCheck.fromCards ? t('knock.couldNot') : t('scan.couldNot')),
      h('p', { class: 'scan-error-text', testid: 'knock-error', role: 'alert' }, knockCheck.error.message),
      knockCheck.fromCards ? null : h('p', { class: 'muted small' }, scanHint(knockCheck.error)),
      again ? h('div', { class: 'modal-actions' }, again) : null,
      h('div', { class: 'modal-actions' }, retry, photo), knockCheck.input);
    return;
  }
  const r = knockCheck.result;
  const v = knockVerdict(r, knockCheck.total, knockCheck.game?.variant);
  // the numbers only beside a verdict: a hand with a card not read was judged on part of it
  const k = v.legal == null ? null : r.knock;
  const cls = v.legal === true ? 'legal' : v.legal === false ? 'illegal' : 'unknown';
  const rows = [];
  if (k) {
    rows.push(h('div', { class: 'kv', testid: 'knock-numbers' },
      h('span', {}, t('kv.limit')), h('strong', {}, k.limit > 0 ? num(k.limit) : t('kv.noKnock')),
      h('span', {}, t('kv.deadwood')), h('strong', {}, num(k.deadwood))));
    rows.push(h('div', { class: 'kline', testid: 'knock-melds' }, h('span', { class: 'hi-k' }, t('kv.melds')),
      (k.melds || []).length ? h('span', { class: 'hi-melds' }, k.melds.map((m) => chipRow(m))) : h('span', { class: 'muted small' }, t('kv.none'))));
    if ((k.unmelded || []).length) {
      rows.push(h('div', { class: 'kline' }, h('span', { class: 'hi-k' }, t('kv.deadwoodCards')), chipRow(k.unmelded)));
    }
    if (k.dropped) rows.push(h('div', { class: 'kline' }, h('span', { class: 'hi-k' }, t('kv.eighth')), chipRow([k.dropped]), h('span', { class: 'muted small' }, t('kv.notCounted'))));
  } else if ((r.hand || []).length) {
    rows.push(h('div', { class: 'kline' }, h('span', { class: 'hi-k' }, t('kv.read')), chipRow(r.hand)));
  }
  fill(body, head,
    h('div', { class: `verdict ${cls}`, testid: 'knock-verdict', 'data-legal': v.legal == null ? '' : String(v.legal) },
      h('span', { class: 'verdict-icon', 'aria-hidden': 'true' }, v.legal === true ? '✓' : v.legal === false ? '✗' : '?'),
      h('span', {}, v.tail ? [v.lead, h('span', { class: 'nowrap' }, v.tail)] : v.head)),
    v.text ? h('p', { class: 'muted small verdict-text' }, v.text) : null,
    ...rows,
    knockCheck.fromCards ? h('p', { class: 'muted small', testid: 'knock-from-cards' }, t('knock.fromCards', { n: knockCheck.cards.length })) : null,
    h('div', { class: 'knock-actions' },
      knockCheck.fromCards
        ? h('button', {
          type: 'button',
          class: 'btn btn-primary',
          testid: 'knock-use',
          onclick: () => {
            const { open } = knockCheck;
            closeDialog($('#knock'));
            open.onKnocker?.();
          },
        }, t('knock.markKnocker', { name: knockCheck.player }))
        : h('button', {
          type: 'button',
          class: 'btn btn-primary',
          testid: 'knock-review',
          onclick: () => {
            const { result, open, fromPhoto } = knockCheck;
            closeDialog($('#knock'));
            open.onReview(result, fromPhoto);
          },
        }, t('scan.review')),
      h('div', { class: 'knock-more' }, retry, photo)),
    knockCheck.input);
}

/** The knock check's answer in the shape of a scan's result (what knockVerdict reads). */
export function knockAsScan(answer) {
  return {
    knock: answer.legal == null ? null : answer,
    impossible: answer.impossible || [],
    hand: answer.cards || [],
    unread: answer.unread || [],
  };
}

/** A new verdict replaces the one shown: from the cards tapped in (`cards`), else a scan
 * (the camera, or the photo `file`). */
async function runKnock(file, cards = null) {
  const mine = knockCheck;
  if (!mine || mine.busy) return;
  mine.busy = cards ? 'cards' : file ? 'photo' : 'camera';
  mine.error = null;
  mine.result = null;
  mine.fromPhoto = !!file;
  mine.fromCards = !!cards;
  renderKnock();
  try {
    const result = cards
      ? knockAsScan(await api.knockCheck(mine.game.id, mine.player, null, { cards }))
      : await scanCards({ game: mine.game, player: mine.player, file });
    if (knockCheck !== mine) return;
    mine.result = result;
  } catch (e) {
    if (knockCheck !== mine) return;
    mine.error = e;
  }
  mine.busy = null;
  renderKnock();
}

/**
 * "Knock?" for one Chicago player, then a large verdict: on the `cards` already entered
 * when there are a whole hand of them (`onKnocker()` then marks the player the knocker),
 * else on a scan (camera, or a photo; `onReview(result, fromPhoto)` opens its review).
 */
export function openKnock({ game, player, total, cards = null, onReview, onKnocker }) {
  const dlg = $('#knock');
  knockCheck = { game, player, total, cards, busy: null, error: null, result: null, open: { onReview, onKnocker } };
  knockCheck.input = photoInput({ testid: 'knock-file', onFile: (file) => runKnock(file) });
  if (!dlg.dataset.wiredKnock) {
    dlg.dataset.wiredKnock = '1';
    dlg.addEventListener('close', () => {
      knockCheck = null;
    });
  }
  openDialog(dlg);
  runKnock(null, cards);
}
