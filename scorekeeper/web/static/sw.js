// The page's service worker: the shell (the page, its scripts, styles, words and icons)
// kept on the phone, so a load with no network still shows the page. Network first: the
// kept copy only when the network fails. The API is never answered here: a write goes or
// fails as it would without a worker, and the last scoreboard is the page's to keep
// (offline.js). The server puts `self.SHELL` ({version, files}) at the top (routes/shell.py).

const SHELL = self.SHELL || { version: 'unversioned', files: [] };
const PREFIX = 'scorekeeper-shell-';
const CACHE = `${PREFIX}${SHELL.version}`;
const FILES = new Set(SHELL.files);

/**
 * The kept file a request is answered from, or null when the worker leaves the request to
 * the network: only GETs of this server's shell. The page at `/` is kept once, whatever
 * its `?game=`.
 */
function shellKey(method, href, origin) {
  if (method !== 'GET') return null;
  const url = new URL(href);
  if (url.origin !== origin) return null;
  if (url.pathname === '/') return '/';
  return FILES.has(url.pathname) && !url.search ? url.pathname : null;
}

/** The network's answer, kept for next time; the kept one when the network fails. */
async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok) await cache.put(key, answer.clone());
    return answer;
  } catch (failed) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw failed;
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([...FILES].map((url) => new Request(url, { cache: 'reload' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)));
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const key = shellKey(event.request.method, event.request.url, self.location.origin);
  if (key) event.respondWith(networkFirst(event.request, key));
});
