// The reflow check tests/reflow.py runs in the page: evaluated as one function of the
// phone's width in CSS px, it returns what is wrong on the screen now.
// Every rectangle is a text node's own line boxes (a Range), not its element's box, so a
// wide button with short text is not an overlap, and a word outside its box is caught.
// Only the top layer counts: with a dialog open, what it covers is not measured, and text
// under a fixed or sticky bar (it overlays the page as it scrolls, by design) is not an
// overlap.
(W) => {
  // W: the phone's width. Not innerWidth: a phone zooms out to show a page wider than
  // itself, and innerWidth grows with it.
  const problems = [];
  const say = (kind, el, extra) => problems.push(`${kind} ${describe(el)}${extra ? ' ' + extra : ''}`);
  const describe = (el) => {
    const id = el.closest('[data-testid]');
    const text = (el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 24);
    return `${id ? id.dataset.testid : el.tagName.toLowerCase()}:"${text}"`;
  };
  const dialogs = [...document.querySelectorAll('dialog[open]')];
  const root = dialogs.length ? dialogs[dialogs.length - 1] : document.body;
  const shown = (el) => {
    for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
      const css = getComputedStyle(e);
      if (css.display === 'none' || css.visibility === 'hidden' || Number(css.opacity) === 0) return false;
    }
    return el.getClientRects().length > 0;
  };
  // The boxes made to scroll sideways (the hands table, the players' tabs): what is past
  // their edge is reached by a swipe. Any other box that scrolls sideways (a dialog pushed
  // wide by a long word) hides what is past its edge: that is off the screen.
  const SIDEWAYS = '.table-fit, .ptabs';
  const scroller = (el) => {
    const box = el.parentElement?.closest(SIDEWAYS);
    return box && box.scrollWidth > box.clientWidth + 1 ? box : null;
  };
  const fixedIn = (el) => {  // fixed or sticky: drawn over the page as it scrolls
    for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
      if (/fixed|sticky/.test(getComputedStyle(e).position)) return e;
    }
    return null;
  };
  // What of a rectangle shows: an ancestor that hides or scrolls its overflow shows only
  // its own box (text scrolled out of a sheet's list is not under the sheet's footer).
  const visible = (el, r) => {
    let box = { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    for (let e = el.parentElement; e && e !== document.documentElement; e = e.parentElement) {
      const css = getComputedStyle(e);
      if (css.overflowX === 'visible' && css.overflowY === 'visible') continue;
      const c = e.getBoundingClientRect();
      box = { left: Math.max(box.left, c.left), right: Math.min(box.right, c.right),
        top: Math.max(box.top, c.top), bottom: Math.min(box.bottom, c.bottom) };
      if (box.right <= box.left || box.bottom <= box.top) return null;
    }
    return box;
  };
  // A word split between two lines ("Con/ceiç/ão", "MELD/S"): each word of each text,
  // measured by its own line boxes. A break after a hyphen or slash is the word's own; a
  // web address is not a word and breaks where it must.
  const ADDRESS = /^([a-z][a-z0-9+.-]*:\/\/|localhost\b|\[?[0-9a-f:.]*\d[.:]\d)/i;  // http://…, 127.0.0.1:8000
  const WORD = /[^\s\-\u2010-\u2014/]+[\-\u2010-\u2014/]?/g;
  const broken = (node) => {
    const text = node.textContent;
    for (const token of text.matchAll(/\S+/g)) {
      if (ADDRESS.test(token[0])) continue;
      for (const part of token[0].matchAll(WORD)) {
        if (part[0].length < 2) continue;
        const range = document.createRange();
        range.setStart(node, token.index + part.index);
        range.setEnd(node, token.index + part.index + part[0].length);
        const lines = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
        if (lines.some((r) => Math.abs(r.top - lines[0].top) > r.height / 2)) return part[0];
      }
    }
    return null;
  };
  // Wider than the screen: an element's own box past either edge (a table's last column, a
  // dialog pushed wide), unless it sits in a box made to scroll sideways. The innermost
  // such element is named: its ancestors are wide because of it.
  const outside = (e) => { const r = e.getBoundingClientRect();
    return r.width > 0.5 && r.height > 0.5 && (r.right > W + 1 || r.left < -1); };
  for (const el of [root, ...root.querySelectorAll('*')]) {
    if (el.closest('svg, .sr-only, .scan-photo-wrap') || !outside(el) || !shown(el) || scroller(el)) continue;
    if ([...el.children].some((c) => outside(c) && shown(c))) continue;
    const r = el.getBoundingClientRect();
    say('wider than the screen', el, `(${Math.round(r.left)}–${Math.round(r.right)} of ${W})`);
  }
  // A sheet is its head, its own scrolling middle and its foot: a sheet that scrolls as a
  // whole (something hidden far down its middle widening what it holds) slides them away.
  if (root.matches('dialog.sheet') && root.scrollHeight > root.clientHeight + 1) {
    say('the sheet scrolls as a whole', root, `(${root.scrollHeight} px in ${root.clientHeight})`);
  }
  // A dialog opened scrolled: its heading above what shows of it (Share scrolled to its
  // buttons, its QR code out of sight). Measured as the dialog opens, before any swipe.
  if (dialogs.length) {
    const heading = root.querySelector('h1, h2, h3, [role=heading]');
    if (heading && shown(heading)) {
      const top = heading.getBoundingClientRect().top;
      const seen = visible(heading, heading.getBoundingClientRect());
      if (top < -1 || !seen || seen.top > top + 1) say('opens scrolled, its heading out of sight', heading, `(top at ${Math.round(top)} px)`);
    }
  }
  if (document.scrollingElement.scrollWidth > W + 1) {
    const wide = [...document.body.querySelectorAll('*')]
      .filter((e) => e.getBoundingClientRect().right > W + 1 && !scroller(e) && shown(e)
        && ![...e.children].some((c) => c.getBoundingClientRect().right > W + 1));
    problems.push(`page scrolls sideways: ${document.scrollingElement.scrollWidth} px > ${W}`
      + ` (${wide.slice(0, 3).map(describe).join(', ')})`);
  }
  const ownLabel = (el) => {
    const full = (el.textContent || '').trim();
    const by = el.closest('[title], [aria-label]');
    return !!full && !!by && `${by.title} ${by.getAttribute('aria-label') || ''}`.includes(full);
  };
  const told = new Set();  // the elements that end a word in "…", the whole in their title
  // Cut short: an element whose own overflow hides what it holds, or that ends in "…".
  for (const el of root.querySelectorAll('*')) {
    // (a typing field scrolls its text by design)
    if (!shown(el) || el.closest('.scan-photo-wrap, svg, .sr-only') || el.matches('input, textarea, select')) continue;
    const css = getComputedStyle(el);
    const hidesX = /hidden|clip/.test(css.overflowX), hidesY = /hidden|clip/.test(css.overflowY);
    const ellipsis = css.textOverflow === 'ellipsis';
    if (!hidesX && !hidesY && !ellipsis) continue;
    // a word too long for any line (a name of one 40-letter word) may end in "…" when the
    // whole of it is the element's title or label: a screen reader reads the text itself
    const named = ellipsis && ownLabel(el);
    if (named) told.add(el);
    if ((el.scrollWidth > el.clientWidth + 1 && !named) || (hidesY && el.scrollHeight > el.clientHeight + 1)) {
      say('cut short', el, `(${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight})`);
    }
  }
  // Each text node's line boxes.
  const texts = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || !shown(el) || el.closest('.scan-photo-wrap')) continue;
    if (el.closest('.sr-only')) continue;  // for screen readers: drawn 1 × 1 on purpose
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].map((r) => visible(el, r))
      .filter((r) => r && r.right - r.left > 0.5 && r.bottom - r.top > 0.5);
    const box = scroller(el);
    if (box) {
      const limit = box.getBoundingClientRect();
      if (limit.left < -1 || limit.right > W + 1) say('off screen', box);
    } else {
      // the whole line box, not what shows of it: a word past a dialog's edge is off too
      // (but a word ended in "…" shows only up to its box: what is past it is not drawn)
      const teller = [...told].find((t) => t.contains(el));
      const whole = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5)
        .map((r) => { const c = teller?.getBoundingClientRect();
          return c ? { left: Math.max(r.left, c.left), right: Math.min(r.right, c.right) } : r; });
      const out = whole.find((r) => r.right > W + 1 || r.left < -1);
      if (out) say('off screen', el, `(${Math.round(out.left)}–${Math.round(out.right)} of ${W})`);
    }
    // a button's words inside the button: past its edge they sit on another control
    const button = el.closest('button, [role=button], .btn');
    if (button) {
      const b = button.getBoundingClientRect();
      if (rects.some((r) => r.left < b.left - 1 || r.right > b.right + 1)) say('spills out of its button', el);
    }
    if (!rects.length) continue;
    const word = broken(node);
    if (word) say('breaks a word', el, `("${word}" over two lines)`);
    texts.push({ el, rects, fixed: fixedIn(el), box });
  }
  // Drawn over each other: two texts whose line boxes cross, neither inside the other.
  // A line box is the font's whole ascent and descent; the letters fill its middle, so
  // two lines set tight (a rank over its suit) touch boxes without touching letters.
  const ink = (r) => { const m = (r.bottom - r.top) * 0.2; return { left: r.left, right: r.right, top: r.top + m, bottom: r.bottom - m }; };
  const cross = (p, q) => { const a = ink(p), b = ink(q);
    return Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1.5
      && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1; };
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i], b = texts[j];
      if (a.el === b.el || a.fixed !== b.fixed || a.box !== b.box) continue;
      if (a.rects.some((ra) => b.rects.some((rb) => cross(ra, rb)))) {
        say('overlaps', a.el, `and ${describe(b.el)}`);
      }
    }
  }
  return [...new Set(problems)].slice(0, 20);
}
