// Light or dark: the phone's choice unless the menu's switch overrides it (kept per phone).
const KEY = 'scorekeeper.theme';
export const THEMES = ['auto', 'light', 'dark'];

export function savedTheme() {
  try {
    const t = localStorage.getItem(KEY);
    return THEMES.includes(t) ? t : 'auto';
  } catch {
    return 'auto';
  }
}

/** Apply `theme` ('auto' follows prefers-color-scheme through the stylesheet) and keep it. */
export function setTheme(theme) {
  const root = document.documentElement;
  if (theme === 'light' || theme === 'dark') root.dataset.theme = theme;
  else delete root.dataset.theme;
  try {
    if (theme === 'auto') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, theme);
  } catch {
    /* not kept: this page view only */
  }
}
