// Package site serves memwall's static web site: the one the generator in
// wasm/ writes, embedded in the CLI binary for `memwall serve`, or any such
// site from a directory. It serves what a static host would, plus the two
// things go-app's pages rely on that not every host does: "/kernels" finds
// kernels.html, and a file's .br or .gz sibling is sent to browsers that
// accept it.
package site

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed all:dist
var embedded embed.FS

// Embedded returns the site built into this binary, or an error saying how
// to build one when the binary was built without it.
func Embedded() (fs.FS, error) {
	sub, err := fs.Sub(embedded, "dist")
	if err != nil {
		return nil, err
	}
	if _, err := fs.Stat(sub, "index.html"); err != nil {
		return nil, errors.New("this memwall was built without the web app: run 'make build' (or go run ./wasm -out cmd/memwall/site/dist before go build), or pass --dir with a generated site")
	}
	return sub, nil
}

// contentTypes are set explicitly: mime.TypeByExtension depends on the
// host's tables, and a wasm file served as octet-stream loses streaming
// compilation.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".wasm":        "application/wasm",
	".json":        "application/json",
	".webmanifest": "application/manifest+json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".txt":         "text/plain; charset=utf-8",
	"":             "text/plain; charset=utf-8",
}

// Handler serves a generated site.
type Handler struct {
	fsys     fs.FS
	mu       sync.Mutex
	etags    map[string]string
	policies map[string]string // Content-Security-Policy per HTML file
}

// NewHandler serves the site in fsys.
func NewHandler(fsys fs.FS) *Handler {
	return &Handler{fsys: fsys, etags: map[string]string{}, policies: map[string]string{}}
}

// basePolicy allows the app's own files and nothing else: scripts from the
// site (WebAssembly needs 'wasm-unsafe-eval' to compile app.wasm), styles
// from the site and in attributes (go-app and ECharts set element styles),
// images from the site, data: and blob: (chart export), and no frames,
// plugins or foreign connections. A document's inline scripts are added by
// hash in policy, so no other inline script can run.
const basePolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'%s; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; " +
	"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

var inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)

// policy returns the Content-Security-Policy for a file: for an HTML page
// the base policy plus the SHA-256 of each of its inline scripts (the page
// generator writes one that repairs malformed %-escapes in the address
// before the app starts).
func (h *Handler) policy(name string) string {
	if path.Ext(name) != ".html" {
		return fmt.Sprintf(basePolicy, "")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if p, ok := h.policies[name]; ok {
		return p
	}
	var hashes strings.Builder
	if data, err := fs.ReadFile(h.fsys, name); err == nil {
		for _, m := range inlineScript.FindAllSubmatch(data, -1) {
			sum := sha256.Sum256(m[1])
			hashes.WriteString(" 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'")
		}
	}
	p := fmt.Sprintf(basePolicy, hashes.String())
	h.policies[name] = p
	return p
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	// Every reply carries the security headers, errors included: a 404 or
	// 405 page is a document a browser renders too.
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Referrer-Policy", "no-referrer")
	hdr.Set("Content-Security-Policy", fmt.Sprintf(basePolicy, ""))
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hdr.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := h.resolve(r.URL.Path)
	if !ok {
		h.notFound(w, r)
		return
	}
	hdr.Set("Content-Security-Policy", h.policy(name))
	// Names are not content-hashed; the service worker does the caching,
	// keyed by the site's version, so the server always revalidates.
	hdr.Set("Cache-Control", "no-cache")
	ext := path.Ext(name)
	if ct, ok := contentTypes[ext]; ok {
		hdr.Set("Content-Type", ct)
	}
	served := name
	if enc, alt := h.precompressed(name, r.Header.Get("Accept-Encoding")); alt != "" {
		served = alt
		hdr.Set("Content-Encoding", enc)
	}
	hdr.Add("Vary", "Accept-Encoding")
	if ext == ".wasm" {
		if info, err := fs.Stat(h.fsys, name); err == nil {
			// go-app's loading bar divides by this (handler.go).
			hdr.Set("X-Wasm-Content-Length", strconv.FormatInt(info.Size(), 10))
		}
	}
	// The file is streamed from its file system, never copied whole per
	// request: a hundred downloads of app.wasm at once cost a hundred
	// 32 KiB buffers, not a hundred copies of the file.
	etag, err := h.etag(served)
	if err != nil {
		http.Error(w, "cannot read "+name, http.StatusInternalServerError)
		return
	}
	f, err := h.fsys.Open(served)
	if err != nil {
		http.Error(w, "cannot read "+name, http.StatusInternalServerError)
		return
	}
	defer f.Close()
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		http.Error(w, "cannot read "+name, http.StatusInternalServerError)
		return
	}
	hdr.Set("ETag", etag)
	http.ServeContent(w, r, "", time.Time{}, rs)
}

// resolve maps a URL path to a file: "/" is index.html, a page path without
// an extension is its .html file (as GitHub Pages does), anything else is
// the file itself. Paths with "..", or naming a directory, do not resolve.
func (h *Handler) resolve(urlPath string) (string, bool) {
	p := strings.TrimPrefix(path.Clean("/"+urlPath), "/")
	if p == "" {
		p = "index.html"
	}
	if !fs.ValidPath(p) {
		return "", false
	}
	if info, err := fs.Stat(h.fsys, p); err == nil && !info.IsDir() {
		return p, true
	}
	if path.Ext(p) == "" {
		if info, err := fs.Stat(h.fsys, p+".html"); err == nil && !info.IsDir() {
			return p + ".html", true
		}
		if info, err := fs.Stat(h.fsys, path.Join(p, "index.html")); err == nil && !info.IsDir() {
			return path.Join(p, "index.html"), true
		}
	}
	return "", false
}

// precompressed picks the .br or .gz sibling the client accepts.
func (h *Handler) precompressed(name, accept string) (encoding, file string) {
	for _, c := range []struct{ enc, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if !acceptsEncoding(accept, c.enc) {
			continue
		}
		if _, err := fs.Stat(h.fsys, name+c.ext); err == nil {
			return c.enc, name + c.ext
		}
	}
	return "", ""
}

// acceptsEncoding reads an Accept-Encoding header, honouring q=0.
func acceptsEncoding(header, enc string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), enc) {
			continue
		}
		if q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q="); ok {
			if v, err := strconv.ParseFloat(q, 64); err == nil && v == 0 {
				return false
			}
		}
		return true
	}
	return false
}

// etag hashes a file once, streaming it, and remembers the result.
func (h *Handler) etag(name string) (string, error) {
	h.mu.Lock()
	e, ok := h.etags[name]
	h.mu.Unlock()
	if ok {
		return e, nil
	}
	f, err := h.fsys.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return "", err
	}
	e = `"` + hex.EncodeToString(sum.Sum(nil)[:12]) + `"`
	h.mu.Lock()
	h.etags[name] = e
	h.mu.Unlock()
	return e, nil
}

func (h *Handler) notFound(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	w.Write([]byte(`<!DOCTYPE html><html lang="en"><meta charset="utf-8"><title>Not found · memwall</title><p>No page here. <a href="/">Open memwall</a>.</p></html>`))
}
