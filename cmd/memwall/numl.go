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
	"time"

	"memwall/engine/numl"
	"memwall/engine/units"
	"memwall/internal/jsonx"
	"memwall/measure"
)

func init() {
	register(command{name: "numl", summary: "lines touched by a row or column transfer, and the convolution crossover (the lines-touched paper)", run: runNUML})
}

const numlUsage = `Usage:
  memwall numl [lines] (--rows | --cols) -W BYTES -k K [-w BYTES -r ROWS] [-L BYTES] [-o BYTES] [--json]
  memwall numl conv -N PIXELS [-w BYTES] [--pr P] [--pc P] [-L BYTES] [--bmax B] [--std LIST] [--m1 LIST] [--json]
  memwall numl measure [--quick] [--reps N] [--flush BYTES] [--scatter] [--out FILE] [--json]

lines: u, the distinct memory lines touched when k whole rows of W bytes, or
the k leftmost columns (k·w bytes of each of r rows of W bytes) are sent,
with the first byte at offset o within a line of L bytes; exact at o, and
the minimum, maximum and mean over all offsets (the lines-touched paper's section 3.2.1).

conv: the cost of Conv-Shift and Conv-Scan (the lines-touched paper's section 7, Figures 18
and 19) for box sizes 1..bmax on an N×N image and a pr×pc mesh under the
standard model (--std) and M1 (--m1), and the crossover box size under each.
Coefficient lists: alpha (per message), beta (per byte), gamma (per line a
message touches), delta (per arithmetic op), beta_mem (per load/store),
gamma_mem (per line a statement touches), e.g. "alpha=10us, beta=3.3ns".

measure: time the gather of row and column messages on this machine from
caches flushed before every repetition (the lines-touched paper's sections 4.1–4.2), for
shapes that vary the bytes n and the lines touched u independently; CSV
(time in time_us, the median) or a memwall data set (--json) that the
Communication page imports, to fit S1–M3 with, e.g.
  memwall fit --data FILE --y time --terms "m, n, u" --train "W != 4000"
`

func runNUML(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "conv":
			return runNUMLConv(args[1:], stdout, stderr)
		case "measure":
			return runNUMLMeasure(args[1:], stdout, stderr)
		case "lines":
			args = args[1:]
		}
	}
	return runNUMLLines(args, stdout, stderr)
}

func numlFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, numlUsage, "\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs
}

// sizeFlag reads a byte size ("4KiB", "64") or a count ("2^10", "8Ki") and
// names the flag when it cannot.
func sizeFlag(name, v string, count bool) (int64, error) {
	var n int64
	var err error
	if count {
		n, err = units.ParseCount(v)
	} else {
		n, err = units.ParseSize(v)
	}
	if err != nil {
		return 0, fmt.Errorf("-%s: %v", name, err)
	}
	return n, nil
}

type numlLinesOut struct {
	Kind   string  `json:"kind"`
	W      int64   `json:"W"`
	K      int64   `json:"k"`
	Elem   int64   `json:"w,omitempty"`
	R      int64   `json:"r,omitempty"`
	Line   int64   `json:"L"`
	Offset int64   `json:"o"`
	Bytes  int64   `json:"n"`
	U      int64   `json:"u"`
	Min    int64   `json:"u_min"`
	MinAt  int64   `json:"u_min_offset"`
	Max    int64   `json:"u_max"`
	MaxAt  int64   `json:"u_max_offset"`
	Mean   float64 `json:"u_mean"`
	// The paper's printed bounds (eqs. 3–6).
	PaperLower int64 `json:"paper_lower"`
	PaperUpper int64 `json:"paper_upper"`
	// The closed forms of whole periods without shared lines (columns).
	ClosedApplies bool   `json:"closed_forms_apply"`
	ClosedMin     int64  `json:"closed_min,omitempty"`
	ClosedMax     int64  `json:"closed_max,omitempty"`
	ClosedWhy     string `json:"closed_forms_note,omitempty"`
	G             int64  `json:"gcd_W_L,omitempty"`
	Period        int64  `json:"period_rows,omitempty"`
}

func runNUMLLines(args []string, stdout, stderr io.Writer) int {
	fs := numlFlags("numl", stderr)
	rows := fs.Bool("rows", false, "k whole rows of W bytes")
	cols := fs.Bool("cols", false, "the k leftmost columns of an r-row array")
	wArg := fs.String("W", "", "bytes per array row (e.g. 4000, 4KiB)")
	kArg := fs.String("k", "1", "rows or columns sent")
	eArg := fs.String("w", "4", "bytes per element (columns)")
	rArg := fs.String("r", "", "rows of the array (columns)")
	lArg := fs.String("L", "64", "line size in bytes")
	oArg := fs.String("o", "0", "offset of the first byte within its line, 0 <= o < L")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	inputs := addInputFlags(fs, "Communication")
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	failf := func(err error) int { return fail(stderr, "numl", err) }
	if inputs.given() {
		sc, err := readCommunication(inputs)
		if !sc.ShapeOK {
			return failf(fmt.Errorf("the transfer's inputs do not read: %v", err))
		}
		return printNUMLLines(stdout, stderr, sc.Shape, *asJSON)
	}
	if *rows == *cols {
		return failf(fmt.Errorf("--rows or --cols: give exactly one"))
	}
	s := numl.Shape{Kind: numl.Rows}
	if *cols {
		s.Kind = numl.Columns
	}
	if *wArg == "" {
		return failf(fmt.Errorf("-W: the row width in bytes is required"))
	}
	var err error
	for _, f := range []struct {
		name, v string
		dst     *int64
		count   bool
		need    bool
	}{
		{"W", *wArg, &s.W, false, true},
		{"k", *kArg, &s.K, true, true},
		{"w", *eArg, &s.Elem, false, *cols},
		{"r", *rArg, &s.R, true, *cols},
		{"L", *lArg, &s.Line, false, true},
		{"o", *oArg, &s.Offset, false, true},
	} {
		if !f.need {
			continue
		}
		if f.v == "" {
			return failf(fmt.Errorf("-%s is required with --cols", f.name))
		}
		if *f.dst, err = sizeFlag(f.name, f.v, f.count); err != nil {
			return failf(err)
		}
	}
	return printNUMLLines(stdout, stderr, s, *asJSON)
}

// printNUMLLines prints the lines a transfer touches.
func printNUMLLines(stdout, stderr io.Writer, s numl.Shape, asJSON bool) int {
	failf := func(err error) int { return fail(stderr, "numl", err) }
	cols := s.Kind == numl.Columns
	u, err := numl.Lines(s)
	if err != nil {
		return failf(fmt.Errorf("-%v", err))
	}
	span, _ := numl.Span(s)
	paper, _ := numl.Paper(s)
	out := numlLinesOut{Kind: s.Kind.String(), W: s.W, K: s.K, Line: s.Line, Offset: s.Offset, Bytes: s.Bytes(), U: u,
		Min: span.Min, MinAt: span.MinOffset, Max: span.Max, MaxAt: span.MaxOffset, Mean: span.Mean,
		PaperLower: paper.Lower, PaperUpper: paper.Upper}
	if cols {
		out.Elem, out.R = s.Elem, s.R
		cf, _ := numl.Closed(s)
		out.ClosedApplies, out.ClosedWhy, out.G, out.Period = cf.Applies, cf.Why, cf.G, cf.P
		if cf.Applies {
			out.ClosedMin, out.ClosedMax = cf.Min, cf.Max
		}
	}
	if asJSON {
		if err := writeJSON(stdout, out); err != nil {
			return failf(err)
		}
		return 0
	}
	if cols {
		fmt.Fprintf(stdout, "%d column(s) of %d bytes from %d rows of W = %d bytes, lines of L = %d bytes, first byte at offset %d\n", s.K, s.Elem, s.R, s.W, s.Line, s.Offset)
	} else {
		fmt.Fprintf(stdout, "%d row(s) of W = %d bytes, lines of L = %d bytes, first byte at offset %d\n", s.K, s.W, s.Line, s.Offset)
	}
	fmt.Fprintf(stdout, "bytes sent:    n = %d\n", out.Bytes)
	fmt.Fprintf(stdout, "lines touched: u = %d\n", u)
	fmt.Fprintf(stdout, "over offsets:  min %d (o = %d), max %d (o = %d), mean %.4g\n", span.Min, span.MinOffset, span.Max, span.MaxOffset, span.Mean)
	fmt.Fprintf(stdout, "the lines-touched paper's bounds (eqs. %s): %d .. %d\n", map[bool]string{false: "3, 4", true: "5, 6"}[cols], paper.Lower, paper.Upper)
	if cols {
		fmt.Fprintf(stdout, "gcd(W, L) = %d, row starts repeat every %d rows\n", out.G, out.Period)
		if out.ClosedApplies {
			fmt.Fprintf(stdout, "closed forms:  u_min = %d, u_max = %d\n", out.ClosedMin, out.ClosedMax)
		} else {
			fmt.Fprintf(stdout, "closed forms do not apply: %s\n", out.ClosedWhy)
		}
	}
	return 0
}

type convPointOut struct {
	B        int64   `json:"b"`
	ShiftS1  float64 `json:"shift_standard_s"`
	ScanS1   float64 `json:"scan_standard_s"`
	ShiftM1  float64 `json:"shift_m1_s"`
	ScanM1   float64 `json:"scan_m1_s"`
	RatioS1  float64 `json:"ratio_standard"`
	RatioM1  float64 `json:"ratio_m1"`
	FasterS1 string  `json:"faster_standard"`
	FasterM1 string  `json:"faster_m1"`
}

type convOut struct {
	Conv     numl.Conv      `json:"conv"`
	Standard string         `json:"standard"`
	M1       string         `json:"m1"`
	Points   []convPointOut `json:"points"`
	CrossS1  *int64         `json:"crossover_standard"`
	CrossM1  *int64         `json:"crossover_m1"`
	Note     string         `json:"note"`
}

const convNote = "crossover: the smallest box size b at which Conv-Scan is predicted faster than Conv-Shift (null: not up to bmax); ratio is Conv-Shift/Conv-Scan as in the lines-touched paper's Figure 14"

func runNUMLConv(args []string, stdout, stderr io.Writer) int {
	fs := numlFlags("numl conv", stderr)
	// The flags' defaults are the Communication page's: one set of defaults.
	d := numl.Form.Defaults()
	nArg := fs.String("N", d["N"], "image side in pixels")
	eArg := fs.String("w", d["px"], "bytes per pixel")
	prArg := fs.String("pr", d["pr"], "processor rows of the mesh")
	pcArg := fs.String("pc", d["pc"], "processor columns of the mesh")
	lArg := fs.String("L", d["L"], "line size in bytes")
	bArg := fs.String("bmax", d["bmax"], "largest box size")
	stdArg := fs.String("std", d["std"], "standard-model coefficients (no gamma terms); the default is the S1 fit to the M1 default's times for rows and line-wide columns")
	m1Arg := fs.String("m1", d["m1"], "M1 coefficients; the default is illustrative, not measured")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	inputs := addInputFlags(fs, "Communication")
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	failf := func(err error) int { return fail(stderr, "numl conv", err) }
	if inputs.given() {
		sc, err := readCommunication(inputs)
		if !sc.ConvOK {
			return failf(fmt.Errorf("the convolution's inputs do not read: %v", err))
		}
		return printNUMLConv(stdout, stderr, sc.Conv, sc.Std, sc.M1, sc.BMax, *asJSON)
	}
	var c numl.Conv
	var bmax int64
	var err error
	for _, f := range []struct {
		name, v string
		dst     *int64
		count   bool
	}{
		{"N", *nArg, &c.N, true}, {"w", *eArg, &c.Elem, false}, {"pr", *prArg, &c.Pr, true},
		{"pc", *pcArg, &c.Pc, true}, {"L", *lArg, &c.Line, false}, {"bmax", *bArg, &bmax, true},
	} {
		if *f.dst, err = sizeFlag(f.name, f.v, f.count); err != nil {
			return failf(err)
		}
	}
	std, err := numl.ParseCoef("std.", *stdArg)
	if err != nil {
		return failf(coefFlagError("--std", "std.", err))
	}
	if std.Gamma != 0 || std.GammaMem != 0 {
		return failf(fmt.Errorf("--std: the standard model has no lines-touched terms; leave out gamma and gamma_mem"))
	}
	m1, err := numl.ParseCoef("m1.", *m1Arg)
	if err != nil {
		return failf(coefFlagError("--m1", "m1.", err))
	}
	return printNUMLConv(stdout, stderr, c, std, m1, bmax, *asJSON)
}

// printNUMLConv prints the two convolution programs' predicted times under
// both coefficient sets and their crossovers.
func printNUMLConv(stdout, stderr io.Writer, c numl.Conv, std, m1 numl.Coef, bmax int64, asJSON bool) int {
	failf := func(err error) int { return fail(stderr, "numl conv", err) }
	cs, err := numl.Compare(c, std, bmax)
	if err != nil {
		return failf(fmt.Errorf("-%v", err))
	}
	cm, _ := numl.Compare(c, m1, bmax)
	out := convOut{Conv: c, Standard: std.String(), M1: m1.String(), Note: convNote}
	faster := func(p numl.Point) string {
		if p.Scan < p.Shift {
			return "scan"
		}
		return "shift"
	}
	for i, p := range cs.Points {
		q := cm.Points[i]
		out.Points = append(out.Points, convPointOut{B: p.B, ShiftS1: p.Shift, ScanS1: p.Scan, ShiftM1: q.Shift, ScanM1: q.Scan,
			RatioS1: p.Ratio, RatioM1: q.Ratio, FasterS1: faster(p), FasterM1: faster(q)})
	}
	if cs.Found {
		out.CrossS1 = &cs.Crossover
	}
	if cm.Found {
		out.CrossM1 = &cm.Crossover
	}
	if asJSON {
		if err := writeJSON(stdout, out); err != nil {
			return failf(err)
		}
		return 0
	}
	fmt.Fprintf(stdout, "uniform convolution, %d×%d image of %d-byte pixels, %d×%d mesh, %d-byte lines\n", c.N, c.N, c.Elem, c.Pr, c.Pc, c.Line)
	fmt.Fprintf(stdout, "standard: %s\nM1:       %s\n\n", out.Standard, out.M1)
	fmt.Fprintf(stdout, "%4s  %12s %12s %7s  %12s %12s %7s\n", "b", "shift (std)", "scan (std)", "ratio", "shift (M1)", "scan (M1)", "ratio")
	for _, p := range out.Points {
		fmt.Fprintf(stdout, "%4d  %12s %12s %7.3f  %12s %12s %7.3f\n", p.B, units.FormatSeconds(p.ShiftS1), units.FormatSeconds(p.ScanS1), p.RatioS1,
			units.FormatSeconds(p.ShiftM1), units.FormatSeconds(p.ScanM1), p.RatioM1)
	}
	cross := func(found bool, b int64) string {
		if found {
			return fmt.Sprintf("b = %d (Conv-Scan faster from there)", b)
		}
		return fmt.Sprintf("none up to b = %d (Conv-Shift faster throughout)", bmax)
	}
	fmt.Fprintf(stdout, "\ncrossover, standard model: %s\ncrossover, M1:             %s\n", cross(cs.Found, cs.Crossover), cross(cm.Found, cm.Crossover))
	if defStd, defM1 := numl.ExampleCoefficients(); std.String() == defStd.String() || m1.String() == defM1.String() {
		fmt.Fprintln(stdout, "note: default coefficients are illustrative, not measured (the lines-touched paper prints none): the standard ones are S1 fitted to M1's times for rows and line-wide columns; give --std and --m1 from your fits (memwall numl measure, memwall fit)")
	}
	return 0
}

// numlColumns name the measured table's columns as engine/fit terms read
// them: m, n and u are the features of the lines-touched paper's models (numl.Frame),
// time_us the median time, which memwall's data reader stores in seconds
// under the name time. cols is 1 for a column message, so that a training
// condition can select by kind.
var numlColumns = []struct{ name, unit, desc string }{
	{"kind", "", "rows (k whole rows) or columns (the k leftmost columns)"},
	{"cols", "", "1 for a column message, 0 for rows"},
	{"m", "", "messages, each from its own array"},
	{"n", "", "bytes sent by the m messages"},
	{"u", "", "distinct memory lines the m messages touch (exact, counted by memwall at the array's real offset)"},
	{"W", "", "bytes per array row"},
	{"k", "", "rows or columns per message"},
	{"w", "", "bytes per element (columns)"},
	{"r", "", "rows of the array (columns)"},
	{"o", "", "offset of the array's first byte within its line"},
	{"L", "", "line size in bytes"},
	{"scatter", "", "1 when the message was also scattered back into the array"},
	{"time", "us", "median time of the gathers (and scatters), caches flushed before each repetition"},
	{"spread", "", "interquartile range of the repetitions divided by the median"},
}

// numlRecord is one measured point as the cells of numlColumns.
func numlRecord(p measure.NUMLPoint) []string {
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	b := func(v bool) string {
		if v {
			return "1"
		}
		return "0"
	}
	return []string{p.Kind, b(p.Kind == "columns"), i(p.M), i(p.N), i(p.U), i(p.W), i(p.K), i(p.Elem), i(p.R), i(p.Offset), i(p.Line), b(p.Scatter),
		strconv.FormatFloat(p.Seconds.Median*1e6, 'g', 6, 64), strconv.FormatFloat(p.Seconds.Spread, 'g', 3, 64)}
}

func runNUMLMeasure(args []string, stdout, stderr io.Writer) int {
	fs := numlFlags("numl measure", stderr)
	quick := fs.Bool("quick", false, "a smaller plan with fewer repetitions (seconds)")
	reps := fs.Int("reps", 0, "timed repetitions per shape, the median is kept (default 9, 5 with --quick)")
	flush := fs.String("flush", "", "bytes read before every repetition to evict the arrays (default 1.5 × the last cache; 0: none)")
	lineArg := fs.String("L", "", "line size in bytes (default: the OS's, or 64)")
	msgs := fs.String("m", "", "message counts, comma-separated (default 1,4; 1 with --quick)")
	scatter := fs.Bool("scatter", false, "also time each shape gathered and scattered back")
	outArg := fs.String("out", "", "write to this file instead of standard output")
	force := forceFlag(fs)
	asJSON := fs.Bool("json", false, "write a memwall data set (JSON with title, source and column units) instead of CSV")
	title := fs.String("title", "Gathers of rows and columns on this machine", "title of the data set (--json)")
	where := fs.String("machine", "this machine", "what the source says was measured (--json)")
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	failf := func(err error) int { return fail(stderr, "numl measure", err) }
	if isSet(fs, "reps") && (*reps < 1 || *reps > 1000) {
		return failf(fmt.Errorf("--reps: from 1 to 1000; got %d", *reps))
	}
	opt := measure.NUMLOptions{Quick: *quick, Reps: *reps, Scatter: *scatter}
	if *flush != "" {
		b, err := units.ParseSize(*flush)
		if err != nil || b < 0 {
			return failf(fmt.Errorf("--flush: a size such as 160MiB, or 0 for none; got %q", *flush))
		}
		opt.FlushBytes = b
		if b == 0 {
			opt.FlushBytes = -1
		}
	}
	if *lineArg != "" {
		b, err := units.ParseSize(*lineArg)
		if err != nil || b < 8 || b > 4096 || b&(b-1) != 0 {
			return failf(fmt.Errorf("-L: a power of two from 8 to 4096 bytes, e.g. 64; got %q", *lineArg))
		}
		opt.Line = b
	}
	if *msgs != "" {
		for _, f := range splitList(*msgs) {
			m, err := units.ParseCount(f)
			if err != nil || m < 1 || m > 64 {
				return failf(fmt.Errorf("-m: message counts from 1 to 64; got %q", f))
			}
			opt.Messages = append(opt.Messages, m)
		}
	}
	if len(*title) > 200 || len(*where) > 200 {
		return failf(fmt.Errorf("--title, --machine: at most 200 characters"))
	}
	out := output{"--out", *outArg}
	if err := checkOutputs(*force, nil, out); err != nil {
		return failf(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prog := newProgress(stderr, "numl measure")
	opt.Progress = func(done, total int) { prog.update(int64(done), int64(total), "points") }
	run, err := measure.MeasureNUML(ctx, opt)
	prog.done()
	if err != nil {
		return failf(measureError(err, out))
	}
	err = writeTo(stdout, out, func(w io.Writer) error {
		if *asJSON {
			return writeNUMLDataset(w, run, *title, *where, time.Now())
		}
		return writeNUMLCSV(w, run)
	})
	if err != nil {
		fmt.Fprintf(stderr, "memwall numl measure: %v\n", err)
		return 1
	}
	return 0
}

// numlMethod says how the times were taken, for the CSV comment and the
// data set's notes.
func numlMethod(run *measure.NUMLRun) string {
	return fmt.Sprintf("each point gathers m messages (k whole rows, or the k leftmost columns of r rows) from m separate arrays into one send buffer; "+
		"median of %d repetitions, each after reading %s to evict the arrays; %d-byte lines; u counted by memwall at each array's real offset o",
		run.Reps, units.FormatSize(run.FlushBytes), run.Line)
}

func writeNUMLCSV(w io.Writer, run *measure.NUMLRun) error {
	fmt.Fprintf(w, "# messages of the lines-touched paper timed by memwall numl measure: %s\n", numlMethod(run))
	cw := csv.NewWriter(w)
	header := make([]string, len(numlColumns))
	for i, c := range numlColumns {
		header[i] = c.name
		if c.unit != "" {
			header[i] += "_" + c.unit
		}
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, p := range run.Points {
		if err := cw.Write(numlRecord(p)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeNUMLDataset writes the run as a memwall data set, the JSON object
// form engine/dataset reads (the format of presets/datasets), one row per
// line.
func writeNUMLDataset(w io.Writer, run *measure.NUMLRun, title, where string, now time.Time) error {
	cpu := run.OS.CPU
	if cpu == "" {
		cpu = "CPU not reported"
	}
	cache := ""
	if run.OS.LastCache > 0 {
		cache = fmt.Sprintf(", last cache %s", units.FormatSize(run.OS.LastCache))
	}
	q := func(s string) string {
		b, _ := jsonx.Marshal(s)
		return string(b)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "{\n  \"title\": %s,\n", q(title))
	fmt.Fprintf(&b, "  \"source\": %s,\n", q(fmt.Sprintf("measured by memwall numl measure on %s (%s%s), %s", where, cpu, cache, now.UTC().Format("2006-01-02"))))
	fmt.Fprintf(&b, "  \"notes\": %s,\n  \"columns\": [\n", q("The lines-touched paper's point-to-point message marshalling (sections 4.1, 4.2), timed on this machine: "+numlMethod(run)+"."))
	for i, c := range numlColumns {
		fmt.Fprintf(&b, "    {\"name\": %s", q(c.name))
		if c.unit != "" {
			fmt.Fprintf(&b, ", \"unit\": %s", q(c.unit))
		}
		fmt.Fprintf(&b, ", \"description\": %s}", q(c.desc))
		if i < len(numlColumns)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ],\n  \"rows\": [\n")
	for i, p := range run.Points {
		cells := numlRecord(p)
		cells[0] = q(cells[0])
		fmt.Fprintf(&b, "    [%s]", strings.Join(cells, ", "))
		if i < len(run.Points)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ]\n}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// coefFlagError names the flag of a coefficient list and the key in it
// ("--m1: gamma: ..."), rather than the engine's field ("m1.gamma").
func coefFlagError(flag, prefix string, err error) error {
	var fe *numl.FieldError
	if errors.As(err, &fe) {
		if key := strings.TrimPrefix(fe.Field, prefix); key != "" && key != fe.Field {
			return fmt.Errorf("%s: %s: %s", flag, key, fe.Msg)
		}
		return fmt.Errorf("%s: %s", flag, fe.Msg)
	}
	return fmt.Errorf("%s: %v", flag, err)
}

// readCommunication reads the Communication page's inputs from --link or
// --scenario; a field that does not read is an error naming it.
func readCommunication(f inputFlags) (numl.Scenario, error) {
	in, err := f.read(numl.Form)
	if err != nil {
		return numl.Scenario{}, err
	}
	sc, es := numl.ParseScenario(in)
	return sc, es.Err()
}
