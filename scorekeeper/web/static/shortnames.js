// Short column heads for the hands table when the players' whole names do not fit across a
// phone: the shortest start of each first name that tells the players apart. Pure (no DOM):
// unit-tested with Node's test runner.

const MAX_SHORT = 4;

/** Letters, not UTF-16 units: an accented or astral first letter is one. */
function letters(text) {
  return [...String(text).normalize('NFC')];
}

/**
 * One short label per name, in order: the first name's first letter, grown until no other
 * player's label is the same (up to 4 letters), then the other words' initials added
 * ("Ann M", "Ann R" for Ann Marie and Ann Rose). Two players whose names start alike all
 * the way keep a seat number, so no two heads ever read the same.
 */
export function shortNames(names) {
  const words = names.map((name) => String(name).trim().split(/\s+/).filter(Boolean));
  const label = (w, k) => {
    const first = letters(w[0] ?? '').slice(0, k).join('');
    return k > MAX_SHORT ? `${letters(w[0] ?? '').slice(0, MAX_SHORT).join('')} ${w.slice(1).map((x) => letters(x)[0]).join('')}`.trim() : first;
  };
  const k = names.map(() => 1);
  for (let round = 0; round <= MAX_SHORT; round++) {
    const out = words.map((w, i) => label(w, k[i]));
    const clash = out.map((x, i) => out.some((y, j) => j !== i && y.toLowerCase() === x.toLowerCase()));
    if (!clash.some(Boolean)) return out;
    clash.forEach((c, i) => { if (c) k[i] += 1; });
  }
  const out = words.map((w, i) => label(w, k[i]));
  return out.map((x, i) => (out.some((y, j) => j !== i && y.toLowerCase() === x.toLowerCase()) ? `${x} ${i + 1}` : x));
}

const TAB_NAME = 12;  // letters a hand-entry tab shows of a name before it shows less

/**
 * The hand-entry tabs' labels: the whole names while all are short; else each player's
 * first name where it is short and no other player's, the short head where not. The
 * player's whole name heads the form under the tabs, and is each tab's accessible name.
 */
export function tabNames(names) {
  const whole = names.map((n) => String(n).trim());
  if (whole.every((n) => letters(n).length <= TAB_NAME)) return whole;
  const short = shortNames(names);
  const firsts = whole.map((n) => n.split(/\s+/)[0] ?? '');
  const count = (f) => firsts.filter((x) => x.toLowerCase() === f.toLowerCase()).length;
  const out = firsts.map((f, i) => (letters(f).length <= TAB_NAME && count(f) === 1 ? f : short[i]));
  const unique = new Set(out.map((x) => x.toLowerCase())).size === out.length;
  return unique ? out : short;
}
