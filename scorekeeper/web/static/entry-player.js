// The entry form's player panel: the tabs, the zones of cards (or the points typed), the
// end-of-hand toggles, and the card keys.
import { JOKER, chip, chipRow, deckRules, pickerGrid, sortCards } from './cards.js';
import {
  addCard, onIndex, onZone, removeCard, selectPlayer, toggle, zoneCards,
} from './entry-actions.js';
import { usedCounts } from './entry-players.js';
import { schedulePreview } from './entry-preview.js';
import { scanBar } from './entry-scan.js';
import { changed, handEntry, keepDraft, renderAll } from './entry.js';
import { t } from './i18n.js';
import { layoffTargets } from './layoff.js';
import { tabNames } from './shortnames.js';
import { $, fill, h } from './util.js';
import {
  VARIANTS, entersMelds, handEnd, endToggles as togglesOf, typedFields,
} from './variants.js';

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

export function renderTabs() {
  const labels = tabNames(handEntry.players.map((p) => p.name));
  const tabs = handEntry.players.map((p, i) => {
    return h(
      'button',
      {
        type: 'button',
        role: 'tab',
        class: `ptab${i === handEntry.active ? ' active' : ''}`,
        'aria-selected': i === handEntry.active ? 'true' : 'false',
        testid: `entry-tab-${i}`,
        'data-name': p.name,
        onclick: () => selectPlayer(i),
      },
      h('span', { class: 'ptab-name whole-name', title: p.name }, labels[i],
        labels[i] === p.name ? null : h('span', { class: 'sr-only' }, ` (${p.name})`)),
      h('span', { class: 'ptab-meta' }, tabCount(p), ...markers(p)),
    );
  });
  fill(handEntry.els.tabs, ...tabs);
}

function zoneBox({ zone, title, hint, cards, removable, warn, extra, onRemove, below }) {
  const active = handEntry.zone === zone;
  const tid = zone === 'hand' ? 'zone-hand' : `zone-meld-${zone}`;
  return h(
    'div',
    {
      class: `zone${active ? ' active' : ''}`,
      testid: tid,
      onclick: (ev) => {
        if (ev.target.closest('button')) return;
        handEntry.zone = zone;
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
          handEntry.zone = zone;
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
            const p = handEntry.players[handEntry.active];
            p.melds.splice(zone, 1);
            handEntry.zone = 'hand';
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
    below || null,
  );
}

/** The melds to tap for "laid off on": one tap names the meld (its cards, as entered). */
function layoffChoices(m, i) {
  const targets = layoffTargets(handEntry.players, handEntry.active, i);
  return h('div', { class: 'layoff-pick', testid: `layoff-pick-${i}` },
    h('p', { class: 'small muted' }, targets.length ? t('entry.layoffPick') : t('entry.layoffNone')),
    targets.map(([j, k, cards]) => h('button', {
      type: 'button',
      class: 'layoff-target',
      testid: `layoff-target-${j}-${k}`,
      onclick: () => {
        m.on = [...cards];
        handEntry.zone = i;
        changed();
      },
    }, h('span', { class: 'layoff-owner' }, t('entry.layoffMeldOf', { name: handEntry.players[j].name, n: k + 1 })),
    chipRow(cards))));
}

function endToggles(p) {
  return togglesOf(handEntry.variant).map(([key, label]) => h(
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
        handEntry.zone = onZone(i);
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
      below: m.on.length ? null : layoffChoices(m, i),
      onRemove: () => {
        delete m.on;
        handEntry.zone = i;
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
        handEntry.zone = p.melds.length - 1;
        renderAll();
      },
    }, t('entry.addMeld')),
  ];
}

/** The cards in the hand, with how many are expected where every player shows a set
 * number (Chicago's 7, 8 for the one who ends the hand). */
function handZone(p) {
  const size = VARIANTS[handEntry.variant]?.handSize || {};
  const n = p.hand.length;
  const ends = handEnd(handEntry.variant).marks.some((flag) => p[flag]);
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
      if (typed) $('[data-testid="points-input"]', handEntry.form)?.focus();
    },
  }, t(label));
  return h('div', { class: 'segmented', role: 'group', 'aria-label': t('entry.modeGroup', { name: p.name }) },
    option(false, 'entry.modeCards'), option(true, 'entry.modePoints'));
}

const hasCards = (q) => q.hand.length > 0 || q.melds.some((m) => m.length > 0);

/** The keyboard's Enter (its "Next" key) goes to the next player's field; from the last, the
 * keyboard closes. Never the form's submit: a hand is saved by its button only. */
function nextField(ev) {
  if (ev.key !== 'Enter') return;
  ev.preventDefault();
  const fields = [...handEntry.form.querySelectorAll('.points-input')];
  const next = fields[fields.indexOf(ev.target) + 1];
  if (next) next.focus();
  else ev.target.blur();
}

/** One of player `j`'s point fields. Typing into another player's row enters that player as
 * points too (emptied again, with no cards tapped, back to cards). */
function pointsInput(q, j, key, label, last) {
  const mine = j === handEntry.active;
  const tid = key === 'held' ? 'points-input' : `points-${key}`;
  return h('input', {
    id: `points-${key}-${j}`,
    type: 'number',
    inputmode: 'numeric',
    enterkeyhint: last ? 'done' : 'next',
    min: '0',
    step: '1',
    class: 'input points-input',
    'aria-label': `${q.name}: ${t(label)}`,
    testid: mine ? tid : `${tid}-${j}`,
    value: q[key],
    onkeydown: nextField,
    oninput: (ev) => {
      q[key] = ev.target.value;
      if (!mine) {
        const typedAny = typedFields(handEntry.variant).some(([k]) => String(q[k]).trim() !== '');
        if (typedAny) q.typed = true;
        else if (!hasCards(q)) q.typed = false;
      }
      handEntry.dirty = true;
      handEntry.error = null;
      keepDraft();
      renderTabs();
      schedulePreview();
    },
  });
}

/** Points typed instead of cards, for the whole table in one place: a row per player with a
 * field per number the variant scores, so a table that keeps score on paper types the hand
 * in one go. A player whose cards are tapped keeps them (the row says how many). */
function pointsZone() {
  const fields = typedFields(handEntry.variant);
  const rows = handEntry.players.map((q, j) => ({ q, j, open: !(q.went_out && !entersMelds(handEntry.variant)) && (q.typed || !hasCards(q)) }));
  const lastOpen = rows.filter((r) => r.open).at(-1)?.j;
  return h('div', { class: 'points-table', testid: 'points-zone' },
    h('p', { class: 'small muted points-head' },
      fields.length === 1 ? h('strong', {}, `${t(fields[0][1])}. `) : null, t('entry.pointsNext')),
    rows.map(({ q, j, open }) => {
      const mine = j === handEntry.active;
      let body;
      if (q.went_out && !entersMelds(handEntry.variant)) {
        body = h('span', { class: 'zone-empty', testid: mine ? 'points-none' : `points-none-${j}` }, t('entry.wentOutNoPoints'));
      } else if (!open) {
        body = h('span', { class: 'muted small' }, tabCount(q));
      } else {
        body = h('div', { class: 'points-fields' }, fields.map(([key, label], k) => h('label', { class: 'points-field' },
          fields.length > 1 ? h('span', { class: 'small' }, t(label)) : null,
          pointsInput(q, j, key, label, j === lastOpen && k === fields.length - 1))));
      }
      return h('div', { class: `points-row${mine ? ' active' : ''}`, testid: `points-row-${j}` },
        h('span', { class: 'points-name whole-name', title: q.name }, q.name), body);
    }));
}

export function renderPlayer() {
  const p = handEntry.players[handEntry.active];
  const toggles = endToggles(p);
  let zones = [pointsZone()];
  if (!p.typed) zones = entersMelds(handEntry.variant) ? meldsAndHandZones(p) : [handZone(p)];
  fill(handEntry.els.player,
    h('div', { class: 'entry-player-head' },
      h('h3', { class: 'whole-name', title: p.name, testid: 'entry-player-name' }, p.name),
      toggles.length ? h('div', { class: 'toggles' }, toggles) : null),
    modeSwitch(p),
    p.typed ? null : scanBar(p),
    ...zones,
  );
  handEntry.els.picker.hidden = p.typed;
}

export function renderPicker() {
  const p = handEntry.players[handEntry.active];
  const { copies, jokers } = deckRules(handEntry.variant, handEntry.settings);
  const counts = usedCounts();
  const mineIn = zoneCards(p) || [];
  fill(handEntry.els.picker, ...pickerGrid({
    suit: handEntry.suit,
    jokers,
    onSuit: (suit) => {
      handEntry.suit = suit;
      renderPicker();
    },
    onPick: addCard,
    state: (code) => {
      const used = counts.get(code) || 0;
      const limit = code === JOKER ? jokers : copies;
      let badge = null;
      if (used) badge = code === JOKER || copies > 1 ? `${used}/${limit}` : '✓';
      return {
        disabled: used >= limit && onIndex(handEntry.zone) == null,
        picked: code !== JOKER && mineIn.includes(code),
        badge,
      };
    },
  }));
}
