// The scoreboard: each player's total and what is left, and the game-over box.
import { playerColor } from './chart.js';
import { applyGame, page } from './games.js';
import { renamePlayer } from './hand-actions.js';
import { t } from './i18n.js';
import { openNewGame } from './newgame.js';
import { openShare } from './share.js';
import { dealerMark, overWords, reopenButton } from './tablegame.js';
import { $, fill, h, num, signed } from './util.js';
import { VARIANTS } from './variants.js';

function leaders(g) {
  if (Array.isArray(g.leader)) return g.leader;
  if (g.leader && typeof g.leader === 'object') return [g.leader.name];
  return g.leader ? [g.leader] : [];
}

function lastPoints(g, name) {
  const last = (g.hands || [])[g.hands.length - 1];
  const row = last?.result?.players?.find((r) => r.name === name);
  return row ? row.points : null;
}

function playerSub(g, p) {
  const bits = [];
  if (p.eliminated) return [h('span', { class: 'tag tag-elim' }, t('board.out'))];
  const knocks = !!VARIANTS[g.variant]?.knock;
  if (knocks && p.knock_limit != null) {
    bits.push(h('span', { class: 'sub-item', testid: 'knock-limit' },
      p.knock_limit > 0 ? t('board.knockLimit', { n: num(p.knock_limit) }) : t('board.noKnock')));
  }
  if (!knocks && p.to_target != null) {
    bits.push(h('span', { class: 'sub-item', testid: 'to-target' },
      p.to_target > 0 ? t('board.needs', { n: num(p.to_target) }) : t('board.targetReached')));
  }
  if (p.hands_left != null) {
    const left = p.hands_left;
    bits.push(h('span', { class: 'sub-item', testid: 'hands-left' }, t('board.handsLeft', { n: left })));
  }
  return bits;
}

export function renderScoreboard(g) {
  const lead = leaders(g);
  const over = !!g.game_over;
  const rows = (g.players || []).map((p, i) => {
    const isLeader = !p.eliminated && (over ? g.winner === p.name : lead.includes(p.name));
    const lp = lastPoints(g, p.name);
    return h(
      'li',
      {
        class: `prow${isLeader ? ' leader' : ''}${p.eliminated ? ' out' : ''}`,
        testid: `player-row-${i}`,
        'data-name': p.name,
        'data-leader': isLeader ? 'true' : 'false',
        'data-eliminated': p.eliminated ? 'true' : 'false',
      },
      h('span', { class: 'pdot', style: `background:${playerColor(i)}`, 'aria-hidden': 'true' }),
      h('div', { class: 'pmain' },
        h('div', { class: 'pname' },
          h('span', { class: 'whole-name', title: p.name, testid: `player-name-${i}` }, p.name),
          isLeader ? h('span', { class: 'crown', title: over ? t('board.winner') : t('board.leader'), 'aria-label': over ? t('board.winner') : t('board.leader') }, over ? '♛' : '★') : null),
        h('div', { class: 'psub' }, dealerMark(g, p.name, { admin: page.admin, shown: applyGame }), playerSub(g, p))),
      h('div', { class: 'pscore' },
        h('div', { class: 'ptotal', testid: `player-total-${i}` }, num(p.total)),
        lp != null ? h('div', { class: `plast ${lp > 0 ? 'pos' : lp < 0 ? 'neg' : ''}` }, signed(lp)) : null),
      page.admin
        ? h('button', {
          type: 'button',
          class: 'icon-btn icon-btn-sm rename-btn',
          testid: `rename-${i}`,
          'aria-label': t('board.rename', { name: p.name }),
          onclick: () => renamePlayer(p.name),
        }, '✎')
        : null,
    );
  });
  fill($('#scoreboard'), ...rows);
  const n = (g.hands || []).length;
  $('#hand-count').textContent = n === 0 ? t('board.noHands') : t('board.handCount', { n });
  $('#scoreboard').classList.toggle('low-good', !!VARIANTS[g.variant]?.lowIsGood);
}

export function renderGameOver(g) {
  const box = $('#gameover');
  if (!g.game_over) {
    box.hidden = true;
    fill(box);
    return;
  }
  box.hidden = false;
  const winner = g.winner;
  const row = (g.players || []).find((p) => p.name === winner);
  const words = overWords(g);
  fill(box,
    h('div', { class: 'go-label', testid: 'gameover-label' }, words.label),
    h('div', { class: 'go-winner', testid: 'winner' }, words.line),
    row ? h('div', { class: 'go-detail' }, t('over.detail', { total: num(row.total), n: (g.hands || []).length })) : null,
    h('div', { class: 'go-actions' },
      h('button', { type: 'button', class: 'btn btn-light', testid: 'gameover-share', onclick: () => openShare({ sheet: true }) }, t('sheet.shareFinal')),
      page.admin ? reopenButton(g, applyGame) : null,
      page.admin
        ? h('button', { type: 'button', class: 'btn btn-light', testid: 'gameover-new-game', onclick: () => openNewGame() }, t('over.again'))
        : null),
  );
}
