package lang

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"memwall/engine/fit"
	"memwall/engine/machine"
	"memwall/engine/sim"
	"memwall/engine/units"
)

// A program too large to simulate is predicted from smaller runs: it is
// simulated at a ladder of sizes, a model T(N) chosen among functional
// forms is fitted to the runs whose arrays exceed the cache (the regime
// of the large size), and the model is evaluated at the size asked for.
// The forms are chosen, as Extra-P chooses its performance models, by how
// well they predict the largest simulated sizes from the smaller ones.

// PredictOptions describe an extrapolation.
type PredictOptions struct {
	Options
	// Size names the param that scales the problem; "" takes the first.
	Size string
	// At is the size to predict.
	At int64
	// Budget bounds the accesses simulated for the ladder (default
	// DefaultBudget); the ladder stops before a run would pass it.
	Budget int64
	// Min is the smallest size of the ladder (default 256, or 16 when the
	// arrays grow faster than the size, as a matrix's do).
	Min int64
	// Max, if set, is the largest size the ladder simulates.
	Max int64
	// Steps is how many sizes the ladder takes per doubling (default 4).
	Steps int
	// Step, if set, is called after each simulated size.
	Step func(p Point, budgetUsed float64)
}

// DefaultBudget is about ten seconds of simulation natively.
const DefaultBudget = 300_000_000

// vocabulary is the functional forms T(N) is built from (with a
// constant): powers of N near the growth of the accesses, with log
// factors. The degree d is the growth exponent of the accesses over the
// training runs, rounded down (N·log N grows a little faster than N):
// N^d, N^d·log2 N, N^d·log2² N and N^(d−1).
func vocabulary(pts []Point, train []int) []string {
	a, b := pts[train[0]], pts[train[len(train)-1]]
	d := 1.0
	if a.Accesses > 0 && b.Accesses > a.Accesses && b.Size > a.Size {
		d = math.Log(float64(b.Accesses)/float64(a.Accesses)) / math.Log(float64(b.Size)/float64(a.Size))
	}
	deg := int(math.Floor(d + 0.05))
	if deg < 1 {
		deg = 1
	}
	if deg > 4 {
		deg = 4
	}
	pw := func(k int) string {
		if k == 1 {
			return "N"
		}
		return fmt.Sprintf("N^%d", k)
	}
	v := []string{pw(deg), pw(deg) + "*log2(N)", pw(deg) + "*log2(N)^2"}
	if deg > 1 {
		v = append(v, pw(deg-1))
	}
	return v
}

// Point is one simulated size.
type Point struct {
	Size      int64   `json:"size"`
	Seconds   float64 `json:"seconds"`
	Accesses  int64   `json:"accesses"`
	Footprint int64   `json:"footprint_bytes"`
	// Cache is the cache size the run was simulated with; Scaled says it
	// is the machine's scaled down with the arrays (see scaledCache).
	Cache  int64 `json:"cache_bytes"`
	Scaled bool  `json:"scaled_cache"`
	// The counts each term of the time is charged by.
	Sequential     int64 `json:"sequential_transfers"`
	Random         int64 `json:"random_transfers"`
	Mispredictions int64 `json:"mispredictions"`
	// Train says the point's memory traffic was fitted (it ran in the
	// regime of the predicted size).
	Train bool `json:"train"`
}

// Prediction is the time of a program at a size, simulated or
// extrapolated.
type Prediction struct {
	Size string `json:"size_param"`
	At   int64  `json:"at"`
	// Direct: the size itself was simulated (it fit in the budget).
	Direct  bool    `json:"direct"`
	Seconds float64 `json:"seconds"`
	Points  []Point `json:"points"`
	// The fitted model, T = Σ Coef[k]·Terms[k] (in seconds), where N in
	// a term stands for the size param.
	Terms []string  `json:"terms,omitempty"`
	Coef  []float64 `json:"coef,omitempty"`
	// HeldOutMean and HeldOutMax are the relative errors of the model
	// chosen, predicting the largest simulated sizes from the smaller
	// ones; HeldOut names the sizes.
	HeldOutMean float64 `json:"held_out_mean_rel_error"`
	HeldOutMax  float64 `json:"held_out_max_rel_error"`
	HeldOut     string  `json:"held_out"`
	Note        string  `json:"note,omitempty"`
	// Last is the largest run (the run at At when Direct).
	Last *Result `json:"last_run"`
}

// Model writes the fitted model as text.
func (p *Prediction) Model() string {
	var parts []string
	for k, t := range p.Terms {
		c := units.FormatSeconds(p.Coef[k])
		if t == "1" {
			parts = append(parts, c)
			continue
		}
		t = strings.ReplaceAll(strings.ReplaceAll(t, "N", p.Size), "*", "·")
		parts = append(parts, c+"·"+t)
	}
	return strings.Join(parts, " + ")
}

// Eval is the model's time at size n.
func (p *Prediction) Eval(n float64) float64 {
	var t float64
	for k, term := range p.Terms {
		v, err := fit.MustParseTerm(term).EvalMap(map[string]float64{"N": n})
		if err != nil {
			return math.NaN()
		}
		t += p.Coef[k] * v
	}
	return t
}

// Predict simulates the program at a ladder of sizes and extrapolates to
// o.At, or simulates o.At itself when it fits in the budget.
func (p *Program) Predict(ctx context.Context, m machine.Machine, pred sim.Predictor, o PredictOptions) (*Prediction, error) {
	name := o.Size
	if name == "" {
		if len(p.Params) == 0 {
			return nil, errors.New("size: the program declares no param to scale (declare one, like param N = 2^20)")
		}
		name = p.Params[0].Name
	}
	if _, ok := p.Param(name); !ok {
		return nil, fmt.Errorf("size: the program has no param %s (%s)", name, p.paramList())
	}
	if o.At < 1 {
		return nil, fmt.Errorf("at: the size to predict must be at least 1; got %d", o.At)
	}
	budget := o.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	steps := o.Steps
	if steps <= 0 {
		steps = 4
	}
	ratio := math.Pow(2, 1/float64(steps))
	min := o.Min
	if min <= 0 {
		min = 256
	}
	min = minInt(min, o.At)
	out := &Prediction{Size: name, At: o.At}
	var used int64
	runAt := func(n int64, mm machine.Machine) (*Result, error) {
		opt := o.Options
		opt.Params = map[string]int64{}
		for k, v := range o.Params {
			opt.Params[k] = v
		}
		opt.Params[name] = n
		if n != o.At {
			// The fit extrapolates the MBRAM simulator's times; only a
			// run at the size asked for is worth the hierarchy
			// simulator's time (its levels are not scaled with a
			// smaller run's arrays, as the cache is).
			mm.Levels = nil
			opt.MissCurve = false // a smaller run's curve is not the prediction's
		}
		return p.Run(ctx, mm, pred, opt)
	}
	var sizes []int64
	for x := float64(min); ; x *= ratio {
		n := int64(math.Round(x))
		if o.Max > 0 && n > o.Max && n < o.At {
			break
		}
		if n >= o.At {
			sizes = append(sizes, o.At)
			break
		}
		if len(sizes) == 0 || n > sizes[len(sizes)-1] {
			sizes = append(sizes, n)
		}
	}
	for i, n := range sizes {
		if i >= 2 {
			// The next run's accesses, by the growth of the last two.
			a, b := out.Points[i-2], out.Points[i-1]
			est := float64(b.Accesses)
			if a.Accesses > 0 && b.Accesses > a.Accesses {
				g := math.Log(float64(b.Accesses)/float64(a.Accesses)) / math.Log(float64(b.Size)/float64(a.Size))
				est = float64(b.Accesses) * math.Pow(float64(n)/float64(b.Size), g)
			}
			if float64(used)+est > float64(budget) {
				break
			}
		}
		// Past the first two runs, which show how the arrays grow, a
		// smaller size runs on a cache scaled down with its arrays (see
		// scaledCache).
		mm, scaled := m, false
		if i >= 2 && n < o.At {
			if c, ok := scaledCache(m, out.Points[0], out.Points[1], n, o.At); ok {
				mm.C, scaled = c, true
			}
		}
		r, err := runAt(n, mm)
		if err != nil {
			return nil, fmt.Errorf("%s = %d: %w", name, n, err)
		}
		used += r.Counts.Accesses
		c := r.Counts
		pt := Point{Size: n, Seconds: r.Seconds, Accesses: c.Accesses, Footprint: r.Footprint, Cache: mm.C, Scaled: scaled,
			Sequential: c.SeqTransfers, Random: c.RandTransfers, Mispredictions: c.Mispredictions}
		out.Points = append(out.Points, pt)
		out.Last = r
		if o.Step != nil {
			o.Step(pt, float64(used)/float64(budget))
		}
		if n == o.At {
			out.Direct, out.Seconds = true, r.Seconds
			return out, nil
		}
	}
	if err := out.fit(sim.ConfigFor(m, pred), m.C); err != nil {
		return nil, err
	}
	return out, nil
}

// minScaledLines is the smallest cache, in lines, a scaled run may have:
// below it a handful of lines would stand for the whole cache.
const minScaledLines = 16

// scaledCache is the cache for a run at size n that puts its arrays in the
// same proportion to the cache as the arrays at size at are to the
// machine's: C·footprint(n)/footprint(at), the footprint's growth taken
// from the first two runs a and b. Misses of an LRU cache depend on how
// many times the data exceed the cache (a sort's passes beyond the cache,
// the levels of a heap below it), so the memory traffic of such a run,
// scaled by the sizes, is that of the large run, where runs on the
// machine's own cache would all sit at its boundary. The line size is
// kept. It fails (false) when the scaled cache would hold fewer than
// minScaledLines lines.
func scaledCache(m machine.Machine, a, b Point, n, at int64) (int64, bool) {
	if a.Footprint <= 0 || b.Footprint <= a.Footprint || b.Size <= a.Size {
		return 0, false
	}
	e := math.Log(float64(b.Footprint)/float64(a.Footprint)) / math.Log(float64(b.Size)/float64(a.Size))
	ratio := math.Pow(float64(n)/float64(at), e)
	c := int64(float64(m.C)*ratio) / m.B * m.B
	if c < minScaledLines*m.B || c >= m.C {
		return 0, false
	}
	return c, true
}

func minInt(a, b int64) int64 {
	if a < b {
		return a
	}
	return b
}

// fit models each term of the time on its own, as the simulator charges
// it: sequential transfers, random transfers and mispredictions, each a
// count with its own growth, times its cost (B/β1, B/β2, m). The memory
// terms are fitted on the runs in the regime of the size asked for
// (arrays larger than the cache); the mispredictions, which the cache does
// not change, on every run but the smallest. Each count's form is chosen
// by how well it predicts the largest runs from the smaller ones; the
// held-out error reported is the total time's at the two largest runs,
// each predicted from the runs below it.
func (out *Prediction) fit(cfg sim.Config, cache int64) error {
	pts := out.Points
	if len(pts) < 4 {
		return fmt.Errorf("budget: only %d sizes could be simulated; at least 4 are needed to fit (raise the budget or lower the smallest size)", len(pts))
	}
	var beyond, scaled []int
	for i, p := range pts {
		if p.Footprint > cache {
			beyond = append(beyond, i)
		}
		if p.Scaled {
			scaled = append(scaled, i)
		}
	}
	mem := beyond
	if len(scaled) >= 4 {
		mem = scaled
	} else if len(beyond) < 5 {
		k := min(6, len(pts))
		mem = nil
		for i := len(pts) - k; i < len(pts); i++ {
			mem = append(mem, i)
		}
		out.Note = fmt.Sprintf("only %d simulated sizes have arrays larger than the cache (%s); the memory terms are fitted to the %d largest, which may span the cache boundary: raise the budget for a better prediction", len(beyond), units.FormatSize(cache), k)
	}
	var all []int
	for i := len(pts) / 4; i < len(pts); i++ {
		all = append(all, i)
	}
	for _, i := range mem {
		out.Points[i].Train = true
	}
	b := float64(cfg.Line)
	comps := []struct {
		y    func(Point) int64
		cost float64
		rows []int
	}{
		{func(p Point) int64 { return p.Sequential }, b / cfg.Beta1, mem},
		{func(p Point) int64 { return p.Random }, b / cfg.Beta2, mem},
		{func(p Point) int64 { return p.Mispredictions }, cfg.Mispredict, all},
	}
	vocab := vocabulary(pts, mem)
	coef := map[string]float64{}
	type chosen struct {
		terms []fit.Term
		rows  []int
		y     []float64
		cost  float64
	}
	var models []chosen
	for _, c := range comps {
		y := make([]float64, len(pts))
		nonzero := false
		for _, i := range c.rows {
			y[i] = float64(c.y(pts[i]))
			nonzero = nonzero || y[i] != 0
		}
		if !nonzero || c.cost == 0 {
			continue
		}
		terms, err := chooseTerms(pts, c.rows, y, vocab)
		if err != nil {
			return err
		}
		models = append(models, chosen{terms, c.rows, y, c.cost})
		if debugFit {
			fmt.Println("component", fit.TermStrings(terms), len(c.rows))
		}
		sol, err := solveOn(pts, c.rows, y, terms, math.MaxInt64)
		if err != nil {
			return err
		}
		for k, t := range terms {
			coef[t.String()] += sol[k] * c.cost
		}
	}
	for _, t := range append([]string{"1"}, vocab...) {
		if v, ok := coef[t]; ok {
			out.Terms = append(out.Terms, t)
			out.Coef = append(out.Coef, v)
		}
	}
	// Held out: the total at each of the two largest runs, every term
	// refitted on the runs below it.
	var rels []float64
	var held []string
	for _, i := range []int{len(pts) - 2, len(pts) - 1} {
		v := pts[i].Size
		var t float64
		ok := true
		for _, m := range models {
			sol, err := solveOn(pts, m.rows, m.y, m.terms, v)
			if err != nil {
				ok = false
				break
			}
			for k, term := range m.terms {
				t += sol[k] * term.Eval([]float64{float64(v)}) * m.cost
			}
		}
		if ok && pts[i].Seconds > 0 {
			rels = append(rels, math.Abs(t-pts[i].Seconds)/pts[i].Seconds)
			held = append(held, fmt.Sprint(v))
		}
	}
	for _, r := range rels {
		out.HeldOutMean += r / float64(len(rels))
		out.HeldOutMax = math.Max(out.HeldOutMax, r)
	}
	if len(held) > 0 {
		out.HeldOut = out.Size + " = " + strings.Join(held, " and ") + ", each predicted from the smaller sizes"
	}
	out.Seconds = out.Eval(float64(out.At))
	if !(out.Seconds > 0) || math.IsInf(out.Seconds, 0) {
		return fmt.Errorf("fit: the model (%s) gives %g s at %s = %d, not a time; simulate larger sizes (raise the budget)", out.Model(), out.Seconds, out.Size, out.At)
	}
	return nil
}

// chooseTerms picks, for one count, the constant and up to two forms of
// the vocabulary that best predict its largest runs from the smaller ones.
func chooseTerms(pts []Point, rows []int, y []float64, vocab []string) ([]fit.Term, error) {
	col := make([]float64, len(pts))
	for i, p := range pts {
		col[i] = float64(p.Size)
	}
	// Rows outside the component's own are kept out of training by a
	// size condition; the rows are contiguous by construction.
	cond, err := fit.ParseCond(fmt.Sprintf("N >= %d", pts[rows[0]].Size))
	if err != nil {
		return nil, err
	}
	var vt []fit.Term
	for _, v := range vocab {
		vt = append(vt, fit.MustParseTerm(v))
	}
	res, err := fit.Search(fit.Frame{Names: []string{"N", "Y"}, Cols: [][]float64{col, y}}, fit.SearchSpec{
		Y: "Y", Vocabulary: vt, Always: []fit.Term{fit.MustParseTerm("1")}, MaxTerms: 2, Train: cond,
		Weighting: fit.Absolute, Validation: fit.Validation{Extrapolate: []string{"N"}, Depth: 3}, Criterion: fit.MaxRel,
	})
	if err != nil {
		return nil, fmt.Errorf("fit: %v", err)
	}
	// Parsimony: the simplest candidate whose held-out error is within
	// half again of the best's (plus half a percent) wins, so that a log
	// factor is taken only when the runs ask for it; a form that merely
	// bends to the noise of a few small runs extrapolates badly.
	best := res.Candidates[0]
	pick := best
	for _, c := range res.Candidates[1:] {
		if c.Score <= 1.5*best.Score+0.005 && complexity(c.Terms) < complexity(pick.Terms) {
			pick = c
		}
	}
	return pick.Terms, nil
}

// complexity orders term sets: higher powers of N first, then log
// factors, then more terms.
func complexity(terms []fit.Term) int {
	c := 0
	for _, t := range terms {
		s := t.String()
		switch {
		case strings.HasPrefix(s, "N^4"):
			c += 400
		case strings.HasPrefix(s, "N^3"):
			c += 300
		case strings.HasPrefix(s, "N^2"):
			c += 200
		case strings.HasPrefix(s, "N"):
			c += 100
		}
		if strings.Contains(s, "log2(N)^2") {
			c += 20
		} else if strings.Contains(s, "log2(N)") {
			c += 10
		}
		c++
	}
	return c
}

// solveOn fits terms to y on the rows with size below limit.
func solveOn(pts []Point, rows []int, y []float64, terms []fit.Term, limit int64) ([]float64, error) {
	var A [][]float64
	var b []float64
	for _, i := range rows {
		if pts[i].Size >= limit {
			continue
		}
		row := make([]float64, len(terms))
		for k, t := range terms {
			row[k] = t.Eval([]float64{float64(pts[i].Size)})
		}
		A = append(A, row)
		b = append(b, y[i])
	}
	if len(b) < len(terms) {
		return nil, errors.New("too few runs")
	}
	// LeastSquares takes the design by columns.
	cols := make([][]float64, len(terms))
	for k := range terms {
		cols[k] = make([]float64, len(b))
		for r := range b {
			cols[k][r] = A[r][k]
		}
	}
	sol, err := fit.LeastSquares(cols, b, nil, fit.TermStrings(terms))
	if err != nil {
		return nil, err
	}
	return sol.Coef, nil
}
