package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/engine/speedup"
	"memwall/engine/units"
	"memwall/presets"
)

func init() {
	register(command{name: "fit", summary: "fit a linear model of terms to measured data (CSV, JSON or a built-in data set)", run: runFit})
}

func runFit(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "CSV or JSON `file`, or a built-in data set id (e.g. chittor-table6)")
	ycol := fs.String("y", "", "measured `column` to fit")
	terms := fs.String("terms", "", "comma-separated `terms`, e.g. \"1, N/P*log2(P)^2, P*log2(P)\"")
	train := fs.String("train", "", "`condition` selecting the training rows, e.g. \"N<=512 && P<=16\"; the rest is the test set")
	weight := fs.String("weight", "auto", "weighting: abs, rel or auto (the one that cross-validates better)")
	asJSON := fs.Bool("json", false, "write the result as JSON")
	keep := fs.Bool("keep-good-rows", false, "import the good rows of a file with bad rows")
	inputs := addInputFlags(fs, "Speedup")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: memwall fit --data FILE --y COLUMN --terms \"t1, t2, ...\" [--train EXPR] [--weight abs|rel] [--json]\n       memwall fit --link URL | --scenario FILE [--json]   (the Speedup page's inputs)")
		fmt.Fprintln(stderr, "\nBuilt-in data sets:")
		for _, d := range presets.Datasets() {
			fmt.Fprintf(stderr, "  %-16s %s\n", d.ID, d.Title)
		}
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "memwall fit: "+format+"\n", a...)
		return 2
	}
	if inputs.given() {
		return fitSpeedupInputs(inputs, *asJSON, stdout, stderr)
	}
	if *data == "" || *ycol == "" || *terms == "" {
		return fail("--data, --y and --terms are required (memwall fit -h)")
	}
	tbl, skipped, err := loadTable(*data, *keep)
	if err != nil {
		return fail("%s: %v", *data, err)
	}
	for _, e := range skipped {
		fmt.Fprintf(stderr, "memwall fit: %s: skipped %v\n", *data, e)
	}
	ts, err := fit.ParseTerms(*terms)
	if err != nil {
		return fail("--terms: %v", err)
	}
	spec := fit.Spec{Y: *ycol, Terms: ts}
	if *train != "" {
		c, err := fit.ParseCond(*train)
		if err != nil {
			return fail("--train: %v", err)
		}
		spec.Train = c
	}
	if spec.Weighting, err = fit.ParseWeighting(*weight); err != nil {
		return fail("--weight: %v", err)
	}
	res, err := fit.Fit(tbl, spec)
	if err != nil {
		var re *fit.RowError
		if errors.As(err, &re) && re.Row < len(tbl.Lines) {
			return fail("%s: line %d: %s", *data, tbl.Lines[re.Row], re.Msg)
		}
		return fail("%v", err)
	}
	if *asJSON {
		return writeFitJSON(stdout, stderr, tbl, res)
	}
	writeFitText(stdout, tbl, spec, res)
	return 0
}

// loadTable reads a file, or a built-in data set when no file of that name
// exists and the name is a data set id.
func loadTable(name string, keep bool) (*dataset.Table, []*dataset.CellError, error) {
	f, err := os.Open(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) && !strings.ContainsAny(name, "/\\.") {
			t, err2 := presets.Dataset(name)
			if err2 != nil {
				return nil, nil, fmt.Errorf("no such file, and %v", err2)
			}
			return t, nil, nil
		}
		return nil, nil, err
	}
	defer f.Close()
	t, skipped, err := dataset.Read(f, dataset.Options{KeepGoodRows: keep})
	var bre *dataset.BadRowsError
	if errors.As(err, &bre) && bre.GoodRows > 0 {
		err = fmt.Errorf("%v\n(rerun with --keep-good-rows to use them)", err)
	}
	return t, skipped, err
}

type jsonStats struct {
	N           int              `json:"n"`
	SE          float64          `json:"s_e"`
	D           *float64         `json:"D"`
	R2          *float64         `json:"r2"`
	MeanRel     float64          `json:"mean_rel_error"`
	MedianRel   float64          `json:"median_rel_error"`
	MaxRel      float64          `json:"max_rel_error"`
	Predictions []jsonPrediction `json:"predictions"`
}

type jsonPrediction struct {
	Line      int                `json:"line"`
	Values    map[string]float64 `json:"values"`
	Measured  float64            `json:"measured"`
	Predicted float64            `json:"predicted"`
	RelError  float64            `json:"rel_error"`
}

func writeFitJSON(stdout, stderr io.Writer, tbl *dataset.Table, res *fit.Result) int {
	coef := map[string]float64{}
	for k, t := range res.Model.Terms {
		coef[t.String()] = res.Model.Coef[k]
	}
	set := func(st fit.Stats, rows []int) jsonStats {
		js := jsonStats{N: st.N, SE: st.SE, MeanRel: st.MeanRel, MedianRel: st.MedianRel, MaxRel: st.MaxRel, Predictions: []jsonPrediction{}}
		if st.DDefined {
			d, r2 := st.D, st.R2
			js.D, js.R2 = &d, &r2
		}
		for _, r := range rows {
			p := res.Predictions[r]
			vals := map[string]float64{}
			for _, c := range tbl.Columns {
				if c.Kind != dataset.Text {
					vals[c.Name] = c.Values[r]
				}
			}
			js.Predictions = append(js.Predictions, jsonPrediction{Line: tbl.Lines[r], Values: vals, Measured: p.Y, Predicted: p.Pred, RelError: p.RelError})
		}
		return js
	}
	out := struct {
		Terms           []string           `json:"terms"`
		Coefficients    map[string]float64 `json:"coefficients"`
		Weighting       string             `json:"weighting"`
		WeightingReason string             `json:"weighting_reason"`
		Condition       float64            `json:"condition_number"`
		Warnings        []string           `json:"warnings"`
		Train           jsonStats          `json:"train"`
		Test            jsonStats          `json:"test"`
	}{fit.TermStrings(res.Model.Terms), coef, res.Weighting.String(), res.WeightingReason, res.Cond, res.Warnings,
		set(res.Train, res.TrainRows), set(res.Test, res.TestRows)}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	if math.IsInf(out.Condition, 0) {
		out.Condition = 0
	}
	if err := writeJSON(stdout, out); err != nil {
		fmt.Fprintf(stderr, "memwall fit: %v\n", err)
		return 2
	}
	return 0
}

func writeFitText(w io.Writer, tbl *dataset.Table, spec fit.Spec, res *fit.Result) {
	fmt.Fprintf(w, "%s = %s\n\n", spec.Y, res.Model)
	fmt.Fprintln(w, "coefficients:")
	for k, t := range res.Model.Terms {
		fmt.Fprintf(w, "  %-32s %14.6g\n", t, res.Model.Coef[k])
	}
	fmt.Fprintf(w, "\nweighting: %s — %s\n", res.Weighting, res.WeightingReason)
	fmt.Fprintf(w, "condition number (normalised columns): %.3g\n", res.Cond)
	for _, m := range res.Warnings {
		fmt.Fprintf(w, "warning: %s\n", m)
	}
	what := "all rows"
	if spec.Train.Valid() {
		what = spec.Train.String()
	}
	fmt.Fprintf(w, "\n%-6s %5s %12s %10s %10s %9s %9s %9s\n", "set", "n", "s_e", "D", "R²", "mean rel", "median", "max rel")
	for _, s := range []struct {
		name string
		st   fit.Stats
	}{{"train", res.Train}, {"test", res.Test}} {
		if s.st.N == 0 {
			fmt.Fprintf(w, "%-6s %5d\n", s.name, 0)
			continue
		}
		d, r2 := "—", "—"
		if s.st.DDefined {
			d, r2 = fmt.Sprintf("%.4g", s.st.D), fmt.Sprintf("%.4f", s.st.R2)
		}
		fmt.Fprintf(w, "%-6s %5d %12.4g %10s %10s %8.2f%% %8.2f%% %8.2f%%\n", s.name, s.st.N, s.st.SE, d, r2,
			100*s.st.MeanRel, 100*s.st.MedianRel, 100*s.st.MaxRel)
	}
	fmt.Fprintf(w, "(training rows: %s)\n", what)
}

// fitSpeedupInputs fits what a Speedup page's link or scenario file asks
// for, through the model's scenario as the page does, and prints the fit
// and, when the data has N and P, the speedup curve's roll-off.
func fitSpeedupInputs(inputs inputFlags, asJSON bool, stdout, stderr io.Writer) int {
	failf := func(err error) int { return fail(stderr, "fit", err) }
	in, err := inputs.read(speedup.Form)
	if err != nil {
		return failf(err)
	}
	id := presets.CurrentID(in["data"])
	tbl, err := presets.Dataset(id)
	if err != nil {
		return failf(fmt.Errorf("data: %v (links and scenario files name a built-in data set; give a file with --data)", err))
	}
	d := speedup.DefaultsFor(id, tbl)
	if in["y"] == "" {
		in["y"] = d.Y
	}
	nCol, pCol := speedup.Columns(tbl, in["y"])
	frame := speedup.FrameFor(tbl, nCol, pCol)
	curves := nCol != "" && pCol != "" && !d.Speedups
	parseFrame := frame
	if !curves {
		parseFrame = fit.Frame{}
	}
	sc, es := speedup.ParseScenario(in, parseFrame)
	if len(es) > 0 {
		return failf(es)
	}
	if !speedup.HasColumn(tbl, sc.Y) {
		return failf(fmt.Errorf("y: the data has no numeric column %q", sc.Y))
	}
	var fixed map[string]float64
	if sc.Model != "" {
		m, ok := presets.FittedModelByID(sc.Model)
		if !ok {
			return failf(fmt.Errorf("model: no published model %q", sc.Model))
		}
		fixed = m.Fixed
	}
	spec := fit.Spec{Y: sc.Y, Terms: sc.Terms, Train: sc.Region, Weighting: sc.Weighting}
	var res *fit.Result
	var curve *speedup.NCurve
	if curves {
		a, err := speedup.Analyze(sc.Spec(frame, fixed))
		if err != nil {
			return failf(err)
		}
		res, curve = a.Fit, &a.Curves[0]
	} else if res, err = fit.Fit(frame, spec); err != nil {
		return failf(err)
	}
	if asJSON {
		return writeFitJSON(stdout, stderr, tbl, res)
	}
	fmt.Fprintf(stdout, "data: %s\n", id)
	writeFitText(stdout, tbl, spec, res)
	if curve != nil {
		writeSpeedupCurve(stdout, curve)
	}
	return 0
}

// writeSpeedupCurve prints the predicted speedup at each P of the chart and
// its roll-off point.
func writeSpeedupCurve(w io.Writer, c *speedup.NCurve) {
	fmt.Fprintf(w, "\npredicted speedup at N = %s:\n", units.FormatCount(int64(c.N)))
	for _, pt := range c.Predicted.Points {
		fmt.Fprintf(w, "  P = %-8s S = %.4g\n", units.FormatCount(int64(pt.P)), pt.S)
	}
	if r := c.Predicted.RollOff; r.Found {
		fmt.Fprintf(w, "roll-off: P = %s (speedup %.4g)\n", units.FormatCount(int64(r.P)), r.S)
	} else {
		fmt.Fprintln(w, "roll-off: none in this range of P")
	}
}
