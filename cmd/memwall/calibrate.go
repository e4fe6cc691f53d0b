package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"time"

	"memwall/engine/units"
	"memwall/measure"
)

func init() {
	register(command{name: "calibrate", summary: "measure this machine's MBRAM parameters and write a machine file", run: runCalibrate})
}

func runCalibrate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("calibrate", "[--quick] [--out machine.json] [--curves curves.csv] [--id ID] [--name NAME] [--force]", stderr)
	quick := fs.Bool("quick", false, "fewer sizes and repetitions: seconds instead of about a minute")
	out := fs.String("out", "", "write the machine file here (default: standard output)")
	curves := fs.String("curves", "", "write the latency and random-throughput curves and the line-size offsets as CSV here")
	id := fs.String("id", "", "machine id to record in the file")
	name := fs.String("name", "", "machine name to record in the file (default: the CPU model)")
	force := forceFlag(fs)
	maxMem := fs.String("max-memory", "", "largest buffer to use, e.g. 256MiB (default: 4x the last cache the OS reports, 512 MiB to 1 GiB)")
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
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
// seconds per independent random read; C comes from these) and line rows
// (offset in bytes, seconds per node of the line-size test).
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
	for _, p := range res.Line {
		_ = w.Write([]string{"line", strconv.FormatInt(p.Offset, 10), g(p.Time.Median), g(p.Time.Min), g(p.Time.Spread)})
	}
	w.Flush()
	return w.Error()
}
