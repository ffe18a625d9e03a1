// Scorekeeper page: the start, and what keeps it up to date (the event stream, the list's
// poll, the table camera's state). Each part of the page has its own module.
import { absorbLocation, api } from './api.js';
import { hasDraft } from './entry.js';
import { canAskKnock, renderAll, showEmpty } from './game-view.js';
import {
  applyGame, checkRole, followNewest, loadGames, newestGameId, openGame, page, refreshGame,
  setUrlGame, showRole,
} from './games.js';
import { startHand, undoLast } from './hand-actions.js';
import { pickLanguage, savedLanguage, setLanguage, t, translateStatic } from './i18n.js';
import { connect } from './live.js';
import { openMayKnock } from './mayknock.js';
import { openMenu } from './menu.js';
import { openNewGame } from './newgame.js';
import { readySound } from './nudge.js';
import {
  goOffline, keepRules, keptScoreboard, net, reached, startWorker, watchNetwork,
} from './offline.js';
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

/**
 * The variants' rules from the server. Until it answers, the phone's kept scoreboard (and
 * the rules it was drawn by) is shown, if it has one for this page, under the Offline banner.
 */
async function loadVariants(wanted) {
  for (;;) {
    try {
      const variants = await api.variants();
      setVariants(variants);
      keepRules(variants);
      return;
    } catch (e) {
      if (!net.kept && !showKept(wanted)) showEmpty(t('load.rules', { error: e.message }));
      await new Promise((resolve) => { setTimeout(resolve, 2000); });
    }
  }
}

/** The last scoreboard this phone saw, shown while the server is out of reach. */
function showKept(wanted) {
  const kept = keptScoreboard(wanted);
  if (!kept) return false;
  setVariants(kept.variants);
  page.admin = kept.admin;
  showRole();
  page.gameId = kept.game.id;
  net.kept = true;
  applyGame(kept.game, { force: true });
  goOffline();
  document.body.classList.add('ready');
  // the hand this phone was entering: back to it, to go on with while the network is out
  if (page.admin && !kept.game.game_over && hasDraft(kept.game)) startHand();
  return true;
}

/** The network is back: the live stream again (one may have died unseen), the game and list. */
async function catchUp() {
  if (!started) return; // the start itself is still waiting for the server
  if (page.gameId != null) connect(page.gameId);
  if (!page.roleKnown) checkRole().then(renderAll);
  await refreshGame();
  if (await loadGames()) reached();
  if (!page.pinned) followNewest();
}

let started = false;

/** The page's words: the saved language, else the phone's. */
function startLanguage() {
  setLanguage(pickLanguage(savedLanguage(), navigator.languages || [navigator.language]));
  translateStatic(document);
}

async function init() {
  startLanguage();
  setTheme(savedTheme());
  startWorker();
  const wanted = absorbLocation();
  wire();
  watchNetwork(catchUp);
  readySound();
  await loadVariants(wanted);
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
  if (page.admin && g && !g.game_over && hasDraft(g) && !$('#entry').open) startHand();
  started = true;
  if (net.kept) reached(); // the kept scoreboard has caught up
  document.body.classList.add('ready');
}

init();
