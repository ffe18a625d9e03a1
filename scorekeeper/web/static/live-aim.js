// The live count under an aiming view (the table camera's Aim panel, the phone's
// viewfinder): asks about once a second, says "5 of 7 read · 2 unsure", and takes the shot
// by itself, once, when the hand is whole and every card sure.
import { t } from './i18n.js';
import { countLine, liveState, readyToTake } from './livecount.js';
import { h } from './util.js';

const EVERY_MS = 1000; // the server reads a camera at most once a second anyway

/** Start counting: `ask()` resolves to a count answer (or null: nothing to ask yet);
 * `onReady()` takes the shot. Returns {el, hint, stop}. */
export function liveCount({ ask, target, onReady }) {
  const el = h('p', { class: 'live-count', testid: 'live-count', role: 'status', 'data-state': 'checking' },
    t('live.checking'));
  const hint = h('p', { class: 'live-hint muted small', testid: 'live-hint' },
    t(target.whole ? 'live.hint' : 'live.hintTap'));
  const loop = { el, hint, stopped: false, before: null, timer: null };
  const show = (state, text) => {
    el.dataset.state = state;
    el.textContent = text;
  };
  const tick = async () => {
    if (loop.stopped) return;
    if (!document.hidden) {
      try {
        const answer = await ask();
        if (loop.stopped) return;
        if (answer) {
          const now = liveState(answer, target);
          el.dataset.count = String(now.n);
          show(now.sure ? 'sure' : now.whole ? 'whole' : 'short', countLine(now, target));
          if (readyToTake(loop.before, now)) {
            loop.stop();
            show('taking', t('live.taking'));
            onReady();
            return;
          }
          loop.before = now;
        }
      } catch (e) {
        if (loop.stopped) return;
        loop.before = null;
        show('error', t('live.failed', { error: e?.message || '?' }));
      }
    }
    if (!loop.stopped) loop.timer = setTimeout(tick, EVERY_MS);
  };
  loop.stop = () => {
    loop.stopped = true;
    clearTimeout(loop.timer);
  };
  tick();
  return loop;
}
