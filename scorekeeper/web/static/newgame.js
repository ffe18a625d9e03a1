// The new-game sheet: variant, players (the club's, at a table in club mode), rules and deck.
import { api, newRequestKey } from './api.js';
import { playerColor } from './chart.js';
import { deckChoice, usableDecks } from './decks.js';
import { loadGames, openGame, page } from './games.js';
import { t } from './i18n.js';
import { clubName, loadRoster, markRow, renderRoster, target } from './roster.js';
import { settingsFields } from './settings.js';
import { dealerField } from './tablegame.js';
import { toast } from './ui.js';
import { $, closeDialog, fill, h, openDialog } from './util.js';
import { VARIANTS, VARIANT_ORDER, defaultSettings, variantLabel } from './variants.js';

// The new-game sheet's state, `sheet` below: {variant, names, prev, settingsUi, deck, roster, active,
// dialog, els, dealer, sent (the last body sent and its key)}.

function renderVariantChoice(sheet) {
  fill(sheet.els.variants, ...VARIANT_ORDER.map((v) => h('button', {
    type: 'button',
    role: 'radio',
    'aria-checked': sheet.variant === v ? 'true' : 'false',
    class: `variant${sheet.variant === v ? ' active' : ''}`,
    testid: `variant-${v}`,
    onclick: () => {
      sheet.variant = v;
      renderVariantChoice(sheet);
      renderNewGameRules(sheet);
    },
  }, h('strong', {}, VARIANTS[v].label), h('span', {}, VARIANTS[v].blurb))));
}

function syncNames(sheet) {
  sheet.names = [...sheet.els.players.querySelectorAll('input')].map((i) => i.value);
}

function playerRow(sheet, name, i) {
  return h('div', { class: 'player-row' },
    h('span', { class: 'pdot', style: `background:${playerColor(i)}` }),
    h('input', {
      class: 'input',
      value: name,
      placeholder: t('newgame.player', { n: i + 1 }),
      autocomplete: 'off',
      autocapitalize: 'words',
      enterkeyhint: 'next',
      maxlength: 40,
      testid: `player-input-${i}`,
      'aria-label': t('newgame.playerName', { n: i + 1 }),
      oninput: () => {
        syncNames(sheet);
        refreshRoster(sheet);
      },
      onfocus: () => {
        sheet.active = i;
        refreshRoster(sheet);
      },
      onkeydown: (ev) => nextName(sheet, i, ev),
    }),
    h('span', { class: 'who', dataset: { who: String(i) }, testid: `player-who-${i}`, hidden: true }),
    h('button', {
      type: 'button',
      class: 'icon-btn icon-btn-sm',
      testid: `player-remove-${i}`,
      'aria-label': t('newgame.removePlayer', { n: i + 1 }),
      disabled: sheet.names.length <= 2,
      onclick: () => {
        syncNames(sheet);
        sheet.names.splice(i, 1);
        renderPlayerRows(sheet);
      },
    }, '✕'));
}

/** Enter in a name goes on to the next player's name; after the last, to Start (it never
 * starts the game by itself: a name typed by mistake is still easy to fix). */
function nextName(sheet, i, ev) {
  if (ev.key !== 'Enter' || ev.isComposing) return;
  ev.preventDefault();
  const inputs = [...sheet.els.players.querySelectorAll('input')];
  const next = inputs[i + 1];
  if (next) next.focus();
  else sheet.els.create.focus();
}

function renderPlayerRows(sheet, focusLast = false) {
  sheet.active = null; // the rows are new: the one typed in is known again when focused
  const v = VARIANTS[sheet.variant];
  const max = v?.maxPlayers || 8;
  const rows = sheet.names.map((name, i) => playerRow(sheet, name, i));
  rows.push(h('button', {
    type: 'button',
    class: 'btn btn-ghost btn-block',
    testid: 'add-player',
    disabled: sheet.names.length >= max,
    onclick: () => {
      syncNames(sheet);
      sheet.names.push('');
      renderPlayerRows(sheet, true);
    },
  }, t(sheet.roster ? 'newgame.addGuest' : 'newgame.addPlayer')));
  rows.push(h('p', { class: 'muted small' }, t('newgame.range', { variant: v?.label, min: v?.minPlayers, max })));
  fill(sheet.els.players, ...rows.slice(0, -2), sheet.els.roster, ...rows.slice(-2));
  refreshRoster(sheet);
  if (focusLast) sheet.els.players.querySelectorAll('input')[sheet.names.length - 1]?.focus();
}

/** In club mode: each row marked a club player or a guest, and the club's names to tap
 *  (those matching the name being typed, else those not seated yet). */
function refreshRoster(sheet) {
  for (const tag of sheet.els.players.querySelectorAll('[data-who]')) {
    markRow(tag, sheet.roster, sheet.names[Number(tag.dataset.who)]);
  }
  const max = VARIANTS[sheet.variant]?.maxPlayers || 8;
  renderRoster(sheet.els.roster, sheet.roster, sheet.names, sheet.active, max, (name, mode) => {
    syncNames(sheet);
    const at = target(mode, sheet.names, sheet.active, max);
    if (at < 0) return;
    sheet.names[at] = name;
    renderPlayerRows(sheet);
  });
}

function renderNewGameRules(sheet) {
  const keep = sheet.variant === sheet.prev?.variant ? sheet.prev.settings || {} : defaultSettings(sheet.variant);
  sheet.settingsUi = settingsFields(sheet.variant, keep);
  fill(sheet.els.settings, sheet.settingsUi.el);
  renderPlayerRows(sheet);
}

/** What is wrong with the names before the server is asked, in players' words; or null. */
function namesProblem(players) {
  if (players.length < 2) return t('newgame.twoNames');
  if (new Set(players.map((p) => p.toLowerCase())).size !== players.length) {
    return t('newgame.sameName');
  }
  return null;
}

function showNewGameError(sheet, msg) {
  sheet.els.error.textContent = msg;
  sheet.els.error.hidden = !msg;
  if (msg) sheet.els.error.scrollIntoView({ block: 'nearest' });
}

/**
 * The Idempotency-Key a game is created under: the same while the form is unchanged, so
 * Start game again after a lost answer opens the game made instead of making a second one.
 */
function creationKey(sheet, body) {
  const text = JSON.stringify(body);
  if (sheet.sent?.text !== text) sheet.sent = { text, key: newRequestKey() };
  return sheet.sent.key;
}

async function createGame(sheet) {
  syncNames(sheet);
  // a club player's name as the club spells it ("ana" typed is the club's "Ana")
  const players = sheet.names.map((n) => clubName(sheet.roster, n) || n.trim()).filter(Boolean);
  const problem = namesProblem(players);
  showNewGameError(sheet, problem || '');
  if (problem) return;
  const btn = sheet.els.create;
  btn.disabled = true;
  btn.textContent = t('newgame.creating');
  try {
    const body = { variant: sheet.variant, players, settings: sheet.settingsUi.read() };
    if (sheet.deck) body.deck = sheet.deck.value();
    const dealer = sheet.dealer.read();
    if (dealer) body.dealer = clubName(sheet.roster, dealer) || dealer;
    const game = await api.createGame(body, creationKey(sheet, body));
    sheet.dialog.close('created');
    await loadGames();
    await openGame(game.id, { pin: false });
    toast(t('game.started', { variant: variantLabel(sheet.variant) }));
  } catch (e) {
    showNewGameError(sheet, e.message);
  } finally {
    btn.disabled = false;
    btn.textContent = t('newgame.start');
  }
}

// the table asks its club at most once a minute; a sheet left open looks twice as often
const ROSTER_REFRESH_MS = 30_000;
let newGameSheet = null; // the sheet opened last: an older sheet's refresh stops

/** Show the club's list on the sheet; a name being typed keeps its caret. */
function showRoster(sheet, roster) {
  sheet.roster = roster;
  syncNames(sheet);
  const inputs = () => [...sheet.els.players.querySelectorAll('input')];
  const typing = inputs().indexOf(document.activeElement);
  renderPlayerRows(sheet); // with the rows' marks and "Add a guest"
  const again = inputs()[typing];
  again?.focus();
  again?.setSelectionRange(again.value.length, again.value.length);
}

/** While the sheet stays open, show a club list that changed (a player the club added, the
 *  club back after an outage): the marks and the names to tap only, so the rows (and a name
 *  being typed in one) stay as they are; stops when the sheet closes. */
function keepRosterFresh(sheet) {
  const same = (a, b) => a.fresh === b.fresh && a.fetched_at === b.fetched_at
    && JSON.stringify(a.players) === JSON.stringify(b.players);
  const timer = setInterval(async () => {
    if (newGameSheet !== sheet || !sheet.dialog.open) {
      clearInterval(timer);
      return;
    }
    const roster = await loadRoster();
    if (roster && newGameSheet === sheet && sheet.dialog.open && !same(roster, sheet.roster)) {
      sheet.roster = roster;
      syncNames(sheet);
      refreshRoster(sheet);
    }
  }, ROSTER_REFRESH_MS);
}

/** The new-game sheet: variant, players, rules; it starts from the current game's. */
export function openNewGame() {
  if (!page.admin) return;
  closeDialog($('#menu'));
  const prev = page.game;
  const sheet = {
    variant: prev?.variant || 'chicago',
    names: prev ? prev.players.map((p) => p.name) : ['', ''],
    prev,
    settingsUi: null,
    deck: null,
    roster: null, // the club's players, at a table in club mode
    active: null, // the row last typed in
    dialog: $('#newgame'),
    els: {
      variants: h('div', { class: 'variant-grid', role: 'radiogroup', 'aria-label': t('newgame.variant') }),
      players: h('div', { class: 'player-rows' }),
      roster: h('section', { class: 'roster', testid: 'newgame-roster', hidden: true }),
      settings: h('div', {}),
      deck: h('div', { testid: 'newgame-deck-section' }),
      error: h('p', { class: 'error error-box', testid: 'newgame-error', role: 'alert', hidden: true }),
    },
  };
  // the deck choice appears once the table's decks are known, and only when there are some
  usableDecks().then((list) => {
    sheet.deck = deckChoice(list, prev ? prev.deck ?? null : undefined);
    if (sheet.deck) fill(sheet.els.deck, h('h3', { class: 'section-label' }, t('newgame.deck')), sheet.deck.el);
  });
  newGameSheet = sheet;
  loadRoster().then((roster) => {
    if (!roster || !sheet.dialog.open) return;
    showRoster(sheet, roster);
    keepRosterFresh(sheet);
  });
  sheet.dealer = dealerField(() => {
    if (sheet.els.players.querySelector('input')) syncNames(sheet); // once the rows are drawn
    return sheet.names;
  });
  sheet.els.create = h('button', { type: 'button', class: 'btn btn-primary btn-grow', testid: 'create-game', onclick: () => createGame(sheet) }, t('newgame.start'));
  fill($('#newgame-form'),
    h('header', { class: 'sheet-head' },
      h('button', { type: 'button', class: 'icon-btn', 'data-close': true, 'aria-label': t('btn.close'), testid: 'newgame-close' }, '✕'),
      h('div', { class: 'sheet-title' }, h('h2', {}, t('newgame.title')))),
    h('div', { class: 'sheet-scroll', tabindex: '0' },
      h('h3', { class: 'section-label' }, t('newgame.game')), sheet.els.variants,
      h('h3', { class: 'section-label' }, t('newgame.players')), sheet.els.players, sheet.dealer.el,
      h('h3', { class: 'section-label' }, t('newgame.rules')), sheet.els.settings,
      sheet.els.deck,
      sheet.els.error),
    h('div', { class: 'sheet-foot' }, sheet.els.create),
  );
  renderVariantChoice(sheet);
  renderNewGameRules(sheet);
  openDialog(sheet.dialog);
}
