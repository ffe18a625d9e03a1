// The page with no network: the service worker's routing (run in a sandbox with fake
// caches and network), the kept scoreboard, and which hands from the stream are news.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import vm from 'node:vm';
import { newHands } from '../../scorekeeper/web/static/nudge.js';
import { keepRules, keepScoreboard, keptScoreboard } from '../../scorekeeper/web/static/offline.js';
import { memoryStorage } from './setup.mjs';

const ORIGIN = 'http://127.0.0.1:8000';
const WORKER = readFileSync(new URL('../../scorekeeper/web/static/sw.js', import.meta.url), 'utf8');
const SHELL = { version: '1.0-abc', files: ['/', '/static/app.js', '/static/locales/en.js'] };

/** The worker in a sandbox: its event handlers, a Map for its cache, `network` for fetch. */
function worker(network) {
  const handlers = {};
  const stores = new Map();
  const cacheNamed = (name) => {
    if (!stores.has(name)) stores.set(name, new Map());
    const entries = stores.get(name);
    return {
      put: async (key, answer) => { entries.set(key, answer); },
      match: async (key) => entries.get(key),
      addAll: async (list) => { for (const r of list) entries.set(r.url, { ok: true, from: 'install' }); },
    };
  };
  const self = {
    SHELL,
    location: { origin: ORIGIN },
    addEventListener: (type, fn) => { handlers[type] = fn; },
    skipWaiting: async () => {},
    clients: { claim: async () => {} },
  };
  const caches = {
    open: async (name) => cacheNamed(name),
    keys: async () => [...stores.keys()],
    delete: async (name) => stores.delete(name),
  };
  const context = vm.createContext({
    self, caches, URL, Set, Promise, fetch: network, Request: class { constructor(url) { this.url = url; } },
  });
  vm.runInContext(WORKER, context);
  return { context, handlers, stores };
}

/** A fetch event as the browser sends it; `answered` is the promise given to respondWith. */
function fetchEvent(handlers, method, path) {
  const event = { request: { method, url: `${ORIGIN}${path}` }, answered: null };
  event.respondWith = (p) => { event.answered = p; };
  handlers.fetch(event);
  return event;
}

test('only GETs of the shell are the worker\'s: the API, its writes and other files never', () => {
  const { context } = worker(async () => ({ ok: true }));
  const key = (method, path, origin = ORIGIN) => context.shellKey(method, `${origin}${path}`, ORIGIN);
  assert.equal(key('GET', '/'), '/');
  assert.equal(key('GET', '/?game=3'), '/'); // the page is kept once, whatever its game
  assert.equal(key('GET', '/static/app.js'), '/static/app.js');
  assert.equal(key('GET', '/static/locales/en.js'), '/static/locales/en.js');
  assert.equal(key('GET', '/static/club.js'), null); // not in the shell it was sent
  assert.equal(key('GET', '/static/app.js?v=2'), null);
  assert.equal(key('GET', '/api/games/1'), null);
  assert.equal(key('GET', '/api/games/1/events'), null);
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
    assert.equal(key(method, '/'), null);
    assert.equal(key(method, '/api/games/1/hands'), null);
  }
  assert.equal(key('GET', '/', 'http://elsewhere.example'), null);
});

test('an API write goes to the network untouched and is never kept', async () => {
  const seen = [];
  const { handlers, stores } = worker(async (r) => { seen.push(r); return { ok: true, clone: () => ({}) }; });
  for (const [method, path] of [['POST', '/api/games/1/hands'], ['PUT', '/api/games/1/hands/2'],
    ['DELETE', '/api/games/1/hands/last'], ['GET', '/api/games/1']]) {
    const event = fetchEvent(handlers, method, path);
    assert.equal(event.answered, null, `${method} ${path} was answered by the worker`);
  }
  assert.equal(seen.length, 0); // left to the browser: the worker fetched nothing itself
  assert.equal(stores.size, 0);
});

test('the shell comes from the network when it answers, else from the kept copy', async () => {
  let online = true;
  const fresh = { ok: true, body: 'fresh', clone: () => ({ ok: true, body: 'kept' }) };
  const { handlers, stores } = worker(async () => {
    if (!online) throw new TypeError('Failed to fetch');
    return fresh;
  });
  assert.equal(await fetchEvent(handlers, 'GET', '/?game=2').answered, fresh);
  online = false;
  assert.deepEqual(await fetchEvent(handlers, 'GET', '/').answered, { ok: true, body: 'kept' });
  await assert.rejects(fetchEvent(handlers, 'GET', '/static/app.js').answered, TypeError);
  assert.deepEqual([...stores.keys()], ['scorekeeper-shell-1.0-abc']);
});

test('installing keeps every shell file; activating drops the older versions', async () => {
  const { handlers, stores } = worker(async () => ({ ok: true }));
  stores.set('scorekeeper-shell-0.9-old', new Map());
  stores.set('someone-else', new Map());
  let done = null;
  handlers.install({ waitUntil: (p) => { done = p; } });
  await done;
  assert.deepEqual([...stores.get('scorekeeper-shell-1.0-abc').keys()], SHELL.files);
  handlers.activate({ waitUntil: (p) => { done = p; } });
  await done;
  assert.deepEqual([...stores.keys()].sort(), ['scorekeeper-shell-1.0-abc', 'someone-else']);
});

test('the kept scoreboard comes back for its game, with the rules it was drawn by', () => {
  const s = memoryStorage();
  const game = { id: 4, seq: 9, hands: [{ n: 1 }] };
  assert.equal(keptScoreboard(null, s), null);
  keepScoreboard(game, true, s, 1000);
  assert.equal(keptScoreboard(null, s), null); // no rules kept yet: nothing to draw it by
  keepRules({ gin: {} }, s);
  assert.deepEqual(keptScoreboard(null, s), { game, admin: true, saved: 1000, variants: { gin: {} } });
  assert.equal(keptScoreboard('4', s).game.seq, 9);
  assert.equal(keptScoreboard(5, s), null); // the page asks for another game
  keepScoreboard({ id: 4, state: 'deleted' }, false, s);
  assert.equal(keptScoreboard(4, s).game.seq, 9); // a deleted game is not what is kept
  s.setItem('scorekeeper.last', '{not json');
  assert.equal(keptScoreboard(null, s), null);
  keepScoreboard(game, false, memoryStorage({ broken: true })); // private mode: no throw
});

test('a new hand is one the same game did not have before', () => {
  const g = (id, ns, state = 'active') => ({ id, state, hands: ns.map((n) => ({ n })) });
  assert.deepEqual(newHands(g(1, [1, 2]), g(1, [1, 2, 3])), [3]);
  assert.deepEqual(newHands(g(1, [1]), g(1, [1, 2, 3])), [2, 3]); // caught up after a gap
  assert.deepEqual(newHands(g(1, [1, 2]), g(1, [1, 2])), []); // the same hands (a rename…)
  assert.deepEqual(newHands(g(1, [1, 2]), g(1, [1])), []); // an undo
  assert.deepEqual(newHands(g(1, [1]), g(2, [1, 2])), []); // another game
  assert.deepEqual(newHands(null, g(1, [1])), []); // the game just opened
  assert.deepEqual(newHands(g(1, []), g(1, [1], 'deleted')), []);
});
