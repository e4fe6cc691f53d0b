package fit

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Thresholds on the condition number of the column-normalised (and
// weighted) design matrix. With double precision the relative error of the
// coefficients is about cond·1e-16: above RankCond the coefficients carry no
// significant digit and the fit is refused; above WarnCond some terms are so
// close to a combination of the others that their coefficients are unstable
// (large, of opposite sign, changing with a single point), which the result
// reports.
const (
	RankCond = 1e10
	WarnCond = 1e6
)

// ErrTooFewPoints is wrapped by the error returned when there are fewer rows
// than terms.
var ErrTooFewPoints = errors.New("fewer points than terms")

// ErrRankDeficient is wrapped by the error returned when the terms are
// linearly dependent on the rows given.
var ErrRankDeficient = errors.New("terms are linearly dependent")

// Collinearity describes one near-linear relation among the normalised term
// columns: sum_k Weights[k]·column(Terms[k])/‖column‖ ≈ 0.
type Collinearity struct {
	Terms   []string
	Weights []float64
	// Ratio is sigma_min/sigma_max for this relation (0 for exact).
	Ratio float64
}

func (c Collinearity) String() string {
	var b strings.Builder
	for i, t := range c.Terms {
		w := c.Weights[i]
		switch {
		case i == 0 && w < 0:
			b.WriteString("−")
		case i > 0 && w < 0:
			b.WriteString(" − ")
		case i > 0:
			b.WriteString(" + ")
		}
		fmt.Fprintf(&b, "%.2f·[%s]", math.Abs(w), t)
	}
	b.WriteString(" ≈ 0")
	return b.String()
}

func names(terms []string) string {
	q := make([]string, len(terms))
	for i, t := range terms {
		q[i] = fmt.Sprintf("%q", t)
	}
	switch len(q) {
	case 0:
		return ""
	case 1:
		return q[0]
	case 2:
		return q[0] + " and " + q[1]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// Solution is the result of a least-squares solve.
type Solution struct {
	Coef []float64
	// Cond is the 2-norm condition number of the normalised design matrix.
	Cond float64
	// Near lists near-collinear relations (singular values below
	// sigma_max/WarnCond), most nearly dependent first.
	Near []Collinearity
}

// LeastSquares minimises sum_i (w_i·(b_i − sum_k A[k][i]·x_k))² where A is
// given by columns (A[k] is the column of term k, length m) and w may be nil
// (all ones). Labels name the columns in messages. The columns are scaled
// to unit 2-norm, reduced by Householder QR, and the p×p triangular factor
// is decomposed by one-sided Jacobi SVD, from which the minimum-norm
// solution, the condition number and near-dependencies follow.
//
// The inputs are not modified.
func LeastSquares(A [][]float64, b, w []float64, labels []string) (*Solution, error) {
	p := len(A)
	if p == 0 {
		return nil, errors.New("no terms")
	}
	m := len(b)
	if m < p {
		return nil, fmt.Errorf("%w: %d points for %d terms (%s); give at least %d points or fewer terms",
			ErrTooFewPoints, m, p, strings.Join(labels, ", "), p)
	}
	for k := range A {
		if len(A[k]) != m {
			return nil, fmt.Errorf("column %d has %d rows, want %d", k, len(A[k]), m)
		}
	}
	// Weighted, normalised copy (column-major) and right-hand side.
	Q := make([][]float64, p)
	scale := make([]float64, p)
	buf := make([]float64, p*m)
	for k := range A {
		col := buf[k*m : (k+1)*m]
		for i, v := range A[k] {
			if w != nil {
				v *= w[i]
			}
			col[i] = v
		}
		s := norm2(col)
		if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
			if s == 0 {
				return nil, fmt.Errorf("%w: term %q is zero on every row", ErrRankDeficient, labels[k])
			}
			return nil, fmt.Errorf("term %q is not finite on some row", labels[k])
		}
		for i := range col {
			col[i] /= s
		}
		Q[k] = col
		scale[k] = s
	}
	rhs := make([]float64, m)
	for i, v := range b {
		if w != nil {
			v *= w[i]
		}
		rhs[i] = v
	}
	// Householder QR: after step k, Q[k][k:] holds the reflector and R is
	// stored in the upper triangle.
	R := make([][]float64, p) // R[i][j], row-major p×p
	for i := range R {
		R[i] = make([]float64, p)
	}
	for k := 0; k < p; k++ {
		x := Q[k][k:]
		alpha := norm2(x)
		if x[0] > 0 {
			alpha = -alpha
		}
		// v = x − alpha·e1, H = I − 2vvᵀ/(vᵀv)
		x[0] -= alpha
		vv := 0.0
		for _, v := range x {
			vv += v * v
		}
		R[k][k] = alpha
		if vv == 0 {
			continue
		}
		for j := k + 1; j < p; j++ {
			y := Q[j][k:]
			f := 2 * dot(x, y) / vv
			for i := range y {
				y[i] -= f * x[i]
			}
			R[k][j] = y[0]
		}
		y := rhs[k:]
		f := 2 * dot(x, y) / vv
		for i := range y {
			y[i] -= f * x[i]
		}
	}
	c := rhs[:p]
	// One-sided Jacobi SVD of R (rows of Rt are columns of R... we work on
	// U = R's columns): orthogonalise the columns of R by plane rotations,
	// accumulating V. Then R·V = U·Σ.
	U := make([][]float64, p) // U[j] is column j of R·V
	for j := 0; j < p; j++ {
		U[j] = make([]float64, p)
		for i := 0; i <= j; i++ {
			U[j][i] = R[i][j]
		}
	}
	V := make([][]float64, p) // V[j] is column j
	for j := range V {
		V[j] = make([]float64, p)
		V[j][j] = 1
	}
	for sweep := 0; sweep < 60; sweep++ {
		off := 0.0
		for j := 0; j < p-1; j++ {
			for k := j + 1; k < p; k++ {
				a, bb, g := dot(U[j], U[j]), dot(U[k], U[k]), dot(U[j], U[k])
				if g == 0 || math.Abs(g) <= 1e-15*math.Sqrt(a*bb) {
					continue
				}
				off = math.Max(off, math.Abs(g)/math.Sqrt(a*bb))
				zeta := (bb - a) / (2 * g)
				t := math.Copysign(1, zeta) / (math.Abs(zeta) + math.Sqrt(1+zeta*zeta))
				cs := 1 / math.Sqrt(1+t*t)
				sn := cs * t
				rot(U[j], U[k], cs, sn)
				rot(V[j], V[k], cs, sn)
			}
		}
		if off <= 1e-15 {
			break
		}
	}
	sig := make([]float64, p)
	for j := range U {
		sig[j] = norm2(U[j])
	}
	smax := 0.0
	for _, s := range sig {
		smax = math.Max(smax, s)
	}
	order := make([]int, p)
	for j := range order {
		order[j] = j
	}
	sort.Slice(order, func(a, b int) bool { return sig[order[a]] < sig[order[b]] })
	sol := &Solution{Coef: make([]float64, p)}
	smin := sig[order[0]]
	if smin > 0 {
		sol.Cond = smax / smin
	} else {
		sol.Cond = math.Inf(1)
	}
	for _, j := range order {
		if sig[j] > smax/WarnCond {
			break
		}
		sol.Near = append(sol.Near, relation(V[j], labels, sig[j]/smax))
	}
	if smin <= smax/RankCond {
		rel := sol.Near[0]
		what := "exactly"
		if rel.Ratio > 0 {
			what = fmt.Sprintf("almost exactly (condition number %.2g)", 1/rel.Ratio)
		}
		return nil, fmt.Errorf("%w: terms %s are %s linearly dependent on these rows: %s; drop one of them or add rows that tell them apart",
			ErrRankDeficient, names(rel.Terms), what, rel)
	}
	// x_n = V Σ⁻¹ Uᵀ c with U's columns U[j]/sig[j]; x = x_n / scale.
	for j := 0; j < p; j++ {
		f := dot(U[j], c) / (sig[j] * sig[j])
		for k := 0; k < p; k++ {
			sol.Coef[k] += f * V[j][k]
		}
	}
	for k := range sol.Coef {
		sol.Coef[k] /= scale[k]
		if math.IsNaN(sol.Coef[k]) || math.IsInf(sol.Coef[k], 0) {
			return nil, fmt.Errorf("coefficient of term %q is not finite; the data are out of range", labels[k])
		}
	}
	return sol, nil
}

// relation turns a right singular vector into the terms that take part in
// the near-dependency (components at least a fifth of the largest).
func relation(v []float64, labels []string, ratio float64) Collinearity {
	big := 0.0
	for _, x := range v {
		big = math.Max(big, math.Abs(x))
	}
	var c Collinearity
	c.Ratio = ratio
	idx := make([]int, 0, len(v))
	for k, x := range v {
		if math.Abs(x) >= 0.2*big {
			idx = append(idx, k)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return math.Abs(v[idx[a]]) > math.Abs(v[idx[b]]) })
	sign := 1.0
	if len(idx) > 0 && v[idx[0]] < 0 {
		sign = -1
	}
	for _, k := range idx {
		c.Terms = append(c.Terms, labels[k])
		c.Weights = append(c.Weights, sign*v[k])
	}
	return c
}

func rot(x, y []float64, c, s float64) {
	for i := range x {
		a, b := x[i], y[i]
		x[i] = c*a - s*b
		y[i] = s*a + c*b
	}
}

func dot(x, y []float64) float64 {
	s := 0.0
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

// norm2 is the Euclidean norm with scaling against overflow.
func norm2(x []float64) float64 {
	scale, ssq := 0.0, 1.0
	for _, v := range x {
		if v == 0 {
			continue
		}
		a := math.Abs(v)
		if scale < a {
			ssq = 1 + ssq*(scale/a)*(scale/a)
			scale = a
		} else {
			ssq += (a / scale) * (a / scale)
		}
	}
	return scale * math.Sqrt(ssq)
}
