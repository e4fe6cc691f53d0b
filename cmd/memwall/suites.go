package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"memwall/engine/superstep"
	"memwall/engine/units"
	"memwall/internal/jsonx"
	"memwall/measure"
)

func init() {
	register(command{name: "superstep-suites", summary: "time seed 003's good and bad supersteps (Suites 1-3) on this machine, as CSV for memwall fit", run: runSuperstepSuites})
}

// superstepColumns is the CSV header: the columns seed 003's cost
// functions take, named as memwall fit's terms write them.
var superstepColumns = []string{"suite", "mode", "bad", "pattern", "p", "x", "h_set",
	"h_r", "h_w", "h", "M", "h_rc", "h_rm", "h_wc", "h_wm", "time_us", "spread"}

func runSuperstepSuites(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("superstep-suites", flag.ContinueOnError)
	fs.SetOutput(stderr)
	procs := fs.String("p", "", "comma-separated processor `counts` (default: the CPUs)")
	suites := fs.String("suites", "1,2,3", "comma-separated `suites` from 1, 2, 3")
	modes := fs.String("modes", "good,bad", "comma-separated `modes`: good, bad")
	hs := fs.String("h", "seed", "access `counts` h, comma-separated (8Ki, 2^20), or seed for the seed's 30")
	scale := fs.Float64("scale", 1, "multiply every h by this `factor`, e.g. 0.01 for a quick look")
	line := fs.String("line", "", "cache line `size` (default: the OS's, or 64 B)")
	cache := fs.String("cache", "", "cache `size` whose words count as in-cache for h_rc, h_wc (default: the per-core cache the OS reports)")
	flush := fs.String("flush", "0", "bytes read before each bad superstep to start it cold (`size`; 0: none, as the seed)")
	reps := fs.Int("reps", 3, "timed runs of each superstep (the median is written)")
	seed := fs.Uint64("seed", 1, "random `seed` of Suites 2 and 3")
	out := fs.String("out", "", "write to this `file` instead of standard output")
	asJSON := fs.Bool("json", false, "write JSON (per-processor counts and every sample) instead of CSV")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: memwall superstep-suites [--p 2] [--suites 1,2,3] [--modes good,bad] [--h seed|LIST] [--scale F] [--out FILE] [--json]")
		fmt.Fprintln(stderr, "\nThen fit a cost function of seed 003, e.g. the Bad family's HrHwM on Suite 2:")
		fmt.Fprintln(stderr, "  memwall fit --data FILE --y time_us --terms \"1, h_r, h_w, M\" --train \"suite == 2 && bad == 1\"")
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "memwall superstep-suites: "+format+"\n", a...)
		return 2
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	if *reps < 1 || *reps > 1000 {
		return fail("--reps: must be from 1 to 1000; got %d", *reps)
	}
	opt := measure.SuperstepOptions{Modes: splitList(*modes), Reps: *reps, Seed: *seed}
	var err error
	if *procs != "" {
		if opt.P, err = intList(*procs); err != nil {
			return fail("--p: %v", err)
		}
	}
	if opt.Suites, err = intList(*suites); err != nil {
		return fail("--suites: %v", err)
	}
	if !(*scale > 0 && *scale <= 1) {
		return fail("--scale: must be above 0 and at most 1; got %g", *scale)
	}
	if *hs != "seed" {
		for _, f := range splitList(*hs) {
			v, err := units.ParseCount(f)
			if err != nil {
				return fail("--h: %v", err)
			}
			opt.H = append(opt.H, v)
		}
	} else {
		opt.H = superstep.SuiteSizes()
	}
	for i := range opt.H {
		opt.H[i] = max(1, int64(float64(opt.H[i])**scale))
	}
	for _, s := range []struct {
		flag string
		val  string
		dst  *int64
		div  int64
	}{{"--line", *line, &opt.LineWords, 4}, {"--cache", *cache, &opt.CacheWords, 4}, {"--flush", *flush, &opt.FlushBytes, 1}} {
		if s.val == "" {
			continue
		}
		b, err := units.ParseSize(s.val)
		if err != nil {
			return fail("%s: %v", s.flag, err)
		}
		if b < 0 || (s.div == 4 && b < 4) {
			return fail("%s: must be at least 4 bytes; got %s", s.flag, s.val)
		}
		*s.dst = b / s.div
	}
	if _, err := measure.PlanSupersteps(opt); err != nil {
		return fail("--%v", err)
	}

	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return fail("--out: %v", err)
		}
		defer f.Close()
		w = f
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opt.Progress = func(done, total int) {
		if done%50 == 0 || done == total {
			fmt.Fprintf(stderr, "\rsuperstep %d of %d", done, total)
			if done == total {
				fmt.Fprintln(stderr)
			}
		}
	}
	run, err := measure.RunSupersteps(ctx, opt)
	if err != nil {
		fmt.Fprintf(stderr, "memwall superstep-suites: %v\n", err)
		return 1
	}
	if *asJSON {
		b, err := jsonx.MarshalIndent(run)
		if err == nil {
			_, err = fmt.Fprintf(w, "%s\n", b)
		}
		if err != nil {
			fmt.Fprintf(stderr, "memwall superstep-suites: %v\n", err)
			return 1
		}
		return 0
	}
	if err := writeSuperstepCSV(w, run); err != nil {
		fmt.Fprintf(stderr, "memwall superstep-suites: %v\n", err)
		return 1
	}
	return 0
}

// writeSuperstepCSV writes one row per superstep, with the run's settings
// as comment lines (memwall's CSV reader skips lines starting with #).
func writeSuperstepCSV(w io.Writer, run *measure.SuperstepRun) error {
	fmt.Fprintf(w, "# seed 003 supersteps measured by memwall superstep-suites: %d CPUs, t_line %d words, %d words in cache for h_rc/h_wc, flush %d bytes\n",
		run.CPUs, run.LineWords, run.CacheWords, run.FlushBytes)
	cw := csv.NewWriter(w)
	if err := cw.Write(superstepColumns); err != nil {
		return err
	}
	i := strconv.FormatInt
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	for _, s := range run.Steps {
		bad := "0"
		if s.Mode == "bad" {
			bad = "1"
		}
		row := []string{strconv.Itoa(s.Suite), s.Mode, bad, s.Pattern, strconv.Itoa(s.P), strconv.Itoa(s.X), i(s.Superstep.H, 10),
			f(s.Features.Hr), f(s.Features.Hw), f(s.Features.H), f(s.Features.M), f(s.Features.Hrc), f(s.Features.Hrm), f(s.Features.Hwc), f(s.Features.Hwm),
			strconv.FormatFloat(s.Seconds.Median*1e6, 'g', 6, 64), strconv.FormatFloat(s.Seconds.Spread, 'g', 3, 64)}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// intList reads comma-separated integers.
func intList(s string) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		v, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number", f)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, errors.New("give at least one number")
	}
	return out, nil
}

// splitList splits a comma-separated list, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
