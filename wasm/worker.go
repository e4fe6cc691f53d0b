//go:build !js

package main

// workerJS replaces go-app's service worker. go-app's worker precaches its
// list with cache.addAll, so one entry the server answers with 404 fails
// the whole install, and the pages are listed as "/machines", which only a
// server that maps "/x" to "x.html" (GitHub Pages, memwall serve) answers;
// python3 -m http.server and other servers that map nothing do not.
//
// This worker precaches the files every page needs as go-app's does (all
// or nothing: without them no page opens), and each page by whichever name
// the server answers: "/x", "/x.html" or "/x/index.html", stored under
// "/x", the address the app's links use. A page no name answers is left
// out, and a navigation the cache does not hold and the network cannot
// answer gets the app's root page: the app routes by the address, so any
// of its pages can start it. Redirected responses (a server answering
// "/memwall" with "/memwall/") are stored as plain ones, since the browser
// refuses a redirected response to a navigation.
//
// The template fields are go-app's: Version and ResourcesToCache.
const workerJS = `const cacheName = "app-" + "{{.Version}}";
const resourcesToCache = {{.ResourcesToCache}};
const scope = new URL(self.registration.scope).pathname;
const rootPage = scope.replace(/\/$/, "") + "/";

function isPage(url) {
  const p = new URL(url, self.location).pathname;
  return p === rootPage || p === rootPage.slice(0, -1) || !/\.[A-Za-z0-9]+$/.test(p.split("/").pop());
}

async function plain(response) {
  if (!response.redirected) {
    return response;
  }
  const body = await response.blob();
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

async function fetchPage(cache, url) {
  const p = new URL(url, self.location).pathname.replace(/\/$/, "");
  const names = p === "" || p + "/" === rootPage ? [url, rootPage, rootPage + "index.html"] : [url, p + ".html", p + "/index.html"];
  for (const name of names) {
    try {
      const r = await fetch(name, { cache: "reload" });
      if (r.ok) {
        await cache.put(url, await plain(r));
        return;
      }
    } catch (e) {}
  }
  console.log("app worker: no copy of " + url + " to keep offline");
}

self.addEventListener("install", (event) => {
  console.log("installing app worker {{.Version}}");
  event.waitUntil(
    caches.open(cacheName).then(async (cache) => {
      const files = resourcesToCache.filter((u) => !isPage(u));
      const pages = resourcesToCache.filter((u) => isPage(u));
      if (!pages.includes(rootPage)) {
        pages.push(rootPage);
      }
      await cache.addAll(files);
      for (const p of pages) {
        await fetchPage(cache, p);
      }
      self.skipWaiting();
    })
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keyList) => {
      return Promise.all(
        keyList.map((key) => {
          if (key !== cacheName) {
            return caches.delete(key);
          }
        })
      );
    })
  );
  console.log("app worker {{.Version}} is activated");
});

async function answer(request) {
  const cached = await caches.match(request, { ignoreSearch: request.mode === "navigate" });
  if (cached) {
    return cached;
  }
  if (request.mode !== "navigate") {
    return fetch(request);
  }
  try {
    const r = await fetch(request);
    if (r.ok) {
      return r;
    }
  } catch (e) {}
  return (await caches.match(rootPage)) || fetch(request);
}

self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") {
    return;
  }
  event.respondWith(answer(event.request));
});
`
