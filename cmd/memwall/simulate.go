package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"

	"memwall/engine/hier"
	"memwall/engine/kernels"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/scenario"
	"memwall/engine/sim"
	"memwall/engine/trace"
	"memwall/engine/units"
)

func init() {
	register(command{name: "simulate", summary: "run a kernel or replay a trace through the MBRAM trace simulator (and through the hierarchy simulator on a machine with levels)", run: runSimulate})
}

// simOutput is the JSON form of a simulation.
type simOutput struct {
	Machine   string        `json:"machine"`
	Kernel    string        `json:"kernel,omitempty"`
	Params    *mbram.Params `json:"params,omitempty"`
	Seed      *uint64       `json:"seed,omitempty"`
	Trace     string        `json:"trace,omitempty"`
	Format    string        `json:"format,omitempty"`
	Predictor string        `json:"predictor"`
	Window    int           `json:"window"`
	Seconds   float64       `json:"seconds"`
	// ClosedForm* are the MBRAM formulas for the same kernel and inputs
	// (kernels only).
	ClosedFormSeconds *float64     `json:"closed_form_seconds,omitempty"`
	ClosedFormTerms   []mbram.Term `json:"closed_form_terms,omitempty"`
	Terms             []mbram.Term `json:"terms"`
	Counts            sim.Counts   `json:"counts"`
	Phases            []sim.Phase  `json:"phases,omitempty"`
	TraceStats        *trace.Stats `json:"trace_stats,omitempty"`
	Note              string       `json:"note"`
	// Hierarchy is the run through the hierarchy simulator, on a machine
	// that gives its cache levels.
	Hierarchy *hier.Result `json:"hierarchy,omitempty"`
	// MissCurves are the run's miss curves (--miss-curve), one for each
	// line size of the machine's levels.
	MissCurves []hier.MissCurve `json:"miss_curves,omitempty"`
}

// missCurvePerDoubling is the miss curve's cache sizes a doubling.
const missCurvePerDoubling = 4

const simNote = "simulated by the MBRAM model rules (the MBRAM paper, section II.d): a lower bound like the closed forms; a line transfer is sequential (B/β1) when it continues a stream and the last `window` fills belong to at most mu1 streams"

func runSimulate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("simulate", "--machine ID|FILE.json (--kernel ID [--set name=value]... [--seed S] | --trace FILE [--format plain|lackey]) [--predictor majority|2bit] [--miss-curve] [--json]", stderr)
	machineArg := fs.String("machine", "", "preset id or machine JSON file")
	kernelID := fs.String("kernel", "", "kernel id (see 'memwall kernels')")
	var sets setFlags
	fs.Var(&sets, "set", "workload parameter name=value: n (elements or matrix dimension), w (word bytes), b (buckets); repeatable")
	seed := fs.Uint64("seed", 1, "random seed of the generated data")
	traceFile := fs.String("trace", "", "replay a trace file instead of a kernel ('-' reads standard input)")
	formatArg := fs.String("format", "plain", "trace format: plain (R|W address size) or lackey (valgrind --tool=lackey --trace-mem=yes)")
	limitArg := fs.String("limit", "1GiB", "largest trace accepted")
	predArg := fs.String("predictor", "majority", "branch predictor: majority (the MBRAM paper's idealised rule) or 2bit")
	window := fs.Int("window", 0, "region length in line fills for the stream rule (0: the default, 8)")
	missCurve := fs.Bool("miss-curve", false, "also print the run's miss curve: the misses of an LRU cache of every size, from exact stack distances (slower)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	inputs := addInputFlags(fs, "Simulate")
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	var m machine.Machine
	var linked *scenario.Run
	if inputs.given() {
		r, err := inputs.run()
		if err != nil {
			return fail(stderr, "simulate", err)
		}
		if *traceFile != "" {
			return fail(stderr, "simulate", errors.New("--trace: a link or scenario file runs a kernel, not a trace"))
		}
		linked, m, *kernelID, *seed, *predArg = &r, r.Machine, r.Kernel, r.Seed, r.Pred().String()
		*missCurve = *missCurve || r.MissCurve
	} else {
		var err error
		if m, err = loadMachine(*machineArg); err != nil {
			return fail(stderr, "simulate", err)
		}
	}
	if err := m.Validate(); err != nil {
		return fail(stderr, "simulate", fmt.Errorf("--machine: %v", err))
	}
	pred, err := sim.ParsePredictor(*predArg)
	if err != nil {
		return fail(stderr, "simulate", fmt.Errorf("--%v", err))
	}
	cfg := sim.ConfigFor(m, pred)
	cfg.Window = *window
	s, err := sim.New(cfg)
	if err != nil {
		return fail(stderr, "simulate", simConfigError(err, *machineArg))
	}
	out := simOutput{Machine: m.ID, Predictor: pred.String(), Window: s.Config().Window, Note: simNote}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var closed *mbram.Breakdown
	// The hierarchy simulator runs on a machine with levels, and on any
	// machine for the miss curve; its result is shown only for levels.
	hs, err := hier.NewForRun(m, *missCurve)
	if err != nil {
		return fail(stderr, "simulate", err)
	}
	levels := len(m.Levels) > 0
	switch {
	case (*kernelID == "") == (*traceFile == ""):
		return fail(stderr, "simulate", errors.New("give exactly one of --kernel ID and --trace FILE"))
	case *kernelID != "":
		k, ok := mbram.Lookup(*kernelID)
		if !ok {
			return fail(stderr, "simulate", fmt.Errorf("--%v", mbram.ErrUnknownKernel(*kernelID)))
		}
		p := defaultParams(k)
		if linked != nil {
			p = linked.Params
		} else if err := parseSets(sets, &p); err != nil {
			return fail(stderr, "simulate", err)
		}
		prog := newProgress(stderr, "simulate")
		opts := kernels.Options{Seed: *seed, Progress: func(_ *sim.Sim, done, total int64) { prog.update(done, total, "accesses") }}
		if hs != nil {
			opts.Tracer = hs
		}
		err = kernels.Run(ctx, s, k.ID, p, opts)
		prog.done()
		if levels && err == nil {
			hr := hs.KernelResult(m, k.ID, p, s.Counts().Mispredictions)
			out.Hierarchy = &hr
		}
		if err != nil {
			var pe *mbram.ParamError
			if errors.As(err, &pe) {
				return fail(stderr, "simulate", fmt.Errorf("--set %v", err))
			}
			return fail(stderr, "simulate", err)
		}
		if b, err := mbram.Predict(m, k.ID, p); err == nil {
			closed = &b
			out.ClosedFormSeconds = &b.Seconds
			out.ClosedFormTerms = b.Terms
		}
		out.Kernel, out.Params, out.Seed = k.ID, &p, seed
	default:
		if len(sets) > 0 {
			return fail(stderr, "simulate", errors.New("--set applies to --kernel, not to --trace"))
		}
		f, err := trace.ParseFormat(*formatArg)
		if err != nil {
			return fail(stderr, "simulate", fmt.Errorf("--%v", err))
		}
		limit, err := units.ParseSize(*limitArg)
		if err != nil || limit < 1 {
			return fail(stderr, "simulate", fmt.Errorf("--limit: a size such as 1GiB; got %q", *limitArg))
		}
		var in io.Reader = os.Stdin
		if *traceFile != "-" {
			file, err := os.Open(*traceFile)
			if err != nil {
				return fail(stderr, "simulate", fmt.Errorf("--trace: %v", err))
			}
			defer file.Close()
			in = file
		}
		prog := newProgress(stderr, "simulate")
		var tee trace.Tee // nil, not a nil *hier.Sim, on a machine without levels
		if hs != nil {
			tee = hs
		}
		st, err := trace.Replay(ctx, s, tee, trace.NewReader(in, f, limit), 0, func(_ *sim.Sim, st trace.Stats) { prog.update(st.Records, 0, "records") })
		prog.done()
		if err != nil {
			return fail(stderr, "simulate", fmt.Errorf("--trace %s: %v", *traceFile, err))
		}
		if levels {
			hr := hs.TraceResult()
			out.Hierarchy = &hr
		}
		out.Trace, out.Format, out.TraceStats = *traceFile, f.String(), &st
	}
	r := s.Result()
	out.Seconds, out.Terms, out.Counts, out.Phases = r.Seconds, r.Terms, r.Counts, r.Phases
	if *missCurve {
		out.MissCurves = hs.MissCurves(missCurvePerDoubling)
	}
	if *asJSON {
		if err := writeJSON(stdout, out); err != nil {
			return fail(stderr, "simulate", err)
		}
		return 0
	}
	writeSimText(stdout, m, out, closed)
	return 0
}

func writeSimText(w io.Writer, m machine.Machine, out simOutput, closed *mbram.Breakdown) {
	if out.Kernel != "" {
		k, _ := kernels.Lookup(out.Kernel)
		fmt.Fprintf(w, "%s on %s (%s)\n", k.Name, m.Name, out.Machine)
		fmt.Fprintf(w, "n = %s, w = %d B, b = %d, random seed %d, data: %s\n", units.FormatCount(out.Params.N), out.Params.W, out.Params.Buckets, *out.Seed, k.Data)
	} else {
		fmt.Fprintf(w, "trace %s (%s, %d records) on %s (%s)\n", out.Trace, out.Format, out.TraceStats.Records, m.Name, out.Machine)
	}
	fmt.Fprintf(w, "predictor %s, region %d fills\n\n", out.Predictor, out.Window)
	fmt.Fprintf(w, "simulated:   %s\n", units.FormatSeconds(out.Seconds))
	if closed != nil {
		fmt.Fprintf(w, "closed form: %s (%s)\n", units.FormatSeconds(closed.Seconds), lowerBoundNote)
	}
	fmt.Fprintln(w, "\nsimulated terms:")
	for _, t := range out.Terms {
		fmt.Fprintf(w, "  %12s  %s\n  %12s  %s\n", units.FormatSeconds(t.Seconds), t.Name, "", t.Formula)
	}
	if closed != nil {
		fmt.Fprintln(w, "closed-form terms:")
		for _, t := range closed.Terms {
			fmt.Fprintf(w, "  %12s  %s\n", units.FormatSeconds(t.Seconds), t.Name)
		}
	}
	c := out.Counts
	fmt.Fprintf(w, "\ncounts:\n  accesses %d (reads %d, writes %d)\n  hits %d, misses %d, write-backs %d\n  transfers: sequential %d, random %d\n  branches %d, mispredictions %d\n",
		c.Accesses, c.Reads, c.Writes, c.Hits, c.Misses, c.Writebacks, c.SeqTransfers, c.RandTransfers, c.Branches, c.Mispredictions)
	if len(out.Phases) > 0 {
		fmt.Fprintln(w, "\nphases:")
		for _, p := range out.Phases {
			fmt.Fprintf(w, "  %12s  %s (misses %d, write-backs %d)\n", units.FormatSeconds(p.Seconds), p.Name, p.Counts.Misses, p.Counts.Writebacks)
		}
	}
	if out.Hierarchy != nil {
		fmt.Fprintln(w)
		printHierarchy(w, out.Hierarchy)
	}
	for _, c := range out.MissCurves {
		fmt.Fprintln(w)
		printMissCurve(w, c, m)
	}
}

// printMissCurve prints a miss curve as a table, a row a cache size, with
// the cache levels of m of its line size named at their sizes.
func printMissCurve(w io.Writer, c hier.MissCurve, m machine.Machine) {
	fmt.Fprintf(w, "miss curve, %d-byte lines: the misses of a fully associative LRU cache of each size (%d line accesses, %d of them first accesses)\n", c.Line, c.Accesses, c.Cold)
	names := map[int64][]string{}
	for _, l := range m.Hierarchy() {
		if l.Line == c.Line {
			names[l.Size/l.Line] = append(names[l.Size/l.Line], l.Name)
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "  cache\tlines\tmisses\tmiss ratio\t\t\n")
	for _, p := range c.Points {
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%.4f\t%s\t\n", units.FormatSize(p.Bytes), p.Lines, p.Misses, float64(p.Misses)/float64(max(c.Accesses, 1)), strings.Join(names[p.Lines], ", "))
	}
	tw.Flush()
}

// simConfigError names what the user can change for a simulator setting
// out of range: --window and --predictor are flags; the line, cache,
// streams, bandwidths and penalty come from the machine file's fields of
// the same names.
func simConfigError(err error, machineArg string) error {
	msg := err.Error()
	for _, f := range []string{"window", "predictor"} {
		if strings.HasPrefix(msg, f+":") {
			return fmt.Errorf("--%s", msg)
		}
	}
	fields := map[string]string{"line": "line", "cache": "cache", "mu1": "mu1", "beta1": "beta1", "beta2": "beta2", "mispredict": "mispredict"}
	if name, rest, ok := strings.Cut(msg, ":"); ok {
		if field, ok := fields[name]; ok {
			return fmt.Errorf("--machine %s: field %q:%s", quoteName(machineArg), field, rest)
		}
	}
	return fmt.Errorf("--machine %s: %s", quoteName(machineArg), msg)
}
