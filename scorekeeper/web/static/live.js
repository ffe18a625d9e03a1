// Live updates: the game's event stream, and the banner while it is down.
import { api } from './api.js';
import { renderAll } from './game-view.js';
import { applyGame, checkRole, followNewest, openTableGame, page, refreshGame } from './games.js';
import { handArrived } from './nudge.js';
import { streamState } from './offline.js';
import { tableMoved } from './tablegame.js';

export const liveStream = {
  es: null,
  connected: true, // until the event stream says otherwise
  reconnectTimer: null,
};

function setConnected(ok) {
  liveStream.connected = ok;
  streamState(ok); // the Reconnecting banner, unless the Offline one says more
}

export function connect(id) {
  clearTimeout(liveStream.reconnectTimer);
  if (liveStream.es) liveStream.es.close();
  const es = new EventSource(api.eventsUrl(id));
  liveStream.es = es;
  const onData = (ev) => {
    if (liveStream.es !== es) return;
    setConnected(true);
    let g;
    try {
      g = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (g && String(g.id ?? id) === String(page.gameId)) {
      const before = page.game;
      applyGame(g, { stream: true });
      handArrived(before, page.game); // another phone's hand: a buzz or chime, if wanted
    }
  };
  es.onmessage = onData;
  es.addEventListener('game', onData);
  es.addEventListener('table', (ev) => {
    if (liveStream.es !== es) return;
    let game = null;
    try {
      game = JSON.parse(ev.data).game;
    } catch {
      return;
    }
    tableMoved(game, { admin: page.admin, current: page.gameId, open: openTableGame });
  });
  es.onopen = () => {
    if (liveStream.es !== es) return;
    const wasDown = !liveStream.connected;
    setConnected(true);
    if (wasDown) {
      if (!page.roleKnown) checkRole().then(renderAll);
      refreshGame();
      followNewest();
    }
  };
  es.onerror = () => {
    if (liveStream.es !== es) return;
    setConnected(false);
    if (es.readyState === EventSource.CLOSED) {
      // The browser gave up (e.g. an HTTP error); keep trying ourselves.
      liveStream.reconnectTimer = setTimeout(() => {
        if (liveStream.es === es) connect(id);
      }, 2000);
    }
  };
}
