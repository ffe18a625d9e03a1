// The games menu: the games, the admin's tools, the theme and the language.
import { openCamera } from './camera-panel.js';
import { openDecks } from './decks.js';
import { canAskKnock } from './game-view.js';
import { afterEnd, loadGames, newestGameId, openGame, openTableGame, page } from './games.js';
import { LANGUAGES, pickLanguage, saveLanguage, savedLanguage, t } from './i18n.js';
import { icon } from './icons.js';
import { openMayKnock } from './mayknock.js';
import { openNewGame } from './newgame.js';
import { nudgeSwitch } from './nudge.js';
import { openSettings } from './settings.js';
import { openStats } from './stats.js';
import { endGame, followSwitch, stateTag } from './tablegame.js';
import { THEMES, savedTheme, setTheme } from './theme.js';
import { openTvLink } from './tv-link.js';
import { $, closeDialog, fill, h, num, openDialog, timeAgo } from './util.js';
import { variantLabel } from './variants.js';

export async function openMenu() {
  const dlg = $('#menu');
  const body = $('#menu-body');
  const render = () => {
    const items = page.games.map((g) => {
      const current = String(g.id) === String(page.gameId);
      const totals = (g.players || []).map((p) => `${p.name} ${num(p.total)}`).join(' · ');
      return h('li', {},
        h('button', {
          type: 'button',
          class: `game-item${current ? ' current' : ''}`,
          testid: `game-item-${g.id}`,
          onclick: async () => {
            dlg.close();
            await openGame(g.id, { pin: String(g.id) !== String(newestGameId()) });
          },
        },
        h('div', { class: 'gi-top' },
          h('strong', {}, variantLabel(g.variant)),
          stateTag(g)),
        h('div', { class: 'gi-players whole-name', title: totals }, totals),
        h('div', { class: 'muted small' }, timeAgo(g.created_at))));
    });
    fill(body,
      h('header', { class: 'sheet-head' },
        h('button', { type: 'button', class: 'icon-btn', 'data-close': true, 'aria-label': t('btn.close'), testid: 'menu-close' }, '✕'),
        h('div', { class: 'sheet-title' }, h('h2', {}, t('menu.title')))),
      h('div', { class: 'sheet-scroll', tabindex: '0' },
        page.admin ? h('button', { type: 'button', class: 'btn btn-primary btn-block', testid: 'menu-new-game', onclick: () => openNewGame() }, t('btn.newGame')) : null,
        page.game ? h('button', { type: 'button', class: 'btn btn-secondary btn-block', testid: 'menu-settings', onclick: openSettings }, page.admin ? t('menu.rulesAdmin') : t('menu.rules')) : null,
        page.admin && canAskKnock(page.game) ? h('button', { type: 'button', class: 'btn btn-secondary btn-block', testid: 'menu-mayknock', onclick: () => { closeDialog(dlg); openMayKnock(page.game); } }, t('menu.mayKnock')) : null,
        page.admin ? h('button', { type: 'button', class: 'btn btn-secondary btn-block', testid: 'menu-camera', onclick: () => { closeDialog(dlg); openCamera(); } }, icon('camera'), t('menu.camera')) : null,
        page.admin ? h('button', { type: 'button', class: 'btn btn-secondary btn-block', testid: 'menu-decks', onclick: () => { closeDialog(dlg); openDecks(); } }, t('menu.decks')) : null,
        page.admin && page.game && page.game.state !== 'deleted' ? h('button', { type: 'button', class: 'btn btn-danger-ghost btn-block', testid: 'menu-end-game', onclick: () => { closeDialog(dlg); endGame(page.game, { after: afterEnd, back: (view) => openTableGame(view.id) }); } }, t('end.menu')) : null,
        h('button', { type: 'button', class: 'btn btn-secondary btn-block', testid: 'menu-stats', onclick: () => { closeDialog(dlg); openStats(); } }, t('menu.stats')),
        h('button', { type: 'button', class: 'btn btn-secondary btn-block', testid: 'menu-tv', onclick: () => { closeDialog(dlg); openTvLink(); } }, t('menu.tv')),
        page.admin ? null : followSwitch(),
        nudgeSwitch(),
        themeSwitch(),
        languageSwitch(),
        items.length ? h('ul', { class: 'game-list', testid: 'game-list' }, items) : h('p', { class: 'muted center' }, t('menu.none')),
        h('p', { class: 'muted small center role-note' }, page.admin
          ? t('role.adminNote')
          : t('role.viewerNote'))),
    );
  };
  render();
  openDialog(dlg);
  if (await loadGames()) render();
}

/** The theme switch in the menu: Auto (the phone's choice), Light or Dark. */
function themeSwitch() {
  const current = savedTheme();
  const group = h('div', { class: 'segmented', role: 'group', 'aria-label': t('menu.theme') },
    THEMES.map((theme) => h('button', {
      type: 'button',
      class: `seg${theme === current ? ' active' : ''}`,
      testid: `theme-${theme}`,
      'aria-pressed': theme === current ? 'true' : 'false',
      onclick: () => {
        setTheme(theme);
        group.replaceWith(themeSwitch());
      },
    }, t(`theme.${theme}`))));
  return h('div', { class: 'menu-row' }, h('span', { class: 'field-label' }, t('menu.theme')), group);
}

/** The language switch in the menu: the phone's languages pick one unless this says. */
function languageSwitch() {
  const saved = savedLanguage();
  const control = h('select', {
    id: 'lang-select',
    class: 'input input-inline',
    testid: 'language',
    onchange: () => {
      saveLanguage(control.value);
      location.reload(); // every screen is drawn again in the new words
    },
  },
  h('option', { value: '', selected: !saved }, t('menu.languageAuto', { language: LANGUAGES[pickLanguage('', navigator.languages || [])] })),
  Object.entries(LANGUAGES).map(([code, name]) => h('option', { value: code, selected: saved === code, lang: code }, name)));
  return h('label', { class: 'menu-row', for: 'lang-select' }, h('span', { class: 'field-label' }, t('menu.language')), control);
}
