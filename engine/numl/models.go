package numl

import (
	"fmt"
	"math"

	"memwall/engine/fit"
	"memwall/engine/units"
)

// Model set names of the lines-touched paper's Table 1.
const (
	S1 = "S1"
	S2 = "S2"
	S3 = "S3"
	M1 = "M1"
	M2 = "M2"
	M3 = "M3"
)

// ModelSet is one regression model of the lines-touched paper's Table 1 as terms over the
// feature columns m (messages), n (bytes) and u (lines touched).
//
// The paper's Table 1 is unreadable in our copy beyond its structure, so the
// sets follow docs/readings.md: S1 is the standard model over messages and
// bytes (eq. 2 without the lines term), S2 adds the quadratic terms of those
// features, S3 the quadratic and cross terms; M1 adds u (eq. 2 with
// f(u) = u), M2 the quadratic terms of all three and M3 the quadratic and
// cross terms. Eq. 1 charges α per message, so m is the column of α.
//
// When every row is one message (m = 1, as Table 1's per-message models
// are), m becomes the constant 1 and the terms that would repeat a column
// (m², m·n, m·u) are left out. Then S3 has no cross term left and equals S2;
// the paper's Table 2 prints different numbers for S2 and S3, so its S3 has a
// term the printed table does not let us read.
type ModelSet struct {
	Name        string
	Description string
	// Terms for data with a varying message count, and for one message per
	// row.
	Terms, PerMessage string
}

// ModelSets returns S1–S3 and M1–M3 in Table 1's order.
func ModelSets() []ModelSet {
	return []ModelSet{
		{S1, "standard model: per message and per byte", "m, n", "1, n"},
		{S2, "standard features with quadratic terms", "m, n, m^2, n^2", "1, n, n^2"},
		{S3, "standard features with quadratic and cross terms", "m, n, m^2, n^2, m*n", "1, n, n^2"},
		{M1, "lines touched added to the standard model (the lines-touched paper's model)", "m, n, u", "1, n, u"},
		{M2, "M1 with quadratic terms", "m, n, u, m^2, n^2, u^2", "1, n, u, n^2, u^2"},
		{M3, "M1 with quadratic and cross terms", "m, n, u, m^2, n^2, u^2, m*n, m*u, n*u", "1, n, u, n^2, u^2, n*u"},
	}
}

// SetTerms returns the terms of a named set; perMessage selects the form
// for one message per row.
func SetTerms(name string, perMessage bool) ([]fit.Term, error) {
	for _, s := range ModelSets() {
		if s.Name == name {
			if perMessage {
				return fit.ParseTerms(s.PerMessage)
			}
			return fit.ParseTerms(s.Terms)
		}
	}
	return nil, &FieldError{Field: "model", Msg: fmt.Sprintf("%q is not one of S1, S2, S3, M1, M2, M3", name)}
}

// Features is one row of model features: m messages of n bytes in all,
// touching u distinct lines.
type Features struct {
	M, N, U int64
}

// MessageFeatures returns the features of one message carrying s, with u
// counted exactly at s.Offset.
func MessageFeatures(s Shape) (Features, error) {
	u, err := Lines(s)
	if err != nil {
		return Features{}, err
	}
	return Features{M: 1, N: s.Bytes(), U: u}, nil
}

// Frame builds the columns m, n, u and y for engine/fit.
func Frame(rows []Features, y []float64, yName string) fit.Frame {
	m := make([]float64, len(rows))
	n := make([]float64, len(rows))
	u := make([]float64, len(rows))
	for i, r := range rows {
		m[i], n[i], u[i] = float64(r.M), float64(r.N), float64(r.U)
	}
	return fit.Frame{Names: []string{"m", "n", "u", yName}, Cols: [][]float64{m, n, u, y}}
}

// SetFit is one model set fitted, or why it could not be.
type SetFit struct {
	Set    ModelSet
	Result *fit.Result
	Err    error
}

// FitSets fits each named set (all six when names is empty) to column y of
// data by least squares on the rows train selects, and judges it on the
// others (the lines-touched paper's sections 4.3–4.5: absolute least squares on normalised
// columns; s_e, D and relative errors per set). The data must have columns
// n and u; a missing m column, or m equal in every training row, selects
// the per-message forms.
func FitSets(data fit.Columns, y string, train fit.Cond, names []string) ([]SetFit, error) {
	if _, ok := data.Column(y); !ok {
		return nil, &FieldError{Field: "y", Msg: fmt.Sprintf("the data has no column %q", y)}
	}
	for _, c := range []string{"n", "u"} {
		if _, ok := data.Column(c); !ok {
			return nil, &FieldError{Field: c, Msg: "the data needs a column " + c + " (bytes per message n, lines touched u)"}
		}
	}
	// m is judged on the training rows: when they all carry the same
	// number of messages, m and m² are one column there and the fit
	// could not tell them apart.
	trainRows, _, err := fit.Split(data, train)
	if err != nil {
		return nil, &FieldError{Field: "train", Msg: err.Error()}
	}
	perMessage := true
	if ms, ok := data.Column("m"); ok && len(trainRows) > 0 {
		for _, i := range trainRows {
			if ms[i] != ms[trainRows[0]] {
				perMessage = false
				break
			}
		}
	}
	if len(names) == 0 {
		for _, s := range ModelSets() {
			names = append(names, s.Name)
		}
	}
	var out []SetFit
	for _, name := range names {
		terms, err := SetTerms(name, perMessage)
		if err != nil {
			return nil, err
		}
		var set ModelSet
		for _, s := range ModelSets() {
			if s.Name == name {
				set = s
			}
		}
		res, err := fit.Fit(data, fit.Spec{Y: y, Terms: terms, Train: train, Weighting: fit.Absolute})
		out = append(out, SetFit{Set: set, Result: res, Err: err})
	}
	return out, nil
}

// MessageCoef reads the message costs of a fitted S1 or M1 (terms 1 or m,
// n, and u for M1) as a Coef: α from the term 1 or m, β from n, γ from u,
// in the unit of the fitted times (seconds for a time column). A fit can
// come out with a negative coefficient (the Chittor's thesis fits do too); a Coef
// holds costs, which are not negative, so such a value is set to 0 and its
// name and fitted value returned in clamped. A model with any other term
// is refused.
func MessageCoef(m fit.Model) (c Coef, clamped []string, err error) {
	for i, t := range m.Terms {
		v := m.Coef[i]
		var dst *float64
		var name string
		switch t.Canonical() {
		case "1", "m":
			dst, name = &c.Alpha, "alpha"
		case "n":
			dst, name = &c.Beta, "beta"
		case "u":
			dst, name = &c.Gamma, "gamma"
		default:
			return Coef{}, nil, &FieldError{Field: "model", Msg: fmt.Sprintf("term %s is not a message cost (S1 and M1 have 1 or m, n and u)", t)}
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Coef{}, nil, &FieldError{Field: name, Msg: "the fitted value is not a number"}
		}
		if v < 0 {
			clamped = append(clamped, fmt.Sprintf("%s = %s", name, units.FormatSecondsPrec(v, 4)))
			v = 0
		}
		*dst = v
	}
	return c, clamped, c.Validate("")
}
