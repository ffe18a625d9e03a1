// The rules sheet under a game's rules: how a hand is played and scored, the cards, how the
// game ends, and the game's last hand worked out card by card (before any: an example
// hand). All of it is the server's (GET /api/games/{id}/rules); rulesheet-text.js words it.
import { api } from './api.js';
import { t } from './i18n.js';
import {
  droppedText, endingText, exampleTitle, lineText, meldsText, partText, playerText, sumText,
  valuesText,
} from './rulesheet-text.js';
import { fill, h } from './util.js';

function sectionEl(section, values) {
  const lines = section.lines.map((line) => h('li', {}, lineText(line)));
  if (section.key === 'cards') lines.unshift(h('li', { testid: 'rulesheet-values' }, valuesText(values)));
  return [h('h3', { class: 'rulesheet-head' }, t(`rulesheet.section.${section.key}`)), h('ul', { class: 'rulesheet-list' }, lines)];
}

function playerEl(player) {
  const notes = [meldsText(player), droppedText(player), ...player.parts.map(partText), sumText(player)]
    .filter(Boolean);
  const who = playerText(player);
  return h('li', { class: 'rulesheet-player', testid: 'rulesheet-player' },
    h('strong', { class: 'whole-name', title: who }, who),
    h('ul', { class: 'rulesheet-parts' }, notes.map((text) => h('li', {}, text))));
}

function exampleEl(example) {
  const ending = endingText(example);
  return [
    h('h3', { class: 'rulesheet-head', testid: 'rulesheet-example-title' }, exampleTitle(example)),
    example.n == null ? h('p', { class: 'muted small' }, t('rulesheet.exampleNote')) : null,
    ending ? h('p', {}, ending) : null,
    h('ul', { class: 'rulesheet-players' }, example.players.map(playerEl)),
  ];
}

/** The sheet of game `id`: drawn into a section that says it is loading until it is. */
export function rulesSheetEl(id) {
  const el = h('section', { class: 'rulesheet', testid: 'rulesheet', 'aria-busy': 'true' },
    h('p', { class: 'muted' }, t('app.loading')));
  api.rulesSheet(id).then((sheet) => {
    fill(el, sheet.sections.map((s) => sectionEl(s, sheet.card_values)), exampleEl(sheet.example));
    el.dataset.ready = '1';
  }, (e) => {
    fill(el, h('p', { class: 'error', role: 'alert', testid: 'rulesheet-error' }, e.message));
  }).finally(() => el.removeAttribute('aria-busy'));
  return el;
}
