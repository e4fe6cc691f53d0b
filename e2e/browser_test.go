package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// browser is one headless Chromium with its own profile (so its own
// storage and service workers) and one tab.
type browser struct {
	ctx  context.Context
	mu   sync.Mutex
	errs []string
}

// newBrowser starts a fresh browser for the test.
func newBrowser(t testing.TB) *browser {
	t.Helper()
	needBrowser(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromePath),
		// No UserDataDir: chromedp makes a fresh profile per browser and
		// removes it once the browser has exited.
		chromedp.NoSandbox, // CI containers run as root
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 900),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	b := &browser{ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
			}
			text := strings.Join(parts, " ")
			switch {
			case ev.Type == runtime.APITypeError:
				b.addErr("console.error: " + text)
			case strings.HasPrefix(text, "panic:") || strings.Contains(text, "fatal error:"):
				// Go prints its panics through console.log.
				b.addErr("Go: " + text)
			}
		case *runtime.EventExceptionThrown:
			msg := ev.ExceptionDetails.Text
			if ev.ExceptionDetails.Exception != nil {
				msg += " " + ev.ExceptionDetails.Exception.Description
			}
			b.addErr("exception: " + msg)
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.LevelError {
				b.addErr("log: " + ev.Entry.Text + " " + ev.Entry.URL)
			}
		}
	})
	if err := chromedp.Run(ctx, cdplog.Enable(), runtime.Enable()); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return b
}

func (b *browser) addErr(s string) {
	b.mu.Lock()
	b.errs = append(b.errs, s)
	b.mu.Unlock()
}

// takeErrs returns and clears the console errors seen so far.
func (b *browser) takeErrs() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.errs
	b.errs = nil
	return e
}

// noErrors fails the test on any console error since the last call.
func (b *browser) noErrors(t testing.TB, where string) {
	t.Helper()
	for _, e := range b.takeErrs() {
		t.Errorf("%s: %s", where, e)
	}
}

// run runs actions with a time limit.
func (b *browser) run(t testing.TB, actions ...chromedp.Action) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// appReady waits until the WebAssembly app has taken the page over (the
// prerendered HTML says data-client="false") and sel is visible.
func appReady(sel string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		if err := chromedp.WaitVisible(`main[data-client="true"]`, chromedp.ByQuery).Do(ctx); err != nil {
			return fmt.Errorf("app did not start: %w", err)
		}
		return chromedp.WaitVisible(sel, chromedp.ByQuery).Do(ctx)
	})
}

// open navigates and waits for the app and sel.
func (b *browser) open(t testing.TB, url, sel string) {
	t.Helper()
	b.run(t, chromedp.Navigate(url), appReady(sel))
}

// text reads an element's text.
func (b *browser) text(t testing.TB, sel string) string {
	t.Helper()
	var s string
	b.run(t, chromedp.Text(sel, &s, chromedp.ByQuery))
	return strings.TrimSpace(s)
}

// eval evaluates JavaScript, awaiting a promise if it returns one.
func (b *browser) eval(t testing.TB, js string, out any) {
	t.Helper()
	b.run(t, chromedp.Evaluate(js, out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	}))
}

// waitFor polls a JavaScript condition until it is true.
func (b *browser) waitFor(t testing.TB, what, js string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var ok bool
		// A condition that throws (an element not rendered yet) is not
		// met yet; the poll goes on until the deadline.
		b.eval(t, "(() => { try { return !!("+js+") } catch (e) { return false } })()", &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			// What the page showed instead: its notice, and a screenshot
			// named after the test.
			var notice string
			b.eval(t, `document.querySelector("#notice")?.textContent ?? ""`, &notice)
			b.screenshot(t, "timeout-"+strings.ReplaceAll(t.Name(), "/", "-"))
			t.Fatalf("timed out waiting for %s (%s); the notice read %q", what, js, notice)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// typeInto replaces an input's text the way a user does, one key at a time,
// so the app sees input events.
func (b *browser) typeInto(t testing.TB, sel, text string) {
	t.Helper()
	// Cleared from JavaScript: chromedp.SetValue sometimes reports a
	// failure on inputs go-app has just rendered.
	var ok bool
	// The input event tells the app too, so a render between two keys
	// cannot put the old text back.
	b.eval(t, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false; e.value = ""; e.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`, sel), &ok)
	if !ok {
		t.Fatalf("no input %s", sel)
	}
	b.run(t, chromedp.SendKeys(sel, text, chromedp.ByQuery))
	// On a loaded machine a render may still land between two keys and
	// drop or reorder one; the text a user would then see is retyped.
	var got string
	b.eval(t, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? e.value : ""; })()`, sel), &got)
	if got != text {
		b.eval(t, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.value = %q; e.dispatchEvent(new Event("input", {bubbles: true})); e.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, sel, text), &ok)
	}
}

// choose picks an option of a <select> and fires change, as a user does.
func (b *browser) choose(t testing.TB, sel, value string) {
	t.Helper()
	js := fmt.Sprintf(`(() => { const s = document.querySelector(%q); s.value = %q; s.dispatchEvent(new Event("change", {bubbles: true})); return s.value; })()`, sel, value)
	var got string
	b.eval(t, js, &got)
	if got != value {
		t.Fatalf("%s has no option %q", sel, value)
	}
}

// location returns the page URL.
func (b *browser) location(t testing.TB) string {
	t.Helper()
	var u string
	b.run(t, chromedp.Location(&u))
	return u
}

// screenshot saves the full page as out/name.png.
func (b *browser) screenshot(t testing.TB, name string) {
	t.Helper()
	var png []byte
	b.run(t, chromedp.FullScreenshot(&png, 100)) // 100 means PNG; less gives JPEG
	if err := os.WriteFile(filepath.Join(outDir, name+".png"), png, 0o644); err != nil {
		t.Error(err)
	}
}

// download clicks sel and returns the path of the file the page offered,
// which must contain want.
func (b *browser) download(t testing.TB, dir, sel, want string) string {
	t.Helper()
	return b.downloadBy(t, dir, chromedp.Click(sel, chromedp.ByQuery), want)
}

// downloadBy is download with any action that makes the page offer a file.
func (b *browser) downloadBy(t testing.TB, dir string, action chromedp.Action, want string) string {
	t.Helper()
	sel := fmt.Sprint(action)
	b.run(t,
		cdpbrowser.SetDownloadBehavior(cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName).WithDownloadPath(dir),
		action)
	start := time.Now()
	deadline, again := start.Add(15*time.Second), start.Add(5*time.Second)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir(dir)
		if len(entries) == 0 && again.Before(time.Now()) {
			// Nothing started in 5 s: on a loaded machine a click that
			// lands while the page re-renders the button can be lost
			// (the full e2e run lost one in about thirty); click once
			// more.
			b.run(t, action)
			again = deadline
		}
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".crdownload") {
				// Chromium's name while it writes; it renames the file
				// when done, so this path is about to disappear.
				continue
			}
			p := filepath.Join(dir, e.Name())
			if data, err := os.ReadFile(p); err == nil && strings.Contains(string(data), want) {
				return p
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("clicking %s downloaded no file with %q", sel, want)
	return ""
}

// phone emulates a 390×844 phone screen.
func (b *browser) phone(t testing.TB) {
	t.Helper()
	b.run(t, emulation.SetDeviceMetricsOverride(390, 844, 3, true))
}

// fitsPhone waits until the page, at the phone's width (phone), overflows
// nothing sideways: its charts and tables follow the window.
func (b *browser) fitsPhone(t testing.TB) {
	t.Helper()
	b.waitFor(t, "the page to fit a phone", `document.documentElement.scrollWidth <= window.innerWidth + 1`)
}

// serviceWorkerReady waits until the service worker is active and has
// precached the pages, and returns the cached URLs.
func (b *browser) serviceWorkerReady(t testing.TB) []string {
	t.Helper()
	var ok bool
	b.eval(t, `navigator.serviceWorker.ready.then(r => !!r.active)`, &ok)
	if !ok {
		t.Fatal("no active service worker")
	}
	var urls []string
	deadline := time.Now().Add(30 * time.Second)
	for {
		b.eval(t, `caches.keys().then(ks => Promise.all(ks.map(k => caches.open(k).then(c => c.keys())))).then(a => a.flat().map(r => r.url))`, &urls)
		for _, u := range urls {
			if strings.HasSuffix(u, "/web/app.wasm") {
				return urls
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the service worker did not precache app.wasm; cached: %v", urls)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
