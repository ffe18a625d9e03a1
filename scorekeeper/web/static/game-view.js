// The game on screen: every part drawn again, the title and the action buttons; or the
// page without a game.
import { renderChart } from './chart.js';
import { page } from './games.js';
import { handInfo, renderHandInfo } from './hand-info.js';
import { renderHistory } from './history.js';
import { t } from './i18n.js';
import { openNewGame } from './newgame.js';
import { renderGameOver, renderScoreboard } from './scoreboard.js';
import { $, fill, h } from './util.js';
import { VARIANTS, variantLabel } from './variants.js';

export function showEmpty(message) {
  page.game = null;
  for (const id of ['#scoreboard-panel', '#chart-panel', '#history-panel', '#gameover']) {
    $(id).hidden = true;
  }
  const box = $('#empty');
  box.hidden = false;
  $('#game-title').textContent = t('app.noGame');
  const parts = [h('div', { class: 'empty-suits', 'aria-hidden': 'true' }, '♠ ♥ ♣ ♦')];
  if (message) {
    parts.push(h('p', { class: 'error' }, message));
  } else if (page.admin) {
    parts.push(h('h2', {}, t('empty.noGames')), h('p', { class: 'muted' }, t('empty.start')),
      h('button', { type: 'button', class: 'btn btn-primary btn-block', testid: 'empty-new-game', onclick: () => openNewGame() }, t('btn.newGame')));
  } else {
    parts.push(h('h2', {}, t('empty.waiting')), h('p', { class: 'muted' }, t('empty.waitingText')));
  }
  fill(box, ...parts);
  renderActions();
}

/** A knocking variant, still in play: every phone may ask "may I knock?" before knocking. */
export function canAskKnock(g) {
  return !!g && !!VARIANTS[g.variant]?.knock && !g.game_over;
}

function renderActions() {
  const g = page.game;
  $('#mayknock-btn').hidden = !canAskKnock(g);
  const primary = $('#primary-btn');
  primary.hidden = !page.admin;
  if (!g || g.game_over) {
    primary.textContent = t('btn.newGame');
    primary.dataset.action = 'new';
  } else {
    primary.textContent = t('btn.hand', { n: (g.hands || []).length + 1 });
    primary.dataset.action = 'hand';
  }
}

function renderTitle(g) {
  $('#game-title').textContent = variantLabel(g.variant);
  const deck = $('#game-deck');
  deck.hidden = !g.deck;
  deck.textContent = g.deck ? t('game.deck', { name: g.deck }) : '';
  document.title = t('app.title', { variant: variantLabel(g.variant) });
}

export function renderAll() {
  const g = page.game;
  renderActions();
  if (!g) return;
  $('#empty').hidden = true;
  $('#scoreboard-panel').hidden = false;
  $('#chart-panel').hidden = false;
  $('#history-panel').hidden = false;
  renderTitle(g);
  renderGameOver(g);
  renderScoreboard(g);
  fill($('#chart'), renderChart(g));
  renderHistory(g);
  if (handInfo.n != null && $('#handinfo').open) renderHandInfo();
  document.body.dataset.seq = g.seq ?? '';
  document.body.dataset.hands = String((g.hands || []).length);
}
