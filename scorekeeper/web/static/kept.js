// What a phone keeps between visits (its token, language, theme, player). Private browsing
// may refuse storage: then a setting lasts as long as the page.

/** The kept value of `key`, or '' when there is none or storage is refused. */
export function kept(key) {
  try {
    return localStorage.getItem(key) || '';
  } catch {
    return '';
  }
}

/** Keep `value` under `key`; '' forgets it. */
export function keep(key, value) {
  try {
    if (value) localStorage.setItem(key, value);
    else localStorage.removeItem(key);
  } catch {
    /* this page view only */
  }
}
