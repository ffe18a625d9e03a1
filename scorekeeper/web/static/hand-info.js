// One hand's details: every player's cards as entered, with Undo and Correct for the admin.
import { cardCode, chipRow } from './cards.js';
import { page } from './games.js';
import { startCorrection, undoLast } from './hand-actions.js';
import { t } from './i18n.js';
import { splitLayoffs } from './layoff.js';
import { $, closeDialog, fill, h, num, openDialog, signed } from './util.js';
import { scoresDeadwood, variantLabel } from './variants.js';

export const handInfo = { n: null }; // the hand whose details are open

export function openHandInfo(n) {
  handInfo.n = n;
  renderHandInfo();
  openDialog($('#handinfo'));
}

export function renderHandInfo() {
  const g = page.game;
  const dlg = $('#handinfo');
  const hand = (g?.hands || []).find((x) => x.n === handInfo.n);
  if (!hand) {
    closeDialog(dlg);
    return;
  }
  const res = hand.result || {};
  const isLast = hand.n === (g.hands || []).length;
  const rows = (res.players || []).map((r, pi) => {
    const inp = (hand.players || []).find((x) => x.name === r.name) || {};
    const tags = [];
    if (inp.knocked) tags.push(h('span', { class: 'tag tag-knock' }, t('mark.knocked')));
    if (inp.rummy) tags.push(h('span', { class: 'tag tag-rummy' }, t('mark.rummy')));
    if (inp.went_out) tags.push(h('span', { class: 'tag tag-out' }, t('mark.wentOut')));
    if (r.typed) tags.push(h('span', { class: 'tag' }, t('mark.typed')));
    if (r.eliminated) tags.push(h('span', { class: 'tag tag-elim' }, t('info.outOfGame')));
    const lines = [];
    // as entered (Rummy 500: lay-offs apart, with the meld they joined), else as scored
    const entered = splitLayoffs(inp.melds);
    const melds = inp.melds?.length ? entered.melds : r.melds || [];
    if (melds.length) {
      lines.push(h('div', { class: 'hi-line' }, h('span', { class: 'hi-k' }, t('info.melds')),
        h('span', { class: 'hi-melds' }, melds.map((m) => chipRow(m.map(cardCode))))));
    }
    entered.laidOff.forEach((lay, k) => {
      lines.push(h('div', { class: 'hi-line hi-layoff', testid: `hand-layoff-${pi}-${k}` },
        h('span', { class: 'hi-k' }, t('info.laidOff')), chipRow(lay.cards.map(cardCode)),
        h('span', { class: 'hi-on' }, t('info.on')), chipRow(lay.on.map(cardCode))));
    });
    const deadwood = scoresDeadwood(g.variant);
    const left = deadwood ? r.unmelded || inp.hand : inp.hand;
    if (left?.length) {
      lines.push(h('div', { class: 'hi-line' }, h('span', { class: 'hi-k' }, deadwood ? t('info.deadwood') : t('info.inHand')), chipRow(left.map(cardCode))));
    }
    if (r.dropped) {
      lines.push(h('div', { class: 'hi-line' }, h('span', { class: 'hi-k' }, t('info.notCounted')), chipRow([r.dropped])));
    }
    if (!lines.length) lines.push(h('div', { class: 'hi-line muted small' }, t('info.noCards')));
    return h('li', { class: 'hi-player' },
      h('div', { class: 'hi-top' },
        h('strong', { class: 'whole-name', title: r.name }, r.name), ...tags,
        h('span', { class: 'hi-pts' }, signed(r.points), h('span', { class: 'muted' }, ` → ${num(r.total)}`))),
      ...lines);
  });
  const k = res.knock;
  fill(dlg.querySelector('#handinfo-body'),
    h('header', { class: 'sheet-head' },
      h('button', { type: 'button', class: 'icon-btn', 'data-close': true, 'aria-label': t('btn.close'), testid: 'handinfo-close' }, '✕'),
      h('div', { class: 'sheet-title' }, h('h2', {}, t('info.title', { n: hand.n })), h('div', { class: 'muted small' }, variantLabel(g.variant)))),
    h('div', { class: 'sheet-scroll', tabindex: '0' },
      k ? h('p', { class: `knock ${k.legal !== false ? 'legal' : 'illegal'}` },
        h('strong', {}, k.legal !== false ? t('knock.legal') : t('knock.over')),
        t('knock.line', { player: k.player, deadwood: num(k.deadwood), limit: num(k.limit) })) : null,
      h('ul', { class: 'hi-list' }, rows),
      res.game_over ? h('p', { class: 'pv-over' }, res.winner ? t('info.won', { name: res.winner }) : t('toast.draw')) : null),
    page.admin
      ? h('div', { class: 'sheet-foot' },
        isLast ? h('button', { type: 'button', class: 'btn btn-danger-ghost', testid: 'handinfo-undo', onclick: () => undoLast() }, t('btn.undo')) : null,
        h('button', { type: 'button', class: 'btn btn-primary btn-grow', testid: 'correct-hand', onclick: () => { closeDialog(dlg); startCorrection(hand.n); } }, t('info.correct', { n: hand.n })))
      : null,
  );
}
