package main

import (
	"strings"

	goapp "github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/app"
)

// Static files the pages use. Everything a page needs is listed, so the
// service worker precaches it: one remote or missing entry and the precache
// fails as a whole, and the app no longer opens offline.
var (
	styles  = []string{"/web/memwall.css"}
	scripts = []string{"/web/vendor/echarts/echarts.common.min.js", "/web/memwall-charts.js"}
	extra   = []string{"/web/icon.svg", "/web/vendor/echarts/LICENSE", "/web/vendor/echarts/NOTICE"}
)

// fixEscapes runs before go-app. go-app reads the address with url.Parse
// and ignores its error, so a link with a stray "%" in the fragment ("#n=5%")
// gives it a nil URL and the app panics on start. The script rewrites such a
// "%" as "%25" on load and, registered before go-app's handler, on every
// later change of the address.
const fixEscapes = `<script>(function(){function f(){var h=location.hash;if(/%(?![0-9A-Fa-f]{2})/.test(h)){history.replaceState(history.state,"",location.pathname+location.search+h.replace(/%(?![0-9A-Fa-f]{2})/g,"%25"));}}f();addEventListener("popstate",f);addEventListener("hashchange",f);})();</script>`

// wasmLengthHeader carries app.wasm's uncompressed size, so go-app's loading
// bar stays right when the server sends it compressed.
const wasmLengthHeader = "X-Wasm-Content-Length"

// newHandler configures go-app for a site at the root (prefix "") or under
// a sub-path such as "memwall". version must change with every build that
// changes a file, or installed apps never update.
func newHandler(prefix, version string) *goapp.Handler {
	prefix = strings.Trim(prefix, "/")
	var res goapp.ResourceProvider = goapp.LocalDir("")
	root := ""
	if prefix != "" {
		res = goapp.CustomProvider("", prefix)
		root = "/" + prefix
	}
	// Pages are not static resources, so go-app does not prefix them:
	// list each one as the browser will ask for it. The root page is
	// precached by go-app as "/memwall"; a visit to "/memwall/" is another
	// cache key, so it is listed as well.
	var cacheable []string
	for _, p := range app.Pages() {
		if p.Path != "/" {
			cacheable = append(cacheable, root+p.Path)
		}
	}
	if root != "" {
		cacheable = append(cacheable, root+"/")
	}
	cacheable = append(cacheable, extra...)
	var deferred []string
	for _, s := range scripts {
		deferred = append(deferred, s+" defer")
	}
	return &goapp.Handler{
		Name:        "memwall",
		ShortName:   "memwall",
		Title:       "memwall",
		Description: "Predict the running time of memory-bound programs from a machine's bandwidths, cache and branch penalty, before writing them (MBRAM model).",
		Author:      "memwall",
		Keywords:    []string{"MBRAM", "memory wall", "performance model", "cache", "bandwidth", "running time prediction"},
		Icon: goapp.Icon{
			Default: "/web/icon-192.png",
			Large:   "/web/icon-512.png",
			SVG:     "/web/icon.svg",
		},
		BackgroundColor:         "#f6f5f1",
		ThemeColor:              "#1f3a5f",
		LoadingLabel:            "memwall is loading: {progress}%",
		Styles:                  append([]string(nil), styles...),
		Scripts:                 deferred,
		CacheableResources:      cacheable,
		Resources:               res,
		Version:                 version,
		WasmContentLengthHeader: wasmLengthHeader,
		RawHeaders:              []string{fixEscapes},
	}
}
