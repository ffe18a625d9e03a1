// The page's functions stay short enough to read: none over MAX_LINES (a brace count from
// each top-level `function` line, which the page's code style keeps accurate).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';

const MAX_LINES = 80;
const STATIC = new URL('../../scorekeeper/web/static/', import.meta.url);

function longFunctions(file) {
  const lines = readFileSync(new URL(file, STATIC), 'utf8').split('\n');
  const out = [];
  lines.forEach((line, start) => {
    const name = line.match(/^(?:export )?(?:async )?function (\w+)/)?.[1];
    if (!name) return;
    let depth = 0;
    let end = start;
    for (; end < lines.length; end++) {
      for (const ch of lines[end]) depth += ch === '{' ? 1 : ch === '}' ? -1 : 0;
      if (depth === 0 && end > start) break;
    }
    if (end - start + 1 > MAX_LINES) out.push(`${file}: ${name} is ${end - start + 1} lines`);
  });
  return out;
}

test(`no function of the page is longer than ${MAX_LINES} lines`, () => {
  const files = readdirSync(STATIC).filter((f) => f.endsWith('.js'));
  assert.ok(files.includes('app.js'));
  assert.deepEqual(files.flatMap(longFunctions), []);
});
