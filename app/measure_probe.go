package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/units"
)

// probeBrowser reads the clock's resolution (the smallest step of
// performance.now() over a few ticks) and what navigator says.
func probeBrowser() browserEnv {
	var env browserEnv
	w := app.Window()
	perf := w.Get("performance")
	best := 1.0
	for n := 0; n < 8; n++ {
		t0 := perf.Call("now").Float()
		t1 := t0
		for i := 0; i < 1_000_000 && t1 == t0; i++ {
			t1 = perf.Call("now").Float()
		}
		if d := (t1 - t0) / 1000; d > 0 && d < best {
			best = d
		}
	}
	env.tick = best
	env.isolated = w.Get("crossOriginIsolated").Truthy()
	nav := w.Get("navigator")
	env.agent = nav.Get("userAgent").String()
	if v := nav.Get("hardwareConcurrency"); v.Truthy() {
		env.cores = v.Int()
	}
	if v := nav.Get("deviceMemory"); v.Truthy() {
		env.memoryGB = v.Float()
	}
	return env
}

// probeBuffer finds a buffer the browser will give, from want down to
// measureBufferMin. When WebAssembly cannot grow its memory the Go runtime
// stops with a fatal error, which no recover catches; so the size is tried
// first as a JavaScript ArrayBuffer, whose failure is an exception.
func probeBuffer(want int64) (int64, string) {
	ab := app.Window().Get("ArrayBuffer")
	for size := want; size >= measureBufferMin; size /= 2 {
		if tryArrayBuffer(ab, size) {
			if size < want {
				return size, fmt.Sprintf("the browser refused %s; measuring with %s", units.FormatSize(want), units.FormatSize(size))
			}
			return size, ""
		}
	}
	return measureBufferMin, fmt.Sprintf("the browser refused even %s; trying it anyway", units.FormatSize(measureBufferMin))
}

func tryArrayBuffer(ab app.Value, size int64) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	ab.New(float64(size))
	return true
}

// browserName shortens a user agent to the browser and its major version.
func browserName(agent string) string {
	for _, name := range []string{"Edg/", "OPR/", "Firefox/", "Chromium/", "Chrome/", "Version/"} {
		if i := strings.Index(agent, name); i >= 0 {
			rest := agent[i+len(name):]
			if j := strings.IndexAny(rest, ". "); j >= 0 {
				rest = rest[:j]
			}
			label := map[string]string{"Edg/": "Edge", "OPR/": "Opera", "Firefox/": "Firefox", "Chromium/": "Chromium", "Chrome/": "Chrome", "Version/": "Safari"}[name]
			if strings.Contains(agent, "HeadlessChrome/") && name == "Chrome/" {
				label = "Headless Chrome"
			}
			return label + " " + rest
		}
	}
	if i := strings.Index(agent, "HeadlessChrome/"); i >= 0 {
		rest := agent[i+len("HeadlessChrome/"):]
		if j := strings.IndexAny(rest, ". "); j >= 0 {
			rest = rest[:j]
		}
		return "Headless Chrome " + rest
	}
	return "this browser"
}
