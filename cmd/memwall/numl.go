package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"memwall/engine/numl"
	"memwall/engine/units"
)

func init() {
	register(command{name: "numl", summary: "lines touched by a row or column transfer, and the convolution crossover (seed 001)", run: runNUML})
}

const numlUsage = `Usage:
  memwall numl [lines] (--rows | --cols) -W BYTES -k K [-w BYTES -r ROWS] [-L BYTES] [-o BYTES] [--json]
  memwall numl conv -N PIXELS [-w BYTES] [--pr P] [--pc P] [-L BYTES] [--bmax B] [--std LIST] [--m1 LIST] [--json]

lines: u, the distinct memory lines touched when k whole rows of W bytes, or
the k leftmost columns (k·w bytes of each of r rows of W bytes) are sent,
with the first byte at offset o within a line of L bytes; exact at o, and
the minimum, maximum and mean over all offsets (seed 001 section 3.2.1).

conv: the cost of Conv-Shift and Conv-Scan (seed 001 section 7, Figures 18
and 19) for box sizes 1..bmax on an N×N image and a pr×pc mesh under the
standard model (--std) and M1 (--m1), and the crossover box size under each.
Coefficient lists: alpha (per message), beta (per byte), gamma (per line a
message touches), delta (per arithmetic op), beta_mem (per load/store),
gamma_mem (per line a statement touches), e.g. "alpha=10us, beta=3.3ns".
`

func runNUML(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "conv":
			return runNUMLConv(args[1:], stdout, stderr)
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
	// The seed's printed bounds (eqs. 3–6).
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
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	failf := func(err error) int { return fail(stderr, "numl", err) }
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
	u, err := numl.Lines(s)
	if err != nil {
		return failf(fmt.Errorf("-%v", err))
	}
	span, _ := numl.Span(s)
	paper, _ := numl.Paper(s)
	out := numlLinesOut{Kind: s.Kind.String(), W: s.W, K: s.K, Line: s.Line, Offset: s.Offset, Bytes: s.Bytes(), U: u,
		Min: span.Min, MinAt: span.MinOffset, Max: span.Max, MaxAt: span.MaxOffset, Mean: span.Mean,
		PaperLower: paper.Lower, PaperUpper: paper.Upper}
	if *cols {
		out.Elem, out.R = s.Elem, s.R
		cf, _ := numl.Closed(s)
		out.ClosedApplies, out.ClosedWhy, out.G, out.Period = cf.Applies, cf.Why, cf.G, cf.P
		if cf.Applies {
			out.ClosedMin, out.ClosedMax = cf.Min, cf.Max
		}
	}
	if *asJSON {
		if err := writeJSON(stdout, out); err != nil {
			return failf(err)
		}
		return 0
	}
	if *cols {
		fmt.Fprintf(stdout, "%d column(s) of %d bytes from %d rows of W = %d bytes, lines of L = %d bytes, first byte at offset %d\n", s.K, s.Elem, s.R, s.W, s.Line, s.Offset)
	} else {
		fmt.Fprintf(stdout, "%d row(s) of W = %d bytes, lines of L = %d bytes, first byte at offset %d\n", s.K, s.W, s.Line, s.Offset)
	}
	fmt.Fprintf(stdout, "bytes sent:    n = %d\n", out.Bytes)
	fmt.Fprintf(stdout, "lines touched: u = %d\n", u)
	fmt.Fprintf(stdout, "over offsets:  min %d (o = %d), max %d (o = %d), mean %.4g\n", span.Min, span.MinOffset, span.Max, span.MaxOffset, span.Mean)
	fmt.Fprintf(stdout, "seed 001 bounds (eqs. %s): %d .. %d\n", map[bool]string{false: "3, 4", true: "5, 6"}[*cols], paper.Lower, paper.Upper)
	if *cols {
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

const convNote = "crossover: the smallest box size b at which Conv-Scan is predicted faster than Conv-Shift (null: not up to bmax); ratio is Conv-Shift/Conv-Scan as in seed 001 Figure 14"

func runNUMLConv(args []string, stdout, stderr io.Writer) int {
	fs := numlFlags("numl conv", stderr)
	nArg := fs.String("N", "1024", "image side in pixels")
	eArg := fs.String("w", "4", "bytes per pixel")
	prArg := fs.String("pr", "4", "processor rows of the mesh")
	pcArg := fs.String("pc", "4", "processor columns of the mesh")
	lArg := fs.String("L", "64", "line size in bytes")
	bArg := fs.String("bmax", "10", "largest box size")
	defStd, defM1 := numl.ExampleCoefficients()
	stdArg := fs.String("std", defStd.String(), "standard-model coefficients (no gamma terms); the default is illustrative, not measured")
	m1Arg := fs.String("m1", defM1.String(), "M1 coefficients; the default is illustrative, not measured")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	failf := func(err error) int { return fail(stderr, "numl conv", err) }
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
		return failf(fmt.Errorf("--%v", err))
	}
	if std.Gamma != 0 || std.GammaMem != 0 {
		return failf(fmt.Errorf("--std: the standard model has no lines-touched terms; leave out gamma and gamma_mem"))
	}
	m1, err := numl.ParseCoef("m1.", *m1Arg)
	if err != nil {
		return failf(fmt.Errorf("--%v", err))
	}
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
	if *asJSON {
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
	if strings.TrimSpace(*stdArg) == defStd.String() || strings.TrimSpace(*m1Arg) == defM1.String() {
		fmt.Fprintln(stdout, "note: default coefficients are illustrative, not measured (seed 001 prints none); give --std and --m1 from your fits")
	}
	return 0
}
