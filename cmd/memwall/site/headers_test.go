package site

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestSecurityHeadersOnEveryReply: a found file, a missing one and a
// refused method all carry the Content-Security-Policy, nosniff and
// no-referrer headers; error pages get the base policy, with no inline
// script allowed.
func TestSecurityHeadersOnEveryReply(t *testing.T) {
	h := NewHandler(testSite())
	tests := []struct {
		method, path string
		status       int
	}{
		{http.MethodGet, "/", 200},
		{http.MethodGet, "/web/app.wasm", 200},
		{http.MethodHead, "/machines", 200},
		{http.MethodGet, "/no/such/page", 404},
		{http.MethodGet, "/../etc/passwd", 404},
		{http.MethodPost, "/", 405},
		{http.MethodDelete, "/web/app.wasm", 405},
		{"BREW", "/nothing", 405},
	}
	for _, tc := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		hdr := rec.Result().Header
		if rec.Code != tc.status {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, rec.Code, tc.status)
		}
		if got := hdr.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s %s: X-Content-Type-Options %q", tc.method, tc.path, got)
		}
		if got := hdr.Get("Referrer-Policy"); got != "no-referrer" {
			t.Errorf("%s %s: Referrer-Policy %q", tc.method, tc.path, got)
		}
		csp := hdr.Get("Content-Security-Policy")
		if !strings.HasPrefix(csp, "default-src 'self';") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s %s: Content-Security-Policy %q", tc.method, tc.path, csp)
		}
		if tc.status != 200 && strings.Contains(csp, "sha256-") {
			t.Errorf("%s %s: an error page allows inline scripts: %q", tc.method, tc.path, csp)
		}
	}
}
