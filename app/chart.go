package app

import (
	"encoding/json"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// chart shows an Apache ECharts chart. It renders an empty container;
// web/memwall-charts.js creates the chart in it once mounted, replaces the
// option when the parent passes a new one, resizes it with the window and
// disposes it on dismount (docs/readings.md).
//
// The option is JSON, not a Go value: js.ValueOf rejects []float64, and JSON
// crosses into the browser in one call. Formatters cannot be JSON, so the
// option names them ("@seconds", "@count", "@bandwidth") and the script
// swaps in the functions.
type chart struct {
	app.Compo
	ID      string // DOM id of the container, also the file name of exports
	Label   string // accessible name
	Summary string // what the chart shows, in a sentence or two: shown under it and read by screen readers
	Option  string // ECharts option as JSON
	Height  int    // pixels; 0 means the stylesheet's

	drawn   string // the option ECharts last drew
	pending bool   // OnMount's deferred draw has not run yet
}

// Render draws the container ECharts takes over and, under it, the
// chart's summary. ECharts' own accessible text ("It consists of 10 series
// count") is replaced by the label and the summary (web/memwall-charts.js
// reads data-description).
func (c *chart) Render() app.UI {
	desc := c.Label
	if c.Summary != "" {
		desc += ". " + c.Summary
	}
	d := app.Div().ID(c.ID).Class("chart").Attr("role", "img").Aria("label", desc).DataSet("description", desc)
	if c.Height > 0 {
		d = d.Style("height", itoa(c.Height)+"px")
	}
	return app.Div().Class("chart-box").Body(
		d,
		app.If(c.Summary != "", app.P().ID(c.ID+"-summary").Class("chart-summary").Text(c.Summary)),
	)
}

// Drawing is most of the cost of showing a page (ECharts lays out every
// axis label), so the chart draws an option once: an update that passes
// the option it already shows, or one that comes before the draw OnMount
// deferred (which draws the option current when it runs), draws nothing.
func (c *chart) OnMount(ctx app.Context) {
	c.pending = true
	ctx.Defer(func(app.Context) {
		c.pending = false
		c.draw()
	})
}

func (c *chart) OnUpdate(ctx app.Context) {
	if !c.pending {
		c.draw()
	}
}

func (c *chart) OnResize(ctx app.Context) { c.call("resize") }

func (c *chart) OnDismount() {
	c.call("dispose")
	c.drawn = ""
}

func (c *chart) draw() {
	if c.Option != c.drawn && c.call("render", c.Option) {
		c.drawn = c.Option
	}
}

// call calls a method of web/memwall-charts.js on the container and says
// whether it could.
func (c *chart) call(method string, args ...any) bool {
	if !app.IsClient || !c.Mounted() {
		return false
	}
	lib := app.Window().Get("memwallChart")
	if !lib.Truthy() {
		app.Log("memwall: chart script not loaded")
		return false
	}
	lib.Call(method, append([]any{c.JSValue().Get("firstElementChild")}, args...)...)
	return true
}

// chartJSON marshals an option built from maps and slices.
func chartJSON(option map[string]any) string {
	b, err := json.Marshal(option)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// rawParts carries large arrays (a sweep's points) past json.Marshal, which
// would scan and compact every byte of a json.RawMessage: the option is
// marshalled with a placeholder string per part, and the parts are spliced
// in afterwards.
type rawParts [][]byte

func (r *rawParts) add(b []byte) string {
	*r = append(*r, b)
	return "@memwall-raw-" + itoa(len(*r)-1) + "@"
}

func (r rawParts) splice(option string) string {
	if len(r) == 0 {
		return option
	}
	var b strings.Builder
	n := len(option)
	for _, p := range r {
		n += len(p)
	}
	b.Grow(n)
	rest := option
	for i, part := range r {
		// json.Marshal keeps slice order, so the placeholders come in order.
		ph := `"@memwall-raw-` + itoa(i) + `@"`
		at := strings.Index(rest, ph)
		if at < 0 {
			continue
		}
		b.WriteString(rest[:at])
		b.Write(part)
		rest = rest[at+len(ph):]
	}
	b.WriteString(rest)
	return b.String()
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
