// The string literals of a JavaScript source, comments and regular expressions left out,
// so a test can look at what the code could show (no parser is installed for the page).

const REGEX_BEFORE = new Set(['', ...'(,=:[!&|?{};+-*%<>~^']);
const REGEX_WORDS = /(?:^|[^\w$])(?:return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/;

/**
 * Each literal as { text, line }: a template's static parts joined by `{}` where its
 * values go (a literal inside a value is one of its own). Good enough for the page's own
 * code, which biome keeps plain.
 */
export function stringLiterals(src) {
  const out = [];
  const braces = []; // for each open `${`, the depth of `{` inside it
  let i = 0;
  let line = 1;
  let last = ''; // the last significant character of code, to tell a regex from a division

  // a template from `i` (its backtick, or the `}` that ends one of its values) to its end
  // or its next value; `into` is the literal it goes on
  const template = (into = { text: '', line }) => {
    if (!out.includes(into)) out.push(into);
    for (i += 1; i < src.length; i += 1) {
      const c = src[i];
      if (c === '\n') line += 1;
      if (c === '\\') {
        into.text += src[i + 1];
        i += 1;
      } else if (c === '`') {
        i += 1;
        return;
      } else if (c === '$' && src[i + 1] === '{') {
        into.text += '{}';
        braces.push({ depth: 0, into });
        i += 2;
        return;
      } else into.text += c;
    }
  };

  while (i < src.length) {
    const c = src[i];
    const next = src[i + 1];
    if (c === '\n') line += 1;
    if (c === '/' && next === '/') {
      while (i < src.length && src[i] !== '\n') i += 1;
    } else if (c === '/' && next === '*') {
      const end = src.indexOf('*/', i + 2);
      line += (src.slice(i, end).match(/\n/g) || []).length;
      i = end + 2;
    } else if (c === '/' && (REGEX_BEFORE.has(last) || REGEX_WORDS.test(src.slice(Math.max(0, i - 12), i).trimEnd()))) {
      let inClass = false;
      for (i += 1; i < src.length && (inClass || src[i] !== '/'); i += 1) {
        if (src[i] === '\\') i += 1;
        else if (src[i] === '[') inClass = true;
        else if (src[i] === ']') inClass = false;
      }
      i += 1;
      last = ')';
    } else if (c === '"' || c === "'") {
      let text = '';
      for (i += 1; i < src.length && src[i] !== c; i += 1) {
        if (src[i] === '\\') i += 1;
        text += src[i];
      }
      out.push({ text, line });
      i += 1;
      last = ')';
    } else if (c === '`') {
      template();
      last = ')';
    } else if (c === '}' && braces.length && braces.at(-1).depth === 0) {
      template(braces.pop().into); // the template goes on after its value
      last = ')';
    } else {
      if (braces.length && c === '{') braces.at(-1).depth += 1;
      if (braces.length && c === '}') braces.at(-1).depth -= 1;
      if (!/\s/.test(c)) last = /[\w$)\]]/.test(c) ? ')' : c;
      i += 1;
    }
  }
  return out;
}
