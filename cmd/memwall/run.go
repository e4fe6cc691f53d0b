package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"

	"memwall/engine/hier"
	"memwall/engine/lang"
	"memwall/engine/machine"
	"memwall/engine/units"
	"memwall/presets"
)

func init() {
	register(command{name: "run", summary: "run a program written in memwall's pseudo-code language through the simulators, or predict it at any size", run: runProgram})
	register(command{name: "compare", summary: "two programs over a range of sizes: their times, ratio and crossover", run: runCompare})
}

// scenarioFor settles the scenario: --scenario or --link first, then the
// program file, then the flags that were given.
func scenarioFor(cmd string, file string, link, scenFile, machineArg, predArg, brArg string, seed *uint64, sets []string, given map[string]bool) (lang.Scenario, error) {
	base := lang.Scenario{Predictor: "majority", Branches: "all", Seed: 1}
	if m, ok := presets.Machine("p4-2.66-ddr266"); ok {
		base.Machine = m
	}
	s := base
	switch {
	case scenFile != "" && link != "":
		return s, errors.New("--link and --scenario: give one of them")
	case scenFile != "":
		data, err := readLimited(scenFile, lang.MaxSource*2)
		if err != nil {
			return s, fmt.Errorf("--scenario: %v", err)
		}
		s, err = lang.ParseJSON(data)
		if err != nil {
			return s, fmt.Errorf("--scenario %s: %v", scenFile, err)
		}
	case link != "":
		_, frag, ok := strings.Cut(link, "#")
		if !ok {
			frag = link
		}
		s2, problems := lang.ParseFragment(frag, base, presets.Machine)
		if len(problems) > 0 {
			return s, fmt.Errorf("--link: %v", problems)
		}
		s = s2
	}
	if file != "" {
		data, err := readLimited(file, lang.MaxSource)
		if err != nil {
			return s, err
		}
		s.Source = string(data)
	}
	if given["machine"] {
		m, err := loadMachine(machineArg)
		if err != nil {
			return s, err
		}
		s.Machine = m
	}
	if given["predictor"] {
		s.Predictor = predArg
	}
	if given["branches"] {
		s.Branches = brArg
	}
	if given["seed"] {
		s.Seed = *seed
	}
	if s.Params == nil {
		s.Params = map[string]int64{}
	}
	for _, kv := range sets {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			return s, fmt.Errorf("--set %q: want name=value, e.g. N=2^20", kv)
		}
		n, err := units.ParseCount(strings.TrimSpace(value))
		if err != nil {
			return s, fmt.Errorf("--set %s: %v", name, err)
		}
		s.Params[strings.TrimSpace(name)] = n
	}
	if s.Source == "" {
		return s, fmt.Errorf("give a program file, or --link or --scenario with a program")
	}
	if ps := s.Validate(); len(ps) > 0 {
		return s, ps
	}
	return s, nil
}

func readLimited(path string, limit int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > limit {
		return nil, fmt.Errorf("%s is larger than the %d bytes accepted", path, limit)
	}
	return data, nil
}

// runOutput is run's JSON.
type runOutput struct {
	Machine    string           `json:"machine"`
	Predictor  string           `json:"predictor"`
	Branches   string           `json:"branches"`
	Seed       uint64           `json:"seed"`
	Result     *lang.Result     `json:"result,omitempty"`
	Prediction *lang.Prediction `json:"prediction,omitempty"`
	ClosedForm *float64         `json:"closed_form_seconds,omitempty"`
}

func runProgram(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("run", "FILE [--machine ID|FILE.json] [--set NAME=VALUE]... [--at SIZE] [--profile] [--miss-curve] [--json] [--link URL | --scenario FILE]", stderr)
	machineArg := fs.String("machine", "p4-2.66-ddr266", "preset id or machine JSON file")
	var sets setFlags
	fs.Var(&sets, "set", "a param of the program, NAME=VALUE (2^20, 8Mi, 1000000); repeatable")
	seed := fs.Uint64("seed", 1, "random seed of the data: the same seed gives the same data and counts")
	predArg := fs.String("predictor", "majority", "branch predictor: majority or 2bit")
	brArg := fs.String("branches", "all", "conditions charged as branches: all, or data (those that depend on loaded data, as the built-in kernels report)")
	atArg := fs.String("at", "", "predict the program at this size of its size param, by simulating smaller sizes and extrapolating")
	sizeArg := fs.String("size", "", "the param that scales the problem, for --at (default: the first param)")
	budgetArg := fs.String("budget", "300M", "accesses simulated at most for --at")
	profile := fs.Bool("profile", false, "print the per-line profile beside the source")
	missCurve := fs.Bool("miss-curve", false, "also print the run's miss curve: the misses of an LRU cache of every size, from exact stack distances (slower)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	link := fs.String("link", "", "a share link (or its #fragment) from the Program page")
	scen := fs.String("scenario", "", "a scenario file exported by the Program page")
	files, st := parseWithFiles(fs, args, 1, stderr)
	if st >= 0 {
		return st
	}
	file := ""
	if len(files) > 0 {
		file = files[0]
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	s, err := scenarioFor("run", file, *link, *scen, *machineArg, *predArg, *brArg, seed, sets, given)
	if err != nil {
		return fail(stderr, "run", err)
	}
	if *link == "" && *scen == "" && !given["machine"] {
		m, _ := loadMachine(*machineArg)
		s.Machine = m
	}
	p, err := lang.Compile(s.Source)
	if err != nil {
		return fail(stderr, "run", prefixFile(file, err))
	}
	s.MissCurve = s.MissCurve || *missCurve
	pred, opt, err := s.Options()
	if err != nil {
		return fail(stderr, "run", err)
	}
	if _, err := p.Values(opt.Params); err != nil {
		return fail(stderr, "run", fmt.Errorf("--set %v", err))
	}
	at := s.At
	if *atArg != "" {
		at, err = units.ParseCount(*atArg)
		if err != nil || at < 1 {
			return fail(stderr, "run", fmt.Errorf("--at: %v", errOrMsg(err, "the size must be at least 1")))
		}
	}
	out := runOutput{Machine: s.Machine.ID, Predictor: s.Predictor, Branches: s.Branches, Seed: s.Seed}
	if out.Machine == "" {
		out.Machine = s.Machine.Name
	}
	ctx := context.Background()
	if at > 0 {
		budget, err := units.ParseCount(*budgetArg)
		if err != nil || budget < 1 {
			return fail(stderr, "run", fmt.Errorf("--budget: %v", errOrMsg(err, "must be at least 1")))
		}
		rep := newProgress(stderr, "run --at")
		pr, err := p.Predict(ctx, s.Machine, pred, lang.PredictOptions{Options: opt, Size: *sizeArg, At: at, Budget: budget,
			Step: func(pt lang.Point, used float64) {
				rep.update(int64(used*float64(budget)), budget, "accesses of the budget")
			}})
		rep.done()
		if err != nil {
			return fail(stderr, "run", prefixFile(file, err))
		}
		out.Prediction = pr
		out.Result = pr.Last
	} else {
		rep := newProgress(stderr, "run")
		opt.Progress = func(pr lang.Progress) { rep.update(pr.Accesses, 0, "accesses") }
		r, err := p.Run(ctx, s.Machine, pred, opt)
		rep.done()
		if err != nil {
			return fail(stderr, "run", prefixFile(file, err))
		}
		out.Result = r
	}
	if s.Kernel != "" {
		n := at
		if n == 0 {
			n = out.Result.Params[nameOr(*sizeArg, p)]
		}
		if v, ok := lang.ClosedForm(s.Machine, s.Kernel, n, out.Result.Params); ok {
			out.ClosedForm = &v
		}
	}
	if *asJSON {
		if err := writeJSON(stdout, out); err != nil {
			return fail(stderr, "run", err)
		}
		return 0
	}
	printRun(stdout, s, out, *profile)
	return 0
}

// parseWithFiles parses flags with up to max file names among them
// (before, between or after the flags). It returns the exit status to use
// when parsing fails, or -1.
func parseWithFiles(fs *flag.FlagSet, args []string, max int, stderr io.Writer) ([]string, int) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, 0
			}
			return nil, 2
		}
		if fs.NArg() == 0 {
			return files, -1
		}
		if len(files) == max {
			fmt.Fprintf(stderr, "memwall %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
			return nil, 2
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func nameOr(size string, p *lang.Program) string {
	if size != "" {
		return size
	}
	if len(p.Params) > 0 {
		return p.Params[0].Name
	}
	return "N"
}

func errOrMsg(err error, msg string) string {
	if err != nil {
		return err.Error()
	}
	return msg
}

func prefixFile(file string, err error) error {
	var le *lang.Error
	if file != "" && errors.As(err, &le) {
		return fmt.Errorf("%s:%d:%d: %s", file, le.Pos.Line, le.Pos.Col, le.Msg)
	}
	return err
}

func printRun(w io.Writer, s lang.Scenario, out runOutput, profile bool) {
	r := out.Result
	fmt.Fprintf(w, "program on %s\n", machineLabel(s.Machine))
	var ps []string
	for _, d := range sortedKeys(r.Params) {
		ps = append(ps, fmt.Sprintf("%s = %s", d, units.FormatCount(r.Params[d])))
	}
	fmt.Fprintf(w, "%s; random seed %d, predictor %s, branches charged: %s\n\n", strings.Join(ps, ", "), s.Seed, s.Predictor, s.Branches)
	if pr := out.Prediction; pr != nil {
		if pr.Direct {
			fmt.Fprintf(w, "simulated at %s = %s: %s\n", pr.Size, units.FormatCount(pr.At), units.FormatSeconds(pr.Seconds))
		} else {
			fmt.Fprintf(w, "predicted at %s = %s: %s (extrapolated)\n", pr.Size, units.FormatCount(pr.At), units.FormatSeconds(pr.Seconds))
			fmt.Fprintf(w, "  model: T(%s) = %s\n", pr.Size, pr.Model())
			fmt.Fprintf(w, "  held out: %s: mean error %.1f%%, largest %.1f%%\n", pr.HeldOut, 100*pr.HeldOutMean, 100*pr.HeldOutMax)
			if pr.Note != "" {
				fmt.Fprintf(w, "  note: %s\n", pr.Note)
			}
			fmt.Fprintf(w, "  simulated sizes:\n")
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintf(tw, "    %s\ttime\tcache\tfitted\t\n", pr.Size)
			for _, pt := range pr.Points {
				fmt.Fprintf(tw, "    %s\t%s\t%s\t%v\t\n", units.FormatCount(pt.Size), units.FormatSeconds(pt.Seconds), units.FormatSize(pt.Cache), pt.Train)
			}
			tw.Flush()
			fmt.Fprintf(w, "\nthe largest run, %s = %s:\n", pr.Size, units.FormatCount(pr.Points[len(pr.Points)-1].Size))
		}
	}
	if out.ClosedForm != nil {
		fmt.Fprintf(w, "closed form (%s): %s\n", s.Kernel, units.FormatSeconds(*out.ClosedForm))
	}
	fmt.Fprintf(w, "simulated: %s\n", units.FormatSeconds(r.Seconds))
	for _, t := range r.Terms {
		fmt.Fprintf(w, "  %10s  %s\n", units.FormatSeconds(t.Seconds), t.Name)
	}
	c := r.Counts
	fmt.Fprintf(w, "counts: accesses %d (reads %d, writes %d), misses %d, write-backs %d, sequential %d, random %d, branches %d, mispredictions %d\n",
		c.Accesses, c.Reads, c.Writes, c.Misses, c.Writebacks, c.SeqTransfers, c.RandTransfers, c.Branches, c.Mispredictions)
	fmt.Fprintf(w, "dependent accesses %d, data branches %d, steps %d, arrays %s\n", r.Dependent, r.DataBranches, r.Steps, units.FormatSize(r.Footprint))
	for _, ph := range r.Phases {
		fmt.Fprintf(w, "  phase %-40s %s\n", ph.Name, units.FormatSeconds(ph.Seconds))
	}
	if r.Hierarchy != nil {
		fmt.Fprintln(w)
		printHierarchy(w, r.Hierarchy)
	} else if len(s.Machine.Levels) > 0 && out.Prediction != nil && !out.Prediction.Direct {
		fmt.Fprintln(w, "\nhierarchy simulator: runs at the size asked for only, not at the smaller sizes an extrapolation simulates")
	}
	for _, c := range r.MissCurves {
		fmt.Fprintln(w)
		printMissCurve(w, c, s.Machine)
	}
	if s.MissCurve && len(r.MissCurves) == 0 && out.Prediction != nil && !out.Prediction.Direct {
		fmt.Fprintln(w, "\nmiss curve: drawn for a run at the size asked for only, not for an extrapolation")
	}
	if profile {
		fmt.Fprintln(w)
		printProfile(w, s.Source, r)
	}
}

func printProfile(w io.Writer, src string, r *lang.Result) {
	lines := strings.Split(src, "\n")
	by := map[int]lang.LineProfile{}
	for _, l := range r.Lines {
		by[l.Line] = l
	}
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "line\taccesses\tmisses\twrite-backs\tmispredicted\tseconds\t%%\t \n")
	row := func(n int, text string) {
		l, ok := by[n]
		if !ok {
			fmt.Fprintf(tw, "%d\t\t\t\t\t\t\t %s\n", n, text)
			return
		}
		pct := 0.0
		if r.Seconds > 0 {
			pct = 100 * l.Seconds / r.Seconds
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%s\t%.1f\t %s\n", n, l.Accesses, l.Misses, l.Writebacks, l.Mispredictions, units.FormatSeconds(l.Seconds), pct, text)
	}
	for i, text := range lines {
		if i == len(lines)-1 && text == "" {
			break
		}
		row(i+1, strings.ReplaceAll(text, "\t", "    "))
	}
	if _, ok := by[0]; ok {
		row(0, "(end of run: write-backs of the lines still dirty)")
	}
	tw.Flush()
}

func machineLabel(m machine.Machine) string {
	if m.ID != "" && m.ID != m.Name {
		return m.Name + " (" + m.ID + ")"
	}
	return m.Name
}

func sortedKeys(m map[string]int64) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func runCompare(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("compare", "A.mw B.mw [--machine ID|FILE.json] [--from SIZE] [--to SIZE] [--per-doubling K] [--set NAME=VALUE]... [--json]", stderr)
	machineArg := fs.String("machine", "p4-2.66-ddr266", "preset id or machine JSON file")
	var sets setFlags
	fs.Var(&sets, "set", "a param of the programs, NAME=VALUE; repeatable")
	seed := fs.Uint64("seed", 1, "random seed of the data")
	predArg := fs.String("predictor", "majority", "branch predictor: majority or 2bit")
	brArg := fs.String("branches", "all", "conditions charged as branches: all or data")
	sizeArg := fs.String("size", "", "the param both programs scale by (default: A's first param)")
	fromArg := fs.String("from", "2^10", "smallest size")
	toArg := fs.String("to", "2^20", "largest size")
	per := fs.Int("per-doubling", 2, "sizes per doubling")
	asJSON := fs.Bool("json", false, "print the comparison as JSON")
	link := fs.String("link", "", "a share link from the Program page with two programs (A/B)")
	scen := fs.String("scenario", "", "a scenario file exported by the Program page with two programs (A/B)")
	files, st := parseWithFiles(fs, args, 2, stderr)
	if st >= 0 {
		return st
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	first := ""
	if len(files) > 0 {
		first = files[0]
	}
	s, err := scenarioFor("compare", first, *link, *scen, *machineArg, *predArg, *brArg, seed, sets, given)
	if err != nil {
		return fail(stderr, "compare", err)
	}
	if *link == "" && *scen == "" && !given["machine"] {
		s.Machine, _ = loadMachine(*machineArg)
	}
	if len(files) == 2 {
		data, err := readLimited(files[1], lang.MaxSource)
		if err != nil {
			return fail(stderr, "compare", err)
		}
		s.Compare = string(data)
	}
	if s.Compare == "" {
		return fail(stderr, "compare", errors.New("give two program files (or a link or scenario file with two programs)"))
	}
	a, err := lang.Compile(s.Source)
	if err != nil {
		return fail(stderr, "compare", prefixFile(first, err))
	}
	second := "B"
	if len(files) == 2 {
		second = files[1]
	}
	b, err := lang.Compile(s.Compare)
	if err != nil {
		return fail(stderr, "compare", prefixFile(second, err))
	}
	lo, err1 := units.ParseCount(*fromArg)
	hi, err2 := units.ParseCount(*toArg)
	switch {
	case err1 != nil:
		return fail(stderr, "compare", fmt.Errorf("--from: %v", err1))
	case err2 != nil:
		return fail(stderr, "compare", fmt.Errorf("--to: %v", err2))
	case lo < 1 || hi < lo:
		return fail(stderr, "compare", fmt.Errorf("--from and --to: want 1 <= from <= to; got %d and %d", lo, hi))
	case *per < 1 || *per > 16:
		return fail(stderr, "compare", fmt.Errorf("--per-doubling: from 1 to 16; got %d", *per))
	}
	sizes := lang.Sizes(lo, hi, *per)
	if len(sizes) > lang.MaxCompareSizes {
		return fail(stderr, "compare", fmt.Errorf("--from, --to and --per-doubling give %d sizes; at most %d", len(sizes), lang.MaxCompareSizes))
	}
	pred, opt, err := s.Options()
	if err != nil {
		return fail(stderr, "compare", err)
	}
	rep := newProgress(stderr, "compare")
	cmp, err := lang.Compare(context.Background(), a, b, *sizeArg, sizes, s.Machine, pred, opt, func(done, total int) {
		rep.update(int64(done), int64(total), "sizes")
	})
	rep.done()
	if err != nil {
		return fail(stderr, "compare", err)
	}
	if *asJSON {
		if err := writeJSON(stdout, cmp); err != nil {
			return fail(stderr, "compare", err)
		}
		return 0
	}
	fmt.Fprintf(stdout, "A: %s\nB: %s\non %s\n\n", first, second, machineLabel(s.Machine))
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tA\tB\tB/A\t\n", cmp.Size)
	for _, p := range cmp.Points {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.3f\t\n", units.FormatCount(p.Size), units.FormatSeconds(p.A), units.FormatSeconds(p.B), p.Ratio())
	}
	tw.Flush()
	if len(cmp.Crossovers) == 0 {
		faster := "A"
		if last := cmp.Points[len(cmp.Points)-1]; last.B < last.A {
			faster = "B"
		}
		fmt.Fprintf(stdout, "\nno crossover between %s = %s and %s: %s is faster throughout\n", cmp.Size, units.FormatCount(lo), units.FormatCount(hi), faster)
	}
	for _, x := range cmp.Crossovers {
		fmt.Fprintf(stdout, "\ncrossover at %s ≈ %s\n", cmp.Size, units.FormatCount(int64(math.Round(x))))
	}
	return 0
}

// printHierarchy prints a run through the hierarchy simulator: its time,
// then each level's counts and time.
func printHierarchy(w io.Writer, h *hier.Result) {
	fmt.Fprintf(w, "hierarchy simulator (an estimate): %s\n", units.FormatSeconds(h.Seconds))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "  level\tsize\taccesses\tmisses\tsequential\trandom\tdependent random\twrite-backs\ttime\t\n")
	for _, l := range h.Levels {
		c := l.Counts
		fmt.Fprintf(tw, "  %s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t\n", l.Level.Name, units.FormatSize(l.Level.Size),
			c.Accesses, c.Misses, c.SeqFills, c.RandFills, c.DependentRandFills, c.Writebacks, units.FormatSeconds(l.Time.Seconds))
	}
	tw.Flush()
	fmt.Fprintf(w, "  memory %s, branch mispredictions %d: %s; dependent accesses %d\n", units.FormatSeconds(h.Memory()), h.Mispredictions, units.FormatSeconds(h.Branch), h.Dependent)
	if h.Note != "" {
		fmt.Fprintf(w, "  note: %s\n", h.Note)
	}
}
