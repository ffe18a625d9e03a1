// Scorekeeper page: the start, and what keeps it up to date (the event stream, the list's
// poll, the table camera's state). Each part of the page has its own module.
import { absorbLocation, api } from './api.js';
import { hasDraft } from './entry.js';
import { canAskKnock, showEmpty } from './game-view.js';
import {
  checkRole, followNewest, loadGames, newestGameId, openGame, page, refreshGame, setUrlGame,
} from './games.js';
import { startHand, undoLast } from './hand-actions.js';
import { pickLanguage, savedLanguage, setLanguage, t, translateStatic } from './i18n.js';
import { openMayKnock } from './mayknock.js';
import { openMenu } from './menu.js';
import { openNewGame } from './newgame.js';
import { copyShare, openShare } from './share.js';
import { savedTheme, setTheme } from './theme.js';
import { $ } from './util.js';
import { setVariants } from './variants.js';

function wire() {
  $('#menu-btn').addEventListener('click', openMenu);
  $('#games-btn').addEventListener('click', openMenu);
  $('#share-btn').addEventListener('click', () => openShare());
  $('#mayknock-btn').addEventListener('click', () => {
    if (canAskKnock(page.game)) openMayKnock(page.game);
  });
  $('#share-copy').addEventListener('click', copyShare);
  $('#undo-btn').addEventListener('click', undoLast);
  $('#primary-btn').addEventListener('click', () => {
    if ($('#primary-btn').dataset.action === 'hand') startHand();
    else openNewGame();
  });
  $('#toast').addEventListener('click', () => {
    $('#toast').hidden = true;
  });
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) {
      refreshGame();
      followNewest();
    }
  });
  schedulePoll();
  watchCamera();
}

/** Every phone learns when the table's camera is lost (and when it is back). */
async function watchCamera() {
  if (!document.hidden) {
    try {
      const s = await api.camera();
      $('#camera-lost').hidden = s?.state !== 'lost';
    } catch {
      /* the reconnecting banner already says the server is out of reach */
    }
  }
  setTimeout(watchCamera, CAMERA_POLL_MS);
}

const CAMERA_POLL_MS = 10000;

/**
 * Phones follow the newest game. A game's own changes come through its event stream; a
 * new game is found by asking for the list: often while there is nothing to watch or the
 * game is over (a new one is likely), rarely during play.
 */
function schedulePoll() {
  const idle = !page.game || page.game.game_over;
  setTimeout(async () => {
    if (!document.hidden && !page.pinned) await followNewest();
    schedulePoll();
  }, idle ? 3000 : 15000);
}

/** The variants' rules from the server: the page keeps no copy of them. */
async function loadVariants() {
  for (;;) {
    try {
      setVariants(await api.variants());
      return;
    } catch (e) {
      showEmpty(t('load.rules', { error: e.message }));
      await new Promise((resolve) => { setTimeout(resolve, 2000); });
    }
  }
}

/** The page's words: the saved language, else the phone's. */
function startLanguage() {
  setLanguage(pickLanguage(savedLanguage(), navigator.languages || [navigator.language]));
  translateStatic(document);
}

async function init() {
  startLanguage();
  setTheme(savedTheme());
  const wanted = absorbLocation();
  wire();
  await loadVariants();
  await checkRole();
  await loadGames();
  if (wanted != null) {
    page.pinned = true;
    setUrlGame(wanted);
    await openGame(wanted);
  } else if (newestGameId() != null) {
    await openGame(newestGameId());
  } else {
    showEmpty();
  }
  // A hand this phone was entering when the page went away: back to it, cards and all.
  const g = page.game;
  if (page.admin && g && !g.game_over && hasDraft(g)) startHand();
  document.body.classList.add('ready');
}

init();
