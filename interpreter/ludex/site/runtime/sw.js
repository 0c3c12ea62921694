// The rules site's service worker: after one visit, the pages seen and the playground (Pyodide, the
// engine, the rules) work with the network off. Pages: from the network when it answers, else from
// the cache. The playground's runtime, which does not change within a build: from the cache once
// fetched. Each build has its own cache (__BUILD__); an older build's is removed when this one starts.
const CACHE = "ludex-site-__BUILD__";

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("ludex-site-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

async function fromNetwork(request) {
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    const cache = await caches.open(CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

async function networkFirst(request) {
  try {
    return await fromNetwork(request);
  } catch (err) {
    const kept = await caches.match(request, { ignoreSearch: true });
    if (kept) return kept;
    throw err;
  }
}

async function cacheFirst(request) {
  const kept = await caches.match(request);
  return kept || fromNetwork(request);
}

// A page loaded before this worker controlled it sends what it loaded: kept, if not kept already.
self.addEventListener("message", (event) => {
  const urls = (event.data && Array.isArray(event.data.keep) ? event.data.keep : [])
    .map((u) => { try { return new URL(String(u), self.location.href); } catch (e) { return null; } })
    .filter((u) => u && u.origin === self.location.origin);
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(urls.map((u) =>
    cache.match(u.href).then((hit) => hit || cache.add(u.href)).catch(() => undefined)))));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const scope = new URL(self.registration.scope);
  const runtime = url.pathname.startsWith(scope.pathname + "playground/");
  event.respondWith(runtime ? cacheFirst(request) : networkFirst(request));
});
