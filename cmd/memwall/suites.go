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
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/engine/superstep"
	"memwall/engine/units"
	"memwall/measure"
)

func init() {
	register(command{name: "superstep-suites", summary: "time the superstep paper's good and bad supersteps (Suites 1-3) on this machine, as CSV for memwall superstep-fit", run: runSuperstepSuites})
}

// superstepColumns is the CSV header: the columns the superstep paper's cost
// functions take, named as memwall fit's terms write them.
var superstepColumns = []string{"suite", "mode", "bad", "pattern", "p", "x", "h_set",
	"h_r", "h_w", "h", "M", "h_rc", "h_rm", "h_wc", "h_wm", "time_us", "spread"}

func runSuperstepSuites(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("superstep-suites", flag.ContinueOnError)
	fs.SetOutput(stderr)
	procs := fs.String("p", "", "comma-separated processor `counts` (default: the CPUs)")
	suites := fs.String("suites", "1,2,3", "comma-separated `suites` from 1, 2, 3")
	modes := fs.String("modes", "good,bad", "comma-separated `modes`: good, bad")
	hs := fs.String("h", "paper", "access `counts` h, comma-separated (8Ki, 2^20), or paper for the superstep paper's 30")
	scale := fs.Float64("scale", 1, "multiply every h by this `factor`, e.g. 0.01 for a quick look")
	line := fs.String("line", "", "cache line `size` (default: the OS's, or 64 B)")
	cache := fs.String("cache", "", "cache `size` whose words count as in-cache for h_rc, h_wc (default: the per-core cache the OS reports)")
	flush := fs.String("flush", "0", "bytes read before each bad superstep to start it cold (`size`; 0: none, as in the superstep paper)")
	reps := fs.Int("reps", 3, "timed runs of each superstep (the median is written)")
	seed := fs.Uint64("seed", 1, "random `seed` of Suites 2 and 3")
	out := fs.String("out", "", "write to this `file` instead of standard output")
	force := forceFlag(fs)
	asJSON := fs.Bool("json", false, "write JSON (per-processor counts and every sample) instead of CSV")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: memwall superstep-suites [--p 2] [--suites 1,2,3] [--modes good,bad] [--h paper|LIST] [--scale F] [--out FILE [--force]] [--json]")
		fmt.Fprintln(stderr, "\nThen fit the superstep paper's cost functions to the times and predict a sort's interval on this machine:")
		fmt.Fprintln(stderr, "  memwall superstep-fit --data FILE --coef-out here.json")
		fmt.Fprintln(stderr, "  memwall supersteps --coef here.json --p 2 --algo radix --n 1e6")
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "memwall superstep-suites: "+format+"\n", a...)
		return 2
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
	if opt.H, err = accessCounts(*hs); err != nil {
		return fail("--h: %v", err)
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

	outFile := output{"--out", *out}
	if err := checkOutputs(*force, nil, outFile); err != nil {
		return fail("%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prog := newProgress(stderr, "superstep-suites")
	opt.Progress = func(done, total int) { prog.update(int64(done), int64(total), "supersteps") }
	run, err := measure.RunSupersteps(ctx, opt)
	prog.done()
	if err != nil {
		fmt.Fprintf(stderr, "memwall superstep-suites: %v\n", measureError(err, outFile))
		return 1
	}
	err = writeTo(stdout, outFile, func(w io.Writer) error {
		if *asJSON {
			return writeJSON(w, run)
		}
		return writeSuperstepCSV(w, run)
	})
	if err != nil {
		fmt.Fprintf(stderr, "memwall superstep-suites: %v\n", err)
		return 1
	}
	return 0
}

// writeSuperstepCSV writes one row per superstep, with the run's settings
// as comment lines (memwall's CSV reader skips lines starting with #).
func writeSuperstepCSV(w io.Writer, run *measure.SuperstepRun) error {
	fmt.Fprintf(w, "# supersteps of the superstep paper measured by memwall superstep-suites: %d CPUs, t_line %d words, %d words in cache for h_rc/h_wc, flush %d bytes\n",
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

func init() {
	register(command{name: "superstep-fit", summary: "fit the superstep paper's Good and Bad cost functions to superstep-suites times and write the interval's coefficients", run: runSuperstepFit})
}

// runSuperstepFit fits the cost functions as the superstep paper's section 4.2 does: the
// Good family on Suite 1 (R0 and R1 apart), validated on Suites 2 and 3;
// the Bad family on Suite 2, validated on Suites 1 and 3; and writes the
// best of each (HrHwM-c, HrHwM) as a coefficient file for memwall
// supersteps --coef.
func runSuperstepFit(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("superstep-fit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "CSV `file` written by memwall superstep-suites")
	procs := fs.Int("p", 0, "the processor `count` whose coefficients --coef-out gets (needed when the file has several)")
	cache := fs.String("cache", "", "cache `size` C splitting R0 from R1 (default: read from the file's h_rc and h_rm)")
	coefOut := fs.String("coef-out", "", "write the interval's coefficients (HrHwM-c, HrHwM) to this `file`, for memwall supersteps --coef")
	force := forceFlag(fs)
	name := fs.String("name", "", "`name` of the coefficient set (default: the file's name)")
	keep := fs.Bool("keep-good-rows", false, "use the good rows of a file with bad rows")
	weight := fs.String("weight", "abs", "least squares: abs (as in the superstep paper) or rel (each superstep weighted by 1/t², even over the sizes)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: memwall superstep-fit --data FILE [--p P] [--weight abs|rel] [--coef-out FILE [--force]]")
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "memwall superstep-fit: "+format+"\n", a...)
		return 2
	}
	if *data == "" {
		return fail("--data is required (a CSV file written by memwall superstep-suites)")
	}
	if isSet(fs, "p") && *procs < 1 {
		return fail("--p: a processor count of at least 1; got %d", *procs)
	}
	coefFile := output{"--coef-out", *coefOut}
	if err := checkOutputs(*force, []output{{"--data", *data}}, coefFile); err != nil {
		return fail("%v", err)
	}
	wt, err := fit.ParseWeighting(*weight)
	if err != nil || wt == fit.Auto {
		return fail("--weight: abs or rel; got %q", *weight)
	}
	f, err := os.Open(*data)
	if err != nil {
		return fail("--data: %v", err)
	}
	tbl, skipped, err := dataset.Read(f, dataset.Options{KeepGoodRows: *keep})
	f.Close()
	if err != nil {
		return fail("--data %s: %v", *data, err)
	}
	for _, e := range skipped {
		fmt.Fprintf(stderr, "memwall superstep-fit: %s: skipped %v\n", *data, e)
	}
	meas, err := superstep.ReadMeasured(tbl)
	if err != nil {
		return fail("--data %s: %v", *data, err)
	}
	if *cache != "" {
		b, err := units.ParseSize(*cache)
		if err != nil || b < 4 {
			return fail("--cache: a size of at least 4 bytes, e.g. 2MiB; got %q", *cache)
		}
		meas.CacheWords = float64(b / 4)
	}
	fits, err := superstep.FitMeasured(meas, wt)
	if err != nil {
		return fail("%v", err)
	}
	for _, fam := range []struct {
		family superstep.Family
		cells  []superstep.Fitted
		spec   superstep.FitSpec
	}{{superstep.Good, fits.Good, fits.GoodSpec}, {superstep.Bad, fits.Bad, fits.BadSpec}} {
		fitOn, judgeOn, cells := fam.spec.FitSuite, fam.spec.ValidateSuites, fam.cells
		if len(cells) == 0 {
			fmt.Fprintf(stdout, "%s family: no supersteps in the file\n\n", fam.family)
			continue
		}
		fmt.Fprintf(stdout, "%s family: fitted on Suite %d, judged on Suites %d and %d (the superstep paper's Tables %s); C = %g words\n",
			fam.family, fitOn, judgeOn[0], judgeOn[1], map[superstep.Family]string{superstep.Good: "1, 2, 5, 6", superstep.Bad: "3, 4, 7, 8"}[fam.family], meas.CacheWords)
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "p\tfunction\tregion\trows\tSuite %d avg\tmax\tSuite %d avg\tmax\tcoefficients (µs)\n", judgeOn[0], judgeOn[1])
		for _, c := range cells {
			if c.Err != nil {
				fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t\t\t\t\tnot fitted: %v\n", c.P, c.Function, c.Region, c.FitRows, c.Err)
				continue
			}
			errs := map[int]superstep.SuiteError{}
			for _, v := range c.Validation {
				errs[v.Suite] = v
			}
			cell := func(s int) string {
				v, ok := errs[s]
				if !ok || v.N == 0 {
					return "\t"
				}
				return fmt.Sprintf("%.1f%%\t%.1f%%", 100*v.Mean, 100*v.Max)
			}
			var coef []string
			for _, col := range append([]string{"1"}, c.Function.Columns()...) {
				coef = append(coef, fmt.Sprintf("%s=%.4g", superstep.CoefficientName(col), c.Coef.Get(col)))
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\t%s\n", c.P, c.Function, c.Region, c.FitRows, cell(judgeOn[0]), cell(judgeOn[1]), strings.Join(coef, ", "))
		}
		tw.Flush()
		fmt.Fprintln(stdout)
	}
	if *coefOut == "" {
		return 0
	}
	ps := meas.Ps
	p := *procs
	if !isSet(fs, "p") {
		if len(ps) != 1 {
			return fail("--p: the file has supersteps for p = %v; say which one --coef-out gets", ps)
		}
		p = ps[0]
	}
	if *name == "" {
		*name = filepath.Base(*data)
	}
	set, err := superstep.SetFromFits(fits.Good, fits.Bad, p, meas.CacheWords, *name)
	if err != nil {
		return fail("--coef-out: %v", err)
	}
	if err := writeOutput(coefFile, func(w io.Writer) error { return superstep.WriteSet(w, set) }); err != nil {
		return fail("%v", err)
	}
	fmt.Fprintf(stdout, "coefficients for p = %d written to %s: memwall supersteps --coef %s --p %d --algo radix --n 1e6\n", p, *coefOut, *coefOut, p)
	return 0
}

// accessCounts reads --h: "paper" (or "seed", its name in earlier
// versions) for the superstep paper's 30 counts, else a comma-separated
// list of counts of at least 1.
func accessCounts(hs string) ([]int64, error) {
	if hs == "paper" || hs == "seed" {
		return superstep.SuiteSizes(), nil
	}
	var out []int64
	for _, f := range splitList(hs) {
		v, err := units.ParseCount(f)
		if err != nil {
			return nil, err
		}
		if v < 1 {
			return nil, fmt.Errorf("access counts of at least 1; got %s", f)
		}
		out = append(out, v)
	}
	return out, nil
}
