package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// shell lays out every page: a skip link, the header with the menu, the
// page's main content and the footer. current is the page's path, so the
// menu can mark it with aria-current.
func shell(current string, content ...app.UI) app.UI {
	return app.Div().Class("shell").Body(
		app.A().Class("skip").Href("#main").Text("Skip to content"),
		app.Header().Class("top").Body(
			app.A().Class("brand").Href(Href("/")).Body(
				app.Img().Src("/web/icon.svg").Alt("").Width(28).Height(28),
				app.Span().Text("memwall"),
			),
			app.Nav().Aria("label", "Pages").Body(
				app.Ul().Body(
					app.Range(Pages()).Slice(func(i int) app.UI {
						p := Pages()[i]
						a := app.A().Href(Href(p.Path)).Text(p.Title)
						if p.Path == current {
							a = a.Aria("current", "page").Class("current")
						}
						return app.Li().Body(a)
					}),
				),
			),
		),
		&updateBanner{},
		// data-client marks a page the WebAssembly app has taken over (the
		// server's prerendered copy says "false"); the browser tests wait
		// for it.
		app.Main().ID("main").TabIndex(-1).DataSet("client", app.IsClient).Body(content...),
		app.Footer().Class("bottom").Body(
			app.P().Body(
				app.Text("Predictions from five models: MBRAM (a lower bound on the paper's machines), the hierarchy model (an estimate, for machines that give their cache levels), lines touched, speedup and supersteps. "),
				app.Text("Runs in your browser, also offline; nothing you type leaves it. "),
				app.A().Href(Href("/about")).Text("About the models"),
				app.Text("."),
			),
		),
	)
}

// updateBanner offers a reload when the service worker has installed a new
// version (go-app calls OnAppUpdate once the new app.wasm is cached).
type updateBanner struct {
	app.Compo
	available bool
}

func (b *updateBanner) OnMount(ctx app.Context)     { b.available = ctx.AppUpdateAvailable() }
func (b *updateBanner) OnAppUpdate(ctx app.Context) { b.available = ctx.AppUpdateAvailable() }

func (b *updateBanner) Render() app.UI {
	if !b.available {
		return app.Div().Hidden(true)
	}
	return app.Div().Class("banner").Aria("live", "polite").Body(
		app.Text("A new version of memwall is ready. "),
		app.Button().Text("Reload").OnClick(func(ctx app.Context, e app.Event) { ctx.Reload() }),
	)
}

// computedIn says how long a computation took in this browser. On the
// server it says nothing: the prerendered page would show the build
// machine's time, and every build of the site would differ.
func computedIn(millis float64) string {
	if !app.IsClient {
		return ""
	}
	return ", computed in " + strconv.FormatFloat(millis, 'f', 1, 64) + " ms"
}

// pageFragment returns the raw fragment of the page's address, "" when
// there is none or the address does not parse.
func pageFragment(ctx app.Context) string {
	if u := ctx.Page().URL(); u != nil {
		return u.EscapedFragment()
	}
	return ""
}

// pageHead sets the document title and description for a page.
func pageHead(ctx app.Context, title, description string) {
	ctx.Page().SetTitle(title + " · memwall")
	ctx.Page().SetDescription(description)
}

// linkProblems lists what a share link got wrong, above a page that used
// the rest of it; nothing when the link was sound.
func linkProblems(msgs []string) app.UI {
	if len(msgs) == 0 {
		return nil
	}
	return app.Div().ID("link-problems").Class("callout warn").Aria("live", "polite").Body(
		app.P().Text("This link had problems; everything else in it was used:"),
		app.Ul().Body(app.Range(msgs).Slice(func(i int) app.UI { return app.Li().Text(msgs[i]) })),
	)
}
