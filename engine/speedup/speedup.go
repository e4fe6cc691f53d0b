package speedup

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"memwall/engine/fit"
)

// Point is one processor count on a speedup curve.
type Point struct {
	P float64
	T float64 // running time T(N, P)
	S float64 // speedup T(N, 1)/T(N, P)
	E float64 // efficiency S/P
}

// RollOff is where a speedup curve peaks.
type RollOff struct {
	// Found is false when the speedup still rises at the largest P given.
	Found bool
	// P is the processor count of the largest speedup before the first
	// decrease; S is that speedup. When Found is false they are the last
	// point's.
	P, S float64
}

func (r RollOff) String() string {
	if !r.Found {
		return fmt.Sprintf("none up to P = %g (S = %.3g, still rising)", r.P, r.S)
	}
	return fmt.Sprintf("P = %g (S = %.3g)", r.P, r.S)
}

// Curve is T, S and E against P for one problem size.
type Curve struct {
	N       float64
	Points  []Point
	RollOff RollOff
}

// FindRollOff returns the point beyond which the speedup decreases: the
// first local maximum of S over increasing P. Chittor's thesis reads roll-off this
// way ("speedup will improve only for P up to about 32 processors, and
// would drop if we use more", section 5.3).
func FindRollOff(pts []Point) RollOff {
	if len(pts) == 0 {
		return RollOff{}
	}
	for i := 0; i+1 < len(pts); i++ {
		if pts[i+1].S < pts[i].S {
			return RollOff{Found: true, P: pts[i].P, S: pts[i].S}
		}
	}
	last := pts[len(pts)-1]
	return RollOff{P: last.P, S: last.S}
}

// Predict evaluates a model T(N, P) at problem size N for each P and
// derives speedup and efficiency. The model's terms read columns "N" and
// "P"; other parameters (the buffer size B) come from fixed.
func Predict(m fit.Model, N float64, Ps []float64, fixed map[string]float64) (Curve, error) {
	vals := map[string]float64{}
	for k, v := range fixed {
		vals[k] = v
	}
	vals["N"] = N
	vals["P"] = 1
	t1, err := m.Predict(vals)
	if err != nil {
		return Curve{}, err
	}
	if t1 <= 0 {
		return Curve{}, fmt.Errorf("the model predicts T(N=%g, P=1) = %.4g <= 0, so speedup is not defined there", N, t1)
	}
	c := Curve{N: N}
	for _, p := range sortedPs(Ps) {
		vals["P"] = p
		t, err := m.Predict(vals)
		if err != nil {
			return Curve{}, err
		}
		if t <= 0 {
			return Curve{}, fmt.Errorf("the model predicts T(N=%g, P=%g) = %.4g <= 0; it is outside the region where it holds", N, p, t)
		}
		s := t1 / t
		c.Points = append(c.Points, Point{P: p, T: t, S: s, E: s / p})
	}
	c.RollOff = FindRollOff(c.Points)
	return c, nil
}

func sortedPs(Ps []float64) []float64 {
	s := append([]float64(nil), Ps...)
	sort.Float64s(s)
	out := s[:0]
	for i, p := range s {
		if p >= 1 && (i == 0 || p != s[i-1]) {
			out = append(out, p)
		}
	}
	return out
}

// Measured builds the measured curve for problem size N from a data set
// with columns n, p and t: the rows with n == N, sorted by P. It needs the
// P = 1 row for T(N, 1).
func Measured(data fit.Columns, n, p, t string, N float64) (Curve, error) {
	cols := make([][]float64, 3)
	for i, name := range []string{n, p, t} {
		c, ok := data.Column(name)
		if !ok {
			return Curve{}, fmt.Errorf("the data set has no column %q", name)
		}
		cols[i] = c
	}
	var pts []Point
	t1 := 0.0
	for r := 0; r < data.Len(); r++ {
		if cols[0][r] != N {
			continue
		}
		if cols[1][r] == 1 {
			t1 = cols[2][r]
		}
		pts = append(pts, Point{P: cols[1][r], T: cols[2][r]})
	}
	if t1 <= 0 {
		return Curve{}, fmt.Errorf("no measured T(N=%g, P=1) > 0 to compute speedup from", N)
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].P < pts[j].P })
	for i := range pts {
		if pts[i].T <= 0 || pts[i].P <= 0 {
			return Curve{}, fmt.Errorf("measured T(N=%g, P=%g) = %g: times and processor counts must be positive", N, pts[i].P, pts[i].T)
		}
		pts[i].S = t1 / pts[i].T
		pts[i].E = pts[i].S / pts[i].P
	}
	c := Curve{N: N, Points: pts}
	c.RollOff = FindRollOff(pts)
	return c, nil
}

// Amdahl is the fixed-size speedup 1/(f + (1−f)/P) with serial fraction f.
func Amdahl(f, P float64) float64 { return 1 / (f + (1-f)/P) }

// Gustafson is the scaled speedup f + (1−f)·P, with f the serial fraction
// of the time on the parallel machine.
func Gustafson(f, P float64) float64 { return f + (1-f)*P }

// SunNi is the memory-bounded speedup (f + (1−f)·G)/(f + (1−f)·G/P) of Sun
// and Ni, where G = G(P) is the factor by which the parallel work grows when
// the memory (and so the problem) grows P-fold. G = 1 gives Amdahl, G = P
// Gustafson.
func SunNi(f, G, P float64) float64 { return (f + (1-f)*G) / (f + (1-f)*G/P) }

// WorkGrowth returns G(P) = W(P·N)/W(N) for a work function W of N written
// as a term, e.g. "N*log2(N)^2" for sorting networks: the problem that fills
// P times the memory has P·N elements.
func WorkGrowth(work fit.Term, N, P float64) (float64, error) {
	w1, err := work.EvalMap(map[string]float64{"N": N})
	if err != nil {
		return 0, err
	}
	wp, err := work.EvalMap(map[string]float64{"N": P * N})
	if err != nil {
		return 0, err
	}
	if w1 <= 0 {
		return 0, fmt.Errorf("work %q is %g <= 0 at N=%g", work, w1, N)
	}
	return wp / w1, nil
}

// Theoretic is Chittor's thesis's simple theoretic model (section 5.2.1):
// S(P) = (Seq(1) + Par(N)) / (Seq(P) + Par(N)/P), with Seq(P) measured with
// problem size 0 (Table 3) and Par(N) measured with one processor (Table 4).
func Theoretic(seq1, seqP, parN, P float64) float64 { return (seq1 + parN) / (seqP + parN/P) }

// TheoreticCurve is the simple theoretic model (Theoretic) at each P of ps
// where Seq(P) was measured: seq[i] is Seq(P) at P = seqP[i] (Table 3),
// which must include P = 1, and parN is Par(N) (Table 4). The points are in
// the order of seqP, with T = Seq(P) + Par(N)/P, S and E = S/P; nil without
// Seq(1).
func TheoreticCurve(seqP, seq []float64, parN float64, ps []float64) []Point {
	n := min(len(seqP), len(seq))
	seq1 := math.NaN()
	for i := range n {
		if seqP[i] == 1 {
			seq1 = seq[i]
			break
		}
	}
	if math.IsNaN(seq1) {
		return nil
	}
	want := map[float64]bool{}
	for _, p := range ps {
		want[p] = true
	}
	var out []Point
	for i := range n {
		if P := seqP[i]; want[P] {
			S := Theoretic(seq1, seq[i], parN, P)
			out = append(out, Point{P: P, T: seq[i] + parN/P, S: S, E: S / P})
		}
	}
	return out
}

// SerialFraction splits a model at P = 1 into its sequential part (terms
// that do not shrink when P doubles: 1, P, P·log P, ...) and its parallel
// part (terms that do: N/P·...), and returns Seq(N,1)/T(N,1), clamped to
// [0, 1]. This is the single number Amdahl's and Gustafson's laws take.
func SerialFraction(m fit.Model, N float64, fixed map[string]float64) (float64, error) {
	vals := map[string]float64{}
	for k, v := range fixed {
		vals[k] = v
	}
	vals["N"] = N
	seq, par := 0.0, 0.0
	for k, t := range m.Terms {
		vals["P"] = 1
		a, err := t.EvalMap(vals)
		if err != nil {
			return 0, err
		}
		vals["P"] = 2
		b, err := t.EvalMap(vals)
		if err != nil {
			return 0, err
		}
		if b < a {
			par += m.Coef[k] * a
		} else {
			seq += m.Coef[k] * a
		}
	}
	if seq+par <= 0 {
		return 0, errors.New("the model's T(N, 1) is not positive")
	}
	f := seq / (seq + par)
	return math.Min(1, math.Max(0, f)), nil
}
