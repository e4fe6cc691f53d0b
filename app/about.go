package app

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// aboutPage explains the model, its assumptions and where the numbers come
// from, and cites the seed.
type aboutPage struct {
	app.Compo
	version string
}

func (p *aboutPage) OnPreRender(ctx app.Context) { p.init(ctx) }
func (p *aboutPage) OnNav(ctx app.Context)       { p.init(ctx) }

func (p *aboutPage) init(ctx app.Context) {
	pageHead(ctx, "About", "The MBRAM model behind memwall: its parameters, its assumptions, why its predictions are lower bounds, and its sources.")
	p.version = app.Getenv("GOAPP_VERSION")
}

func (p *aboutPage) Render() app.UI {
	para := func(s string) app.UI { return app.P().Text(s) }
	return shell("/about",
		app.H1().Text("About memwall"),
		app.Section().Class("panel prose").Body(
			app.H2().Text("The MBRAM model"),
			para("memwall predicts how long a memory-bound program takes before it is written or run. A memory-bound program spends most of its time waiting for memory, so the model counts memory traffic and mispredicted branches instead of instructions. It needs six numbers per machine:"),
			app.Ul().Body(
				app.Li().Text("β1: bandwidth of a sequential stream, for at most μ1 concurrent streams and no other traffic;"),
				app.Li().Text("β2: bandwidth of all other traffic, a cache line fetched from a random place;"),
				app.Li().Text("μ1: how many sequential streams run at β1 (2 by default);"),
				app.Li().Text("C and B: the size of the largest cache and of its line (μ2 = C/B lines);"),
				app.Li().Text("m: the time lost on a mispredicted branch."),
			),
			para("Each read brings a whole line into the cache; a write first reads its line; the cache starts empty and evicts the least recently used line; a branch costs m times the probability that the best predictor based on its history is wrong (model rules 1 to 8 of seed 000, section II)."),
			app.H2().Text("Lower bounds"),
			para("Every prediction is a lower bound by construction: the model charges nothing for hits in the smaller caches, for TLB misses or for instructions. In the seed's experiments the measured times are 1.0 to 1.8 times the prediction (more where a program is partly CPU-bound); a measured time far above the prediction points at one of those costs, or at a part of the program that is not memory-bound."),
			app.H2().Text("How the formulas are read"),
			app.Ul().Body(
				app.Li().Text("The traditional permutation product costs (3w/β1 + B/β2)·N and the two-pass one 10w·N/β2; the seed prints them for w = 4 bytes as (12/β1 + B/β2)·N and 40N/β2."),
				app.Li().Text("The row-major matrix product uses w·n³/β1 + B·n³/β2 when a column's lines and a row do not fit in the cache together (Bn + wn ≥ C), and w·n³/β2 when they do; the seed writes the first condition Bn ≥ C but applies it to n = 4000 on the 2.66 GHz Pentium 4, where Bn is just below C."),
				app.Li().Text("In the sorting formulas log2 C is taken with C in bytes, which reproduces the seed's quicksort, mergesort and heapsort predictions (1.51, 1.75 and 16.83 s)."),
				app.Li().Text("Units: k, M, G are powers of ten and Ki, Mi, Gi powers of two, so 2.12 GB/s is 2.12·10⁹ bytes per second and 256 KiB is 262144 bytes; 8Mi elements are 8·2²⁰."),
			),
			app.H2().Text("Your data"),
			para("memwall runs entirely in your browser, also offline once it has been opened. Your machines are kept in this browser's local storage; a share link carries the calculation after the #, which browsers do not send to the server."),
			app.H2().Text("Sources"),
			app.Ul().Body(
				app.Li().Text("G. Cooperman, X. Ma, V. H. Nguyen: Static Performance Evaluation for Memory-Bound Computing: the MBRAM Model. Northeastern University (seed 000 of this project): the model, the kernel formulas and the Pentium machines."),
				app.Li().Body(
					app.Text("Charts: Apache ECharts 6.1.0, Apache License 2.0 ("),
					app.A().Href("/web/vendor/echarts/LICENSE").Text("license"),
					app.Text(", "),
					app.A().Href("/web/vendor/echarts/NOTICE").Text("notice"),
					app.Text("). User interface: go-app v9.8.0; the engine is Go compiled to WebAssembly."),
				),
			),
			app.If(p.version != "", app.P().Class("note").Text("Version "+p.version+".")),
		),
	)
}
