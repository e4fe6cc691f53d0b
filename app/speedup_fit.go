package app

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"time"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/engine/speedup"
	"memwall/presets"
)

// speedupOutcome is everything the Speedup page shows for one set of inputs.
type speedupOutcome struct {
	res      *fit.Result
	curve    *speedup.NCurve
	curveMsg string       // why there is no speedup chart, or what it lacks
	multi    [][2]float64 // Multi's estimate (Table 5) at N: (P, S)
	theo     [][2]float64 // the simple theoretic model of Tables 3 and 4: (P, S)
	speedOpt string
	fitOpt   string
	seconds  bool // the measured column is a time in seconds
	err      string
	// published is the ready model whose terms are being fitted, for its
	// printed coefficients.
	published *presets.FittedModel
	millis    float64
	hidden    int // points a log-log chart cannot show (not positive)
}

// maxShownRows bounds the prediction table: the chart shows every point,
// the table the first rows, the CSV download all of them.
const maxShownRows = 300

func computeSpeedup(p *speedupPage) (o speedupOutcome) {
	start := time.Now()
	defer func() { o.millis = float64(time.Since(start).Microseconds()) / 1e3 }()
	frame := p.frame()
	if p.yCol == "" {
		o.err = "Choose the measured column."
		return o
	}
	if c := p.tbl.Col(p.yCol); c != nil {
		o.seconds = c.Kind == dataset.Duration
	}
	var fixed map[string]float64
	if m, ok := presets.FittedModelByID(p.model); ok {
		fixed = m.Fixed
		if sameTerms(m.Terms, p.spec.terms) {
			o.published = &m
		}
	}
	if p.curvesPossible() {
		a, err := speedup.Analyze(speedup.Spec{
			Data: frame, T: p.yCol, Terms: p.spec.terms, Train: p.spec.cond, Weighting: p.weighting,
			Ns: []float64{p.spec.n}, Ps: procCounts(p.spec.pFrom, p.spec.pTo), Fixed: fixed, Work: p.spec.work,
		})
		if err == nil {
			o.res = a.Fit
			c := a.Curves[0]
			o.curve = &c
		} else {
			o.curveMsg = "No speedup curve: " + err.Error() + "."
		}
	} else if defaultsFor(p.data, p.tbl).Speedups {
		o.curveMsg = "Table 5 holds Multi's speedups, not running times, so no speedup curve is derived from a fit of it; choose Table 6 to see Table 5 beside the fitted curve."
	} else {
		o.curveMsg = "The speedup chart needs a problem-size column (N) and a processor column (P); choose them under Data."
	}
	if o.res == nil {
		res, err := fit.Fit(frame, fit.Spec{Y: p.yCol, Terms: p.spec.terms, Train: p.spec.cond, Weighting: p.weighting})
		if err != nil {
			o.err = p.fitError(err)
			return o
		}
		o.res = res
	}
	if o.curve != nil && p.data == table6 {
		o.multi = seriesAt(table5, "N", p.spec.n, "P", "S")
		o.theo = theoretic(p.spec.n, o.curve.Predicted.Points)
	}
	o.fitOpt, o.hidden = fitOption(o.res, o.seconds)
	if o.curve != nil {
		o.speedOpt = speedOption(o.curve, o.multi, o.theo)
	}
	return o
}

// fitError puts the file's line number into a row's error.
func (p *speedupPage) fitError(err error) string {
	var re *fit.RowError
	if errors.As(err, &re) && p.tbl != nil && re.Row >= 0 && re.Row < len(p.tbl.Lines) {
		return fmt.Sprintf("Line %d: %s", p.tbl.Lines[re.Row], re.Msg)
	}
	msg := err.Error()
	if errors.Is(err, fit.ErrTooFewPoints) || errors.Is(err, fit.ErrRankDeficient) {
		return "The fit was refused: " + msg + "."
	}
	return "The fit failed: " + msg + "."
}

func sameTerms(text string, terms []fit.Term) bool {
	ts, err := fit.ParseTerms(text)
	if err != nil || len(ts) != len(terms) {
		return false
	}
	for i := range ts {
		if ts[i].Canonical() != terms[i].Canonical() {
			return false
		}
	}
	return true
}

// theoretic is Chittor's thesis's simple theoretic model (section 5.2.1): Seq(P)
// from Table 3 and Par(N) from Table 4, at the P of the predicted curve.
func theoretic(n float64, pts []speedup.Point) [][2]float64 {
	seq := seriesAt(table3, "", 0, "P", "seq")
	par := seriesAt(table4, "N", n, "N", "par")
	if len(par) == 0 {
		return nil
	}
	seqP, seqT := make([]float64, len(seq)), make([]float64, len(seq))
	for i, s := range seq {
		seqP[i], seqT[i] = s[0], s[1]
	}
	ps := make([]float64, len(pts))
	for i, pt := range pts {
		ps[i] = pt.P
	}
	var out [][2]float64
	for _, pt := range speedup.TheoreticCurve(seqP, seqT, par[0][1], ps) {
		out = append(out, [2]float64{pt.P, pt.S})
	}
	return out
}

// predictionsCSV writes every row's measured and predicted value.
func predictionsCSV(t *dataset.Table, f fit.Frame, y string, res *fit.Result) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	vars := res.Model.Vars()
	w.Write(append(append([]string{"line"}, vars...), "set", y+"_measured", y+"_predicted", "residual", "rel_error"))
	cols := make([][]float64, len(vars))
	for i, v := range vars {
		cols[i], _ = f.Column(v)
	}
	for _, pr := range res.Predictions {
		rec := []string{fmt.Sprint(lineOf(t, pr.Row))}
		for i := range vars {
			rec = append(rec, fmtCSV(cols[i], pr.Row))
		}
		set := "test"
		if pr.Train {
			set = "train"
		}
		rec = append(rec, set, fmt.Sprint(pr.Y), fmt.Sprint(pr.Pred), fmt.Sprint(pr.Residual), fmt.Sprint(pr.RelError))
		w.Write(rec)
	}
	w.Flush()
	return b.Bytes()
}

func fmtCSV(col []float64, i int) string {
	if i < len(col) {
		return fmt.Sprint(col[i])
	}
	return ""
}
