package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// offlineCheck visits the site once, waits for the service worker to
// precache it, stops the server and opens every page again, plus a share
// link that was never visited: all must work with the network off.
func offlineCheck(t *testing.T, b *browser, name, base string, pages []string, stop func()) {
	t.Helper()
	b.open(t, base+"/", "#total")
	cached := b.serviceWorkerReady(t)
	for _, p := range pages {
		found := false
		for _, u := range cached {
			if strings.TrimSuffix(u, "/") == strings.TrimSuffix(base+p, "/") {
				found = true
			}
		}
		if !found {
			t.Errorf("page %s is not precached; cached: %v", p, cached)
		}
	}
	stop()
	var r *http.Response
	if resp, err := http.Get(base + "/"); err == nil {
		r = resp
		r.Body.Close()
		t.Fatalf("the server still answers (%s)", r.Status)
	}
	b.run(t, chromedp.Reload(), appReady("#total"))
	for _, p := range pages {
		b.open(t, base+p, "main h1")
	}
	b.open(t, base+"/#machine=p2-0.35-pc66&kernel=heapsort&n=1Mi", "#total")
	var kernel string
	b.eval(t, `document.querySelector("#kernel").value`, &kernel)
	if kernel != "heapsort" {
		t.Errorf("offline share link opened kernel %q", kernel)
	}
	b.screenshot(t, name)
	b.noErrors(t, "offline")
}

// TestOffline is the app at the root of a host, served by memwall serve.
func TestOffline(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	offlineCheck(t, b, "offline-root", srv.URL, sitePages(t, siteDir), srv.stop)
}

// TestSubPath builds the site for https://host/memwall/ (as on GitHub
// Pages) and serves it from a plain static file server that knows one
// rule, "/x" may be "x.html": links stay under the prefix, pages reload,
// and it works offline.
func TestSubPath(t *testing.T) {
	needBrowser(t)
	dir := filepath.Join(t.TempDir(), "memwall")
	if err := goCmd(nil, "run", "./wasm", "-out", dir, "-prefix", "memwall", "-brotli", "1",
		"-wasm", filepath.Join(siteDir, "web", "app.wasm")); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.StripPrefix("/memwall", staticHost(dir)))
	defer srv.Close()
	base := srv.URL + "/memwall"
	b := newBrowser(t)
	b.open(t, base+"/", "#total")
	var hrefs []string
	b.eval(t, `[...document.querySelectorAll("nav a, a.brand")].map(a => a.getAttribute("href"))`, &hrefs)
	for _, h := range hrefs {
		if !strings.HasPrefix(h, "/memwall/") {
			t.Errorf("link %q leaves the sub-path", h)
		}
	}
	b.run(t, clickText("nav a", "Machines"), appReady("#presets"))
	if got := b.location(t); got != base+"/machines" {
		t.Errorf("menu went to %s", got)
	}
	b.run(t, chromedp.Reload(), appReady("#presets"))
	pages := sitePages(t, dir)
	offlineCheck(t, b, "offline-subpath", base, pages, srv.Close)
}

// staticHost is what GitHub Pages and most static hosts do: files as they
// are, "/" as index.html, "/x" as x.html. No compression, no extras.
func staticHost(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := path.Clean("/" + r.URL.Path)
		if p != "/" && path.Ext(p) == "" {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p)+".html")); err == nil {
				r2 := *r
				u := *r.URL
				u.Path = p + ".html"
				r2.URL = &u
				// http.FileServer redirects "x.html" to "x"; serve the file directly.
				http.ServeFile(w, &r2, filepath.Join(dir, filepath.FromSlash(p)+".html"))
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

// TestOfflinePlainServer serves the site as python3 -m http.server does:
// files by their names, "/" as index.html and nothing else, so "/machines"
// is a 404 and only "/machines.html" answers. The app must still install
// and open every page offline, at the root and under a sub-path.
func TestOfflinePlainServer(t *testing.T) {
	needBrowser(t)
	t.Run("root", func(t *testing.T) {
		srv := httptest.NewServer(http.FileServer(http.Dir(siteDir)))
		defer srv.Close()
		if r, err := http.Get(srv.URL + "/machines"); err == nil {
			r.Body.Close()
			if r.StatusCode != http.StatusNotFound {
				t.Fatalf("the plain server answers /machines with %s; it must not map pages", r.Status)
			}
		}
		offlineCheck(t, newBrowser(t), "offline-plain-root", srv.URL, sitePages(t, siteDir), srv.Close)
	})
	t.Run("subpath", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "memwall")
		if err := goCmd(nil, "run", "./wasm", "-out", dir, "-prefix", "memwall", "-brotli", "1",
			"-wasm", filepath.Join(siteDir, "web", "app.wasm")); err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(http.StripPrefix("/memwall", http.FileServer(http.Dir(dir))))
		defer srv.Close()
		offlineCheck(t, newBrowser(t), "offline-plain-subpath", srv.URL+"/memwall", sitePages(t, dir), srv.Close)
	})
}
