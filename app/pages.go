package app

import (
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Page is one route of the web app.
type Page struct {
	Path  string // route, without the site's root prefix
	Title string // menu label
	New   func() app.Composer
}

// Pages lists the routes in menu order. The wasm main package registers
// them and the static-site generator renders and precaches each one.
func Pages() []Page {
	return []Page{
		{Path: "/", Title: "Kernels", New: func() app.Composer { return &kernelsPage{} }},
		{Path: "/simulate", Title: "Simulate", New: func() app.Composer { return &simulatePage{} }},
		{Path: "/program", Title: "Program", New: func() app.Composer { return &programPage{} }},
		{Path: "/speedup", Title: "Speedup", New: func() app.Composer { return &speedupPage{} }},
		{Path: "/communication", Title: "Communication", New: func() app.Composer { return &communicationPage{} }},
		{Path: "/supersteps", Title: "Supersteps", New: func() app.Composer { return &superstepsPage{} }},
		{Path: "/data", Title: "Data", New: func() app.Composer { return &dataPage{} }},
		{Path: "/paper", Title: "Paper", New: func() app.Composer { return &paperPage{} }},
		{Path: "/machines", Title: "Machines", New: func() app.Composer { return &machinesPage{} }},
		{Path: "/about", Title: "About", New: func() app.Composer { return &aboutPage{} }},
	}
}

// Route registers every page with go-app.
func Route() {
	for _, p := range Pages() {
		app.RouteFunc(p.Path, p.New)
	}
}

var (
	prefixOnce sync.Once
	rootPrefix string
)

// Href returns the link to an app path under the site's root prefix: "/"
// at the root of a host, "/memwall/" on GitHub Pages. go-app resolves only
// "/web/" resources through its provider, so page links are resolved here;
// the prefix is the one the Handler's resource provider put in the
// environment (GOAPP_ROOT_PREFIX), on the server and in the browser alike.
func Href(path string) string {
	prefixOnce.Do(func() { rootPrefix = strings.TrimSuffix(app.Getenv("GOAPP_ROOT_PREFIX"), "/") })
	if path == "/" {
		return rootPrefix + "/"
	}
	return rootPrefix + path
}
