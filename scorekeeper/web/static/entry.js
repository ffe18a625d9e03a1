// Hand entry and correction: a card picker per player, end-of-hand toggles,
// a live preview from /preview, Save (POST) or Save correction (PUT).
import { api, newRequestKey } from './api.js';
import {
  JOKER, cardCode, chip, chipRow, deckRules, sortCards, pickerGrid,
} from './cards.js';
import {
  icon, openCamera, openKnock, openReview, photoInput, scanCards, scanHint,
} from './scan.js';
import {
  agoText, clearDraft, draftKey, loadDraft, pruneDrafts, saveDraft,
} from './drafts.js';
import {
  missingEnder, missingPoints, playerWords,
} from './messages.js';
import { t } from './i18n.js';
import { tabNames } from './shortnames.js';
import { ask } from './ui.js';
import { $, h, fill, debounce, openDialog, signed, num } from './util.js';
import {
  VARIANTS, endToggles as togglesOf, entersMelds, handEnd, pressMark, scoresDeadwood, typedFields,
  variantLabel,
} from './variants.js';

let st = null; // the open form's state

function blankPlayer(name) {
  return {
    name, hand: [], melds: [], knocked: false, rummy: false, went_out: false, typed: false, held: '', melded: '',
  };
}

const pointText = (v) => (v == null ? '' : String(v));

function fromInput(p) {
  // A stored lay-off ({cards, on}) keeps its `on` as a property of the card list,
  // so a correction sends it back unchanged.
  const melds = (p.melds || []).map((m) => {
    if (Array.isArray(m)) return m.map(cardCode);
    const cards = (m?.cards || []).map(cardCode);
    if (m?.on?.length) cards.on = m.on.map(cardCode);
    return cards;
  });
  return {
    name: p.name,
    hand: (p.hand || []).map(cardCode),
    melds,
    knocked: !!p.knocked,
    rummy: !!p.rummy,
    went_out: !!p.went_out,
    typed: 'typed' in p ? !!p.typed : p.held != null || p.melded != null,
    held: pointText(p.held),
    melded: pointText(p.melded),
  };
}

/** A player entered as points: the flags and the numbers typed, no cards. */
function typedBody(p) {
  const out = { name: p.name, knocked: p.knocked, went_out: p.went_out, rummy: p.rummy };
  for (const [key] of typedFields(st.variant)) {
    const text = String(p[key]).trim();
    if (text !== '') out[key] = Number(text);
  }
  return out;
}

function cardsBody(p) {
  return {
    name: p.name,
    hand: [...p.hand],
    melds: p.melds
      .filter((m) => m.length > 0)
      .map((m) => (m.on?.length ? { cards: [...m], on: [...m.on] } : [...m])),
    knocked: p.knocked,
    went_out: p.went_out,
    rummy: p.rummy,
  };
}

function requestBody() {
  return { players: st.players.map((p) => (p.typed ? typedBody(p) : cardsBody(p))) };
}

/** A draft keeps both: the cards tapped so far and the points typed, and which one counts. */
function draftPlayers() {
  return st.players.map((p) => ({ ...cardsBody(p), typed: p.typed, held: p.held, melded: p.melded }));
}

function usedCounts() {
  const counts = new Map();
  for (const p of st.players) {
    for (const c of [...p.hand, ...p.melds.flat()]) counts.set(c, (counts.get(c) || 0) + 1);
  }
  return counts;
}

/** Cards in the other players' entries: a scan may not make a card impossible. */
function otherCounts(i) {
  const counts = new Map();
  st.players.forEach((p, j) => {
    if (j === i) return;
    for (const c of [...p.hand, ...p.melds.flat()]) counts.set(c, (counts.get(c) || 0) + 1);
  });
  return counts;
}

function hasInput() {
  return st.players.some(
    (p) => p.hand.length || p.melds.some((m) => m.length) || p.knocked || p.rummy || p.went_out
      || (p.typed && (p.held !== '' || p.melded !== '')),
  );
}

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage blocked: no drafts, nothing else changes
  }
}

/** Keep the half-entered hand on this phone after every change. */
function keepDraft() {
  if (hasInput()) saveDraft(storage(), st.draftKey, draftPlayers(), st.active, Date.now(), { base: st.base, key: st.key });
  else clearDraft(storage(), st.draftKey);
}

function changed() {
  st.dirty = true;
  st.error = null;
  st.restored = null;
  keepDraft();
  renderAll();
  schedulePreview();
}

/** Whether this phone keeps a half-entered new hand for the game's next hand. */
export function hasDraft(game) {
  const next = (game.hands || []).length + 1;
  const names = (game.players || []).filter((p) => !p.eliminated).map((p) => p.name);
  return loadDraft(storage(), draftKey(game.id, null, next), names) != null;
}

// ---- actions --------------------------------------------------------------------------

// A zone is 'hand', a meld's index, or `on<index>`: the table meld that meld was laid off on
// (Rummy 500: it decides whether a laid-off ace counts low).
const onZone = (i) => `on${i}`;
const onIndex = (zone) => (typeof zone === 'string' && zone.startsWith('on') ? Number(zone.slice(2)) : null);

function zoneList(p, zone) {
  if (zone === 'hand') return p.hand;
  const i = onIndex(zone);
  return i == null ? p.melds[zone] : p.melds[i]?.on;
}

function zoneCards(p) {
  return zoneList(p, st.zone);
}

function addCard(code) {
  const p = st.players[st.active];
  if (!zoneCards(p)) st.zone = 'hand';
  const list = zoneCards(p);
  if (onIndex(st.zone) != null) {
    // cards of a meld already on the table: counted where they were entered, if at all
    if (!list.includes(code) || code === JOKER) list.push(code);
    changed();
    return;
  }
  const { copies, jokers } = deckRules(st.variant, st.settings);
  const used = usedCounts().get(code) || 0;
  if (used >= (code === JOKER ? jokers : copies)) return;
  list.push(code);
  changed();
}

function removeCard(zone, code) {
  const p = st.players[st.active];
  const list = zoneList(p, zone) || [];
  const i = list.lastIndexOf(code);
  if (i >= 0) list.splice(i, 1);
  changed();
}

function toggle(key) {
  pressMark(st.variant, st.players, st.active, key);
  changed();
}

function selectPlayer(i) {
  st.active = (i + st.players.length) % st.players.length;
  st.zone = 'hand';
  renderAll();
  const tab = $(`[data-testid="entry-tab-${st.active}"]`, st.form);
  tab?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

// ---- preview and save ---------------------------------------------------------------

let previewSeq = 0;

async function runPreview() {
  if (!st) return;
  const mine = ++previewSeq;
  if (!hasInput()) {
    st.preview = null;
    st.previewError = null;
    renderPreview();
    return;
  }
  const missing = missingEnder(st.variant, st.players) || missingPoints(st.variant, st.players);
  if (missing) {
    st.preview = null;
    st.previewError = missing;
    st.previewLoading = false;
    renderPreview();
    return;
  }
  st.previewLoading = true;
  renderPreview();
  try {
    const result = await api.preview(st.game.id, requestBody());
    if (!st || mine !== previewSeq) return;
    st.preview = result;
    st.previewError = null;
  } catch (e) {
    if (!st || mine !== previewSeq) return;
    st.preview = null;
    st.previewError = playerWords(e.message, st.variant);
  }
  st.previewLoading = false;
  renderPreview();
}

const schedulePreview = debounce(runPreview, 300);

async function save() {
  if (st.saving) return;
  schedulePreview.cancel();
  const missing = missingEnder(st.variant, st.players) || missingPoints(st.variant, st.players);
  if (missing) {
    st.error = missing;
    renderError();
    return;
  }
  st.saving = true;
  st.error = null;
  renderFooter();
  renderError();
  try {
    const body = requestBody();
    // the version this hand was begun against: a 412 if another phone saved meanwhile
    const result = st.n == null
      ? await api.addHand(st.game.id, body, { seq: st.base, key: st.key })
      : await api.correctHand(st.game.id, st.n, body, { seq: st.base });
    const n = st.n;
    const done = st.onSaved;
    teachDeck(st.players);
    clearDraft(storage(), st.draftKey);
    st.saving = false;
    st.dirty = false;
    st.dialog.close('saved');
    done?.(result, n);
  } catch (e) {
    // Keep every card the user entered; say clearly what went wrong.
    st.saving = false;
    if (isConflict(e)) {
      await showConflict(e);
      return;
    }
    st.error = playerWords(e.message, st.variant);
    renderFooter();
    renderError();
    $('[data-testid="entry-error"]', st.form)?.scrollIntoView({ block: 'nearest' });
  }
}

/** The game moved on under this draft (another phone saved), or its key saved it already. */
function isConflict(e) {
  const code = e?.data?.code;
  return (e?.status === 412 && code === 'game_changed') || code === 'idempotency_key_reused';
}

/** Keep the draft, show the game as it is now and let the admin choose what it becomes. */
async function showConflict(e) {
  const mine = st;
  let latest = null;
  try {
    latest = await api.game(mine.game.id);
  } catch {
    latest = null;
  }
  if (st !== mine) return;
  st.conflict = { changes: e.data?.changes || [], latest, detail: e.message };
  renderAll();
  st.els.conflict?.scrollIntoView({ block: 'nearest' });
}

/** Go on with the draft against the game as it is now: as its next hand, or as hand `n`. */
function rebase(n) {
  const latest = st.conflict?.latest;
  if (!latest) return;
  const next = (latest.hands || []).length + 1;
  clearDraft(storage(), st.draftKey);
  st.game = latest;
  st.n = n;
  st.base = latest.seq;
  st.key = newRequestKey();
  st.draftKey = draftKey(latest.id, n, next);
  st.conflict = null;
  st.els.title.textContent = n == null ? t('entry.title', { n: next }) : t('entry.correct', { n });
  changed();
}

function renderConflict() {
  const el = st.els.conflict;
  const c = st.conflict;
  el.hidden = !c;
  if (!c) {
    fill(el);
    return;
  }
  const hands = c.latest?.hands || [];
  const last = hands[hands.length - 1];
  const scores = (last?.result?.players || []).map((p) => h('li', { class: 'conflict-score' },
    h('span', { class: 'conflict-name' }, p.name), h('strong', {}, signed(p.points))));
  fill(el,
    h('p', { class: 'conflict-title' }, t('conflict.title')),
    c.changes.length
      ? h('ul', { class: 'conflict-changes', testid: 'conflict-changes' }, c.changes.map((x) => h('li', {}, x)))
      : h('p', { class: 'small' }, c.detail),
    last ? h('p', { class: 'small muted' }, t('conflict.saved', { n: last.n })) : null,
    scores.length ? h('ul', { class: 'conflict-scores', testid: 'conflict-saved' }, scores) : null,
    h('p', { class: 'small' }, t('conflict.kept')),
    c.latest
      ? h('div', { class: 'conflict-actions' },
        h('button', { type: 'button', class: 'btn btn-secondary', testid: 'conflict-next', onclick: () => rebase(null) },
          t('conflict.next', { n: hands.length + 1 })),
        last ? h('button', { type: 'button', class: 'btn btn-secondary', testid: 'conflict-correct', onclick: () => rebase(last.n) },
          t('conflict.correct', { n: last.n })) : null)
      : h('p', { class: 'small' }, t('conflict.offline')));
}

/**
 * The saved hand's scans teach the game's deck. In the background: scoring never waits for
 * it, and a scan the server no longer holds is simply not learned from.
 */
function teachDeck(players) {
  for (const p of players) {
    if (!p.learn || p.typed) continue;
    const { id, cards, added } = p.learn;
    p.learn = null;
    api.confirmScan(id, cards, added).catch(() => {});
  }
}

async function close() {
  if (st.dirty && hasInput()) {
    const ok = await ask({
      title: st.n == null ? t('entry.discardHand') : t('entry.discardChanges'),
      text: t('entry.discardText'),
      okLabel: t('entry.discard'),
      danger: true,
    });
    if (!ok) return;
  }
  clearDraft(storage(), st.draftKey);
  st.dialog.close('cancel');
}

// ---- scanning ---------------------------------------------------------------------------

function entered(p) {
  return p.hand.length + p.melds.reduce((a, m) => a + m.length, 0);
}

/** Chicago: make player `i` the one who knocked (exactly one player ends the hand). */
function markKnocker(i) {
  st.players.forEach((q, j) => {
    q.knocked = j === i;
    q.rummy = false;
  });
}

/**
 * A confirmed scan replaces the player's cards (Rummy 500: melds and hand). After "Knock?"
 * the player is the knocker: their eighth card then counts as a knocker's.
 */
function takeScan(i, { hand, melds, learn = null }, { knocker = false } = {}) {
  const p = st.players[i];
  p.hand = [...hand];
  p.learn = learn; // sent once the hand is saved: the deck learns only from saved hands
  if (entersMelds(st.variant)) p.melds = melds.map((m) => [...m]);
  if (knocker) markKnocker(i);
  st.active = i;
  st.zone = 'hand';
  changed();
}

function reviewScan(i, result, file, { knocker = false } = {}) {
  const mine = st;
  const p = st.players[i];
  openReview({
    game: st.game,
    player: p.name,
    result,
    others: otherCounts(i),
    existing: entered(p),
    fromPhoto: !!file,
    onConfirm: (cards) => {
      if (st === mine) takeScan(i, cards, { knocker });
    },
    onRescan: () => {
      if (st !== mine) return;
      if (!file) {
        runScan(i);
        return;
      }
      if (st.active !== i) selectPlayer(i); // its photo input is in its panel
      $(`[data-testid="scan-file-${i}"]`, st.form)?.click();
    },
  });
}

async function runScan(i, file) {
  const mine = st;
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
  if (st !== mine || !mine.dialog.open) return;
  mine.scan = { busy: null, error: error ? { i, message: error.message, hint: scanHint(error) } : null };
  renderPlayer();
  if (result) reviewScan(i, result, file);
}

function knockCheck(i) {
  const mine = st;
  const p = st.players[i];
  const total = (st.game.players || []).find((x) => x.name === p.name)?.total;
  openKnock({
    game: st.game,
    player: p.name,
    total,
    onReview: (result, fromPhoto) => {
      if (st === mine) reviewScan(i, result, fromPhoto ? true : null, { knocker: true });
    },
  });
}

function scanBar(p) {
  const i = st.active;
  const busy = st.scan.busy;
  const here = busy?.i === i;
  const file = photoInput({ testid: `scan-file-${i}`, onFile: (f) => runScan(i, f) });
  const label = (kind, ico, text) => (here && busy.kind === kind
    ? [h('span', { class: 'spinner spinner-dark', 'aria-hidden': 'true' }), t('entry.reading')]
    : [icon(ico), text]);
  const err = st.scan.error?.i === i ? st.scan.error : null;
  return h('div', { class: 'scan-tools' },
    h('div', { class: 'scan-bar', role: 'group', 'aria-label': t('entry.scanGroup', { name: p.name }) },
      h('button', {
        type: 'button', class: 'btn btn-scan', testid: `scan-camera-${i}`, disabled: !!busy, 'aria-busy': here && busy.kind === 'camera' ? 'true' : 'false',
        onclick: () => runScan(i),
      }, label('camera', 'camera', t('entry.scan'))),
      h('button', {
        type: 'button', class: 'btn btn-scan', testid: `scan-photo-${i}`, disabled: !!busy, 'aria-busy': here && busy.kind === 'photo' ? 'true' : 'false',
        onclick: () => file.click(),
      }, label('photo', 'photo', t('entry.photo'))),
      h('button', {
        type: 'button', class: 'btn btn-scan btn-aim', testid: `scan-aim-${i}`, 'aria-label': t('entry.aimLabel'),
        onclick: () => openCamera({ player: p.name, onScan: () => runScan(i) }),
      }, icon('aim'), t('entry.aim')),
      file),
    VARIANTS[st.variant]?.knock
      ? h('button', { type: 'button', class: 'btn btn-knock', testid: `knock-check-${i}`, disabled: !!busy, onclick: () => knockCheck(i) },
        t('entry.knock'), h('span', { class: 'btn-knock-sub' }, t('entry.knockSub')))
      : null,
    err
      ? h('div', { class: 'scan-error', testid: 'scan-error', role: 'alert' },
        h('strong', {}, t('entry.scanFailed')), h('span', { testid: 'scan-error-text' }, err.message),
        h('div', { class: 'scan-error-hint' }, err.hint),
        h('button', { type: 'button', class: 'icon-btn icon-btn-sm scan-error-x', 'aria-label': t('btn.dismiss'), testid: 'scan-error-close', onclick: () => { st.scan.error = null; renderPlayer(); } }, '✕'))
      : null);
}

// ---- rendering -----------------------------------------------------------------------

function markers(p) {
  const out = [];
  if (p.knocked) out.push(h('span', { class: 'tag tag-knock' }, t('entry.tagKnock')));
  if (p.went_out) out.push(h('span', { class: 'tag tag-out' }, t('entry.tagOut')));
  if (p.rummy) out.push(h('span', { class: 'tag tag-rummy' }, t('entry.tagRummy')));
  return out;
}

/** Under a player's tab: how many cards, or that points were typed. */
function tabCount(p) {
  if (p.typed) return t('entry.asPoints');
  return t('entry.cards', { n: p.hand.length + p.melds.reduce((a, m) => a + m.length, 0) });
}

function renderTabs() {
  const labels = tabNames(st.players.map((p) => p.name));
  const tabs = st.players.map((p, i) => {
    return h(
      'button',
      {
        type: 'button',
        role: 'tab',
        class: `ptab${i === st.active ? ' active' : ''}`,
        'aria-selected': i === st.active ? 'true' : 'false',
        testid: `entry-tab-${i}`,
        'data-name': p.name,
        onclick: () => selectPlayer(i),
      },
      h('span', { class: 'ptab-name', title: p.name }, labels[i],
        labels[i] === p.name ? null : h('span', { class: 'sr-only' }, ` (${p.name})`)),
      h('span', { class: 'ptab-meta' }, tabCount(p), ...markers(p)),
    );
  });
  fill(st.els.tabs, ...tabs);
}

function zoneBox({ zone, title, hint, cards, removable, warn, extra, onRemove }) {
  const active = st.zone === zone;
  const tid = zone === 'hand' ? 'zone-hand' : `zone-meld-${zone}`;
  return h(
    'div',
    {
      class: `zone${active ? ' active' : ''}`,
      testid: tid,
      onclick: (ev) => {
        if (ev.target.closest('button')) return;
        st.zone = zone;
        renderAll();
      },
    },
    h(
      'div',
      { class: 'zone-head' },
      h('button', {
        type: 'button',
        class: 'zone-title',
        testid: `${tid}-select`,
        'aria-pressed': active ? 'true' : 'false',
        onclick: () => {
          st.zone = zone;
          renderAll();
        },
      }, title),
      h('span', { class: `zone-hint${warn ? ' warn' : ''}`, testid: 'zone-hint' }, hint),
      extra || null,
      removable
        ? h('button', {
          type: 'button',
          class: 'icon-btn icon-btn-sm',
          testid: `remove-meld-${zone}`,
          'aria-label': t('entry.remove', { what: title }),
          onclick: onRemove || (() => {
            const p = st.players[st.active];
            p.melds.splice(zone, 1);
            st.zone = 'hand';
            changed();
          }),
        }, '✕')
        : null,
    ),
    h(
      'div',
      { class: 'zone-cards' },
      cards.length
        ? sortCards(cards).map((c) => chip(c, { onclick: () => removeCard(zone, c) }))
        : h('span', { class: 'zone-empty' }, active ? t('entry.tapBelow') : t('entry.empty')),
    ),
  );
}

function endToggles(p) {
  return togglesOf(st.variant).map(([key, label]) => h(
    'button',
    {
      type: 'button',
      class: `toggle${p[key] ? ' on' : ''}`,
      'aria-pressed': p[key] ? 'true' : 'false',
      testid: `toggle-${key}`,
      onclick: () => toggle(key),
    },
    h('span', { class: 'toggle-box', 'aria-hidden': 'true' }, p[key] ? '✓' : ''),
    t(label),
  ));
}

/** Rummy 500: one meld in front of the player, with where it was laid off, if it was. */
function meldZones(m, i) {
  const zones = [zoneBox({
    zone: i,
    title: t('entry.meld', { n: i + 1 }),
    hint: t('entry.meldHint'),
    cards: m,
    removable: true,
    extra: m.on ? null : h('button', {
      type: 'button',
      class: 'btn btn-small',
      testid: `layoff-${i}`,
      title: t('entry.layoffTitle'),
      onclick: () => {
        m.on = [];
        st.zone = onZone(i);
        renderAll();
      },
    }, t('entry.layoff')),
  })];
  if (m.on) {
    zones.push(zoneBox({
      zone: onZone(i),
      title: t('entry.layoffOn', { n: i + 1 }),
      hint: t('entry.layoffHint'),
      cards: m.on,
      removable: true,
      onRemove: () => {
        delete m.on;
        st.zone = i;
        changed();
      },
    }));
  }
  return zones;
}

function meldsAndHandZones(p) {
  return [
    zoneBox({ zone: 'hand', title: t('entry.leftInHand'), hint: t('entry.countsMinus'), cards: p.hand }),
    ...p.melds.flatMap((m, i) => meldZones(m, i)),
    h('button', {
      type: 'button',
      class: 'btn btn-ghost btn-block add-meld',
      testid: 'add-meld',
      onclick: () => {
        p.melds.push([]);
        st.zone = p.melds.length - 1;
        renderAll();
      },
    }, t('entry.addMeld')),
  ];
}

/** The cards in the hand, with how many are expected where every player shows a set
 * number (Chicago's 7, 8 for the one who ends the hand). */
function handZone(p) {
  const size = VARIANTS[st.variant]?.handSize || {};
  const n = p.hand.length;
  const ends = handEnd(st.variant).marks.some((flag) => p[flag]);
  let hint = t('entry.cardsLeft');
  const want = ends && size.ender ? t('entry.or', { a: size.cards, b: size.ender }) : size.cards;
  if (size.cards) hint = t('entry.ofCards', { n, want });
  else if (p.went_out) hint = t('entry.wentOutNoCards');
  const warn = !!size.cards && n > 0 && !(n === size.cards || (n === size.ender && ends));
  return zoneBox({ zone: 'hand', title: t('entry.cardsTitle'), hint, cards: p.hand, warn });
}

/** Cards (tapped or scanned) or points typed: the player's choice, kept per player. */
function modeSwitch(p) {
  const option = (typed, label) => h('button', {
    type: 'button',
    class: `seg${p.typed === typed ? ' active' : ''}`,
    'aria-pressed': p.typed === typed ? 'true' : 'false',
    testid: typed ? 'mode-points' : 'mode-cards',
    onclick: () => {
      if (p.typed === typed) return;
      p.typed = typed;
      changed();
      if (typed) $('[data-testid="points-input"]', st.form)?.focus();
    },
  }, t(label));
  return h('div', { class: 'segmented', role: 'group', 'aria-label': t('entry.modeGroup', { name: p.name }) },
    option(false, 'entry.modeCards'), option(true, 'entry.modePoints'));
}

/** Points typed instead of cards: a number field per field the variant scores. */
function pointsZone(p) {
  if (p.went_out && !entersMelds(st.variant)) {
    return h('p', { class: 'zone-empty', testid: 'points-none' }, t('entry.wentOutNoPoints'));
  }
  return h('div', { class: 'points-fields', testid: 'points-zone' },
    typedFields(st.variant).map(([key, label]) => {
      const id = `points-${key}-${st.active}`;
      return h('div', { class: 'points-field' },
        h('label', { for: id }, t(label)),
        h('input', {
          id,
          type: 'number',
          inputmode: 'numeric',
          min: '0',
          step: '1',
          class: 'input points-input',
          testid: key === 'held' ? 'points-input' : `points-${key}`,
          value: p[key],
          oninput: (ev) => {
            p[key] = ev.target.value;
            st.dirty = true;
            st.error = null;
            keepDraft();
            renderTabs();
            schedulePreview();
          },
        }));
    }));
}

function renderPlayer() {
  const p = st.players[st.active];
  const toggles = endToggles(p);
  let zones = [pointsZone(p)];
  if (!p.typed) zones = entersMelds(st.variant) ? meldsAndHandZones(p) : [handZone(p)];
  fill(st.els.player,
    h('div', { class: 'entry-player-head' },
      h('h3', { testid: 'entry-player-name' }, p.name),
      toggles.length ? h('div', { class: 'toggles' }, toggles) : null),
    modeSwitch(p),
    p.typed ? null : scanBar(p),
    ...zones,
  );
  st.els.picker.hidden = p.typed;
}

function renderPicker() {
  const p = st.players[st.active];
  const { copies, jokers } = deckRules(st.variant, st.settings);
  const counts = usedCounts();
  const mineIn = zoneCards(p) || [];
  fill(st.els.picker, ...pickerGrid({
    suit: st.suit,
    jokers,
    onSuit: (suit) => {
      st.suit = suit;
      renderPicker();
    },
    onPick: addCard,
    state: (code) => {
      const used = counts.get(code) || 0;
      const limit = code === JOKER ? jokers : copies;
      let badge = null;
      if (used) badge = code === JOKER || copies > 1 ? `${used}/${limit}` : '✓';
      return {
        disabled: used >= limit && onIndex(st.zone) == null,
        picked: code !== JOKER && mineIn.includes(code),
        badge,
      };
    },
  }));
}

function resultRowFor(result, name) {
  return (result?.players || []).find((r) => r.name === name);
}

function previewRow(r, p, i, editing) {
  const row = resultRowFor(r, p.name) || {};
  const detail = [];
  if (Array.isArray(row.melds) && row.melds.length) {
    detail.push(h('span', { class: 'pv-melds' },
      row.melds.map((m) => chipRow(Array.isArray(m) ? m : m?.cards || []))));
  }
  if (Array.isArray(row.unmelded) && row.unmelded.length && scoresDeadwood(st.variant)) {
    detail.push(h('span', { class: 'pv-dead' }, t('entry.left'), chipRow(row.unmelded)));
  }
  return h(
    'tr',
    { testid: `preview-row-${i}`, class: row.eliminated ? 'out' : '' },
    h('td', { class: 'pv-name' }, h('div', {}, p.name, row.eliminated ? h('span', { class: 'tag tag-elim' }, t('entry.out')) : null),
      detail.length ? h('div', { class: 'pv-detail' }, detail) : null),
    scoresDeadwood(st.variant) ? h('td', { class: 'num' }, num(row.deadwood)) : null,
    h('td', { class: 'num pv-points', testid: `preview-points-${i}` }, signed(row.points)),
    editing ? null : h('td', { class: 'num pv-total', testid: `preview-total-${i}` }, num(row.total)),
  );
}

/** Chicago: whether the knock was legal, the penalty, and a knocker's eighth card. */
function previewKnock(r) {
  const k = r.knock;
  const legal = k.legal !== false;
  const dropped = resultRowFor(r, k.player)?.dropped;
  return h('p', { class: `knock ${legal ? 'legal' : 'illegal'}`, testid: 'preview-knock' },
    h('strong', {}, legal ? t('knock.legal') : t('knock.over')),
    t('knock.line', { player: k.player, deadwood: num(k.deadwood), limit: num(k.limit) }),
    k.penalty ? t('knock.penalty', { n: k.penalty }) : '',
    dropped ? t('knock.eighth', { card: dropped }) : '');
}

function renderPreview() {
  const box = st.els.preview;
  const r = st.preview;
  const head = h('div', { class: 'preview-head' },
    h('strong', {}, t('entry.preview')),
    st.previewLoading ? h('span', { class: 'spinner spinner-dark', 'aria-hidden': 'true' }) : null);
  if (st.previewError) {
    fill(box, head, h('p', { class: 'preview-note', testid: 'preview-error' }, st.previewError));
    return;
  }
  if (!r) {
    fill(box, head, h('p', { class: 'preview-note muted' }, t('entry.previewHint')));
    return;
  }
  const editing = st.n != null;
  const parts = [head, r.knock ? previewKnock(r) : null];
  parts.push(h('table', { class: 'pv-table' },
    h('thead', {}, h('tr', {},
      h('th', {}, t('entry.player')),
      scoresDeadwood(st.variant) ? h('th', { class: 'num' }, t('entry.dead')) : null,
      h('th', { class: 'num' }, t('entry.points')),
      editing ? null : h('th', { class: 'num' }, t('entry.total')))),
    h('tbody', {}, st.players.map((p, i) => previewRow(r, p, i, editing)))));
  if (Array.isArray(r.tie_at_top) && r.tie_at_top.length && !editing) {
    parts.push(h('p', { class: 'preview-note' }, t('entry.tie', { names: r.tie_at_top.join(', ') })));
  }
  if (r.game_over && !editing) {
    parts.push(h('p', { class: 'pv-over', testid: 'preview-game-over' },
      r.winner ? t(r.instant_win ? 'entry.winsInstant' : 'entry.wins', { name: r.winner }) : t('entry.draw')));
  }
  fill(box, ...parts);
}

function renderError() {
  const el = st.els.error;
  el.hidden = !st.error;
  el.textContent = st.error || '';
}

function renderFooter() {
  const save = st.els.save;
  save.disabled = st.saving;
  save.textContent = st.saving ? t('entry.saving') : st.n == null ? t('entry.save') : t('entry.saveN', { n: st.n });
}

function startOver() {
  clearDraft(storage(), st.draftKey);
  const fresh = st.players.map((p) => blankPlayer(p.name));
  st.players = fresh;
  st.active = 0;
  st.zone = 'hand';
  st.restored = null;
  st.dirty = false;
  st.preview = null;
  renderAll();
  renderPreview();
}

function renderNotice() {
  const el = st.els.notice;
  el.hidden = st.restored == null;
  if (st.restored == null) {
    fill(el);
    return;
  }
  fill(el,
    h('span', { class: 'draft-text' }, t('entry.restored', { ago: agoText(st.restored) })),
    st.n == null
      ? h('button', { type: 'button', class: 'btn btn-small btn-ghost', testid: 'draft-discard', onclick: startOver }, t('entry.startOver'))
      : null);
}

function renderAll() {
  renderConflict();
  renderNotice();
  renderTabs();
  renderPlayer();
  renderPicker();
  renderFooter();
  renderError();
}

/** Fold the card keys away (to see what was entered and the preview), or back. */
function foldKeys() {
  const folded = st.els.bottom.classList.toggle('folded');
  st.els.fold.setAttribute('aria-expanded', folded ? 'false' : 'true');
  st.els.fold.setAttribute('aria-label', t(folded ? 'entry.unfoldKeys' : 'entry.foldKeys'));
  st.els.fold.textContent = folded ? '▴' : '▾';
}

/** The entry sheet's parts: tabs, the active player, notice, error, preview, picker, save. */
function buildForm(form, game, n) {
  const title = n == null ? t('entry.title', { n: (game.hands || []).length + 1 }) : t('entry.correct', { n });
  const els = st.els;
  els.tabs = h('div', { class: 'ptabs', role: 'tablist', testid: 'entry-tabs' });
  els.player = h('section', { class: 'entry-player', testid: 'entry-player' });
  els.preview = h('section', { class: 'preview', testid: 'preview', 'aria-live': 'polite' });
  els.error = h('p', { class: 'error error-box', testid: 'entry-error', role: 'alert', hidden: true });
  els.notice = h('div', { class: 'draft-notice', testid: 'draft-notice', role: 'status', hidden: true });
  els.conflict = h('div', { class: 'conflict-box', testid: 'entry-conflict', role: 'alert', hidden: true });
  els.title = h('h2', { testid: 'entry-title' }, title);
  els.picker = h('div', { class: 'picker', testid: 'card-picker' });
  els.save = h('button', { type: 'button', class: 'btn btn-primary btn-grow', testid: 'entry-save', onclick: save }, t('entry.save'));
  els.fold = h('button', {
    type: 'button', class: 'btn btn-secondary btn-square', testid: 'entry-fold',
    'aria-expanded': 'true', 'aria-label': t('entry.foldKeys'), onclick: () => foldKeys(),
  }, '▾');

  fill(form,
    h('header', { class: 'sheet-head' },
      h('button', { type: 'button', class: 'icon-btn', testid: 'entry-close', 'aria-label': t('btn.close'), onclick: close }, '✕'),
      h('div', { class: 'sheet-title' },
        els.title,
        h('div', { class: 'muted small' }, variantLabel(game.variant)))),
    els.tabs,
    h('div', { class: 'entry-scroll' }, els.conflict, els.notice, els.player, els.error, els.preview),
    els.bottom = h('div', { class: 'entry-bottom' },
      els.picker,
      h('div', { class: 'entry-actions' },
        els.fold,
        h('button', { type: 'button', class: 'btn btn-secondary btn-square', testid: 'entry-prev', 'aria-label': t('entry.prev'), onclick: () => selectPlayer(st.active - 1) }, '‹'),
        h('button', { type: 'button', class: 'btn btn-secondary btn-square', testid: 'entry-next', 'aria-label': t('entry.next'), onclick: () => selectPlayer(st.active + 1) }, '›'),
        els.save)),
  );
}

/** The players as the form starts: the stored input for a correction, else blank. */
function startingPlayers(game, n) {
  if (n == null) {
    return (game.players || []).filter((p) => !p.eliminated).map((p) => blankPlayer(p.name));
  }
  const hand = (game.hands || []).find((x) => x.n === n);
  const input = hand?.players || hand?.input?.players || [];
  return input.length
    ? input.map(fromInput)
    : (hand?.result?.players || []).map((r) => blankPlayer(r.name));
}

/** The draft this phone kept for this hand, if any, laid over the starting players. */
function withDraft(game, n, players) {
  const next = (game.hands || []).length + 1;
  const key = draftKey(game.id, n, next);
  if (n == null) pruneDrafts(storage(), game.id, next);
  const draft = loadDraft(storage(), key, players.map((p) => p.name));
  if (!draft) return { key, draft: null, players };
  const kept = new Map(draft.players.map((p) => [p.name, fromInput(p)]));
  return { key, draft, players: players.map((p) => kept.get(p.name) || p) };
}

/**
 * Open the entry form. `n` = hand number to correct (null for a new hand).
 * `onSaved(result, n)` runs after a successful save.
 */
export function openEntry({ game, n = null, onSaved }) {
  const dialog = $('#entry');
  const form = $('#entry-form');
  const { key, draft, players } = withDraft(game, n, startingPlayers(game, n));
  st = {
    game,
    variant: game.variant,
    settings: game.settings || {},
    n,
    players,
    active: draft ? draft.active : 0,
    zone: 'hand',
    suit: 'S',
    preview: null,
    previewError: null,
    previewLoading: false,
    error: null,
    saving: false,
    dirty: !!draft,
    scan: { busy: null, error: null },
    draftKey: key,
    // the version the hand is begun against (If-Match) and its key (Idempotency-Key): a
    // restored draft keeps both, so a reload after another phone saved still conflicts
    base: draft?.base ?? game.seq ?? null,
    key: draft?.key || newRequestKey(),
    conflict: null,
    restored: draft ? draft.saved : null,
    onSaved,
    dialog,
    form,
    els: {},
  };

  buildForm(form, game, n);

  if (!dialog.dataset.wiredEntry) {
    dialog.dataset.wiredEntry = '1';
    // Esc: ask before throwing input away.
    dialog.addEventListener('cancel', (ev) => {
      ev.preventDefault();
      if (st) close();
    });
    dialog.addEventListener('close', () => {
      schedulePreview.cancel();
      previewSeq++;
    });
  }
  renderAll();
  renderPreview();
  openDialog(dialog);
  if (n != null || draft) runPreview();
}
