package fit

import (
	"fmt"
	"math"
	"strings"
)

// Columns is measured data as named numeric columns of equal length. The
// dataset package's tables implement it; Frame is a plain implementation.
type Columns interface {
	Len() int
	// Column returns the values of the named column.
	Column(name string) ([]float64, bool)
}

// MaxValue bounds the magnitude of a term's value on a row: the normal
// equations square it, and 1e100 squared stays far inside float64.
const MaxValue = 1e100

// NumericColumn returns the values of a column. When there are none and the
// data can say why (a dataset.Table names a column of text by its first
// cell that is not a number), its reason is the error.
func NumericColumn(data Columns, name string) ([]float64, error) {
	if v, ok := data.Column(name); ok {
		return v, nil
	}
	if n, ok := data.(interface {
		Numeric(string) ([]float64, error)
	}); ok {
		if _, err := n.Numeric(name); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("no column %q", name)
}

// Frame is a minimal Columns: Names[i] labels Cols[i].
type Frame struct {
	Names []string
	Cols  [][]float64
}

// Len returns the number of rows (the length of the first column).
func (f Frame) Len() int {
	if len(f.Cols) == 0 {
		return 0
	}
	return len(f.Cols[0])
}

// Column returns the named column.
func (f Frame) Column(name string) ([]float64, bool) {
	for i, n := range f.Names {
		if n == name {
			return f.Cols[i], true
		}
	}
	return nil, false
}

// Model is a fitted (or published) linear model: T = sum_k Coef[k]·Terms[k].
type Model struct {
	Terms []Term
	Coef  []float64
}

// NewModel parses a term list and pairs it with coefficients.
func NewModel(terms string, coef ...float64) (Model, error) {
	t, err := ParseTerms(terms)
	if err != nil {
		return Model{}, err
	}
	if len(t) != len(coef) {
		return Model{}, fmt.Errorf("%d terms but %d coefficients", len(t), len(coef))
	}
	return Model{Terms: t, Coef: append([]float64(nil), coef...)}, nil
}

// Vars lists the column names the model reads.
func (m Model) Vars() []string {
	var vs []string
	seen := map[string]bool{}
	for _, t := range m.Terms {
		for _, v := range t.vars {
			if !seen[v] {
				seen[v] = true
				vs = append(vs, v)
			}
		}
	}
	return vs
}

// Predict evaluates the model at the named values.
func (m Model) Predict(vals map[string]float64) (float64, error) {
	s := 0.0
	for k, t := range m.Terms {
		v, err := t.EvalMap(vals)
		if err != nil {
			return 0, err
		}
		s += m.Coef[k] * v
	}
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return 0, fmt.Errorf("prediction is out of range at %v", vals)
	}
	return s, nil
}

// Contributions returns each term's share c_k·f_k(x) at the named values, in
// the order of Terms, for a breakdown.
func (m Model) Contributions(vals map[string]float64) ([]float64, error) {
	out := make([]float64, len(m.Terms))
	for k, t := range m.Terms {
		v, err := t.EvalMap(vals)
		if err != nil {
			return nil, err
		}
		out[k] = m.Coef[k] * v
	}
	return out, nil
}

// String writes the model as "c1·t1 + c2·t2 ...".
func (m Model) String() string {
	var b strings.Builder
	for k, t := range m.Terms {
		c := m.Coef[k]
		switch {
		case k == 0 && c < 0:
			b.WriteString("−")
		case k > 0 && c < 0:
			b.WriteString(" − ")
		case k > 0:
			b.WriteString(" + ")
		}
		if t.Canonical() == "1" {
			fmt.Fprintf(&b, "%.4g", math.Abs(c))
		} else {
			fmt.Fprintf(&b, "%.4g·%s", math.Abs(c), t.text)
		}
	}
	return b.String()
}

// design evaluates terms over rows of data: A[k][j] = term k at rows[j].
// Errors name the term and the first row (index into the data) where a term
// is not finite.
func design(data Columns, terms []Term, rows []int) ([][]float64, error) {
	A := make([][]float64, len(terms))
	for k, t := range terms {
		cols := make([][]float64, len(t.vars))
		for i, v := range t.vars {
			c, ok := data.Column(v)
			if !ok {
				return nil, fmt.Errorf("term %q reads column %q, which the data set does not have", t.text, v)
			}
			cols[i] = c
		}
		x := make([]float64, len(t.vars))
		col := make([]float64, len(rows))
		for j, r := range rows {
			for i := range cols {
				x[i] = cols[i][r]
			}
			v := t.Eval(x)
			if math.IsInf(v, 0) || (!math.IsNaN(v) && math.Abs(v) > MaxValue) {
				return nil, &RowError{Row: r, Msg: fmt.Sprintf("term %q overflows at %s: its value is beyond the accepted range (magnitude at most %g)", t.text, describe(t.vars, x), MaxValue)}
			}
			if math.IsNaN(v) {
				return nil, &RowError{Row: r, Msg: fmt.Sprintf("term %q is not defined at %s (log2 of a non-positive number or division by zero)", t.text, describe(t.vars, x))}
			}
			col[j] = v
		}
		A[k] = col
	}
	return A, nil
}

// RowError is an error tied to a row of the data (0-based index); callers
// that know source line numbers can rewrite the message.
type RowError struct {
	Row int
	Msg string
}

func (e *RowError) Error() string { return fmt.Sprintf("row %d: %s", e.Row+1, e.Msg) }
