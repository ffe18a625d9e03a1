// What a tap in the entry form does: a card added or removed in a zone, an end-of-hand
// toggle, another player chosen.
import { JOKER, deckRules } from './cards.js';
import { usedCounts } from './entry-players.js';
import { changed, handEntry, renderAll } from './entry.js';
import { $ } from './util.js';
import { pressMark } from './variants.js';

// A zone is 'hand', a meld's index, or `on<index>`: the table meld that meld was laid off on
// (Rummy 500: it decides whether a laid-off ace counts low).
export const onZone = (i) => `on${i}`;
export const onIndex = (zone) => (typeof zone === 'string' && zone.startsWith('on') ? Number(zone.slice(2)) : null);

function zoneList(p, zone) {
  if (zone === 'hand') return p.hand;
  const i = onIndex(zone);
  return i == null ? p.melds[zone] : p.melds[i]?.on;
}

export function zoneCards(p) {
  return zoneList(p, handEntry.zone);
}

export function addCard(code) {
  const p = handEntry.players[handEntry.active];
  if (!zoneCards(p)) handEntry.zone = 'hand';
  const list = zoneCards(p);
  if (onIndex(handEntry.zone) != null) {
    // cards of a meld already on the table: counted where they were entered, if at all
    if (!list.includes(code) || code === JOKER) list.push(code);
    changed();
    return;
  }
  const { copies, jokers } = deckRules(handEntry.variant, handEntry.settings);
  const used = usedCounts().get(code) || 0;
  if (used >= (code === JOKER ? jokers : copies)) return;
  list.push(code);
  changed();
}

export function removeCard(zone, code) {
  const p = handEntry.players[handEntry.active];
  const list = zoneList(p, zone) || [];
  const i = list.lastIndexOf(code);
  if (i >= 0) list.splice(i, 1);
  changed();
}

export function toggle(key) {
  pressMark(handEntry.variant, handEntry.players, handEntry.active, key);
  changed();
}

export function selectPlayer(i) {
  handEntry.active = (i + handEntry.players.length) % handEntry.players.length;
  handEntry.zone = 'hand';
  renderAll();
  const tab = $(`[data-testid="entry-tab-${handEntry.active}"]`, handEntry.form);
  tab?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}
