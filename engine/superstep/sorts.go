package superstep

import (
	"fmt"
	"math"
)

// Algorithm describes one of the sorting programs of the superstep paper, section 5.1.
type Algorithm struct {
	ID    string // "radix", "sample", "column"
	Name  string
	Table string // the superstep paper's table of its supersteps
	// Supersteps is the number of distinct supersteps (rows of the table).
	Supersteps int
}

// Algorithms lists the sorts of Tables 9–11.
var Algorithms = []Algorithm{
	{ID: "radix", Name: "Radix sort", Table: "Table 9", Supersteps: 4},
	{ID: "sample", Name: "Sample sort", Table: "Table 10", Supersteps: 5},
	{ID: "column", Name: "Column sort", Table: "Table 11", Supersteps: 5},
}

// Params are the algorithms' parameters other than n and p. The zero value
// means the paper's choices.
type Params struct {
	// KeyBits b and RadixBits r of radix sort: each of the ⌈b/r⌉ passes is a
	// parallel counting sort over 2^r values. The paper uses 32-bit keys and
	// r = 6, so 64 counts per processor and 6 passes (section 5.1).
	KeyBits, RadixBits int
	// Oversample is the number of sample elements each processor reads and
	// writes in sample sort's first superstep: the paper draws its p − 1
	// splitters from a sample of 100p (section 5.1, Table 10).
	Oversample int
}

func (q Params) withDefaults() Params {
	if q.KeyBits == 0 {
		q.KeyBits = 32
	}
	if q.RadixBits == 0 {
		q.RadixBits = 6
	}
	if q.Oversample == 0 {
		q.Oversample = 100
	}
	return q
}

// MaxElements bounds n: the paper's largest runs sort a few million integers;
// the bound keeps every count well inside MaxAccesses.
const MaxElements = 1 << 40

// Step is one superstep of a sorting program.
type Step struct {
	// Number is the superstep's number in the paper's table (SS#).
	Number int
	Name   string
	// Formula is the table's (h_r; h_w; M) for this superstep, in the
	// parameters of the plan ("n/p; 64; n + 64p").
	Formula string
	// Repeat is how many times the superstep runs in one sort (radix sort's
	// four supersteps run once per pass).
	Repeat int
	// Significant marks the supersteps whose counts grow with n, the ones
	// the paper computes M/G for ("the M/G ratio was only calculated for the
	// 'significant' supersteps", section 5.2).
	Significant bool
	Superstep   Superstep
	Counts      Counts
}

// Plan is the sequence of supersteps of one sort of n elements on p
// processors.
type Plan struct {
	Algorithm Algorithm
	N         int64
	P         int
	Params    Params
	Steps     []Step
	Warnings  []string
}

// NewPlan builds the supersteps of algorithm id ("radix", "sample" or
// "column") for n elements on p processors. The paper assumes that p divides
// n; otherwise the first n mod p processors hold ⌈n/p⌉ elements and the
// others ⌊n/p⌋, so h_r and h_w use ⌈n/p⌉ and M stays exact.
func NewPlan(id string, n int64, p int, params Params) (Plan, error) {
	var alg Algorithm
	for _, a := range Algorithms {
		if a.ID == id {
			alg = a
		}
	}
	if alg.ID == "" {
		return Plan{}, fmt.Errorf("algorithm %q: use radix, sample or column", id)
	}
	if p < 1 || p > MaxProcessors {
		return Plan{}, fmt.Errorf("p = %d: the number of processors must be 1 to %d", p, MaxProcessors)
	}
	if n < int64(p) || n > MaxElements {
		return Plan{}, fmt.Errorf("n = %d: the number of elements must be at least p = %d and at most 2^40", n, p)
	}
	params = params.withDefaults()
	plan := Plan{Algorithm: alg, N: n, P: p, Params: params}
	elems := make([]int64, p)
	for i := range elems {
		elems[i] = n / int64(p)
		if int64(i) < n%int64(p) {
			elems[i]++
		}
	}
	// each builds a superstep from per-processor reads and writes given the
	// processor's element count.
	each := func(reads, writes func(e int64) int64) Superstep {
		s := Superstep{Reads: make([]int64, p), Writes: make([]int64, p)}
		for i, e := range elems {
			s.Reads[i], s.Writes[i] = reads(e), writes(e)
		}
		return s
	}
	fixed := func(k int64) func(int64) int64 { return func(int64) int64 { return k } }
	own := func(e int64) int64 { return e }
	plus := func(k int64) func(int64) int64 { return func(e int64) int64 { return e + k } }
	P := int64(p)

	switch id {
	case "radix":
		if params.KeyBits < 1 || params.KeyBits > 64 {
			return Plan{}, fmt.Errorf("key bits b = %d: accepted 1 to 64", params.KeyBits)
		}
		if params.RadixBits < 1 || params.RadixBits > 24 {
			return Plan{}, fmt.Errorf("radix bits r = %d: accepted 1 to 24", params.RadixBits)
		}
		// Table 9 with 2^r counts per processor (64 for r = 6).
		b := int64(1) << params.RadixBits
		passes := (params.KeyBits + params.RadixBits - 1) / params.RadixBits
		k := fmt.Sprint(b)
		plan.Steps = []Step{
			{Number: 1, Name: "count elts", Formula: fmt.Sprintf("n/p; %s; n + %sp", k, k), Significant: true, Superstep: each(own, fixed(b))},
			{Number: 2, Name: "prefix sum", Formula: fmt.Sprintf("%s; %s; %dp", k, k, 2*b), Superstep: each(fixed(b), fixed(b))},
			{Number: 3, Name: "add offsets", Formula: fmt.Sprintf("%s; %s; %dp", k, k, 2*b), Superstep: each(fixed(b), fixed(b))},
			{Number: 4, Name: "move elts", Formula: fmt.Sprintf("n/p + %s; n/p; 2n + %sp", k, k), Significant: true, Superstep: each(plus(b), own)},
		}
		for i := range plan.Steps {
			plan.Steps[i].Repeat = passes
		}
	case "sample":
		s := int64(params.Oversample)
		if s < 1 || s > 1<<20 {
			return Plan{}, fmt.Errorf("oversampling = %d: accepted 1 to 2^20 sample elements per processor", s)
		}
		plan.Steps = []Step{
			{Number: 1, Name: "get sample", Formula: fmt.Sprintf("%d; %d; %dp", s, s, 2*s), Superstep: each(fixed(s), fixed(s))},
			{Number: 2, Name: "count elts", Formula: "n/p + p; p; n + 2p²", Significant: true, Superstep: each(plus(P), fixed(P))},
			{Number: 3, Name: "prefix sum", Formula: "p; p; 2p²", Superstep: each(fixed(P), fixed(P))},
			{Number: 4, Name: "move elts", Formula: "n/p + 3p; n/p; 2n + 3p²", Significant: true, Superstep: each(plus(3*P), own)},
			// "*ideal*": the table assumes buckets of equal size n/p.
			{Number: 5, Name: "sort bkts", Formula: "n/p; n/p; 2n (ideal: equal buckets)", Significant: true, Superstep: each(own, own)},
		}
		if n < s*P {
			plan.Warnings = append(plan.Warnings, fmt.Sprintf("n = %d is less than the sample size %d·p = %d", n, s, s*P))
		}
	case "column":
		// Table 11: the five combined supersteps all read and write each
		// processor's n/p elements.
		names := []string{"init matrix", "sort/transp", "sort/rev-transp", "sort", "rshift/sort/lshift"}
		for i, name := range names {
			plan.Steps = append(plan.Steps, Step{Number: i + 1, Name: name, Formula: "n/p; n/p; 2n", Significant: true, Superstep: each(own, own)})
		}
		// Leighton's columnsort sorts an r×s matrix correctly when
		// r >= 2(s − 1)²; with one column per processor, s = p, r = n/p.
		if rows := float64(n) / float64(p); rows < 2*math.Pow(float64(p-1), 2) {
			plan.Warnings = append(plan.Warnings, fmt.Sprintf("n/p = %.0f rows is below 2(p − 1)² = %.0f: columnsort with one column per processor does not sort correctly (Leighton's condition r >= 2(s − 1)²)", rows, 2*math.Pow(float64(p-1), 2)))
		}
	}
	for i := range plan.Steps {
		if plan.Steps[i].Repeat == 0 {
			plan.Steps[i].Repeat = 1
		}
		c, err := plan.Steps[i].Superstep.Counts()
		if err != nil {
			return Plan{}, fmt.Errorf("superstep %d: %v", plan.Steps[i].Number, err)
		}
		plan.Steps[i].Counts = c
	}
	return plan, nil
}

// StepInterval is one superstep's prediction interval.
type StepInterval struct {
	Step     Step
	Interval Interval
}

// Prediction is the prediction interval of a whole sort.
type Prediction struct {
	Plan  Plan
	Set   Set
	Steps []StepInterval
	// Good and Bad are the sums over supersteps (each times its Repeat) of
	// t_g and t_b, in seconds: the superstep paper predicts a run as the sum over its
	// supersteps (section 5.2).
	Good, Bad float64
	Warnings  []string
}

// Predict computes the interval of every superstep of plan and the total.
// The coefficients must be for the plan's processor count, since the paper
// fits them per p.
func (s Set) Predict(plan Plan) (Prediction, error) {
	if err := s.Validate(); err != nil {
		return Prediction{}, err
	}
	if s.P != plan.P {
		return Prediction{}, fmt.Errorf("the coefficients are for p = %d but the sort runs on p = %d processors", s.P, plan.P)
	}
	pr := Prediction{Plan: plan, Set: s, Warnings: append([]string(nil), plan.Warnings...)}
	for _, st := range plan.Steps {
		iv, err := s.Interval(st.Counts)
		if err != nil {
			return Prediction{}, fmt.Errorf("superstep %d (%s): %v", st.Number, st.Name, err)
		}
		pr.Steps = append(pr.Steps, StepInterval{Step: st, Interval: iv})
		pr.Good += float64(st.Repeat) * iv.Good
		pr.Bad += float64(st.Repeat) * iv.Bad
		for _, w := range iv.Warnings {
			pr.Warnings = append(pr.Warnings, fmt.Sprintf("superstep %d (%s): %s", st.Number, st.Name, w))
		}
	}
	return pr, nil
}

// PublishedLocality is a Loc and M/G pair printed in Tables 9–11: averages
// over the paper's runs (n in SortSizes(p), and for radix sort over its six
// passes). The paper prints M/G only for the significant supersteps.
type PublishedLocality struct {
	Algorithm string
	Step      int
	P         int
	Loc       float64
	MG        float64
	HasMG     bool
}

// publishedLocality holds Tables 9–11 as printed: per superstep, (Loc, M/G)
// for p = 2, 4, 8, 12, with M/G 0 where the table prints "–".
var publishedLocality = []struct {
	alg  string
	step int
	v    [8]float64
}{
	{"radix", 1, [8]float64{.97, 1.65, .96, 1.84, .95, 2.78, .96, 3.76}},
	{"radix", 2, [8]float64{.99, 0, .99, 0, .97, 0, .95, 0}},
	{"radix", 3, [8]float64{.99, 0, .99, 0, .98, 0, .95, 0}},
	{"radix", 4, [8]float64{.97, 2.55, .96, 2.77, .96, 4.03, .96, 5.05}},
	{"sample", 1, [8]float64{.96, 0, .97, 0, .95, 0, .91, 0}},
	{"sample", 2, [8]float64{.82, 7.34, .85, 6.83, .91, 6.81, .93, 7.12}},
	{"sample", 3, [8]float64{.99, 0, .99, 0, .97, 0, .95, 0}},
	{"sample", 4, [8]float64{.86, 8.58, .88, 8.21, .91, 8.58, .94, 8.69}},
	{"sample", 5, [8]float64{.87, 7.82, .87, 7.80, .91, 7.81, .94, 7.65}},
	{"column", 1, [8]float64{.93, 5.18, .93, 5.44, .93, 7.41, .94, 8.36}},
	{"column", 2, [8]float64{.95, 3.62, .96, 3.72, .95, 4.61, .96, 6.16}},
	{"column", 3, [8]float64{.85, 9.97, .81, 13.34, .78, 19.69, .76, 31.09}},
	{"column", 4, [8]float64{.95, 3.89, .95, 4.06, .95, 5.26, .95, 6.62}},
	{"column", 5, [8]float64{.95, 3.72, .96, 3.70, .96, 4.45, .96, 5.52}},
}

// PublishedLocalities returns the Loc and M/G values of Tables 9–11.
func PublishedLocalities() []PublishedLocality {
	var out []PublishedLocality
	for _, r := range publishedLocality {
		for k, p := range PublishedProcessorCounts {
			out = append(out, PublishedLocality{Algorithm: r.alg, Step: r.step, P: p, Loc: r.v[2*k], MG: r.v[2*k+1], HasMG: r.v[2*k+1] != 0})
		}
	}
	return out
}

// SortSizes returns the input sizes the paper sorted on p processors
// (section 5.2): N0 = {5000·p·i : 1 <= i <= 10}, N1 = {50000·p·i :
// 1 <= i <= 10} and N2 = {550000 + 150000·p·i : 0 <= i <= 9}.
func SortSizes(p int) []int64 {
	var ns []int64
	P := int64(p)
	for i := int64(1); i <= 10; i++ {
		ns = append(ns, 5000*P*i)
	}
	for i := int64(1); i <= 10; i++ {
		ns = append(ns, 50000*P*i)
	}
	for i := int64(0); i <= 9; i++ {
		ns = append(ns, 550000+150000*P*i)
	}
	return ns
}

// Located is Loc and M/G of a sort's measured times.
type Located struct {
	// Steps holds the metrics of the supersteps that have a measured time,
	// by index into Prediction.Steps; the time is one execution's.
	Steps map[int]Locality
	// Total holds the metrics of the whole sort's time, when one is given
	// or every superstep has one; TotalSummed says it is the sum of the
	// supersteps' times, each times its Repeat (the paper sums the supersteps
	// of a run, section 5.2).
	Total       *Locality
	TotalSummed bool
}

// Locate computes Loc and M/G for measured times in seconds: steps maps an
// index into pr.Steps to the time of one execution of that superstep; total
// (when not nil) is the time of the whole sort.
func (pr Prediction) Locate(steps map[int]float64, total *float64) (Located, error) {
	out := Located{Steps: map[int]Locality{}}
	for i, tm := range steps {
		if i < 0 || i >= len(pr.Steps) {
			return Located{}, fmt.Errorf("measured time for superstep %d: the sort has %d supersteps", i+1, len(pr.Steps))
		}
		if !finite(tm) || tm < 0 {
			return Located{}, fmt.Errorf("measured time of superstep %d = %g s; a finite time >= 0 is needed", pr.Steps[i].Step.Number, tm)
		}
		out.Steps[i] = pr.Steps[i].Interval.Locate(tm)
	}
	switch {
	case total != nil:
		if !finite(*total) || *total < 0 {
			return Located{}, fmt.Errorf("measured total = %g s; a finite time >= 0 is needed", *total)
		}
		out.Total = locateTotal(*total, pr.Good, pr.Bad)
	case len(pr.Steps) > 0 && len(steps) == len(pr.Steps):
		sum := 0.0
		for i, st := range pr.Steps {
			sum += float64(st.Step.Repeat) * steps[i]
		}
		out.Total, out.TotalSummed = locateTotal(sum, pr.Good, pr.Bad), true
	}
	return out, nil
}

func locateTotal(tm, tg, tb float64) *Locality {
	l := Locality{Measured: tm}
	l.Loc, l.LocErr = Loc(tm, tg, tb)
	l.MG, l.MGErr = MG(tm, tg)
	return &l
}
