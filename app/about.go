package app

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// aboutPage explains the models, their assumptions and where the numbers
// come from, and cites the four papers (docs/readings.md keeps the same
// references).
type aboutPage struct {
	app.Compo
	version string
}

func (p *aboutPage) OnPreRender(ctx app.Context) { p.init(ctx) }
func (p *aboutPage) OnNav(ctx app.Context)       { p.init(ctx) }

func (p *aboutPage) init(ctx app.Context) {
	pageHead(ctx, "About", "The models behind memwall (MBRAM and the hierarchy model, lines touched, speedup from functional forms, shared-memory supersteps): their parameters, their assumptions and the papers they come from.")
	p.version = app.Getenv("GOAPP_VERSION")
}

func (p *aboutPage) Render() app.UI {
	para := func(s string) app.UI { return app.P().Text(s) }
	// ref is one entry of the reference list: its short name as the pages
	// use it, the reference, and what memwall takes from it.
	ref := func(id, short string, reference []app.UI, takes string) app.UI {
		return app.Li().ID(id).Body(
			app.P().Body(append([]app.UI{app.Strong().Text(short + ". ")}, reference...)...),
			app.P().Text("memwall takes from it "+takes),
		)
	}
	return shell("/about",
		app.H1().Text("About memwall"),
		app.Section().Class("panel prose").Body(
			app.H2().Text("The MBRAM model (Cooperman, Ma and Nguyen)"),
			para("memwall predicts how long a memory-bound program takes before it is written or run. A memory-bound program spends most of its time waiting for memory, so the model counts memory traffic and mispredicted branches instead of instructions. It needs six numbers per machine:"),
			app.Ul().Body(
				app.Li().Text("β1: bandwidth of a sequential stream, for at most μ1 concurrent streams and no other traffic;"),
				app.Li().Text("β2: bandwidth of all other traffic, a cache line fetched from a random place;"),
				app.Li().Text("μ1: how many sequential streams run at β1 (2 by default);"),
				app.Li().Text("C and B: the size of the largest cache and of its line (μ2 = C/B lines);"),
				app.Li().Text("m: the time lost on a mispredicted branch."),
			),
			para("Each read brings a whole line into the cache; a write first reads its line; the cache starts empty and evicts the least recently used line; a branch costs m times the probability that the best predictor based on its history is wrong (model rules 1 to 8 of the MBRAM paper, section II)."),
			app.H2().Text("Lower bounds"),
			para("On the paper's machines every prediction is a lower bound by construction: the model charges nothing for hits in the smaller caches, for TLB misses or for instructions. In the MBRAM paper's experiments the measured times are 1.0 to 1.8 times the prediction (more where a program is partly CPU-bound); a measured time far above the prediction points at one of those costs, or at a part of the program that is not memory-bound."),
			app.H2().Text("The hierarchy model (Kernels page, machines with cache levels)"),
			para("A current core has several cache levels, and a program whose data fit in the L2 but not in the L1 pays for its L1 misses at the L2's bandwidth, not the memory's. A machine may give its levels (size, line, and the bandwidths β1 and β2 of filling each from the level below), the latency of memory and the core's compute rate; for such a machine the Kernels page predicts by the hierarchy model, memwall's own: the MBRAM paper's way of charging time (each line moved costs its size over a bandwidth, and the terms add up) applied level by level, with the core's work at its compute rate and the mispredicted branches. It is an estimate, not a bound. The MBRAM prediction is shown beside it, but on such a machine it is not a lower bound either: the paper's bound rests on its machines, with one cache and no prefetching of independent misses."),
			app.H2().Text("How the formulas are read"),
			app.Ul().Body(
				app.Li().Text("The traditional permutation product costs (3w/β1 + B/β2)·N and the two-pass one 10w·N/β2; the MBRAM paper prints them for w = 4 bytes as (12/β1 + B/β2)·N and 40N/β2."),
				app.Li().Text("The row-major matrix product uses w·n³/β1 + B·n³/β2 when a column's lines and a row do not fit in the cache together (Bn + wn ≥ C), and w·n³/β2 when they do; the paper writes the first condition Bn ≥ C but applies it to n = 4000 on the 2.66 GHz Pentium 4, where Bn is just below C."),
				app.Li().Text("In the sorting formulas log2 C is taken with C in bytes, which reproduces the paper's quicksort, mergesort and heapsort predictions (1.51, 1.75 and 16.83 s)."),
				app.Li().Text("Units: k, M, G are powers of ten and Ki, Mi, Gi powers of two, so 2.12 GB/s is 2.12·10⁹ bytes per second and 256 KiB is 262144 bytes; 8Mi elements are 8·2²⁰."),
			),
			app.H2().Text("Lines touched: the cost of a message (Communication page)"),
			para("Sending a column of a row-major array costs more than sending a row of the same bytes, because every element of the column drags its own memory line through the cache. The lines-touched paper adds u, the number of distinct memory lines a message touches, to the usual cost per message and per byte: M1 = α·m + β·n + γ·u. memwall counts u exactly for a row or column transfer at any alignment (the starts of the rows repeat with period L/gcd(W, L)), gives its least and largest value over all alignments, fits the standard models S1–S3 and the models with lines touched M1–M3 to measured messages, and predicts which of the paper's two convolution programs (by shifts or by scans) is faster for a box size b."),
			app.H2().Text("Speedup from functional forms (Speedup page)"),
			para("Chittor's thesis (1994) writes a parallel program's running time as a linear combination of functional forms of the problem size N and the processor count P (N/P, P·log P, N/P·log²(N/P), ...), taken from the algorithm's analysis, and fits the coefficients to a few measured runs in a characterisation region. The fit predicts the runs outside it, the speedup T(N, 1)/T(N, P), and the roll-off point beyond which more processors make the program slower, beside Amdahl's, Gustafson's and Sun and Ni's laws."),
			app.H2().Text("Shared-memory supersteps (Supersteps page)"),
			para("The superstep paper (Amato et al., 1998) times bulk-synchronous supersteps on a shared-memory machine from the largest number of global reads h_r and writes h_w of any processor and the total M of reads and writes. A Good cost function (accesses with the best locality: consecutive, in a primed cache) and a Bad one (one access per line, lines shared between writers) bound a superstep's communication time from below and above; a measured time t_m then gives the locality Loc = 1 − (t_m − t_g)/(t_b − t_g) and the ratio M/G = t_m/t_g. memwall carries the paper's coefficients for the SGI Power Challenge and the supersteps of its radix, sample and column sorts; memwall superstep-suites runs the paper's experiment suites on your machine so the cost functions can be fitted to it."),
			app.H2().Text("Your data"),
			para("memwall runs entirely in your browser, also offline once it has been opened. Your machines are kept in this browser's local storage; a share link carries the calculation after the #, which browsers do not send to the server."),
			app.H2().Text("References"),
			para("The pages cite the four papers by the short names below, with the paper's own figure, table, section and equation numbers."),
			app.Ul().ID("references").Body(
				ref("ref-mbram", "The MBRAM paper", []app.UI{
					app.Text("G. Cooperman, X. Ma and V. H. Nguyen, "),
					app.Em().Text("Static Performance Evaluation for Memory-Bound Computing: the MBRAM Model"),
					app.Text(", College of Computer Science, Northeastern University, Boston; published at PDPTA 2004 (International Conference on Parallel and Distributed Processing Techniques and Applications)."),
				}, "the MBRAM model and its rules, the formulas of the permutation products, the row-major matrix product and seven sorts, and the four Pentium machines with their printed predictions and measured times (Figs. 2–5): the Kernels, Machines, Simulate, Program, Paper and Data pages."),
				ref("ref-lines", "The lines-touched paper", []app.UI{
					app.Text("A communication cost model that adds the number of unique memory lines touched (NUML) when a message is marshalled, for point-to-point messages and parallel prefix, with benchmarks in C with MPI and in ZPL on the Cray T3E, the IBM SP-2 and the Sun Enterprise 5000. The text memwall works from gives neither its title, its authors nor its year, and they could not be found, so memwall names it by what it is."),
				}, "the count of lines touched by a row or column transfer and its bounds (eqs. 3–6), the models S1–S3 and M1–M3, and the convolution programs Conv-Shift and Conv-Scan (section 7): the Communication page."),
				ref("ref-chittor", "Chittor's thesis", []app.UI{
					app.Text("A. Chittor, "),
					app.Em().Text("Methodology for Accurate Speedup Prediction"),
					app.Text(", M.S. thesis in Electrical and Computer Engineering, Portland State University, 1994, doi:10.15760/etd.6772."),
				}, "the functional forms of T(N, P), the analysis of bitonic merge sort (eqs. 6, 9 and 11), the fitted eqs. 13–18 and the measured Tables 3–6: the Speedup page."),
				ref("ref-superstep", "The superstep paper", []app.UI{
					app.Text("N. M. Amato, A. Pietracaprina, G. Pucci, L. K. Dale and J. Perdue, "),
					app.Em().Text("A Cost Model for Communication on a Symmetric MultiProcessor"),
					app.Text(", 1998: a study of communication costs on the SGI Power Challenge. The text memwall works from gives neither title nor authors; they are those of the published record whose abstract is the same, word for word."),
				}, "the Good and Bad cost functions, their coefficients and validation errors (Tables 1–8), the experiment suites (Suites 1–3) and the supersteps of radix, sample and column sort (Tables 9–11): the Supersteps page."),
			),
			app.H2().Text("Software"),
			app.Ul().Body(
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
