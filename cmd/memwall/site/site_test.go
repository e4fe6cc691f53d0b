package site

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func testSite() fstest.MapFS {
	return fstest.MapFS{
		"index.html":           {Data: []byte("<p>kernels</p>")},
		"index.html.br":        {Data: []byte("BR-index")},
		"index.html.gz":        {Data: []byte("GZ-index")},
		"machines.html":        {Data: []byte("<p>machines</p>")},
		"web/app.wasm":         {Data: []byte("\x00asm-raw-bytes")},
		"web/app.wasm.br":      {Data: []byte("BR-wasm")},
		"web/memwall.css":      {Data: []byte("body{}")},
		"manifest.webmanifest": {Data: []byte("{}")},
	}
}

func get(t *testing.T, h http.Handler, path, accept string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if accept != "" {
		req.Header.Set("Accept-Encoding", accept)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestResolve(t *testing.T) {
	h := NewHandler(testSite())
	cases := []struct {
		path, accept, wantBody, wantType, wantEnc string
		wantCode                                  int
	}{
		{"/", "", "<p>kernels</p>", "text/html; charset=utf-8", "", 200},
		{"/", "gzip, deflate, br", "BR-index", "text/html; charset=utf-8", "br", 200},
		{"/", "gzip", "GZ-index", "text/html; charset=utf-8", "gzip", 200},
		{"/", "br;q=0, gzip", "GZ-index", "text/html; charset=utf-8", "gzip", 200},
		{"/machines", "", "<p>machines</p>", "text/html; charset=utf-8", "", 200},
		{"/web/app.wasm", "br", "BR-wasm", "application/wasm", "br", 200},
		{"/web/app.wasm", "gzip", "\x00asm-raw-bytes", "application/wasm", "", 200},
		{"/manifest.webmanifest", "", "{}", "application/manifest+json", "", 200},
		{"/nope", "", "", "", "", 404},
		{"/../../etc/passwd", "", "", "", "", 404},
		{"/web", "", "", "", "", 404},
	}
	for _, c := range cases {
		r := get(t, h, c.path, c.accept)
		if r.StatusCode != c.wantCode {
			t.Errorf("GET %s (%s): status %d, want %d", c.path, c.accept, r.StatusCode, c.wantCode)
			continue
		}
		if c.wantCode != 200 {
			continue
		}
		if got := body(t, r); got != c.wantBody {
			t.Errorf("GET %s (%s): body %q, want %q", c.path, c.accept, got, c.wantBody)
		}
		if got := r.Header.Get("Content-Type"); got != c.wantType {
			t.Errorf("GET %s: Content-Type %q, want %q", c.path, got, c.wantType)
		}
		if got := r.Header.Get("Content-Encoding"); got != c.wantEnc {
			t.Errorf("GET %s (%s): Content-Encoding %q, want %q", c.path, c.accept, got, c.wantEnc)
		}
		if !strings.Contains(r.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("GET %s: no Vary: Accept-Encoding", c.path)
		}
	}
}

func TestWasmLengthIsTheRawSize(t *testing.T) {
	r := get(t, NewHandler(testSite()), "/web/app.wasm", "br")
	if got := r.Header.Get("X-Wasm-Content-Length"); got != "14" {
		t.Errorf("X-Wasm-Content-Length = %q, want the raw size 14", got)
	}
}

func TestRevalidation(t *testing.T) {
	h := NewHandler(testSite())
	r := get(t, h, "/web/memwall.css", "")
	etag := r.Header.Get("ETag")
	if etag == "" || r.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("ETag %q, Cache-Control %q", etag, r.Header.Get("Cache-Control"))
	}
	req := httptest.NewRequest(http.MethodGet, "/web/memwall.css", nil)
	req.Header.Set("If-None-Match", etag)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("revalidation: status %d, want 304", rec.Code)
	}
}

func TestOnlyGetAndHead(t *testing.T) {
	rec := httptest.NewRecorder()
	NewHandler(testSite()).ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", strings.NewReader("x")))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d, want 405", rec.Code)
	}
}

// TestContentSecurityPolicy: every response carries the policy; an HTML
// page's inline script is allowed by its hash and by nothing broader. The
// hash of "console.log(1)" is from
// printf '%s' 'console.log(1)' | openssl dgst -sha256 -binary | base64.
func TestContentSecurityPolicy(t *testing.T) {
	fsys := testSite()
	fsys["csp.html"] = &fstest.MapFile{Data: []byte("<html><script>console.log(1)</script><script defer src=\"/app.js\"></script></html>")}
	h := NewHandler(fsys)
	page := get(t, h, "/csp", "").Header.Get("Content-Security-Policy")
	if !strings.Contains(page, "script-src 'self' 'wasm-unsafe-eval' 'sha256-CihokcEcBW4atb/CW/XWsvWwbTjqwQlE9nj9ii5ww5M='") {
		t.Errorf("page policy %q", page)
	}
	for _, bad := range []string{"'unsafe-eval'", "script-src 'self' 'unsafe-inline'", "*"} {
		if strings.Contains(page, bad) {
			t.Errorf("policy allows %s: %q", bad, page)
		}
	}
	if wasm := get(t, h, "/web/app.wasm", "br").Header.Get("Content-Security-Policy"); !strings.Contains(wasm, "default-src 'self'") || strings.Contains(wasm, "sha256-") {
		t.Errorf("wasm policy %q", wasm)
	}
}
