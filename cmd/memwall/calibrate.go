package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"memwall/engine/machine"
	"memwall/engine/units"
	"memwall/measure"
)

func init() {
	register(command{name: "calibrate", summary: "measure this machine's MBRAM parameters and write a machine file", run: runCalibrate})
}

func runCalibrate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("calibrate", "[--quick] [--out machine.json] [--curves curves.csv] [--id ID] [--name NAME] [--force] [--compare PREV.json [--against NEW.json]]", stderr)
	quick := fs.Bool("quick", false, "fewer sizes and repetitions: seconds instead of one to three minutes")
	out := fs.String("out", "", "write the machine file here (default: standard output)")
	curves := fs.String("curves", "", "write the latency, random-throughput, sequential-line and distribution curves, the stream test and the line-size offsets as CSV here")
	id := fs.String("id", "", "machine id to record in the file")
	name := fs.String("name", "", "machine name to record in the file (default: the CPU model)")
	force := forceFlag(fs)
	maxMem := fs.String("max-memory", "", "largest buffer to use, e.g. 256MiB (default: 8x the last cache the OS reports, 512 MiB to 2 GiB and at most a quarter of the memory)")
	compare := fs.String("compare", "", "a machine file (or preset id) from an earlier calibration: print every parameter beside this one's, with the relative difference")
	against := fs.String("against", "", "with --compare: compare with this machine file instead of measuring")
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	var prev machine.Machine
	if *against != "" && *compare == "" {
		return fail(stderr, "calibrate", fmt.Errorf("--against %q needs --compare: give both machine files", *against))
	}
	if *compare != "" {
		var err error
		if prev, err = loadMachine(*compare); err != nil {
			return fail(stderr, "calibrate", fmt.Errorf("--compare: %w", err))
		}
	}
	if *against != "" {
		next, err := loadMachine(*against)
		if err != nil {
			return fail(stderr, "calibrate", fmt.Errorf("--against: %w", err))
		}
		printCompare(stdout, prev, next, *compare, *against)
		return 0
	}
	var opts measure.Options
	opts.Quick = *quick
	if *maxMem != "" {
		v, err := units.ParseSize(*maxMem)
		if err != nil || v < 8<<20 {
			return fail(stderr, "calibrate", fmt.Errorf("--max-memory %q: want a size of at least 8MiB, e.g. 256MiB", *maxMem))
		}
		// The buffer must fit in memory with room for the OS: half the
		// RAM the OS reports is the most calibrate will ask for.
		if mem := measure.ReadOSInfo().Memory; mem > 0 && v > mem/2 {
			return fail(stderr, "calibrate", fmt.Errorf("--max-memory %s: more than half of this machine's %s of memory; give at most %s",
				*maxMem, units.FormatSize(mem), units.FormatSize(mem/2)))
		}
		opts.MaxBytes = v
	}
	outs := []output{{"--out", *out}, {"--curves", *curves}}
	if err := checkOutputs(*force, nil, outs...); err != nil {
		return fail(stderr, "calibrate", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	began := time.Now()
	opts.Progress = func(p measure.Progress) {
		left := ""
		if p.Done > 0 && p.Total > p.Done {
			el := time.Since(began).Seconds()
			left = fmt.Sprintf(" (%s elapsed, about %s left)", units.FormatSeconds(el), units.FormatSeconds(el*float64(p.Total-p.Done)/float64(p.Done)))
		}
		fmt.Fprintf(stderr, "[%d/%d] %s%s\n", p.Done, p.Total, p.Step, left)
	}
	res, err := measure.Calibrate(ctx, opts)
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "memwall calibrate: warning: %s\n", w)
	}
	if err != nil {
		return fail(stderr, "calibrate", measureError(err, outs...))
	}
	m := res.Machine
	m.ID = *id
	m.Name = *name
	if m.Name == "" {
		m.Name = m.Notes["cpu"]
	}
	m.Description = fmt.Sprintf("%s, %s RAM, measured by memwall calibrate on %s (%s mode)", m.Notes["cpu"], m.Notes["memory"], m.Notes["date"], m.Notes["mode"])
	fmt.Fprintf(stderr, "beta1 %s (spread %.1f%%), beta2 %s (%.1f%%), C %s, B %d B, m %s (%.1f%%)\n",
		units.FormatBandwidth(m.Beta1), 100*m.Spread["beta1"], units.FormatBandwidth(m.Beta2), 100*m.Spread["beta2"],
		units.FormatSize(m.C), m.B, units.FormatSeconds(m.M), 100*m.Spread["mispredict"])
	for i, l := range m.Levels {
		k := fmt.Sprintf("levels[%d].", i)
		fmt.Fprintf(stderr, "%s %s (%.1f%%): beta1 %s (%.1f%%), beta2 %s (%.1f%%), latency %s (%.1f%%)\n", l.Name, units.FormatSize(l.Size), 100*m.Spread[m.SizeSpreadKey(i)],
			units.FormatBandwidth(l.Beta1), 100*m.Spread[k+"beta1"], units.FormatBandwidth(l.Beta2), 100*m.Spread[k+"beta2"],
			units.FormatSeconds(l.Latency), 100*m.Spread[k+"latency"])
	}
	if m.MemLatency > 0 {
		fmt.Fprintf(stderr, "memory latency %s (%.1f%%)\n", units.FormatSeconds(m.MemLatency), 100*m.Spread["mem_latency"])
	}
	if n := len(m.MemLatencyCurve); n > 0 {
		a, z := m.MemLatencyCurve[0], m.MemLatencyCurve[n-1]
		fmt.Fprintf(stderr, "memory latency by span: %s at %s → %s at %s (%d points)\n",
			units.FormatSeconds(a.Latency), units.FormatSize(a.Span), units.FormatSeconds(z.Latency), units.FormatSize(z.Span), n)
		if l := len(m.Levels); m.CurveBelowCache() {
			fmt.Fprintf(stderr, "a chase finds %s of %s's %s (its latency halfway to memory's there)\n",
				units.FormatSize(int64(m.DependentReach())), m.Levels[l-1].Name, units.FormatSize(m.Levels[l-1].Size))
		}
	}
	if n := len(m.GatherCurve); n > 0 {
		a, z := m.GatherCurve[0], m.GatherCurve[n-1]
		fmt.Fprintf(stderr, "random reads by index by span: %s a read at %s → %s at %s (%d points, %.1f%%)\n",
			units.FormatSeconds(a.Read), units.FormatSize(a.Span), units.FormatSeconds(z.Read), units.FormatSize(z.Span), n, 100*m.Spread["gather_curve"])
	}
	if m.ComputeRate > 0 {
		fmt.Fprintf(stderr, "compute rate %.3g/s (median of the reference kernels' core rates)\n", m.ComputeRate)
	}
	if n := len(m.Distribution); n > 0 {
		a, z := m.Distribution[0], m.Distribution[n-1]
		fmt.Fprintf(stderr, "distribution curve: count %s → %s, scatter %s → %s, the simple sorts' put %s → %s a line of keys, page walk %s → %s a read, arrays of %s to %s (%d points)\n",
			units.FormatSeconds(a.Count), units.FormatSeconds(z.Count), units.FormatSeconds(a.Scatter), units.FormatSeconds(z.Scatter),
			units.FormatSeconds(a.Put), units.FormatSeconds(z.Put), units.FormatSeconds(a.Walk), units.FormatSeconds(z.Walk), units.FormatSize(a.Size), units.FormatSize(z.Size), n)
	}
	if n := len(m.FewBuckets); n > 0 {
		a, z := m.FewBuckets[0], m.FewBuckets[n-1]
		fmt.Fprintf(stderr, "few buckets: count %s → %s, scatter %s → %s, put %s → %s a line of keys into %d → %d buckets (%.1f%%)\n",
			units.FormatSeconds(a.Count), units.FormatSeconds(z.Count), units.FormatSeconds(a.Scatter), units.FormatSeconds(z.Scatter),
			units.FormatSeconds(a.Put), units.FormatSeconds(z.Put), a.Buckets, z.Buckets, 100*m.Spread["few_buckets.count"])
	}
	if m.Streams > 0 {
		fmt.Fprintf(stderr, "streams %d (%s)\n", m.Streams, m.Notes["streams_method"])
	} else if why := m.Notes["streams_method"]; why != "" {
		fmt.Fprintf(stderr, "streams: %s\n", why)
	}
	if m.L1Fill > 0 {
		fmt.Fprintf(stderr, "L1 fills beside the core's work: %s a line (%.1f%%), exposed share κ %.3g (%.1f%%)\n",
			units.FormatSeconds(m.L1Fill), 100*m.Spread["l1_fill"], m.L1Exposed, 100*m.Spread["l1_exposed"])
	}
	if m.LevelOverlap > 0 {
		fmt.Fprintf(stderr, "levels' transfers overlap: ω = %.3g (%s)\n", m.LevelOverlap, m.Notes["level_overlap"])
	}
	if why := m.Notes[measure.GatherNote]; why != "" {
		fmt.Fprintf(stderr, "memory's random fill: %s\n", why)
	}
	if m.WalkInFlight > 0 {
		fmt.Fprintf(stderr, "a heap walk's lines in flight: %.3g (%.1f%%; %s)\n", m.WalkInFlight, 100*m.Spread["walk_in_flight"], m.Notes["walk_in_flight"])
	}
	if m.CrowdedRead > 0 {
		fmt.Fprintf(stderr, "a crowded read: %s (%.1f%%; %s)\n", units.FormatSeconds(m.CrowdedRead), 100*m.Spread["crowded_read"], m.Notes["crowded_read"])
	}
	if len(m.ColumnCurve) > 0 {
		fmt.Fprintf(stderr, "the column curve: %d points (%.1f%%; %s)\n", len(m.ColumnCurve), 100*m.Spread["column_curve"], m.Notes["column_curve"])
	}
	if *compare != "" {
		printCompare(stderr, prev, m, *compare, "this run")
	}
	if *curves != "" {
		if err := writeOutput(outs[1], func(w io.Writer) error { return writeCurves(w, res) }); err != nil {
			return fail(stderr, "calibrate", err)
		}
	}
	if err := writeTo(stdout, outs[0], func(w io.Writer) error { return writeJSON(w, m) }); err != nil {
		return fail(stderr, "calibrate", err)
	}
	return 0
}

// writeCurves writes one CSV with a "curve" column: latency rows (size in
// bytes, seconds per dependent load), random-throughput rows (size in bytes,
// seconds per independent random read; C comes from these),
// sequential-line rows (size in bytes, seconds per 64-byte block read in
// order; the levels' β1 come from their steps), line rows
// (offset in bytes, seconds per node of the line-size test) and the
// distribution curve's rows (bytes of each array, seconds per line of
// keys of the count and the scatter loop, seconds per read of the page
// walk) and the stream test's (buckets in the x column, seconds per line
// of keys of the scatter).
func writeCurves(f io.Writer, res measure.Result) error {
	w := csv.NewWriter(f)
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	_ = w.Write([]string{"curve", "x_bytes", "median_seconds", "min_seconds", "spread"})
	for _, p := range res.Latency {
		_ = w.Write([]string{"latency", strconv.FormatInt(p.Size, 10), g(p.Latency.Median), g(p.Latency.Min), g(p.Latency.Spread)})
	}
	for _, p := range res.Throughput {
		_ = w.Write([]string{"random-throughput", strconv.FormatInt(p.Size, 10), g(p.Access.Median), g(p.Access.Min), g(p.Access.Spread)})
	}
	for _, p := range res.SeqLines {
		_ = w.Write([]string{"sequential-line", strconv.FormatInt(p.Size, 10), g(p.Block.Median), g(p.Block.Min), g(p.Block.Spread)})
	}
	for _, p := range res.Line {
		_ = w.Write([]string{"line", strconv.FormatInt(p.Offset, 10), g(p.Time.Median), g(p.Time.Min), g(p.Time.Spread)})
	}
	for _, p := range res.Distribution {
		_ = w.Write([]string{"distribution-count", strconv.FormatInt(p.Size, 10), g(p.Count.Median), g(p.Count.Min), g(p.Count.Spread)})
		_ = w.Write([]string{"distribution-scatter", strconv.FormatInt(p.Size, 10), g(p.Scatter.Median), g(p.Scatter.Min), g(p.Scatter.Spread)})
		_ = w.Write([]string{"page-walk", strconv.FormatInt(p.Size, 10), g(p.Walk.Median), g(p.Walk.Min), g(p.Walk.Spread)})
		if p.Put.Median > 0 {
			_ = w.Write([]string{"distribution-put", strconv.FormatInt(p.Size, 10), g(p.Put.Median), g(p.Put.Min), g(p.Put.Spread)})
		}
	}
	for _, p := range res.FewBuckets {
		b := strconv.Itoa(p.Buckets)
		_ = w.Write([]string{"few-buckets-count", b, g(p.Count.Median), g(p.Count.Min), g(p.Count.Spread)})
		_ = w.Write([]string{"few-buckets-scatter", b, g(p.Scatter.Median), g(p.Scatter.Min), g(p.Scatter.Spread)})
		_ = w.Write([]string{"few-buckets-put", b, g(p.Put.Median), g(p.Put.Min), g(p.Put.Spread)})
	}
	for _, p := range res.Streams {
		_ = w.Write([]string{"scatter-buckets", strconv.Itoa(p.Buckets), g(p.Scatter.Median), g(p.Scatter.Min), g(p.Scatter.Spread)})
	}
	w.Flush()
	return w.Error()
}

// printCompare prints two calibrations' parameters side by side with the
// relative difference, marks those that differ by more than
// measure.AgreeWithin and says how many do; then the hierarchy model's
// estimates of validate's rows on both (compareEstimates), what each
// parameter that differs does to them alone (paramEffects), and which
// parameter moves most each row that moved (estimateCauses).
func printCompare(w io.Writer, a, b machine.Machine, nameA, nameB string) {
	diffs := measure.Compare(a, b)
	fmt.Fprintf(w, "%-24s %14s %14s %9s %15s\n", "parameter", nameA, nameB, "change", "spreads")
	over, noisy, step := 0, 0, 0
	for _, d := range diffs {
		mark, rel := "", "—"
		if !math.IsInf(d.Rel, 0) {
			rel = fmt.Sprintf("%+.1f%%", 100*signed(d))
		}
		if d.Rel > measure.AgreeWithin {
			mark = "  > " + strconv.Itoa(int(100*measure.AgreeWithin)) + "%"
			over++
			if d.WithinSpread() {
				mark += ", within the spreads"
				noisy++
			}
			if d.OnStep {
				mark += ", on the last cache's step"
				step++
			}
		}
		fmt.Fprintf(w, "%-24s %14s %14s %9s %15s%s\n", d.Param, paramValue(d.Param, d.A), paramValue(d.Param, d.B), rel, spreads(d), mark)
	}
	fmt.Fprintf(w, "%d of %d parameters differ by more than %d%%", over, len(diffs), int(100*measure.AgreeWithin))
	if noisy > 0 {
		fmt.Fprintf(w, "; %d of them by no more than its spread over the rounds of either calibration", noisy)
	}
	if step > 0 {
		fmt.Fprintf(w, "; %d of them a curve's point on the last cache's step (within %g times either cache), which follows the share of the cache the machine gets, compared as cache", step, measure.StepBand)
	}
	fmt.Fprintln(w)
	changes := compareEstimates(a, b)
	printEstimateChanges(w, changes, nameA, nameB)
	printParamEffects(w, paramEffects(a, b, diffs), nameA, nameB)
	printEstimateCauses(w, estimateCauses(a, b, changes), nameA, nameB)
}

// spreads shows a parameter's spread in both calibrations, "—" where one
// has none.
func spreads(d measure.Diff) string {
	f := func(v float64) string {
		if v == 0 {
			return "—"
		}
		return fmt.Sprintf("%.1f%%", 100*v)
	}
	return f(d.SpreadA) + " " + f(d.SpreadB)
}

func signed(d measure.Diff) float64 {
	if d.A == 0 {
		return 0
	}
	return (d.B - d.A) / d.A
}

// paramValue formats a parameter in its unit.
func paramValue(name string, v float64) string {
	if v == 0 {
		return "—"
	}
	switch {
	case strings.HasSuffix(name, "beta1"), strings.HasSuffix(name, "beta2"):
		return units.FormatBandwidth(v)
	case name == "cache", name == "dependent_reach", strings.HasSuffix(name, ".size"):
		return units.FormatSize(int64(v))
	case name == "line":
		return strconv.FormatInt(int64(v), 10) + " B"
	case name == "streams":
		return strconv.FormatInt(int64(v), 10)
	case name == "l1_exposed", name == "walk_in_flight":
		return strconv.FormatFloat(v, 'g', 3, 64)
	case name == "mispredict", name == "l1_fill", name == "crowded_read", strings.HasSuffix(name, "latency"), strings.HasPrefix(name, "mem_latency_curve["), strings.HasPrefix(name, "distribution."), strings.HasPrefix(name, "few_buckets."), strings.HasPrefix(name, "stream_cost."), strings.HasPrefix(name, "column_curve["), strings.HasPrefix(name, "gather_curve["):
		return units.FormatSeconds(v)
	default:
		return strconv.FormatFloat(v, 'g', 3, 64) + "/s"
	}
}
