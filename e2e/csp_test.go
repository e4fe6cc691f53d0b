package e2e

import (
	"strings"
	"testing"
)

// TestContentSecurityPolicy: the server's policy is in force in the browser
// (inserted inline scripts, string timers and inline handlers are refused) while every
// page of the app still starts and computes without a console error; a
// policy violation is logged as an error, which noErrors would report.
func TestContentSecurityPolicy(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/", "#total")
	var header string
	b.eval(t, `fetch("/").then(r => r.headers.get("content-security-policy") || "")`, &header)
	if !strings.Contains(header, "script-src 'self' 'wasm-unsafe-eval' 'sha256-") {
		t.Errorf("policy header %q", header)
	}
	// DevTools' own evaluation is exempt from the policy, so probe through
	// code the page itself runs: an inserted inline script and a string
	// timer (eval by another name) must both be refused.
	var ran1 bool
	b.eval(t, `(() => { window.__inline = false; window.__evaled = false;
		const s = document.createElement("script"); s.textContent = "window.__inline = true"; document.head.appendChild(s);
		setTimeout("window.__evaled = true", 0);
		return new Promise(r => setTimeout(() => r(window.__inline || window.__evaled), 300)) })()`, &ran1)
	if ran1 {
		t.Error("an inserted inline script or a string timer ran: the Content-Security-Policy is not in force")
	}
	var ran bool
	b.eval(t, `(() => { window.__injected = false; const d = document.createElement("div");
		d.innerHTML = '<img src="x" onerror="window.__injected = true">'; document.body.appendChild(d);
		return new Promise(r => setTimeout(() => r(window.__injected), 300)) })()`, &ran)
	if ran {
		t.Error("an inline event handler ran despite the policy")
	}
	// The injected handler's refusal is itself a logged violation; forget
	// it, then check the app's own pages raise none.
	b.takeErrs()
	for _, p := range sitePages(t, siteDir) {
		b.open(t, srv.URL+p, "main")
		b.noErrors(t, p)
	}
}
