// The table's side of a game: ending it (finish, abandon, delete; Undo for a few seconds),
// who deals next, and a viewer's phone following the game the table plays. The server's
// rules say when a game is over and who deals: the page only shows what the game says.
import { newRequestKey, request } from './api.js';
import { t } from './i18n.js';
import { keep, kept } from './kept.js';
import { toast } from './ui.js';
import { $, closeDialog, fill, h, openDialog } from './util.js';

export const UNDO_MS = 8000; // how long the Undo of an end stays on the screen
const FOLLOW_KEY = 'scorekeeper.follow'; // '1': this phone follows the table by itself
const enc = encodeURIComponent;

function versioned(seq, key) {
  const out = { 'If-Match': `"${seq}"` };
  if (key) out['Idempotency-Key'] = key;
  return out;
}

export const tableApi = {
  end: (id, how, seq) => request('POST', `/api/games/${enc(id)}/end`, { how }, versioned(seq, newRequestKey())),
  remove: (id, seq) => request('DELETE', `/api/games/${enc(id)}`, undefined, versioned(seq)),
  reopen: (id, seq) => request('POST', `/api/games/${enc(id)}/reopen`, undefined, versioned(seq, newRequestKey())),
  dealer: (id, player, seq) => request('PUT', `/api/games/${enc(id)}/dealer`, { player }, versioned(seq)),
  moveTable: (game) => request('PUT', '/api/table', { game: Number(game) }),
};

// ---- a choice of a few buttons ---------------------------------------------------------

function chooser() {
  let dlg = $('#choose');
  if (!dlg) {
    dlg = h('dialog', { id: 'choose', class: 'modal choose-modal', testid: 'choose-dialog', 'aria-labelledby': 'choose-title' });
    document.body.append(dlg);
  }
  return dlg;
}

/** Ask which of `choices` ({label, value, testid, danger}); resolves to its value, or null. */
export function choose({ title, text = '', choices }) {
  const dlg = chooser();
  return new Promise((resolve) => {
    let picked = null;
    const pick = (value) => {
      picked = value;
      closeDialog(dlg);
    };
    fill(dlg, h('div', { class: 'modal-inner' },
      h('h2', { id: 'choose-title' }, title),
      text ? h('p', { class: 'muted' }, text) : null,
      choices.map((c) => h('button', {
        type: 'button', class: `btn btn-block ${c.danger ? 'btn-danger-ghost' : 'btn-secondary'}`,
        testid: c.testid, onclick: () => pick(c.value),
      }, c.label)),
      h('button', { type: 'button', class: 'btn btn-block btn-ghost', testid: 'choose-cancel', 'data-close': true }, t('btn.cancel'))));
    dlg.addEventListener('close', () => resolve(picked), { once: true });
    openDialog(dlg);
  });
}

// ---- ending a game ----------------------------------------------------------------------

/** The admin ends the game: finish or abandon (while the rules have not ended it) or
 *  delete; Undo on the toast reopens it. `after(view)` shows the result, `back(view)` the
 *  game reopened. */
export async function endGame(g, { after, back }) {
  const choices = [];
  if (!g.game_over) {
    const leader = g.leader ? t('end.finish', { name: g.leader }) : t('end.finishNow');
    choices.push({ label: leader, value: 'finished', testid: 'end-finish' },
      { label: t('end.abandon'), value: 'abandoned', testid: 'end-abandon' });
  }
  choices.push({ label: t('end.delete'), value: 'deleted', testid: 'end-delete', danger: true });
  const how = await choose({ title: t('end.title'), text: t('end.text'), choices });
  if (!how) return;
  let view;
  try {
    view = how === 'deleted' ? await tableApi.remove(g.id, g.seq) : await tableApi.end(g.id, how, g.seq);
  } catch (e) {
    toast(e.message, 'error');
    return;
  }
  toast(t(`end.${how}`), 'ok', UNDO_MS, {
    label: t('end.undo'),
    testid: 'end-undo',
    onclick: async () => {
      try {
        const again = await tableApi.reopen(view.id, view.seq);
        toast(t('end.reopened'));
        await back(again);
      } catch (e) {
        toast(e.message, 'error');
      }
    },
  });
  await after(view);
}

/** The game-over panel's words: its label and its line, by how the game ended. */
export function overWords(g) {
  if (g.state === 'deleted') return { label: t('over.deleted'), line: t('over.deletedText') };
  if (g.ended === 'abandoned') return { label: t('over.abandoned'), line: t('over.nobody') };
  const label = g.ended === 'finished' ? t('over.finished') : t('over.title');
  return { label, line: g.winner ? t('over.wins', { name: g.winner }) : t('over.draw') };
}

/** Reopen a game the admin ended (the rules' end is undone by undoing its last hand). */
export function reopenButton(g, shown) {
  if (!g.ended) return null;
  return h('button', {
    type: 'button', class: 'btn btn-light', testid: 'gameover-reopen',
    onclick: async () => {
      try {
        shown(await tableApi.reopen(g.id, g.seq));
        toast(t('end.reopened'));
      } catch (e) {
        toast(e.message, 'error');
      }
    },
  }, t('over.reopen'));
}

/** The state tag of a game in the list. */
export function stateTag(g) {
  const state = g.state || (g.game_over ? 'finished' : 'in_play');
  if (state === 'in_play') return h('span', { class: 'tag tag-live' }, t('menu.inPlay'));
  const words = state === 'abandoned' ? t('menu.abandoned')
    : g.winner ? t('menu.won', { name: g.winner }) : t('menu.over');
  return h('span', { class: `tag tag-done tag-${state}`, testid: `state-${g.id}` }, words);
}

// ---- the dealer -------------------------------------------------------------------------

/** The dealer's mark on their scoreboard row; the admin's opens the choice of dealer. */
export function dealerMark(g, name, { admin, shown }) {
  if (!g.dealer || g.dealer !== name) return null;
  if (!admin) return h('span', { class: 'sub-item deal-badge', testid: 'dealer-badge' }, t('deal.badge'));
  return h('button', {
    type: 'button', class: 'sub-item deal-badge', testid: 'dealer-badge',
    'aria-label': t('deal.change', { name }), onclick: () => pickDealer(g, shown),
  }, t('deal.badge'));
}

async function pickDealer(g, shown) {
  const player = await choose({
    title: t('deal.title'),
    text: t('deal.text'),
    choices: (g.players || []).filter((p) => !p.eliminated)
      .map((p, i) => ({ label: p.name, value: p.name, testid: `dealer-pick-${i}` })),
  });
  if (!player || player === g.dealer) return;
  try {
    shown(await tableApi.dealer(g.id, player, g.seq));
    toast(t('deal.set', { name: player }));
  } catch (e) {
    toast(e.message, 'error');
  }
}

/** The new game's first dealer: one of the names typed (read when the list opens). */
export function dealerField(names) {
  const select = h('select', { id: 'ng-dealer', class: 'input', testid: 'newgame-dealer' });
  const refresh = () => {
    const at = select.selectedIndex;
    fill(select, names().map((n, i) => h('option', { value: String(i) }, n.trim() || t('newgame.player', { n: i + 1 }))));
    select.selectedIndex = Math.max(0, Math.min(at, select.options.length - 1));
  };
  select.addEventListener('focus', refresh);
  select.addEventListener('pointerdown', refresh);
  refresh();
  return {
    el: h('label', { class: 'field', for: 'ng-dealer' }, h('span', { class: 'field-label' }, t('newgame.dealer')), select),
    /** The name chosen, or null for the first seat (the server's default). */
    read: () => (select.selectedIndex > 0 ? names()[select.selectedIndex]?.trim() || null : null),
  };
}

// ---- following the table ----------------------------------------------------------------

export const following = () => kept(FOLLOW_KEY) === '1';

let noticeFor = null; // the game the notice points to

function noticeBox() {
  let box = $('#table-notice');
  if (!box) {
    box = h('div', { id: 'table-notice', class: 'table-notice', testid: 'table-notice', role: 'status', hidden: true });
    $('#main').prepend(box);
  }
  return box;
}

/** The table plays `game` now (the live `table` event): a viewer on another game is told,
 *  with a link to it, or follows at once when this phone chose to. */
export function tableMoved(game, { admin, current, open }) {
  const box = noticeBox();
  if (admin || game == null || String(game) === String(current)) {
    box.hidden = true;
    return;
  }
  if (following() || current == null) { // (a phone with no game yet simply opens it)
    open(game);
    if (current != null) toast(t('follow.following'));
    return;
  }
  noticeFor = game;
  const go = (ev) => {
    ev?.preventDefault();
    box.hidden = true;
    open(game);
  };
  fill(box,
    h('span', { class: 'tn-text' }, t('follow.moved')),
    h('span', { class: 'tn-actions' },
      h('a', { href: `?game=${enc(game)}`, class: 'btn btn-small btn-primary', testid: 'table-notice-open', onclick: go }, t('follow.open')),
      h('button', { type: 'button', class: 'btn btn-small btn-secondary', testid: 'table-notice-follow', onclick: () => { setFollowing(true); go(); } }, t('follow.always')),
      h('button', { type: 'button', class: 'icon-btn icon-btn-sm', testid: 'table-notice-close', 'aria-label': t('btn.dismiss'), onclick: () => { box.hidden = true; } }, '✕')));
  box.hidden = false;
}

/** A game was opened on this phone: the notice pointing to it goes; the admin's phone
 *  makes it the table's game (phones on another game are told). */
export function gameOpened(id, admin) {
  if (noticeFor != null && String(noticeFor) === String(id)) noticeBox().hidden = true;
  if (admin) tableApi.moveTable(id).catch(() => { /* a viewer is told at its next open */ });
}

export function setFollowing(on) {
  keep(FOLLOW_KEY, on ? '1' : '');
}

/** The menu's switch: this phone follows the table's game by itself, or shows a notice. */
export function followSwitch() {
  const show = (btn, on) => {
    btn.setAttribute('aria-checked', on ? 'true' : 'false');
    btn.textContent = on ? t('follow.on') : t('follow.off');
  };
  const btn = h('button', {
    type: 'button', role: 'switch', class: 'btn btn-small', testid: 'follow-table', 'aria-labelledby': 'follow-label',
    onclick: () => {
      setFollowing(!following());
      show(btn, following());
    },
  });
  show(btn, following());
  return h('div', { class: 'menu-row follow-row' }, h('span', { class: 'field-label', id: 'follow-label' }, t('follow.menu')), btn);
}
