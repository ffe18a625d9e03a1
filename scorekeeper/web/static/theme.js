// Light or dark: the phone's choice unless the menu's switch overrides it (kept per phone).
import { keep, kept } from './kept.js';

const KEY = 'scorekeeper.theme';
export const THEMES = ['auto', 'light', 'dark'];

export function savedTheme() {
  const theme = kept(KEY);
  return THEMES.includes(theme) ? theme : 'auto';
}

const DARK = '(prefers-color-scheme: dark)';

/** The palette `theme` shows: 'auto' is the phone's own choice. */
export function shownTheme(theme, prefersDark) {
  if (theme === 'light' || theme === 'dark') return theme;
  return prefersDark ? 'dark' : 'light';
}

function apply(theme) {
  const dark = typeof matchMedia === 'function' && matchMedia(DARK).matches;
  document.documentElement.dataset.theme = shownTheme(theme, dark);
}

let following = false;

/** Apply `theme` and keep it; under 'auto' the page follows the phone as it changes. */
export function setTheme(theme) {
  apply(theme);
  if (!following && typeof matchMedia === 'function') {
    following = true;
    matchMedia(DARK).addEventListener('change', () => apply(savedTheme()));
  }
  keep(KEY, theme === 'auto' ? '' : theme);
}
