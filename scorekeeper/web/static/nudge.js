// A soft buzz and chime when a hand arrives from another phone, for players who put the
// phone down between hands. Off unless this phone's menu turns it on (kept per phone); the
// chime is made here with WebAudio, so there is no sound file to fetch.
import { t } from './i18n.js';
import { keep, kept } from './kept.js';
import { h } from './util.js';

const KEY = 'scorekeeper.nudge';
const BUZZ_MS = 60;
const own = new Set(); // `game:n` of the hands this phone is saving
let audio = null;

export function nudgeOn() {
  return kept(KEY) === 'on';
}

/**
 * This phone is saving hand `n` of game `gameId`: its arrival by the stream is no news.
 * Returns what to call when the save fails, so another phone's hand `n` is news again.
 */
export function savingHand(gameId, n) {
  const key = `${gameId}:${n}`;
  own.add(key);
  return () => own.delete(key);
}

/** The numbers of the hands in `after` that `before`, the same game, did not have. */
export function newHands(before, after) {
  if (!before || !after || String(before.id) !== String(after.id) || after.state === 'deleted') return [];
  const last = Math.max(0, ...(before.hands || []).map((x) => x.n));
  return (after.hands || []).map((x) => x.n).filter((n) => n > last);
}

/** A view came by the stream: a buzz and a chime for a new hand this phone did not save. */
export function handArrived(before, after) {
  const theirs = newHands(before, after).filter((n) => !own.has(`${after?.id}:${n}`));
  // a hand of this phone's, once in the game, is forgotten: a later hand of that number is news
  for (const x of after?.hands || []) own.delete(`${after.id}:${x.n}`);
  if (theirs.length && nudgeOn()) nudge();
}

function nudge() {
  if (typeof navigator.vibrate === 'function') navigator.vibrate(BUZZ_MS);
  chime();
}

/** Two soft notes, rising, a third of a second in all. */
function chime() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    audio = audio || new Context();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    const start = audio.currentTime;
    [[660, 0], [880, 0.12]].forEach(([pitch, at]) => {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = 'sine';
      tone.frequency.value = pitch;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.08, start + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.22);
      tone.connect(gain).connect(audio.destination);
      tone.start(start + at);
      tone.stop(start + at + 0.25);
    });
  } catch {
    /* no sound on this phone: the buzz (if any) says it */
  }
}

/** Sound needs a tap on the page first: the first tap after a load readies it. */
export function readySound() {
  document.addEventListener('pointerdown', () => {
    if (nudgeOn() && !audio) {
      const Context = window.AudioContext || window.webkitAudioContext;
      try {
        audio = Context ? new Context() : null;
      } catch {
        audio = null;
      }
    }
  }, { once: true, capture: true });
}

/** The menu's switch; turning it on plays the signal once, so the player knows it. */
export function nudgeSwitch() {
  const show = (btn) => {
    btn.setAttribute('aria-checked', nudgeOn() ? 'true' : 'false');
    btn.textContent = nudgeOn() ? t('nudge.on') : t('nudge.off');
  };
  const btn = h('button', {
    type: 'button', role: 'switch', class: 'btn btn-small', testid: 'nudge-switch', 'aria-labelledby': 'nudge-label',
    onclick: () => {
      keep(KEY, nudgeOn() ? '' : 'on');
      show(btn);
      if (nudgeOn()) nudge();
    },
  });
  show(btn);
  return h('div', { class: 'menu-row follow-row' }, h('span', { class: 'field-label', id: 'nudge-label' }, t('nudge.menu')), btn);
}
