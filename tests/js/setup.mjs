// Shared set-up for the page's unit tests: the variants as the server serves them
// (tests/js/variants.json, kept equal to GET /api/variants by tests/test_web_variants.py).
import { readFileSync } from 'node:fs';
import { setVariants } from '../../scorekeeper/web/static/variants.js';

export const SERVED = JSON.parse(readFileSync(new URL('./variants.json', import.meta.url), 'utf8'));
setVariants(SERVED);

/** A localStorage stand-in; `broken` makes every call throw, as private mode may. */
export function memoryStorage({ broken = false } = {}) {
  const map = new Map();
  const guard = () => {
    if (broken) throw new Error('storage blocked');
  };
  return {
    get length() { guard(); return map.size; },
    key(i) { guard(); return [...map.keys()][i] ?? null; },
    getItem(k) { guard(); return map.has(k) ? map.get(k) : null; },
    setItem(k, v) { guard(); map.set(k, String(v)); },
    removeItem(k) { guard(); map.delete(k); },
  };
}
